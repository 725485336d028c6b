// fused<Layer, Activation>: a ReLU, ReLU6 or clamp fused into the layer that makes its input
// (TFLite's fused activation function), so int8 clamps in the requantization instead of running
// a pass of its own, and float32 clamps right after the kernel. The layer is a convolution, a
// linear layer (any op that declares op_def<K>::fuses_activation) or, in a dag, join<op::add>:
//
//   node<"conv", fused<conv2d<32, 32, 1, 1, 0, 1, 1, false>, relu6>, 3>
//   node<"add", fused<join<op::add>, relu>, 4, 2>
//
// The row keeps the layer's kind, type and counts; layer_geometry::act, act_lo and act_hi say
// which clamp (runtime::fused_range gives its int8 bounds on a quantized output).
#pragma once
#include "ctnn/nn/clamp.hpp"
#include "ctnn/nn/dag.hpp"

namespace ctnn {

namespace detail {
/// The fused clamp of activation A (relu, relu6, clamp<...>), or fused_act::none for any other.
template <class A>
constexpr layer_geometry with_fused(layer_geometry g) {
  if constexpr (requires { A::kind; }) {
    if constexpr (A::kind == op::clamp) set_fused_clamp(g, A::kind, A::lower, A::upper);
    else set_fused_clamp(g, A::kind);
  }
  return g;
}
template <class A>
inline constexpr bool fusable_activation = with_fused<A>(layer_geometry{}).act != fused_act::none;
}  // namespace detail

/// @brief Layer with Activation (relu, relu6, clamp<...>) fused into its output.
template <class Layer, class Activation>
struct fused : leaf<fused<Layer, Activation>> {
  static_assert(detail::fuses_activation<Layer::kind>(),
                "ctnn: fused: the layer takes no fused activation (conv2d, linear and add do)");
  static_assert(detail::fusable_activation<Activation>,
                "ctnn: fused: the activation must be relu, relu6 or clamp<lo, hi, den> (a clamp of the output)");
  static_assert(detail::geometry_of<Layer>().act == fused_act::none, "ctnn: fused: the layer already has a fused activation");
  static constexpr op kind = Layer::kind;
  static constexpr layer_geometry geometry() { return detail::with_fused<Activation>(detail::geometry_of<Layer>()); }
};

/// A fused add in a dag is a join too (it reads two values).
namespace detail {
template <op K, class A> inline constexpr bool is_join_v<fused<join<K>, A>> = true;
}  // namespace detail

/// @brief The activation's name of a fused clamp ("ReLU", "ReLU6", "Clamp"), or "" for none.
constexpr const char* fused_act_name(fused_act a) {
  switch (a) {
    case fused_act::none: return "";
    case fused_act::relu: return "ReLU";
    case fused_act::relu6: return "ReLU6";
    case fused_act::clamp: return "Clamp";
  }
  return "?";
}

}  // namespace ctnn
