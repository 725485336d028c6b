// conv2d: 2-D convolution with kernel h×w, stride, asymmetric padding, dilation, groups, bias;
// its op: im2col panel scratch, the GEMM view, weights/bias/requantization, the kernels.
#pragma once
#include "ctnn/core/window.hpp"
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn {

/// The faults of a convolution (op_def<op::conv2d>::raise names them).
enum class conv2d_fault : uint8_t { none, not_feature_map, in_channels, groups, kernel_too_large };

namespace error {
CTNN_DEFINE_ERROR(conv2d_input_is_not_a_feature_map, "ctnn: conv2d: input must be a (C, H, W) feature map, not a flat vector");
CTNN_DEFINE_ERROR(conv2d_input_channels_mismatch, "ctnn: conv2d: the input's channel count differs from the layer's in_channels");
CTNN_DEFINE_ERROR(conv2d_groups_do_not_divide_channels, "ctnn: conv2d: groups must divide both in_channels and out_channels");
CTNN_DEFINE_ERROR(conv2d_kernel_larger_than_padded_input, "ctnn: conv2d: the dilated kernel is larger than the padded input");
}  // namespace error

/// The full configuration of a convolution (PyTorch's Conv2d arguments; padding may be asymmetric).
struct conv2d_config {
  int64_t in_channels = 0;
  int64_t out_channels = 0;
  hw kernel{1, 1};
  hw stride{1, 1};
  pad4 padding{};
  hw dilation{1, 1};
  int64_t groups = 1;
  bool bias = true;
  pad_mode padding_mode = pad_mode::given;  ///< same / same_lower: `padding` is found per input
  friend constexpr bool operator==(const conv2d_config&, const conv2d_config&) = default;
};

/// @brief A convolution layer configured by a conv2d_config: `conv2d_layer<{.in_channels = 3, ...}>`.
/// Its shape, counts and faults are op_def<op::conv2d>'s.
template <conv2d_config C>
struct conv2d_layer : leaf<conv2d_layer<C>> {
  static_assert(C.in_channels > 0 && C.out_channels > 0, "ctnn: conv2d: channel counts must be positive");
  static_assert(C.kernel.h > 0 && C.kernel.w > 0, "ctnn: conv2d: kernel size must be positive");
  static_assert(C.stride.h > 0 && C.stride.w > 0, "ctnn: conv2d: stride must be positive");
  static_assert(C.dilation.h > 0 && C.dilation.w > 0, "ctnn: conv2d: dilation must be positive");
  static_assert(C.padding.top >= 0 && C.padding.bottom >= 0 && C.padding.left >= 0 && C.padding.right >= 0,
                "ctnn: conv2d: padding must not be negative (use zero_pad2d to crop)");
  static_assert(C.groups > 0, "ctnn: conv2d: groups must be positive");

  static constexpr op kind = op::conv2d;
  static constexpr conv2d_config config = C;
  static constexpr bool depthwise = is_depthwise(C.in_channels, C.groups);

  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.kernel = C.kernel;
    g.stride = C.stride;
    g.padding = C.padding;
    g.padding_mode = C.padding_mode;
    g.dilation = C.dilation;
    g.groups = C.groups;
    g.bias = C.bias;
    g.in_channels = C.in_channels;
    g.out_channels = C.out_channels;
    return g;
  }
};

