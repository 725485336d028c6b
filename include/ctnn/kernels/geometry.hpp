// Kernel geometry: small structural config structs for conv and pooling (so a layer adapter can
// map nn/ layer types onto them), their output sizes, validity, and the constexpr scratch sizes
// the memory planner calls. Tensors are CHW (batch 1); conv weights are OIHW: [out_c][in_c/groups][kh][kw].
#pragma once
#include "ctnn/core/utility.hpp"

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

  [[nodiscard]] constexpr int64_t out_h() const { return floor_div(in_h + pt + pb - dh * (kh - 1) - 1, sh) + 1; }
  [[nodiscard]] constexpr int64_t out_w() const { return floor_div(in_w + pl + pr - dw * (kw - 1) - 1, sw) + 1; }
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

/// @brief Elements of the im2col matrix conv2d (through GEMM) needs: one group's
/// [(in_c/groups) * kh * kw] x [out_h * out_w] matrix, reused group after group; 0 when the
/// convolution is pointwise (the input is used in place). The memory planner calls this.
constexpr int64_t im2col_scratch_elems(const conv_geometry& g) {
  if (!g.valid() || g.pointwise()) return 0;
  return g.gemm_k() * g.out_h() * g.out_w();
}

/// @brief 2-D pooling geometry (max/avg), PyTorch semantics with asymmetric padding.
struct pool_geometry {
  int64_t c = 1, in_h = 1, in_w = 1;
  int64_t kh = 1, kw = 1;
  int64_t sh = 1, sw = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  bool ceil_mode = false;
  bool count_include_pad = true;

  [[nodiscard]] static constexpr int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p0, int64_t p1, bool ceil) {
    const int64_t span = in + p0 + p1 - k;
    int64_t o = (ceil ? floor_div(span + s - 1, s) : floor_div(span, s)) + 1;
    // PyTorch: the last window must start inside the input or the leading padding
    if (ceil && (o - 1) * s >= in + p0) --o;
    return o;
  }
  [[nodiscard]] constexpr int64_t out_h() const { return out_size(in_h, kh, sh, pt, pb, ceil_mode); }
  [[nodiscard]] constexpr int64_t out_w() const { return out_size(in_w, kw, sw, pl, pr, ceil_mode); }
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

/// @brief Window [begin, end) of output o for adaptive pooling (PyTorch: floor / ceil bounds).
constexpr int64_t adaptive_begin(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
constexpr int64_t adaptive_end(int64_t o, int64_t in, int64_t out) { return ((o + 1) * in + out - 1) / out; }

}  // namespace ctnn::kernels
