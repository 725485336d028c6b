// Scratch memory a layer's kernel needs besides its input and output, as a constexpr formula of
// the layer's geometry. The arena planner reserves exactly this much for the layer's step, and the
// kernels size their im2col panel with the same functions: one definition, never two.
#pragma once
#include "ctnn/nn/graph.hpp"

namespace ctnn::memory {

/// Output rows the convolution kernel lowers to one im2col panel at most: enough rows for
/// `im2col_max_panel_pixels` output pixels, so the GEMM behind it keeps a useful M.
inline constexpr int64_t im2col_max_panel_pixels = 256;

constexpr int64_t conv_max_panel_rows(int64_t out_h, int64_t out_w) {
  const int64_t rows = ceil_div(im2col_max_panel_pixels, out_w > 0 ? out_w : 1);
  return rows < 1 ? 1 : (rows > out_h ? out_h : rows);
}

/// True when a convolution reads its input directly as the GEMM operand (1×1, stride 1, no padding,
/// one group) or runs the direct depthwise kernel: no im2col panel is needed.
constexpr bool conv_needs_im2col(shape in, shape out, const layer_geometry& g) {
  const bool pointwise = g.kernel.h == 1 && g.kernel.w == 1 && g.stride.h == 1 && g.stride.w == 1 &&
                         g.padding == pad4{} && g.groups == 1;
  const bool depthwise = g.groups > 1 && g.groups == in.c && g.groups == out.c;
  return !(pointwise || depthwise);
}

/// Elements of an im2col panel of `panel_rows` output rows: one group's (Cin/groups)·kh·kw patch
/// for each of the panel's pixels. The convolution kernel checks its scratch against this.
constexpr uint64_t conv_scratch_elems(shape in, shape out, const layer_geometry& g, int64_t panel_rows) {
  if (!conv_needs_im2col(in, out, g) || panel_rows <= 0) return 0;
  const int64_t patch = (in.c / g.groups) * g.kernel.h * g.kernel.w;
  return static_cast<uint64_t>(patch * panel_rows * out.w);
}

}  // namespace ctnn::memory
