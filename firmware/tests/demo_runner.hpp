// The firmware demos: a network type from demo_nets.hpp run by ctnn::runtime::run<Net, int8_t> on a
// static arena of exactly plan_of<Net, int8>.arena_bytes, with the library's seeded parameters and
// input, on the CPU (backend::optimized) and, when the accelerator answers at its address, with
// conv2d and linear offloaded to it (ctnn/accel/offload.hpp). Every run's per-leaf CRC-32 must equal
// the host's golden table (golden_<net>.hpp, generated from the same type at build time).
//
// Per network and backend: one profiled run (cycles and instret of each leaf alone, between the
// executor's leaf_begin/leaf_end hooks; the CRC is taken in the layer callback, outside the timing)
// and one plain run timed as a whole (the network's cycles: no counters, no callback; its output's
// CRC is checked too). On the accelerator the plain run fuses each conv2d/linear leaf with the leaves
// runtime::fusion_of chains after it (ReLU-like clamp, add, 2x2 pool: runtime::fused_offload_hook); the profiled run,
// whose callback needs every leaf's output, does not. Output: the
// per-leaf table, subtotals per kind (conv2d, linear, other), then one summary line
//   <tag>: match=yes cycles_cpu=A cycles_accel=B speedup=S accel_busy=C accel_share=P%   (accelerator present)
// (B and C of the plain run: C is the accelerator's CYCLES, job start to done, summed over its jobs,
// P = C / B the share of the inference spent inside the accelerator)
//   <tag>: match=yes cycles_cpu=A accelerator=absent           (QEMU)
// Exit codes: 0 all equal; 2 parameters or input differ from the host's; 3 a run failed (the
// message names the leaf and the cause: accelerator ERROR with ERR_CAUSE, timeout, kernel status)
// or the accelerator answered but took no leaf; 4 a CRC differs from the golden table.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "ctnn/accel/offload.hpp"
#include "ctnn/accel/probe.hpp"
#include "ctnn/analysis/budget.hpp"
#include "ctnn/core/crc32.hpp"
#include "ctnn/regs/accel.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn_platform.h"
#include "demo_nets.hpp"
#include "fw_report.hpp"

