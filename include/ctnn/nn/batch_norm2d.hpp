// batch_norm2d: inference-time batch normalization. gamma/beta are parameters; the running mean and
// variance are buffers (torchinfo does not count them as parameters either). Its op: in place;
// float keeps gamma, beta, mean and var, int8 is folded as TFLite does (a per-channel affine map).
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn {

/// The fault of the per-channel layers (batch norm, layer norm, layer scale).
enum class per_channel_fault : uint8_t { none, channels, not_feature_map };

namespace error {
CTNN_DEFINE_ERROR(batch_norm_channels_mismatch, "ctnn: batch_norm2d / layer_norm2d / channel_scale: the input's channel count differs from the layer's");
CTNN_DEFINE_ERROR(batch_norm_input_is_not_a_feature_map, "ctnn: batch_norm2d / layer_norm2d / channel_scale: input must be a (C, H, W) feature map, not a flat vector");
}  // namespace error

namespace detail {
/// The attributes of a per-channel layer of Channels channels (and epsilon EpsNum/EpsDen).
template <int64_t Channels, int64_t EpsNum = 0, int64_t EpsDen = 1>
struct per_channel {
  static_assert(Channels > 0, "ctnn: a per-channel layer needs a positive channel count");
  static_assert(EpsNum >= 0 && EpsDen > 0, "ctnn: a per-channel layer's epsilon EpsNum/EpsDen must be >= 0");
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.in_channels = Channels;
    g.out_channels = Channels;
    g.epsilon = ratio_value(EpsNum, EpsDen);
    return g;
  }
};

/// Shape logic and diagnostics of the per-channel ops (batch norm, layer norm, layer scale): the
/// input must be a feature map of C channels, and the shape is kept.
struct per_channel_faults {
  static constexpr fault_report check(const layer_geometry& g, shape in) {
    if (in.rank != 3) return fail_shape(per_channel_fault::not_feature_map, shape{g.in_channels, 0, 0, 3}, in);
    if (in.c != g.in_channels) return fail(per_channel_fault::channels, g.in_channels, in.c);
    return ok();
  }
  static constexpr shape output(const layer_geometry&, shape in) { return in; }
  template <diagnostic D>
  static constexpr auto raise() {
    if constexpr (static_cast<per_channel_fault>(D.report.code) == per_channel_fault::not_feature_map)
      return raise_shapes<D, error::batch_norm_input_is_not_a_feature_map>();
    else return raise_values<D, error::batch_norm_channels_mismatch>();
  }
};

/// Seeded parameters of a per-channel affine op: batch norm (with beta, mean, var) or layer scale
/// (gamma only). int8: y = m x + (beta - m mean), m = gamma / sqrt(var + eps), stored as an int8
/// scale_q in [64, 127] and the requantization of m / scale_q.
template <dtype T>
inline void fill_affine(const runtime::fill_call& f, bool bn) {
  const runtime::leaf_param_layout& l = *f.lp;
  runtime::splitmix64& g = *f.g;
  for (int64_t k = 0; k < l.channels; ++k) {
    const float gamma = g.uniform(0.5f, 1.5f);
    const float beta = bn ? g.uniform(-0.2f, 0.2f) : 0.0f;
    const float mean = bn ? g.uniform(-0.2f, 0.2f) : 0.0f;
    const float var = bn ? g.uniform(0.5f, 1.5f) : 1.0f;
    if constexpr (T == dtype::float32) {
      f.at<float>(l.w)[k] = gamma;
      if (bn) {
        f.at<float>(l.b)[k] = beta;
        f.at<float>(l.mean)[k] = mean;
        f.at<float>(l.var)[k] = var;
      }
    } else {
      const float m = bn ? gamma / kernels::math::sqrt(var + f.r->geometry.epsilon) : gamma;
      const int32_t scale_q = g.range(64, 127);
      const double w_scale = static_cast<double>(m) / scale_q;
      const double acc_scale = static_cast<double>(f.in_q.scale) * w_scale;
      f.at<int8_t>(l.w)[k] = static_cast<int8_t>(scale_q);
      if (bn) f.at<int32_t>(l.b)[k] = runtime::detail::round_to_int((beta - m * mean) / acc_scale);
      runtime::detail::store_requant(f, k, acc_scale / static_cast<double>(f.out_q.scale));
    }
  }
}

/// Post-training int8 of a per-channel affine op left on its own (a batch norm that follows no
/// convolution, a layer scale): y = m x + (beta - m mean), m = gamma / sqrt(var + eps) (the float
/// kernel's arithmetic), m quantized symmetric per channel (a one-weight channel: +-127 or 0), the
/// shift an int32 bias at in_scale * w_scale, and the per-channel requantization.
inline kernels::status quantize_affine(const runtime::quantize_call& q, bool bn) {
  const runtime::leaf_param_layout& f = *q.f32_lp;
  const int64_t c = q.lp->channels;
  const uint64_t stats = static_cast<uint64_t>(c) * 4;
  const float* gamma = q.from<float>(f.w, f.w_bytes);
  const float* beta = q.from<float>(f.b, f.b_bytes);
  const float* mean = q.from<float>(f.mean, bn ? stats : 0);
  const float* var = q.from<float>(f.var, bn ? stats : 0);
  for (int64_t k = 0; k < c; ++k) {
    float m = gamma[k];
    if (bn) m = gamma[k] / kernels::math::sqrt(var[k] + q.r->geometry.epsilon);
    const float w_scale = runtime::detail::quantize_channel(&m, 1, q.at<int8_t>(q.lp->w) + k);
    if (bn) q.at<int32_t>(q.lp->b)[k] = runtime::detail::quantize_bias(beta[k] - m * mean[k], q.in_q.scale, w_scale);
    if (const kernels::status s = runtime::detail::store_requant(q, k, w_scale); s != kernels::status::ok) return s;
  }
  return kernels::status::ok;
}
}  // namespace detail