/// @brief The convolution op. Parameters: weights OIHW (T), bias (acc type) when biased, int8
/// per-output-channel requantization. Scratch: im2col panels of whole output rows, asked per row
/// by the kernel's own formula (kernels::conv_scratch_elems); the plan may grant none, and the
/// direct kernel then runs. GEMM view, per group: M = Cout/groups, N = Hout·Wout,
/// K = (Cin/groups)·kh·kw.
template <>
struct op_def<op::conv2d> {
  static constexpr const char* type_name = "Conv2d";
  static constexpr fault_report check(const layer_geometry& g, shape in) {
    if (in.rank != 3) return fail_shape(conv2d_fault::not_feature_map, shape{g.in_channels, 0, 0, 3}, in);
    if (in.c != g.in_channels) return fail(conv2d_fault::in_channels, g.in_channels, in.c);
    if (g.in_channels % g.groups != 0) return fail(conv2d_fault::groups, g.groups, g.in_channels);
    if (g.out_channels % g.groups != 0) return fail(conv2d_fault::groups, g.groups, g.out_channels);
    const int64_t kh = g.dilation.h * (g.kernel.h - 1) + 1;
    const int64_t kw = g.dilation.w * (g.kernel.w - 1) + 1;
    const int64_t ph = in.h + g.padding.top + g.padding.bottom, pw = in.w + g.padding.left + g.padding.right;
    if (kh > ph || kw > pw)
      return fail_shape(conv2d_fault::kernel_too_large, shape{in.c, kh, kw, 3}, shape{in.c, ph, pw, 3});
    return ok();
  }
  static constexpr shape output(const layer_geometry& g, shape in) {
    return shape{g.out_channels,
                 conv_out_extent(in.h, g.padding.top, g.padding.bottom, g.kernel.h, g.stride.h, g.dilation.h),
                 conv_out_extent(in.w, g.padding.left, g.padding.right, g.kernel.w, g.stride.w, g.dilation.w), 3};
  }
  /// MACs = Cout·Hout·Wout·(Cin/groups)·kh·kw; ext_ops = Cout·Hout·Wout bias additions when biased.
  static constexpr leaf_counts counts(const layer_geometry& g, shape in) {
    const shape o = output(g, in);
    const uint64_t per_out = static_cast<uint64_t>(g.in_channels / g.groups * g.kernel.h * g.kernel.w);
    const uint64_t outs = static_cast<uint64_t>(o.elems());
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(g.out_channels) * per_out;
    c.biases = g.bias ? static_cast<uint64_t>(g.out_channels) : 0;
    c.macs = outs * per_out;
    c.ext_ops = g.bias ? outs : 0;
    return c;
  }
  template <diagnostic D>
  static constexpr auto raise() {
    constexpr auto k = static_cast<conv2d_fault>(D.report.code);
    if constexpr (k == conv2d_fault::not_feature_map) return raise_shapes<D, error::conv2d_input_is_not_a_feature_map>();
    else if constexpr (k == conv2d_fault::in_channels) return raise_values<D, error::conv2d_input_channels_mismatch>();
    else if constexpr (k == conv2d_fault::groups) return raise_values<D, error::conv2d_groups_do_not_divide_channels>();
    else return raise_shapes<D, error::conv2d_kernel_larger_than_padded_input>();
  }
  static constexpr scratch_request scratch(const row& r) {
    const kernels::conv_geometry g = runtime::conv_of(r);
    return scratch_request{kernels::conv_panel_row_elems(g), kernels::conv_max_panel_rows(g)};
  }
  static constexpr gemm_view gemm(const row& r) {
    const int64_t groups = r.geometry.groups;
    return gemm_view{r.out.c / groups, r.out.h * r.out.w,
                     (r.in.c / groups) * r.geometry.kernel.h * r.geometry.kernel.w, groups};
  }
  static constexpr runtime::param_regions params(const row& r, dtype t) { return runtime::detail::weighted_regions(r, t); }
  template <dtype T>
  static void fill(const runtime::fill_call& f) { runtime::detail::fill_weighted<T>(f); }
  /// Post-training int8: per-channel symmetric weights, int32 bias, per-channel requantization.
  static kernels::status quantize(const runtime::quantize_call& q) { return runtime::detail::quantize_weighted(q); }
  /// A ReLU, ReLU6 or clamp after it may be fused (fused<conv2d<...>, relu6>).
  static constexpr bool fuses_activation = true;
  /// int8: the weights packed once for the tiled GEMM (kernels::conv2d_s8_packed_bytes; 0 where
  /// the optimized kernel does not run the GEMM: depthwise, K > kmax, RISC-V). float32: packed
  /// once for the implicit-im2col GEMM (kernels::conv2d_f32_packed_bytes; 0 where it does not run).
  static constexpr uint64_t packed_bytes(const row& r, dtype t) {
    if (t == dtype::int8) return kernels::conv2d_s8_packed_bytes(runtime::conv_of(r));
    return t == dtype::float32 ? kernels::conv2d_f32_packed_bytes(runtime::conv_of(r)) : 0;
  }
  static kernels::status pack(const runtime::pack_call& p) {
    if (p.t == dtype::float32) {
      const auto* w = reinterpret_cast<const float*>(p.params + p.lp->w);
      return kernels::pack_conv2d_f32_weights(runtime::conv_of(*p.r), w, p.dst, static_cast<size_t>(p.bytes));
    }
    const auto* w = reinterpret_cast<const int8_t*>(p.params + p.lp->w);
    return kernels::pack_conv2d_s8_weights(runtime::conv_of(*p.r), w, p.dst, static_cast<size_t>(p.bytes));
  }

  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const kernels::conv_geometry g = runtime::conv_of(*c.r);
    if constexpr (is_same_v<T, int8_t>) {
      const ref::gemm_s8_params gp = runtime::gemm_params(c);
      if constexpr (B == runtime::backend::optimized) {
        // the static packing workspace holds K <= kmax; beyond it the direct kernel needs none
        using tiling = kernels::default_s8_tiling;
        const bool fits =
            tiling::workspace_bytes(g.gemm_k()) <= sizeof(kernels::detail::static_workspace_s8<tiling>::buf);
        return runtime::from(kernels::conv2d_s8(g, c.in[0], c.weights(), c.bias(), c.out, gp,
                                                fits ? c.panel_rows : 0, c.scratch, c.scratch_bytes, nullptr, 0,
                                                c.packed));
      } else {
        return runtime::from(ref::conv2d_s8(g, c.in[0], c.weights(), c.bias(), c.out, gp));
      }
    } else if constexpr (B == runtime::backend::optimized) {
      // the fused activation's clamp inside the kernel (the implicit-im2col path applies it as
      // it stores; the others in a pass of their own, as finish_fused would)
      const layer_geometry& lg = c.r->geometry;
      const bool act = lg.act != fused_act::none;
      return runtime::from(kernels::conv2d_f32(g, c.in[0], c.weights(), c.bias(), c.out, c.panel_rows, c.scratch,
                                               c.scratch_bytes, nullptr, act ? lg.act_lo : -__builtin_huge_valf(),
                                               act ? lg.act_hi : __builtin_huge_valf(), c.packed,
                                               static_cast<size_t>(c.packed_bytes)));
    } else {
      return runtime::finish_fused(c, ref::conv2d_f32(g, c.in[0], c.weights(), c.bias(), c.out));
    }
  }
};

/// @brief PyTorch-ordered convolution: conv2d<in, out, kernel, stride, padding, dilation, groups, bias>.
/// Kernel, stride and dilation are a number (square) or hw{h, w}; padding is a number, hw{ph, pw},
/// pad4{top, bottom, left, right} or `same` / `same_lower` (pad_spec):
/// `conv2d<192, 192, hw{1, 7}, 1, hw{0, 3}>` is Inception's 1×7, `conv2d<32, 64, 3, 2, same>` TensorFlow's.
template <int64_t In, int64_t Out, hw Kernel, hw Stride = 1, pad_spec Padding = 0, hw Dilation = 1,
          int64_t Groups = 1, bool Bias = true>
using conv2d = conv2d_layer<conv2d_config{In, Out, Kernel, Stride, sides_of(Padding), Dilation, Groups, Bias,
                                          mode_of(Padding)}>;

/// @brief Depthwise convolution (groups == channels), no bias by default as in MobileNets.
template <int64_t Channels, hw Kernel, hw Stride = 1, pad_spec Padding = 0, bool Bias = false>
using depthwise_conv2d = conv2d<Channels, Channels, Kernel, Stride, Padding, 1, Channels, Bias>;

}  // namespace ctnn
