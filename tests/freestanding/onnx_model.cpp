// An imported model (ctnn-import's header, CTNN_MODEL_HEADER / CTNN_MODEL) in bare-metal rv32im code:
// compiled with riscv64-unknown-elf-g++ -ffreestanding, no C++ standard library, and linked with
// the assembled parameter blob (-nostdlib): the network runs from its .rodata parameters, in
// float32 or, for an int8 import, in int8 from its quantized input.
#include "ctnn/memory/planner.hpp"
#include "ctnn/runtime/runtime.hpp"
#include CTNN_MODEL_HEADER

using model = CTNN_MODEL;
using net = model::network;
/// float32, or int8 (ctnn-import --dtype int8: the header's quantize_input, the int8 blob)
constexpr ctnn::dtype dt = [] {
  if constexpr (requires { model::dtype; }) return model::dtype;
  else return ctnn::dtype::float32;
}();
using elem = ctnn::conditional_t<dt == ctnn::dtype::int8, int8_t, float>;
constexpr auto& plan = ctnn::memory::plan_of<net, dt>;
alignas(16) static uint8_t arena[plan.arena_bytes];
static float input[net::input_shape.elems()];

// -nostdlib: what the compiler may call (built with -fno-tree-loop-distribute-patterns)
extern "C" void* memcpy(void* d, const void* s, size_t n) {
  for (size_t i = 0; i < n; ++i) static_cast<uint8_t*>(d)[i] = static_cast<const uint8_t*>(s)[i];
  return d;
}
extern "C" void* memset(void* d, int c, size_t n) {
  for (size_t i = 0; i < n; ++i) static_cast<uint8_t*>(d)[i] = static_cast<uint8_t>(c);
  return d;
}

/// The input in the arena: quantized by the header's function (int8) or copied (float32).
template <class M>
void place_input(elem* x) {
  if constexpr (dt == ctnn::dtype::int8) M::quantize_input(input, x, static_cast<size_t>(net::input_shape.elems()));
  else
    for (int64_t i = 0; i < net::input_shape.elems(); ++i) x[i] = input[i];
}

/// Runs the model on a ramp input; returns the index of the largest output, or -1 on a fault.
extern "C" int ctnn_model_entry() {
  for (int64_t i = 0; i < net::input_shape.elems(); ++i) input[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;
  place_input<model>(reinterpret_cast<elem*>(arena + plan.offset_of(0)));
  const ctnn::runtime::run_status st = ctnn::runtime::run<net, elem, ctnn::runtime::backend::optimized>(
      arena, sizeof arena, model::params(), model::params_bytes);
  if (!st.ok()) return -1;
  const elem* y = reinterpret_cast<const elem*>(arena + plan.offset_of(net::output_tensor));
  int best = 0;
  for (int i = 1; i < static_cast<int>(net::output_shape.elems()); ++i)
    if (y[i] > y[best]) best = i;
  return best;
}
