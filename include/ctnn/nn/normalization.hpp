// Per-channel layers beside batch norm: layer_norm2d (ConvNeXt's LayerNorm over the channels of
// each position) and channel_scale (ConvNeXt's layer scale, a learned per-channel multiplier).
#pragma once
#include "ctnn/nn/batch_norm2d.hpp"

namespace ctnn {

/// @brief LayerNorm over the C channels at every (h, w), with affine γ and β (params 2·C), eps =
/// EpsNum/EpsDen (ConvNeXt's 1e-6 by default; PyTorch's LayerNorm default is 1e-5).
template <int64_t Channels, int64_t EpsNum = 1, int64_t EpsDen = 1000000>
struct layer_norm2d : leaf<layer_norm2d<Channels, EpsNum, EpsDen>>, detail::per_channel<Channels, EpsNum, EpsDen> {
  static constexpr op kind = op::layer_norm2d;
  static constexpr float eps = ratio_value(EpsNum, EpsDen);
};

/// @brief y[c] = γ[c] · x[c] (ConvNeXt's layer scale). params C; ext_ops 1 per element. In place.
template <int64_t Channels>
struct channel_scale : leaf<channel_scale<Channels>>, detail::per_channel<Channels> {
  static constexpr op kind = op::channel_scale;
};

/// @brief Layer norm's op: gamma and beta float[C] in both dtypes (eps from the row); int8
/// dequantizes, normalizes in float and quantizes.
template <>
struct op_def<op::layer_norm2d> : detail::per_channel_faults {
  static constexpr const char* type_name = "LayerNorm2d";
  /// ext_ops = 5 per element (mean and variance accumulation, subtract, scale, shift).
  static constexpr leaf_counts counts(const layer_geometry& g, shape in) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(g.in_channels);
    c.biases = static_cast<uint64_t>(g.in_channels);
    c.ext_ops = 5 * static_cast<uint64_t>(in.elems());
    return c;
  }
  static constexpr runtime::param_regions params(const row& r, dtype) {
    const uint64_t c = static_cast<uint64_t>(r.out.c);
    return runtime::param_regions{4 * c, 4 * c, 0, false};
  }
  template <dtype T>
  static void fill(const runtime::fill_call& f) {
    for (int64_t k = 0; k < f.lp->channels; ++k) {
      f.at<float>(f.lp->w)[k] = f.g->uniform(0.5f, 1.5f);
      f.at<float>(f.lp->b)[k] = f.g->uniform(-0.2f, 0.2f);
    }
  }
  template <class T, runtime::backend>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    const int64_t hw = r.out.h * r.out.w;
    const float* gamma = c.template region<float>(c.lp->w, c.lp->w_bytes);
    const float* beta = c.template region<float>(c.lp->b, c.lp->b_bytes);
    if constexpr (is_same_v<T, int8_t>)
      return runtime::from(ref::layer_norm2d_s8(r.out.c, hw, c.in[0], gamma, beta, r.geometry.epsilon, c.out, c.q_in[0].scale,
                                                c.q_in[0].zero_point, c.q_out.scale, c.q_out.zero_point));
    else return runtime::from(ref::layer_norm2d_f32(r.out.c, hw, c.in[0], gamma, beta, r.geometry.epsilon, c.out));
  }
};

/// @brief Layer scale's op: in place; float gamma[C]; int8 as batch norm without bias.
template <>
struct op_def<op::channel_scale> : detail::per_channel_faults {
  static constexpr const char* type_name = "LayerScale";
  static constexpr leaf_counts counts(const layer_geometry& g, shape in) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(g.in_channels);
    c.ext_ops = static_cast<uint64_t>(in.elems());
    return c;
  }
  static constexpr reuse_rule reuse{false, 1, false};
  static constexpr runtime::param_regions params(const row& r, dtype t) {
    const bool q = t == dtype::int8;
    return runtime::param_regions{static_cast<uint64_t>(r.out.c) * (q ? 1u : 4u), 0, 0, q};
  }
  template <dtype T>
  static void fill(const runtime::fill_call& f) { detail::fill_affine<T>(f, false); }
  static kernels::status quantize(const runtime::quantize_call& q) { return detail::quantize_affine(q, false); }
  template <class T, runtime::backend>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    const int64_t hw = r.out.h * r.out.w;
    if constexpr (is_same_v<T, int8_t>)
      return runtime::from(
          ref::batchnorm2d_s8(r.out.c, hw, c.in[0], c.weights(), nullptr, c.out, runtime::gemm_params(c)));
    else return runtime::from(ref::mul_channels_f32(r.out.c, hw, c.in[0], c.weights(), c.out));
  }
};

}  // namespace ctnn
