// Instantiates the executor for LeNet-5 (both dtypes, both backends) the way firmware does:
// compiled with riscv64-unknown-elf-g++ for rv32im, freestanding, no C++ standard library.
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
