// Pooling: max and average with kernel, stride, padding, dilation (max), ceil_mode and
// count_include_pad (avg), adaptive average pooling and global average pooling.
// Each with its op (output quantization = the input's; kernels).
#pragma once
#include "ctnn/core/window.hpp"
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"
#include "ctnn/runtime/fast_paths.hpp"

namespace ctnn {

/// The faults of the pooling layers (max, avg, adaptive).
enum class pool_fault : uint8_t { none, not_feature_map, padding_too_large, empty_output };

namespace error {
CTNN_DEFINE_ERROR(pool_input_is_not_a_feature_map, "ctnn: pool: input must be a (C, H, W) feature map, not a flat vector");
CTNN_DEFINE_ERROR(pool_padding_exceeds_half_kernel, "ctnn: pool: padding must be at most half the kernel size");
CTNN_DEFINE_ERROR(pool_output_is_empty, "ctnn: pool: the output would be empty");
}  // namespace error

struct pool2d_config {
  hw kernel{1, 1};
  hw stride{0, 0};  ///< 0 means "same as the kernel", PyTorch's default
  pad4 padding{};    ///< top, bottom, left, right (as conv2d_config), each at most half the kernel
  hw dilation{1, 1};
  bool ceil_mode = false;
  bool count_include_pad = true;  ///< avg only
  pad_mode padding_mode = pad_mode::given;  ///< same / same_lower: `padding` is found per input
  friend constexpr bool operator==(const pool2d_config&, const pool2d_config&) = default;
};

namespace detail {
constexpr pool2d_config resolve(pool2d_config c) {
  if (c.stride.h == 0) c.stride.h = c.kernel.h;
  if (c.stride.w == 0) c.stride.w = c.kernel.w;
  return c;
}

/// The attributes of a pooling type: its config with the stride resolved, padding as pad4.
template <pool2d_config C>
struct pool_common {
  static constexpr pool2d_config config = resolve(C);
  static_assert(C.kernel.h > 0 && C.kernel.w > 0, "ctnn: pool: kernel size must be positive");
  static_assert(C.stride.h >= 0 && C.stride.w >= 0, "ctnn: pool: stride must be positive");
  static_assert(C.padding.top >= 0 && C.padding.bottom >= 0 && C.padding.left >= 0 && C.padding.right >= 0,
                "ctnn: pool: padding must not be negative");
  static_assert(C.dilation.h > 0 && C.dilation.w > 0, "ctnn: pool: dilation must be positive");

  static constexpr layer_geometry geometry() {
    constexpr pool2d_config c = config;
    layer_geometry g{};
    g.kernel = c.kernel;
    g.stride = c.stride;
    g.padding = c.padding;
    g.padding_mode = c.padding_mode;
    g.dilation = c.dilation;
    g.ceil_mode = c.ceil_mode;
    g.count_include_pad = c.count_include_pad;
    return g;
  }
};

/// Value-level shape logic of max and avg pooling (any padding per side, at most half the dilated
/// kernel, as PyTorch requires). ext_ops = input elements (ptflops' convention).
struct window_pool_shape {
  static constexpr shape output(const layer_geometry& g, shape in) {
    return shape{in.c,
                 window_out_extent(in.h, g.padding.top, g.padding.bottom, g.kernel.h, g.stride.h, g.dilation.h, g.ceil_mode),
                 window_out_extent(in.w, g.padding.left, g.padding.right, g.kernel.w, g.stride.w, g.dilation.w, g.ceil_mode),
                 3};
  }
  static constexpr fault_report check(const layer_geometry& g, shape in) {
    if (in.rank != 3) return fail_shape(pool_fault::not_feature_map, shape{in.c, 0, 0, 3}, in);
    const int64_t eh = g.dilation.h * (g.kernel.h - 1) + 1;
    const int64_t ew = g.dilation.w * (g.kernel.w - 1) + 1;
    const int64_t ph = max(g.padding.top, g.padding.bottom), pw = max(g.padding.left, g.padding.right);
    if (ph > eh / 2) return fail(pool_fault::padding_too_large, eh / 2, ph);
    if (pw > ew / 2) return fail(pool_fault::padding_too_large, ew / 2, pw);
    const shape o = output(g, in);
    if (o.h < 1 || o.w < 1) return fail_shape(pool_fault::empty_output, in, o);
    return ok();
  }
  static constexpr leaf_counts counts(const layer_geometry&, shape in) {
    leaf_counts k{};
    k.ext_ops = static_cast<uint64_t>(in.elems());
    return k;
  }
};
}  // namespace detail

/// @brief Max pooling configured by a pool2d_config.
template <pool2d_config C>
struct max_pool2d_layer : leaf<max_pool2d_layer<C>>, detail::pool_common<C> {
  static constexpr op kind = op::max_pool2d;
};

/// @brief Average pooling configured by a pool2d_config.
template <pool2d_config C>
struct avg_pool2d_layer : leaf<avg_pool2d_layer<C>>, detail::pool_common<C> {
  static_assert(C.dilation.h == 1 && C.dilation.w == 1, "ctnn: avg_pool2d has no dilation");
  static constexpr op kind = op::avg_pool2d;
};

/// @brief max_pool2d<kernel, stride = kernel, padding = 0, ceil_mode = false>: kernel and stride a
/// number or hw{h, w}, padding a pad_spec (a number, hw{ph, pw}, pad4{top, bottom, left, right},
/// `same`), as conv2d's.
template <hw Kernel, hw Stride = Kernel, pad_spec Padding = 0, bool CeilMode = false>
using max_pool2d = max_pool2d_layer<pool2d_config{Kernel, Stride, sides_of(Padding), {1, 1}, CeilMode, true, mode_of(Padding)}>;

/// @brief avg_pool2d<kernel, stride = kernel, padding = 0, ceil_mode = false, count_include_pad = true>.
template <hw Kernel, hw Stride = Kernel, pad_spec Padding = 0, bool CeilMode = false, bool CountIncludePad = true>
using avg_pool2d =
    avg_pool2d_layer<pool2d_config{Kernel, Stride, sides_of(Padding), {1, 1}, CeilMode, CountIncludePad, mode_of(Padding)}>;

/// @brief Adaptive average pooling to OutH×OutW. ext_ops = input elements.
template <int64_t OutH, int64_t OutW = OutH>
struct adaptive_avg_pool2d : leaf<adaptive_avg_pool2d<OutH, OutW>> {
  static_assert(OutH > 0 && OutW > 0, "ctnn: adaptive_avg_pool2d: output size must be positive");
  static constexpr op kind = op::adaptive_avg_pool2d;
  static constexpr int64_t out_h = OutH;
  static constexpr int64_t out_w = OutW;
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.out_size = hw{OutH, OutW};
    return g;
  }
};