namespace ctnn_fw::demo {

using namespace ctnn_fw::report;

enum exit_code : int { ok = 0, input_differs = 2, run_failed = 3, mismatch = 4 };

/// Runs Net (golden table G) on the CPU and, when present, with the accelerator.
template <ctnn::Network Net, class G>
int run_demo(const char* tag) {
  constexpr auto& plan = ctnn::memory::plan_of<Net, ctnn::dtype::int8>;
  constexpr auto& layout = rt::param_layout_of<Net, ctnn::dtype::int8>;
  constexpr int32_t leaves = Net::leaf_count;
  static_assert(G::leaf_count == leaves && G::arena_bytes == plan.arena_bytes && G::param_bytes == layout.total_bytes,
                "demo: the golden table was generated from another network (rebuild the host tools)");
  static_assert(G::param_seed == param_seed && G::input_seed == input_seed,
                "demo: the golden table was generated with other seeds (rebuild the host tools)");
  alignas(16) static uint8_t arena[plan.arena_bytes];
  static_assert(sizeof(arena) == plan.arena_bytes && ctnn::fits<Net, int8_t>(sizeof(arena)));
  alignas(16) static uint8_t params[layout.total_bytes];
  static sample cpu[leaves], acc[leaves];

  put(tag);
  put(": ");
  put(Net::name);
  put(" int8, arena ");
  put_dec(static_cast<uint32_t>(sizeof arena));
  put(" bytes, parameters ");
  put_dec(static_cast<uint32_t>(sizeof params));
  put(" bytes\n");
  const uint64_t f0 = ctnn_cycles();
  if (!rt::fill_params<Net, ctnn::dtype::int8>(params, sizeof params, param_seed)) return run_failed;
  const uint64_t f1 = ctnn_cycles();
  put(tag);
  put(": parameters filled (fill_params, seed ");
  put_dec(static_cast<uint32_t>(param_seed));
  put(") in ");
  put_dec(static_cast<uint32_t>(f1 - f0));
  put(" cycles\n");
  auto* input = reinterpret_cast<int8_t*>(arena + plan.offset_of(0));
  constexpr auto in_elems = Net::input_shape.elems();
  auto fill = [&] { rt::fill_input<int8_t>(input, in_elems, input_seed, rt::default_tensor_quant<Net>(0)); };
  fill();
  const uint32_t pcrc = ctnn::crc32(params, sizeof params);
  const uint32_t icrc = ctnn::crc32(reinterpret_cast<const uint8_t*>(input), static_cast<size_t>(in_elems));
  if (pcrc != G::params_crc || icrc != G::input_crc) {
    put(tag);
    put(": FAIL the seeded parameters / input differ from the host's: params crc ");
    put_crc(pcrc);
    put(" (host ");
    put_crc(G::params_crc);
    put("), input crc ");
    put_crc(icrc);
    put(" (host ");
    put_crc(G::input_crc);
    put(")\n");
    return input_differs;
  }
  const uint8_t* out = arena + plan.offset_of(Net::output_tensor);
  constexpr auto out_bytes = static_cast<size_t>(Net::output_shape.elems());
  const uint32_t want_out = G::leaf_crc[Net::output_tensor - 1];

  const bool has_accel = ctnn::accel::probe_present();
  accel_hook hook;
  if (has_accel) {
    hook.init();
    put_accel_found(tag, hook);
  }

  // ---- the runs ----
  profiler prof{nullptr, cpu};
  rt::run_status s = rt::run<Net, int8_t>(arena, sizeof arena, params, sizeof params, rt::backend::optimized, prof,
                                          &record_crc, cpu);
  if (!s.ok()) return report_failure<Net>(tag, "CPU", s, nullptr), run_failed;
  fill();
  profiler plain{nullptr, nullptr};  // no counters, no callback: the network as a whole
  uint64_t t0 = ctnn_cycles();
  s = rt::run<Net, int8_t>(arena, sizeof arena, params, sizeof params, rt::backend::optimized, plain);
  const uint64_t cycles_cpu = ctnn_cycles() - t0;
  if (!s.ok()) return report_failure<Net>(tag, "CPU", s, nullptr), run_failed;
  bool match = ctnn::crc32(out, out_bytes) == want_out;

  uint64_t cycles_accel = 0, busy_accel = 0;
  if (has_accel) {
    fill();
    hook.clear_counters();
    profiler aprof{&hook, acc};
    s = rt::run<Net, int8_t>(arena, sizeof arena, params, sizeof params, rt::backend::optimized, aprof, &record_crc,
                             acc);
    if (!s.ok()) return report_failure<Net>(tag, "accelerated", s, &hook), run_failed;
    if (hook.leaves == 0) {
      // an accelerator that takes no leaf (e.g. an older register map without HWCFG.BLOCK_COLS)
      // would make the "accelerated" figures CPU figures: refuse to report them as such
      put(tag);
      put(": FAIL the accelerator is present but took no leaf (rows per job ");
      put_dec(hook.max_rows);
      put(", K max ");
      put_dec(hook.k_max);
      put(")\n");
      return run_failed;
    }
    put(tag);
    put(": accelerator jobs ");
    put_dec(hook.jobs);
    put(", leaves offloaded ");
    put_dec(hook.leaves);
    put(", busy cycles ");
    put_dec(static_cast<uint32_t>(hook.device_cycles));
    put(", MACs ");
    put_dec(static_cast<uint32_t>(hook.macs));
    ctnn_console_putc('\n');
    fill();
    profiler offloaded{&hook, nullptr};
    t0 = ctnn_cycles();
    const uint32_t fused_before = hook.fused;
    const uint64_t busy_before = hook.device_cycles;
    s = rt::run<Net, int8_t>(arena, sizeof arena, params, sizeof params, rt::backend::optimized, offloaded);
    cycles_accel = ctnn_cycles() - t0;
    busy_accel = hook.device_cycles - busy_before;
    if (!s.ok()) return report_failure<Net>(tag, "accelerated", s, &hook), run_failed;
    match = match && ctnn::crc32(out, out_bytes) == want_out;
    put(tag);
    put(": plain run (no callback): leaves fused into conv/linear jobs (clamp, add, pool) ");
    put_dec(hook.fused - fused_before);
    ctnn_console_putc('\n');
  }

  // ---- the table ----
  put(tag);
  put(": leaf name      type           cycles_cpu cycles_accel accel_busy  speedup instret_cpu instret_accel crc        match\n");
  uint64_t sum_cpu[3] = {}, sum_acc[3] = {};
  for (int32_t i = 0; i < leaves; ++i) {
    const ctnn::row& r = Net::layer(i);
    const auto ui = static_cast<size_t>(i);
    const bool ok_cpu = cpu[ui].crc == G::leaf_crc[ui];
    const bool ok_acc = !has_accel || acc[ui].crc == G::leaf_crc[ui];
    match = match && ok_cpu && ok_acc;
    const int kind = r.kind == ctnn::op::conv2d ? 0 : (r.kind == ctnn::op::linear ? 1 : 2);
    sum_cpu[kind] += cpu[ui].cycles;
    sum_acc[kind] += acc[ui].cycles;
    put(tag);
    put(": ");
    put_dec(static_cast<uint32_t>(i), 4);
    put(" ");
    put_text(r.name != nullptr ? r.name : "-", 9);
    put(" ");
    put_text(r.type, 12);
    put_dec(cpu[ui].cycles, 12);
    if (has_accel) {
      put_dec(acc[ui].cycles, 13);
      put_dec(acc[ui].busy, 11);
      put_ratio(cpu[ui].cycles, acc[ui].cycles, 9);
    } else {
      put("            -          -        -");
    }
    put_dec(cpu[ui].instret, 12);
    if (has_accel) put_dec(acc[ui].instret, 14);
    else put("             -");
    put(" ");
    put_crc(G::leaf_crc[ui]);
    put(ok_cpu && ok_acc ? " yes" : " NO");
    if (!ok_cpu) {
      put(" cpu=");
      put_crc(cpu[ui].crc);
    }
    if (!ok_acc) {
      put(" accel=");
      put_crc(acc[ui].crc);
    }
    ctnn_console_putc('\n');
  }
  static const char* const kinds[3] = {"conv2d", "linear", "other"};
  for (int k = 0; k < 3; ++k) {
    put(tag);
    put(": subtotal ");
    put_text(kinds[k], 7);
    put("cycles_cpu=");
    put_dec(static_cast<uint32_t>(sum_cpu[k]));
    if (has_accel) {
      put(" cycles_accel=");
      put_dec(static_cast<uint32_t>(sum_acc[k]));
      put(" speedup=");
      put_ratio(sum_cpu[k], sum_acc[k]);
    }
    ctnn_console_putc('\n');
  }
  put(tag);
  put(": match=");
  put(match ? "yes" : "no");
  put(" cycles_cpu=");
  put_dec(static_cast<uint32_t>(cycles_cpu));
  if (has_accel) {
    put(" cycles_accel=");
    put_dec(static_cast<uint32_t>(cycles_accel));
    put(" speedup=");
    put_ratio(cycles_cpu, cycles_accel);
    put(" accel_busy=");
    put_dec(static_cast<uint32_t>(busy_accel));
    put(" accel_share=");
    put_percent(busy_accel, cycles_accel);
  } else {
    put(" accelerator=absent");
  }
  ctnn_console_putc('\n');
  return match ? ok : mismatch;
}

}  // namespace ctnn_fw::demo
