// The LeNet-5 image a product would flash: the network type ctnn::zoo::lenet5, its compile-time
// arena, the weights as constant data (the host wrote params_lenet5.hpp from the same fill_params
// blob as the demos), conv2d and linear on the accelerator only (owning_offloader: no CPU kernel
// of those kinds is compiled in), ReLU, pooling and flatten on the CPU kernels. It runs the
// network once and checks the output's CRC-32 against the host's golden table.
//
// Prints "lenet5_deploy: match=yes cycles=N" and exits 0; 3 when the accelerator is missing or a
// leaf fails (the message names the leaf), 4 when the output differs. The demo with the CPU
// baseline, the per-layer profile and every leaf's CRC is demo_lenet5.cpp.
#include <stdint.h>

#include "ctnn/accel/offload.hpp"
#include "ctnn/accel/probe.hpp"
#include "ctnn/analysis/budget.hpp"
#include "ctnn/core/crc32.hpp"
#include "ctnn/runtime/executor.hpp"
#include "ctnn/zoo/lenet5.hpp"
#include "ctnn_platform.h"
#include "demo_runner.hpp"
#include "golden_lenet5.hpp"
#include "params_lenet5.hpp"

namespace {

namespace rt = ctnn::runtime;
using net = ctnn::zoo::lenet5;
using golden = ctnn_fw::golden::lenet5;
using weights = ctnn_fw::deploy::lenet5;

constexpr auto& plan = ctnn::memory::plan_of<net, ctnn::dtype::int8>;
static_assert(ctnn::fits<net, int8_t>(8 * 1024), "LeNet-5 int8 must fit an 8 KiB arena");
static_assert(sizeof(weights::params) == rt::param_layout_of<net, ctnn::dtype::int8>.total_bytes,
              "params_lenet5.hpp was written for another parameter layout");
static_assert(golden::leaf_count == net::leaf_count && golden::arena_bytes == plan.arena_bytes,
              "golden_lenet5.hpp was written for another network");

alignas(16) uint8_t arena[plan.arena_bytes];

}  // namespace

extern "C" int ctnn_test_run(void) {
  ctnn::accel::owning_offloader<> off;
  if (!ctnn::accel::probe_present()) {
    ctnn_console_puts("lenet5_deploy: no accelerator at its address\n");
    return ctnn_fw::demo::run_failed;
  }
  off.init();
  int8_t* input = reinterpret_cast<int8_t*>(arena + plan.offset_of(0));
  for (uint32_t i = 0; i < sizeof(weights::input); ++i) input[i] = static_cast<int8_t>(weights::input[i]);

  const uint64_t c0 = ctnn_cycles();
  const rt::run_status s = rt::run<net, int8_t>(arena, sizeof arena, weights::params, sizeof weights::params,
                                                rt::backend::optimized, off);
  const uint64_t cycles = ctnn_cycles() - c0;
  if (!s.ok()) {
    ctnn_fw::demo::report_failure<net>("lenet5_deploy", "accelerated", s, &off);
    return ctnn_fw::demo::run_failed;
  }
  const uint8_t* out = arena + plan.offset_of(net::output_tensor);
  const uint32_t crc = ctnn::crc32(out, static_cast<size_t>(net::tensor_shape(net::output_tensor).elems()));
  const bool match = crc == golden::leaf_crc[net::leaf_count - 1];
  ctnn_console_puts(match ? "lenet5_deploy: match=yes cycles=" : "lenet5_deploy: match=no cycles=");
  ctnn_console_put_dec(static_cast<uint32_t>(cycles));
  ctnn_console_puts(" jobs=");
  ctnn_console_put_dec(off.jobs);
  ctnn_console_putc('\n');
  return match ? ctnn_fw::demo::ok : ctnn_fw::demo::mismatch;
}
