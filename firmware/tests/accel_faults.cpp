// SoC test: the accelerated executor's failure paths on the real accelerator. A requantization
// shift out of range in conv2 (leaf 3) makes the accelerator stop with ERROR, ERR_CAUSE 7
// (BAD_SHIFT): run() must return fault::offload naming leaf 3 with that cause; a poll budget of one
// status read makes conv1 (leaf 0) time out: fault::offload, leaf 0, failure_timeout. Neither hangs.
#include "ctnn/accel/offload.hpp"
#include "ctnn/accel/probe.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"
#include "ctnn_platform.h"

namespace {

using net = ctnn::zoo::lenet5;
namespace rt = ctnn::runtime;
constexpr auto& plan = ctnn::memory::plan_of<net, ctnn::dtype::int8>;
constexpr auto& layout = rt::param_layout_of<net, ctnn::dtype::int8>;
alignas(16) uint8_t arena[plan.arena_bytes];
alignas(16) uint8_t params[layout.total_bytes];

rt::run_status run(ctnn::accel::offloader<>& hook) {
  rt::fill_input<int8_t>(reinterpret_cast<int8_t*>(arena + plan.offset_of(0)), net::input_shape.elems(), 3,
                         rt::default_tensor_quant<net>(0));
  return rt::run<net, int8_t>(arena, sizeof arena, params, sizeof params, rt::backend::optimized, hook);
}

void report(const char* what, const rt::run_status& s, const ctnn::accel::offloader<>& hook) {
  ctnn_console_puts("accel_faults: ");
  ctnn_console_puts(what);
  ctnn_console_puts(": ");
  ctnn_console_puts(rt::name_of(s.code));
  ctnn_console_puts(" at leaf ");
  ctnn_console_put_dec(static_cast<uint32_t>(s.leaf));
  ctnn_console_puts(" detail ");
  ctnn_console_put_hex(s.detail);
  if (s.detail == ctnn::accel::failure_timeout) {
    ctnn_console_puts(" timeout");
  } else {
    ctnn_console_puts(" ERR_CAUSE ");
    ctnn_console_puts(ctnn::accel::cause_name(hook.failure.cause));
  }
  ctnn_console_putc('\n');
}

}  // namespace

extern "C" int ctnn_test_run(void) {
  if (!ctnn::accel::probe_present()) return 1;
  if (!rt::fill_params<net, ctnn::dtype::int8>(params, sizeof params, 5)) return 2;
  ctnn::accel::offloader<> hook;
  hook.init();
  // sane first: 2 conv2d + 3 linear offloaded, the 6 leaves chained after them in their jobs
  // (ReLU + max pool after each conv2d, ReLU after fc1 and fc2)
  if (!run(hook).ok() || hook.fused != 6u || hook.leaves != 5u + hook.fused) return 3;

  // conv2's first output channel: a shift the accelerator refuses
  int32_t* shift = reinterpret_cast<int32_t*>(params + layout.leaves[3].shift);
  const int32_t saved = shift[0];
  shift[0] = 40;
  hook.clear_counters();
  rt::run_status s = run(hook);
  report("bad shift", s, hook);
  if (s.code != rt::fault::offload || s.leaf != 3) return 4;
  if (s.detail != (ctnn::accel::failure_error | ctnn::regs::accel::err_cause::code::bad_shift) || hook.failure.cause != ctnn::regs::accel::err_cause::code::bad_shift) return 5;
  shift[0] = saved;

  // one status read per job: conv1 is still busy
  hook.clear_counters();
  hook.poll_base = 1;
  hook.polls_per_mac = 0;
  s = run(hook);
  report("one poll", s, hook);
  if (s.code != rt::fault::offload || s.leaf != 0 || s.detail != ctnn::accel::failure_timeout) return 6;
  // let the abandoned job finish (bounded) and check that the accelerator still works
  for (uint32_t i = 0; i < 10'000'000u; ++i)
    if (ctnn::regs::accel::status::busy::get(ctnn::mmio::read<ctnn::mmio::volatile_bus, ctnn::regs::accel::status>()) == 0u)
      break;
  hook.poll_base = 100'000;
  hook.polls_per_mac = 2;
  hook.clear_counters();
  if (!run(hook).ok() || hook.fused != 6u || hook.leaves != 5u + hook.fused) return 7;
  ctnn_console_puts("accel_faults: ok\n");
  return 0;
}
