// linear: fully connected layer on a flattened input (PyTorch's Linear).
#pragma once
#include "ctnn/nn/graph.hpp"

namespace ctnn {

/// @brief y = W·x + b with W of In×Out. MACs = In·Out; ext_ops = Out bias additions when biased.
template <int64_t In, int64_t Out, bool Bias = true>
struct linear : leaf<linear<In, Out, Bias>> {
  static_assert(In > 0 && Out > 0, "ctnn: linear: feature counts must be positive");
  static constexpr const char* type_name = "Linear";
  static constexpr op kind = op::linear;
  static constexpr int64_t in_features = In;
  static constexpr int64_t out_features = Out;
  static constexpr bool bias = Bias;

  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.bias = Bias;
    return g;
  }
  static constexpr fault_report check(shape in) {
    if (in.rank != 1) return fail_shape(fault::linear_input_not_flat, features(In), in);
    if (in.elems() != In) return fail(fault::linear_in_features, In, in.elems());
    return ok();
  }
  static constexpr shape output(shape) { return features(Out); }
  static constexpr leaf_counts counts(shape) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(In * Out);
    c.biases = Bias ? static_cast<uint64_t>(Out) : 0;
    c.macs = static_cast<uint64_t>(In * Out);
    c.ext_ops = Bias ? static_cast<uint64_t>(Out) : 0;
    return c;
  }
};

}  // namespace ctnn
