// batch_norm2d: inference-time batch normalization. gamma/beta are parameters; the running mean and
// variance are buffers (torchinfo does not count them as parameters either). Its op: in place;
// float keeps gamma, beta, mean and var, int8 is folded as TFLite does (a per-channel affine map).
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn {

/// The fault of the per-channel layers (batch norm, layer norm, layer scale).
enum class per_channel_fault : uint8_t { none, channels };

namespace error {
CTNN_DEFINE_ERROR(batch_norm_channels_mismatch, "ctnn: batch_norm2d / layer_norm2d / channel_scale: the input's channel count differs from the layer's");
}  // namespace error

namespace detail {
/// Shape logic shared by the per-channel layers (batch norm, layer norm, layer scale): the input
/// must have Channels channels and the shape is kept.
template <int64_t Channels>
struct per_channel {
  static_assert(Channels > 0, "ctnn: a per-channel layer needs a positive channel count");
  static constexpr fault_report check(shape in) {
    if (in.c != Channels) return fail(per_channel_fault::channels, Channels, in.c);
    return ok();
  }
  static constexpr shape output(shape in) { return in; }
};

/// The diagnostic of the per-channel ops.
struct per_channel_faults {
  template <diagnostic D>
  static constexpr bool raise() { return raise_values<D, error::batch_norm_channels_mismatch>(); }
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
      const float m = bn ? gamma / kernels::math::sqrt(var + 1e-5f) : gamma;
      const int32_t scale_q = g.range(64, 127);
      const double w_scale = static_cast<double>(m) / scale_q;
      const double acc_scale = static_cast<double>(f.in_q.scale) * w_scale;
      f.at<int8_t>(l.w)[k] = static_cast<int8_t>(scale_q);
      if (bn) f.at<int32_t>(l.b)[k] = runtime::detail::round_to_int((beta - m * mean) / acc_scale);
      runtime::detail::store_requant(f, k, acc_scale / static_cast<double>(f.out_q.scale));
    }
  }
}
}  // namespace detail

/// @brief y = gamma·(x − mean)/sqrt(var + eps) + beta per channel. ext_ops = 2·C·H·W (a fused
/// multiply and add per element, ptflops' affine convention).
template <int64_t NumFeatures>
struct batch_norm2d : leaf<batch_norm2d<NumFeatures>>, detail::per_channel<NumFeatures> {
  static constexpr const char* type_name = "BatchNorm2d";
  static constexpr op kind = op::batch_norm2d;
  static constexpr int64_t num_features = NumFeatures;
  static constexpr leaf_counts counts(shape in) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(NumFeatures);
    c.biases = static_cast<uint64_t>(NumFeatures);
    c.buffers = 2 * static_cast<uint64_t>(NumFeatures);
    c.ext_ops = 2 * static_cast<uint64_t>(in.elems());
    return c;
  }
};

/// @brief Batch norm's op: in place. float: gamma, beta, mean, var (float[C] each, eps 1e-5);
/// int8: scale_q int8[C], bias int32[C] and the per-channel requantization.
template <>
struct op_def<op::batch_norm2d> : detail::per_channel_faults {
  static constexpr reuse_rule reuse{false, 1, false};
  static constexpr runtime::param_regions params(const row& r, dtype t) {
    const bool q = t == dtype::int8;
    const uint64_t c = static_cast<uint64_t>(r.out.c);
    return runtime::param_regions{c * (q ? 1u : 4u), 4 * c, q ? 0 : 4 * c, q};
  }
  template <dtype T>
  static void fill(const runtime::fill_call& f) { detail::fill_affine<T>(f, true); }
  template <class T, runtime::backend>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    const int64_t hw = r.out.h * r.out.w;
    if constexpr (is_same_v<T, int8_t>) {
      return runtime::from(
          ref::batchnorm2d_s8(r.out.c, hw, c.in[0], c.weights(), c.bias(), c.out, runtime::gemm_params(c)));
    } else {
      const runtime::leaf_param_layout& l = *c.lp;
      const uint64_t stats = static_cast<uint64_t>(r.out.c) * 4;
      return runtime::from(ref::batchnorm2d_f32(r.out.c, hw, c.in[0], c.template region<float>(l.mean, stats),
                                                c.template region<float>(l.var, stats), c.weights(), c.bias(), 1e-5f,
                                                c.out));
    }
  }
};

}  // namespace ctnn
