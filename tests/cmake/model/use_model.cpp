// A host program using a model of ctnn_add_model: the network type, its plan and its parameters
// (the .incbin blob linked through the INTERFACE target), run once; prints the output.
#include <cstdint>
#include <cstdio>

#include "ctnn/memory/planner.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "small_cnn.hpp"

using model = app_models::small_cnn_model;
using net = model::network;
static_assert(net::input_shape == ctnn::shape{3, 16, 16});
static_assert(net::output_shape == ctnn::features(10));
static_assert(model::params_bytes == ctnn::runtime::param_layout_of<net, ctnn::dtype::float32>.total_bytes);

constexpr auto& plan = ctnn::memory::plan_of<net, ctnn::dtype::float32>;
alignas(16) static unsigned char arena[plan.arena_bytes];

int main() {
  if (reinterpret_cast<std::uintptr_t>(model::params()) % 16 != 0) return 2;  // .balign 16 in the .S
  float* x = reinterpret_cast<float*>(arena + plan.offset_of(0));
  for (int64_t i = 0; i < net::input_shape.elems(); ++i) x[i] = static_cast<float>(i % 7) * 0.25f - 0.75f;  // as the driver's input
  const auto st = ctnn::runtime::run<net, float, ctnn::runtime::backend::optimized>(arena, sizeof arena, model::params(),
                                                                          model::params_bytes);
  if (!st.ok()) return 3;
  const float* y = reinterpret_cast<const float*>(arena + plan.offset_of(net::output_tensor));
  for (int64_t i = 0; i < net::output_shape.elems(); ++i) std::printf("%s%.9g", i ? " " : "", static_cast<double>(y[i]));
  std::printf("\n");
  return 0;
}
