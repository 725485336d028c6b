// The accelerator's software as firmware compiles it (riscv64-unknown-elf-g++, rv32im, freestanding,
// -O2, code generation): the driver, the offload hook (plain and owning) in run() of LeNet-5, and the
// probe; the perf model in the same translation unit (all four share namespace ctnn::accel).
#include "ctnn/accel/driver.hpp"
#include "ctnn/accel/offload.hpp"
#include "ctnn/accel/perf_model.hpp"
#include "ctnn/accel/probe.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"

using net = ctnn::zoo::lenet5;
constexpr size_t arena_bytes = static_cast<size_t>(ctnn::memory::plan_of<net, ctnn::dtype::int8>.arena_bytes);
constexpr size_t param_bytes = static_cast<size_t>(ctnn::runtime::param_layout_of<net, ctnn::dtype::int8>.total_bytes);

ctnn::runtime::run_status run_offloaded(uint8_t* arena, const uint8_t* params, ctnn::accel::offloader<>& hook) {
  return ctnn::runtime::run<net, int8_t>(arena, arena_bytes, params, param_bytes, ctnn::runtime::backend::optimized, hook);
}

ctnn::runtime::run_status run_owned(uint8_t* arena, const uint8_t* params, ctnn::accel::owning_offloader<>& hook) {
  return ctnn::runtime::run<net, int8_t>(arena, arena_bytes, params, param_bytes, ctnn::runtime::backend::optimized, hook);
}

ctnn::accel::job_status run_job(const ctnn::accel::job& j) { return ctnn::accel::driver<>::run(j, 1000u); }

bool accel_present() { return ctnn::accel::probe_present(); }

uint64_t predicted_cycles(int m, int n, int k) {
  ctnn::accel::gemm g;
  g.m = m;
  g.n = n;
  g.k = k;
  return ctnn::accel::predict(ctnn::accel::config{}, g).cycles;
}
