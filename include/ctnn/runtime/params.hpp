// The parameter blob of a network, laid out at compile time from the network type, and a seeded
// generator of deterministic parameters (float32 and int8) for tests, benches and the golden run.
//
// One flat blob, every region 16-byte aligned, leaves in execution order, then the table of
// per-tensor activation quantization (int8 only):
//
//   +----------------+---------------+------------------+-----+----------------------------+
//   | leaf 0 weights | leaf 0 bias   | leaf 0 mult/shift | ... | tensor scale[] | tensor zp[] |
//   +----------------+---------------+------------------+-----+----------------------------+
//
// Per leaf kind (T = float or int8_t; "acc" = int32 for int8, float for float32):
//   conv2d, linear        w: T[weights] (OIHW / [out][in]), b: acc[out_c] when biased,
//                         int8: mult, shift: int32[out_c] (per output channel requantization)
//   batch_norm2d          float: w = gamma, b = beta, mean, var (float[C] each; eps 1e-5)
//                         int8: folded as TFLite does: w = scale_q int8[C], b = int32[C], mult, shift
//   channel_scale         float: w = gamma; int8: as batch_norm2d without bias
//   layer_norm2d          w = gamma, b = beta, float[C] in both dtypes (eps 1e-6, ConvNeXt's)
//
// Activation quantization rule (int8, no calibration data): per tensor, symmetric around 0 with
// scale 1/32 (the real range [-4, 4)) and zero point 0; sigmoid, hardsigmoid and softmax outputs
// use 1/256 and zero point -128 (the range [0, 1)), tanh 1/128 and 0. Shape-only layers (pooling,
// flatten, dropout, pad, shuffle, slice, concat) keep their input's. The generator draws weights
// whose real values are uniform in +-sqrt(3 / fan_in), which keeps an activation's second moment
// through a layer, so a 1/32 grid over [-4, 4) holds the activations of the test networks.
#pragma once
#include "ctnn/core/dtype.hpp"
#include "ctnn/kernels/math.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/nn/network.hpp"

namespace ctnn::runtime {

/// @brief Where one leaf's parameters live in the blob (byte offsets; 0 bytes = absent).
struct leaf_param_layout {
  uint64_t w = 0, w_bytes = 0;          ///< weights, gamma, or int8 per-channel scale
  uint64_t b = 0, b_bytes = 0;          ///< bias or beta
  uint64_t mean = 0, var = 0;           ///< float batch norm: running statistics
  uint64_t mult = 0, shift = 0;         ///< int8: per-output-channel requantization
  int64_t channels = 0;                 ///< output channels of the per-channel arrays
};

/// @brief The blob layout of a network in one dtype: per leaf regions, the quantization table
/// (int8), and the total size.
template <size_t Leaves, size_t Tensors>
struct param_layout {
  array<leaf_param_layout, Leaves> leaves{};
  uint64_t quant_scale = 0;  ///< int8: float[Tensors], the scale of each tensor
  uint64_t quant_zp = 0;     ///< int8: int32[Tensors], the zero point of each tensor
  uint64_t total_bytes = 0;
};

/// The alignment of every region of the blob.
inline constexpr uint64_t param_alignment = 16;

namespace detail {

constexpr int64_t out_channels_of(const row& r) { return r.out.c; }

template <Network Net, dtype T>
constexpr auto make_param_layout() {
  static_assert(T == dtype::float32 || T == dtype::int8, "ctnn: runtime: parameters exist for float32 and int8");
  constexpr bool q = T == dtype::int8;
  param_layout<static_cast<size_t>(Net::leaf_count), static_cast<size_t>(Net::tensor_count)> p{};
  uint64_t at = 0;
  auto take = [&at](uint64_t bytes) {
    const uint64_t o = at;
    at = round_up(at + bytes, param_alignment);
    return o;
  };
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    leaf_param_layout& l = p.leaves[static_cast<size_t>(i)];
    const uint64_t c = static_cast<uint64_t>(r.kind == op::linear ? r.out.c : r.out.c);
    l.channels = static_cast<int64_t>(c);
    auto per_channel = [&]() {
      l.mult = take(4 * c);
      l.shift = take(4 * c);
    };
    switch (r.kind) {
      case op::conv2d:
      case op::linear:
        l.w_bytes = r.counts.weights * (q ? 1u : 4u);
        l.w = take(l.w_bytes);
        l.b_bytes = r.counts.biases * 4u;
        if (l.b_bytes != 0) l.b = take(l.b_bytes);
        if (q) per_channel();
        break;
      case op::batch_norm2d:
        l.w_bytes = c * (q ? 1u : 4u);
        l.w = take(l.w_bytes);
        l.b_bytes = 4 * c;
        l.b = take(l.b_bytes);
        if (q) per_channel();
        else {
          l.mean = take(4 * c);
          l.var = take(4 * c);
        }
        break;
      case op::channel_scale:
        l.w_bytes = c * (q ? 1u : 4u);
        l.w = take(l.w_bytes);
        if (q) per_channel();
        break;
      case op::layer_norm2d:
        l.w_bytes = 4 * c;
        l.w = take(l.w_bytes);
        l.b_bytes = 4 * c;
        l.b = take(l.b_bytes);
        break;
      default: break;
    }
  }
  if (q) {
    p.quant_scale = take(4u * static_cast<uint64_t>(Net::tensor_count));
    p.quant_zp = take(4u * static_cast<uint64_t>(Net::tensor_count));
  }
  p.total_bytes = at;
  return p;
}

}  // namespace detail

