// Kernel geometry: small structural config structs for conv and pooling (so a layer adapter can
// map nn/ layer types onto them), their output sizes (core/window.hpp) and validity.
// Tensors are CHW (batch 1); conv weights are OIHW: [out_c][in_c/groups][kh][kw].
#pragma once
#include "ctnn/core/window.hpp"

namespace ctnn::kernels {

/// @brief 2-D convolution geometry (PyTorch semantics, asymmetric padding).
struct conv_geometry {
  int64_t in_c = 1, in_h = 1, in_w = 1;
  int64_t out_c = 1;
  int64_t kh = 1, kw = 1;
  int64_t sh = 1, sw = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  int64_t dh = 1, dw = 1;
  int64_t groups = 1;

  [[nodiscard]] constexpr int64_t out_h() const { return conv_out_extent(in_h, pt, pb, kh, sh, dh); }
  [[nodiscard]] constexpr int64_t out_w() const { return conv_out_extent(in_w, pl, pr, kw, sw, dw); }
  [[nodiscard]] constexpr int64_t in_c_per_group() const { return in_c / groups; }
  [[nodiscard]] constexpr int64_t out_c_per_group() const { return out_c / groups; }
  /// GEMM K of one group: (in_c / groups) * kh * kw.
  [[nodiscard]] constexpr int64_t gemm_k() const { return in_c_per_group() * kh * kw; }
  [[nodiscard]] constexpr int64_t weight_elems() const { return out_c * gemm_k(); }
  [[nodiscard]] constexpr int64_t in_elems() const { return in_c * in_h * in_w; }
  [[nodiscard]] constexpr int64_t out_elems() const { return out_c * out_h() * out_w(); }
  [[nodiscard]] constexpr int64_t macs() const { return out_elems() * gemm_k(); }
  /// Depthwise: one input channel per group.
  [[nodiscard]] constexpr bool depthwise() const { return groups == in_c && groups > 1; }
  /// 1x1, stride 1, no padding: the input already is the im2col matrix.
  [[nodiscard]] constexpr bool pointwise() const {
    return kh == 1 && kw == 1 && sh == 1 && sw == 1 && pt == 0 && pb == 0 && pl == 0 && pr == 0;
  }
  [[nodiscard]] constexpr bool valid() const {
    return in_c > 0 && in_h > 0 && in_w > 0 && out_c > 0 && kh > 0 && kw > 0 && sh > 0 && sw > 0 && dh > 0 &&
           dw > 0 && pt >= 0 && pb >= 0 && pl >= 0 && pr >= 0 && groups > 0 && in_c % groups == 0 &&
           out_c % groups == 0 && out_h() > 0 && out_w() > 0 &&
           // every element must fit the int index arithmetic of the kernels
           in_elems() < (int64_t{1} << 31) && out_elems() < (int64_t{1} << 31) && weight_elems() < (int64_t{1} << 31);
  }
  friend constexpr bool operator==(const conv_geometry&, const conv_geometry&) = default;
};

/// @brief 2-D pooling geometry (max/avg), PyTorch semantics with asymmetric padding.
struct pool_geometry {
  int64_t c = 1, in_h = 1, in_w = 1;
  int64_t kh = 1, kw = 1;
  int64_t sh = 1, sw = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  bool ceil_mode = false;
  bool count_include_pad = true;

  [[nodiscard]] constexpr int64_t out_h() const { return window_out_extent(in_h, pt, pb, kh, sh, 1, ceil_mode); }
  [[nodiscard]] constexpr int64_t out_w() const { return window_out_extent(in_w, pl, pr, kw, sw, 1, ceil_mode); }
  [[nodiscard]] constexpr int64_t in_elems() const { return c * in_h * in_w; }
  [[nodiscard]] constexpr int64_t out_elems() const { return c * out_h() * out_w(); }
  [[nodiscard]] constexpr bool valid() const {
    // PyTorch also requires padding <= half the kernel, so no window is entirely padding.
    return c > 0 && in_h > 0 && in_w > 0 && kh > 0 && kw > 0 && sh > 0 && sw > 0 && pt >= 0 && pb >= 0 &&
           pl >= 0 && pr >= 0 && 2 * pt <= kh && 2 * pb <= kh && 2 * pl <= kw && 2 * pr <= kw && out_h() > 0 &&
           out_w() > 0 && in_elems() < (int64_t{1} << 31);
  }
  friend constexpr bool operator==(const pool_geometry&, const pool_geometry&) = default;
};

}  // namespace ctnn::kernels
