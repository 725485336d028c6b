// Firmware-style placement of a network in one static arena planned at compile time.
// Freestanding: no heap, no standard library; the same code builds for rv32im.
#include <ctnn/ctnn.hpp>

namespace app {

using net = ctnn::zoo::lenet5;
inline constexpr auto plan = ctnn::memory::plan_of<net, ctnn::dtype::int8>;

// The budget of this board's RAM for activations; the build fails, naming the peak layer, if the
// network does not fit.
static_assert(ctnn::fits<net, int8_t>(8 * 1024), "LeNet-5 int8 must fit in 8 KiB of activation RAM");
static_assert(plan.arena_bytes == plan.lower_bound_bytes, "a chain plans to its lower bound");

alignas(16) static uint8_t arena[plan.arena_bytes];

/// Where tensor t (0 = input, i + 1 = output of layer i) lives: a compile-time offset.
template <int32_t T>
int8_t* tensor() {
  static_assert(T >= 0 && T < net::tensor_count, "no such tensor");
  constexpr uint64_t offset = plan.offset_of(T);  // a constant: the plan itself is not stored
  return reinterpret_cast<int8_t*>(arena + offset);
}

/// Scratch of layer I (the im2col panel of a convolution), empty when the layer needs none.
template <int32_t I>
int8_t* scratch() {
  if constexpr (plan.scratch_bytes[I] == 0) return nullptr;
  else {
    constexpr uint64_t offset = plan.scratch_offset[I];
    return reinterpret_cast<int8_t*>(arena + offset);
  }
}

}  // namespace app

#if !defined(CTNN_EXAMPLE_NO_MAIN)
int main() {
  // Place the 1×32×32 input, then check the network's output lands where the plan says.
  int8_t* in = app::tensor<0>();
  for (int i = 0; i < 32 * 32; ++i) in[i] = static_cast<int8_t>(i & 0x7f);
  int8_t* out = app::tensor<app::net::output_tensor>();
  return out >= reinterpret_cast<int8_t*>(app::arena) &&
                 out + app::net::output_shape.elems() <= reinterpret_cast<int8_t*>(app::arena) + sizeof(app::arena)
             ? 0
             : 1;
}
#endif
