// An imported model (ctnn-import's header, CTNN_MODEL_HEADER / CTNN_MODEL) in bare-metal rv32im code:
// compiled with riscv64-unknown-elf-g++ -ffreestanding, no C++ standard library, and linked with
// the assembled parameter blob (-nostdlib): the network runs from its .rodata parameters.
#include "ctnn/memory/planner.hpp"
#include "ctnn/runtime/runtime.hpp"
#include CTNN_MODEL_HEADER

using model = CTNN_MODEL;
using net = model::network;
constexpr auto& plan = ctnn::memory::plan_of<net, ctnn::dtype::float32>;
alignas(16) static uint8_t arena[plan.arena_bytes];

// -nostdlib: what the compiler may call (built with -fno-tree-loop-distribute-patterns)
extern "C" void* memcpy(void* d, const void* s, size_t n) {
  for (size_t i = 0; i < n; ++i) static_cast<uint8_t*>(d)[i] = static_cast<const uint8_t*>(s)[i];
  return d;
}
extern "C" void* memset(void* d, int c, size_t n) {
  for (size_t i = 0; i < n; ++i) static_cast<uint8_t*>(d)[i] = static_cast<uint8_t>(c);
  return d;
}

/// Runs the model on a ramp input; returns the index of the largest output, or -1 on a fault.
extern "C" int ctnn_model_entry() {
  float* x = reinterpret_cast<float*>(arena + plan.offset_of(0));
  for (int64_t i = 0; i < net::input_shape.elems(); ++i) x[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
  const ctnn::runtime::run_status st = ctnn::runtime::run<net, float, ctnn::runtime::backend::optimized>(
      arena, sizeof arena, model::params(), model::params_bytes);
  if (!st.ok()) return -1;
  const float* y = reinterpret_cast<const float*>(arena + plan.offset_of(net::output_tensor));
  int best = 0;
  for (int i = 1; i < static_cast<int>(net::output_shape.elems()); ++i)
    if (y[i] > y[best]) best = i;
  return best;
}
