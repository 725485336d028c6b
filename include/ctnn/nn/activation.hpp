// Elementwise activations: relu, relu6, sigmoid, silu, hardswish, hardsigmoid, tanh, gelu.
#pragma once
#include "ctnn/nn/graph.hpp"

namespace ctnn {

/// @brief An elementwise activation of kind K. Output shape = input shape; ext_ops = one per
/// element (ptflops' convention for activations).
template <op K>
struct activation : leaf<activation<K>> {
  static_assert(is_elementwise_unary(K) && K != op::batch_norm2d && K != op::channel_scale,
                "ctnn: activation: not an activation kind");
  static constexpr op kind = K;
  static constexpr const char* type_name = K == op::relu          ? "ReLU"
                                           : K == op::relu6       ? "ReLU6"
                                           : K == op::sigmoid     ? "Sigmoid"
                                           : K == op::silu        ? "SiLU"
                                           : K == op::hardswish   ? "Hardswish"
                                           : K == op::hardsigmoid ? "Hardsigmoid"
                                           : K == op::gelu        ? "GELU"
                                                                  : "Tanh";
  static constexpr fault_report check(shape) { return ok(); }
  static constexpr shape output(shape in) { return in; }
  static constexpr leaf_counts counts(shape in) {
    leaf_counts c{};
    c.ext_ops = static_cast<uint64_t>(in.elems());
    return c;
  }
};

using relu = activation<op::relu>;
using relu6 = activation<op::relu6>;
using sigmoid = activation<op::sigmoid>;
using silu = activation<op::silu>;
using hardswish = activation<op::hardswish>;
using hardsigmoid = activation<op::hardsigmoid>;
using tanh_activation = activation<op::tanh>;
using gelu = activation<op::gelu>;

}  // namespace ctnn
