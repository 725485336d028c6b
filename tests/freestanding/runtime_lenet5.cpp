// Instantiates the executor for LeNet-5 (both dtypes, both backends) the way firmware does:
// compiled with riscv64-unknown-elf-g++ for rv32im, freestanding, no C++ standard library; also the
// offload overload with a hook.
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"

using net = ctnn::zoo::lenet5;

ctnn::runtime::run_status run_int8(uint8_t* arena, const uint8_t* params, bool optimized) {
  return ctnn::runtime::run<net, int8_t>(arena, ctnn::memory::plan_of<net, ctnn::dtype::int8>.arena_bytes, params,
                                         ctnn::runtime::param_layout_of<net, ctnn::dtype::int8>.total_bytes,
                                         optimized ? ctnn::runtime::backend::optimized : ctnn::runtime::backend::reference);
}

ctnn::runtime::run_status run_f32(uint8_t* arena, const uint8_t* params, bool optimized) {
  return ctnn::runtime::run<net, float>(arena, ctnn::memory::plan_of<net, ctnn::dtype::float32>.arena_bytes, params,
                                        ctnn::runtime::param_layout_of<net, ctnn::dtype::float32>.total_bytes,
                                        optimized ? ctnn::runtime::backend::optimized : ctnn::runtime::backend::reference);
}

// the offload overload with a hook that takes the linear leaves and brackets every leaf
struct count_hook {
  int linear = 0, begun = 0, ended = 0;
  ctnn::runtime::offload_result offload(const ctnn::runtime::leaf_call<int8_t>& c) {
    if (c.r->kind != ctnn::op::linear) return ctnn::runtime::offload_result::declined();
    ++linear;
    return c.weights() != nullptr ? ctnn::runtime::offload_result::done() : ctnn::runtime::offload_result::failed(1);
  }
  void leaf_begin(int32_t) { ++begun; }
  void leaf_end(int32_t) { ++ended; }
};

ctnn::runtime::run_status run_int8_offload(uint8_t* arena, const uint8_t* params, count_hook& hook) {
  return ctnn::runtime::run<net, int8_t>(arena, ctnn::memory::plan_of<net, ctnn::dtype::int8>.arena_bytes, params,
                                         ctnn::runtime::param_layout_of<net, ctnn::dtype::int8>.total_bytes,
                                         ctnn::runtime::backend::optimized, hook);
}