/// @brief The parameter layout of Net in dtype T (float32 or int8), a constant:
/// `param_layout_of<Net, dtype::int8>.total_bytes` sizes a static blob.
template <Network Net, dtype T>
inline constexpr auto param_layout_of = detail::make_param_layout<Net, T>();

/// @brief An activation tensor's quantization.
struct tensor_quant {
  float scale = 1.0f / 32.0f;
  int32_t zero_point = 0;
};

/// @brief The documented default quantization of tensor t of Net (see the file comment).
template <Network Net>
constexpr tensor_quant default_tensor_quant(int32_t t) {
  tensor_quant q{};
  while (t > 0) {
    const row& r = Net::layer(t - 1);
    switch (r.kind) {
      case op::sigmoid: case op::hardsigmoid: case op::softmax: return tensor_quant{1.0f / 256.0f, -128};
      case op::tanh: return tensor_quant{1.0f / 128.0f, 0};
      case op::max_pool2d: case op::avg_pool2d: case op::adaptive_avg_pool2d: case op::flatten: case op::dropout:
      case op::zero_pad2d: case op::channel_shuffle: case op::channel_slice: case op::concat:
        t = r.inputs[0];  // keeps its input's quantization
        continue;
      default: return q;
    }
  }
  return q;
}

/// @brief splitmix64: a small seeded generator with good statistics, freestanding.
struct splitmix64 {
  uint64_t state;
  constexpr uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi) with 24 bits of resolution.
  constexpr float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
  }
  /// Uniform integer in [lo, hi] (hi - lo < 2^31): the high 32 bits modulo the span, a 32-bit
  /// remainder (rv32 has no 64-bit one: the firmware fills 60 k weights with this).
  constexpr int32_t range(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(static_cast<uint32_t>(next() >> 32) % static_cast<uint32_t>(hi - lo + 1));
  }
};

namespace detail {

template <class U>
inline U* at(uint8_t* blob, uint64_t offset) {
  return reinterpret_cast<U*>(blob + offset);
}

inline int32_t round_to_int(double v) { return static_cast<int32_t>(v >= 0 ? v + 0.5 : v - 0.5); }

/// Stores a per-channel requantization real multiplier.
inline void store_requant(uint8_t* blob, const leaf_param_layout& l, int64_t c, double real) {
  const quant::requant m = quant::quantize_multiplier(real);
  at<int32_t>(blob, l.mult)[c] = m.multiplier;
  at<int32_t>(blob, l.shift)[c] = m.shift;
}

}  // namespace detail

