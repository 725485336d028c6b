// The operator kinds a leaf row can have, and what the planner and the executors may assume of each.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn {

enum class op : uint8_t {
  container,  ///< not a leaf: a Sequential, a block, a residual or concat group
  conv2d, linear,
  max_pool2d, avg_pool2d, adaptive_avg_pool2d,
  batch_norm2d,
  relu, relu6, sigmoid, silu, hardswish, hardsigmoid, tanh,
  flatten, dropout, softmax, zero_pad2d, channel_shuffle,
  add, mul, concat,
  gelu, layer_norm2d, channel_scale, channel_slice,
};

/// Elementwise over one input with output shape == input shape: may run in place.
constexpr bool is_elementwise_unary(op k) {
  switch (k) {
    case op::batch_norm2d: case op::relu: case op::relu6: case op::sigmoid: case op::silu:
    case op::hardswish: case op::hardsigmoid: case op::tanh: case op::gelu: case op::channel_scale:
      return true;
    default: return false;
  }
}

/// The output is the input's bytes reinterpreted (no data moves at inference).
constexpr bool is_alias(op k) { return k == op::flatten || k == op::dropout; }

}  // namespace ctnn
