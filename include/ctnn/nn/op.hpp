// The operator kinds a leaf row can have. What each kind does (memory, parameters, kernels) is
// its `op_def<K>`, defined beside its layer type in nn/ (see nn/op_def.hpp).
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
  leaky_relu, clamp,
};

/// The number of kinds (keep in step with the last enumerator). Kind sets are uint64_t masks.
inline constexpr int op_count = static_cast<int>(op::clamp) + 1;
static_assert(op_count <= 64, "ctnn: op kinds are a 64-bit mask");

/// @brief What op kind K does: specialized once per kind, beside its layer type in nn/.
template <op K>
struct op_def;

}  // namespace ctnn