/// @brief Fills a blob of param_layout_of<Net, T>.total_bytes bytes (16-byte aligned) with
/// deterministic parameters drawn from splitmix64(seed). Returns false, writing nothing, when
/// the blob is null, misaligned or too small.
template <Network Net, dtype T>
inline bool fill_params(uint8_t* blob, size_t bytes, uint64_t seed) {
  constexpr auto& layout = param_layout_of<Net, T>;
  if (blob == nullptr || bytes < layout.total_bytes || reinterpret_cast<uintptr_t>(blob) % param_alignment != 0)
    return false;
  constexpr bool q = T == dtype::int8;
  splitmix64 g{seed};
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    const leaf_param_layout& l = layout.leaves[static_cast<size_t>(i)];
    const int64_t c = l.channels;
    switch (r.kind) {
      case op::conv2d:
      case op::linear: {
        const int64_t n = static_cast<int64_t>(r.counts.weights);
        const int64_t fan_in = n / c;
        const float a = kernels::math::sqrt(3.0f / static_cast<float>(fan_in));
        if constexpr (!q) {
          float* w = detail::at<float>(blob, l.w);
          for (int64_t k = 0; k < n; ++k) w[k] = g.uniform(-a, a);
          if (l.b_bytes != 0)
            for (int64_t k = 0; k < c; ++k) detail::at<float>(blob, l.b)[k] = g.uniform(-0.1f, 0.1f);
        } else {
          // int8 weights uniform in [-127, 127], per-channel scale a/127 (symmetric, zero point 0)
          const tensor_quant in_q = default_tensor_quant<Net>(r.inputs[0]);
          const tensor_quant out_q = default_tensor_quant<Net>(r.output);
          int8_t* w = detail::at<int8_t>(blob, l.w);
          for (int64_t k = 0; k < n; ++k) w[k] = static_cast<int8_t>(g.range(-127, 127));
          for (int64_t k = 0; k < c; ++k) {
            const double w_scale = static_cast<double>(a) / 127.0 * static_cast<double>(g.uniform(0.75f, 1.0f));
            const double acc_scale = static_cast<double>(in_q.scale) * w_scale;
            if (l.b_bytes != 0)
              detail::at<int32_t>(blob, l.b)[k] = detail::round_to_int(g.uniform(-0.1f, 0.1f) / acc_scale);
            detail::store_requant(blob, l, k, acc_scale / static_cast<double>(out_q.scale));
          }
        }
        break;
      }
      case op::batch_norm2d:
      case op::channel_scale: {
        const bool bn = r.kind == op::batch_norm2d;
        for (int64_t k = 0; k < c; ++k) {
          const float gamma = g.uniform(0.5f, 1.5f);
          const float beta = bn ? g.uniform(-0.2f, 0.2f) : 0.0f;
          const float mean = bn ? g.uniform(-0.2f, 0.2f) : 0.0f;
          const float var = bn ? g.uniform(0.5f, 1.5f) : 1.0f;
          if constexpr (!q) {
            detail::at<float>(blob, l.w)[k] = gamma;
            if (bn) {
              detail::at<float>(blob, l.b)[k] = beta;
              detail::at<float>(blob, l.mean)[k] = mean;
              detail::at<float>(blob, l.var)[k] = var;
            }
          } else {
            // y = m x + (beta - m mean), m = gamma / sqrt(var + eps): int8 m as scale_q * m/scale_q
            const tensor_quant in_q = default_tensor_quant<Net>(r.inputs[0]);
            const tensor_quant out_q = default_tensor_quant<Net>(r.output);
            const float m = bn ? gamma / kernels::math::sqrt(var + 1e-5f) : gamma;
            const int32_t scale_q = g.range(64, 127);
            const double w_scale = static_cast<double>(m) / scale_q;
            const double acc_scale = static_cast<double>(in_q.scale) * w_scale;
            detail::at<int8_t>(blob, l.w)[k] = static_cast<int8_t>(scale_q);
            if (bn) detail::at<int32_t>(blob, l.b)[k] = detail::round_to_int((beta - m * mean) / acc_scale);
            detail::store_requant(blob, l, k, acc_scale / static_cast<double>(out_q.scale));
          }
        }
        break;
      }
      case op::layer_norm2d:
        for (int64_t k = 0; k < c; ++k) {
          detail::at<float>(blob, l.w)[k] = g.uniform(0.5f, 1.5f);
          detail::at<float>(blob, l.b)[k] = g.uniform(-0.2f, 0.2f);
        }
        break;
      default: break;
    }
  }
  if constexpr (q) {
    for (int32_t t = 0; t < Net::tensor_count; ++t) {
      const tensor_quant tq = default_tensor_quant<Net>(t);
      detail::at<float>(blob, layout.quant_scale)[t] = tq.scale;
      detail::at<int32_t>(blob, layout.quant_zp)[t] = tq.zero_point;
    }
  }
  return true;
}

/// @brief Fills n input elements with values uniform in [-1, 1) (float) or their quantization
/// with the input tensor's scale and zero point (int8).
template <class T>
inline void fill_input(T* x, int64_t n, uint64_t seed, tensor_quant q = {}) {
  splitmix64 g{seed};
  for (int64_t i = 0; i < n; ++i) {
    const float v = g.uniform(-1.0f, 1.0f);
    if constexpr (is_same_v<T, float>) x[i] = v;
    else x[i] = quant::quantize<int8_t>(v, q.scale, q.zero_point);
  }
}

}  // namespace ctnn::runtime