/// @brief Global average pooling: (C, H, W) -> (C, 1, 1).
using global_avg_pool2d = adaptive_avg_pool2d<1, 1>;

namespace detail {
/// The diagnostics of the three pooling ops.
struct pool_faults {
  template <diagnostic D>
  static constexpr auto raise() {
    constexpr auto k = static_cast<pool_fault>(D.report.code);
    if constexpr (k == pool_fault::not_feature_map) return raise_shapes<D, error::pool_input_is_not_a_feature_map>();
    else if constexpr (k == pool_fault::padding_too_large) return raise_values<D, error::pool_padding_exceeds_half_kernel>();
    else return raise_shapes<D, error::pool_output_is_empty>();
  }
};
}  // namespace detail

/// @brief Max pooling: int8 in and out share one quantization; no dilated kernel (unsupported).
/// The optimized backend runs kernels::max_pool2d (separable, vectorized; on RISC-V the
/// bounds-test-free scalar path when every window lies in the input).
template <>
struct op_def<op::max_pool2d> : detail::pool_faults, detail::window_pool_shape {
  static constexpr const char* type_name = "MaxPool2d";
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    if (r.geometry.dilation.h != 1 || r.geometry.dilation.w != 1) return runtime::unsupported;
    if (!runtime::keeps_quant(c)) return runtime::quant_mismatch;
    const kernels::pool_geometry g = runtime::pool_of(r);
    if constexpr (B == runtime::backend::optimized) {
      // RISC-V: the scalar loop with 32-bit indices when every window is inside; elsewhere the
      // separable vector kernel (kernels::max_pool2d) for every geometry
      if (CTNN_KERNELS_SCALAR && runtime::fast::pool_windows_inside(g, r.out.h, r.out.w)) {
        runtime::fast::max_pool_inside<T>(g, r.out.h, r.out.w, c.in[0], c.out);
        return runtime::leaf_done;
      }
      return runtime::from(kernels::max_pool2d<T>(g, c.in[0], c.out));
    } else {
      return runtime::from(ref::max_pool2d<T>(g, c.in[0], c.out));
    }
  }
};

/// @brief Average pooling: int8 in and out share one quantization (TFLite); float has no
/// optimized kernel (the reference runs).
template <>
struct op_def<op::avg_pool2d> : detail::pool_faults, detail::window_pool_shape {
  static constexpr const char* type_name = "AvgPool2d";
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const kernels::pool_geometry g = runtime::pool_of(*c.r);
    if constexpr (is_same_v<T, int8_t>) {
      if (!runtime::keeps_quant(c)) return runtime::quant_mismatch;
      if constexpr (B == runtime::backend::optimized)
        return runtime::from(kernels::avg_pool2d_s8(g, c.in[0], c.out, c.q_in[0].zero_point));
      else return runtime::from(ref::avg_pool2d_s8(g, c.in[0], c.out, c.q_in[0].zero_point));
    } else {
      return runtime::from(ref::avg_pool2d_f32(g, c.in[0], c.out));
    }
  }
};

/// @brief Adaptive average pooling (PyTorch windows); int8 keeps the input's quantization. The
/// optimized backend runs kernels::global_avg_pool2d for a 1 x 1 output.
template <>
struct op_def<op::adaptive_avg_pool2d> : detail::pool_faults {
  static constexpr const char* type_name = "AdaptiveAvgPool2d";
  static constexpr fault_report check(const layer_geometry&, shape in) {
    if (in.rank != 3) return fail_shape(pool_fault::not_feature_map, shape{in.c, 0, 0, 3}, in);
    return ok();
  }
  static constexpr shape output(const layer_geometry& g, shape in) { return shape{in.c, g.out_size.h, g.out_size.w, 3}; }
  /// ext_ops = input elements.
  static constexpr leaf_counts counts(const layer_geometry&, shape in) {
    leaf_counts k{};
    k.ext_ops = static_cast<uint64_t>(in.elems());
    return k;
  }
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    if (!runtime::keeps_quant(c)) return runtime::quant_mismatch;
    if constexpr (B == runtime::backend::optimized)  // global average pooling: the vector kernel
      if (r.out.h == 1 && r.out.w == 1) return runtime::from(kernels::global_avg_pool2d<T>(r.in.c, r.in.h, r.in.w, c.in[0], c.out));
    return runtime::from(ref::adaptive_avg_pool2d<T>(r.in.c, r.in.h, r.in.w, r.out.h, r.out.w, c.in[0], c.out));
  }
};

}  // namespace ctnn
