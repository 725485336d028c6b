// Sliding-window arithmetic shared by the description language (nn/) and the kernels: the
// output extent of a convolution or pooling window (PyTorch's floor and ceil modes) and the
// adaptive-pooling window bounds. One definition of each, used by both.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn {

/// @brief Output extent of a window of `kernel` taps (spaced `dilation`) sliding by `stride` over
/// `in` elements padded by pad_lo / pad_hi. ceil_mode is PyTorch's pooling rule: round up, but
/// the last window must start inside the input or the leading padding.
constexpr int64_t window_out_extent(int64_t in, int64_t pad_lo, int64_t pad_hi, int64_t kernel, int64_t stride,
                                    int64_t dilation, bool ceil_mode) {
  const int64_t span = in + pad_lo + pad_hi - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = floor_div(span, stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad_lo) --out;
  return out;
}

/// Output extent of a convolution along one axis (floor mode).
constexpr int64_t conv_out_extent(int64_t in, int64_t pad_lo, int64_t pad_hi, int64_t kernel, int64_t stride,
                                  int64_t dilation) {
  return window_out_extent(in, pad_lo, pad_hi, kernel, stride, dilation, false);
}

/// PyTorch's pooling output extent along one axis (symmetric padding), ceil_mode included.
constexpr int64_t pool_out_extent(int64_t in, int64_t pad, int64_t kernel, int64_t stride, int64_t dilation,
                                  bool ceil_mode) {
  return window_out_extent(in, pad, pad, kernel, stride, dilation, ceil_mode);
}

/// @brief "Same" padding along one axis: the output is ceil(in / stride), and the padding that
/// gives it, max(0, (out - 1)·stride + dilation·(kernel - 1) + 1 - in), is split in two, the
/// odd element at the end (upper, TensorFlow's SAME) or at the beginning (lower).
constexpr void same_padding(int64_t in, int64_t kernel, int64_t stride, int64_t dilation, bool upper, int64_t& lo,
                            int64_t& hi) {
  const int64_t out = (in + stride - 1) / stride;
  const int64_t need = (out - 1) * stride + dilation * (kernel - 1) + 1 - in;
  const int64_t total = need > 0 ? need : 0;
  lo = upper ? total / 2 : total - total / 2;
  hi = total - lo;
}

/// Depthwise convolution: one input channel per group (any channel multiplier out_c / in_c). The
/// one definition the description language, the planner's scratch request and the kernels use.
constexpr bool is_depthwise(int64_t in_channels, int64_t groups) { return groups == in_channels && groups > 1; }

/// Start and end (exclusive) of adaptive-pooling window i of `out` over `in` (PyTorch's formula).
constexpr int64_t adaptive_start(int64_t i, int64_t in, int64_t out) { return (i * in) / out; }
constexpr int64_t adaptive_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

}  // namespace ctnn