/// @brief y = gamma·(x − mean)/sqrt(var + eps) + beta per channel, eps = EpsNum/EpsDen (PyTorch's
/// default 1e-5; torchvision's GoogLeNet and Inception-v3 and Keras use 1e-3:
/// `batch_norm2d<64, 1, 1000>`).
template <int64_t NumFeatures, int64_t EpsNum = 1, int64_t EpsDen = 100000>
struct batch_norm2d : leaf<batch_norm2d<NumFeatures, EpsNum, EpsDen>>,
                      detail::per_channel<NumFeatures, EpsNum, EpsDen> {
  static constexpr op kind = op::batch_norm2d;
  static constexpr int64_t num_features = NumFeatures;
  static constexpr float eps = ratio_value(EpsNum, EpsDen);
};

/// @brief Batch norm's op: in place. float: gamma, beta, mean, var (float[C] each; eps from the row);
/// int8: scale_q int8[C], bias int32[C] and the per-channel requantization.
template <>
struct op_def<op::batch_norm2d> : detail::per_channel_faults {
  static constexpr const char* type_name = "BatchNorm2d";
  /// ext_ops = 2·C·H·W (a fused multiply and add per element, ptflops' affine convention).
  static constexpr leaf_counts counts(const layer_geometry& g, shape in) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(g.in_channels);
    c.biases = static_cast<uint64_t>(g.in_channels);
    c.buffers = 2 * static_cast<uint64_t>(g.in_channels);
    c.ext_ops = 2 * static_cast<uint64_t>(in.elems());
    return c;
  }
  static constexpr reuse_rule reuse{false, 1, false};
  static constexpr runtime::param_regions params(const row& r, dtype t) {
    const bool q = t == dtype::int8;
    const uint64_t c = static_cast<uint64_t>(r.out.c);
    return runtime::param_regions{c * (q ? 1u : 4u), 4 * c, q ? 0 : 4 * c, q};
  }
  template <dtype T>
  static void fill(const runtime::fill_call& f) { detail::fill_affine<T>(f, true); }
  /// Post-training int8 (ctnn-import folds a batch norm that follows a convolution into it instead).
  static kernels::status quantize(const runtime::quantize_call& q) { return detail::quantize_affine(q, true); }
  /// float32, after a convolution that only it reads (runtime/fold.hpp): folded into that
  /// convolution's weights and bias, w s and b s + t per output channel with the optimized
  /// kernel's s = gamma / sqrt(var + eps) and t = beta - mean s (PyTorch's conv-BN folding).
  static void fold(const runtime::fold_call& f) {
    const runtime::leaf_param_layout& l = *f.lp;
    const auto* gamma = reinterpret_cast<const float*>(f.params + l.w);
    const auto* beta = reinterpret_cast<const float*>(f.params + l.b);
    const auto* mean = reinterpret_cast<const float*>(f.params + l.mean);
    const auto* var = reinterpret_cast<const float*>(f.params + l.var);
    const float eps = f.r->geometry.epsilon;
    for (int64_t ch = 0; ch < f.channels; ++ch) {
      const float s = gamma[ch] / kernels::math::sqrt(var[ch] + eps), t = beta[ch] - mean[ch] * s;
      const float* w = f.w + ch * f.per_channel;
      float* wo = f.w_out + ch * f.per_channel;
      for (int64_t k = 0; k < f.per_channel; ++k) wo[k] = w[k] * s;
      f.b_out[ch] = f.b != nullptr ? f.b[ch] * s + t : t;
    }
  }
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    const int64_t hw = r.out.h * r.out.w;
    if constexpr (is_same_v<T, int8_t>) {
      if constexpr (B == runtime::backend::optimized)  // per-channel tables (kernels/layers.hpp)
        return runtime::from(
            kernels::batchnorm2d_s8(r.out.c, hw, c.in[0], c.weights(), c.bias(), c.out, runtime::gemm_params(c)));
      return runtime::from(
          ref::batchnorm2d_s8(r.out.c, hw, c.in[0], c.weights(), c.bias(), c.out, runtime::gemm_params(c)));
    } else {
      const runtime::leaf_param_layout& l = *c.lp;
      const uint64_t stats = static_cast<uint64_t>(r.out.c) * 4;
      const float* mean = c.template region<float>(l.mean, stats);
      const float* var = c.template region<float>(l.var, stats);
      if constexpr (B == runtime::backend::optimized)  // scale and shift folded per channel
        return runtime::from(
            kernels::batchnorm2d_f32(r.out.c, hw, c.in[0], mean, var, c.weights(), c.bias(), r.geometry.epsilon, c.out));
      return runtime::from(
          ref::batchnorm2d_f32(r.out.c, hw, c.in[0], mean, var, c.weights(), c.bias(), r.geometry.epsilon, c.out));
    }
  }
};

}  // namespace ctnn
