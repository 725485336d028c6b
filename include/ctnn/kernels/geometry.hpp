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
  /// Depthwise: one input channel per group (ctnn::is_depthwise).
  [[nodiscard]] constexpr bool depthwise() const { return is_depthwise(in_c, groups); }
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

/// Output pixels the convolution kernel lowers to one im2col panel at most (whole output rows),
/// so the GEMM behind it keeps a useful N.
inline constexpr int64_t im2col_max_panel_pixels = 256;

/// @brief True when conv2d runs g through im2col panels: not depthwise (direct kernel), not a
/// single-group 1x1/s1/p0 convolution (its input already is the GEMM operand).
constexpr bool conv_uses_panels(const conv_geometry& g) {
  return g.valid() && !g.depthwise() && !(g.pointwise() && g.groups == 1);
}

/// @brief Elements of one output row of im2col panel: one group's (in_c/groups)·kh·kw patch for
/// each of the row's out_w pixels (0 when g runs without panels).
constexpr uint64_t conv_panel_row_elems(const conv_geometry& g) {
  return conv_uses_panels(g) ? static_cast<uint64_t>(g.gemm_k() * g.out_w()) : 0;
}

/// @brief Most output rows the kernel lowers to one panel: enough for im2col_max_panel_pixels.
constexpr int64_t conv_max_panel_rows(const conv_geometry& g) {
  if (!conv_uses_panels(g)) return 0;
  const int64_t ow = g.out_w(), oh = g.out_h();
  const int64_t rows = ceil_div(im2col_max_panel_pixels, ow > 0 ? ow : 1);
  return rows < 1 ? 1 : (rows > oh ? oh : rows);
}

/// @brief Elements of an im2col panel of `panel_rows` output rows: the scratch the convolution
/// asks the planner for (per row) and checks it was given (0 for direct or pointwise runs).
constexpr uint64_t conv_scratch_elems(const conv_geometry& g, int64_t panel_rows) {
  return panel_rows <= 0 ? 0 : conv_panel_row_elems(g) * static_cast<uint64_t>(panel_rows);
}

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
