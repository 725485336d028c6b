// Reference layer kernels, float32 and int8: direct loops that follow the PyTorch / TFLite
// definitions literally. They are the golden model of the optimized kernels in layers.hpp.
// Tensors are CHW (batch 1), conv weights OIHW, linear weights [out][in] (PyTorch layouts).
// int8: activations asymmetric per tensor, weights symmetric per output channel, int32 bias,
// requantization with quant::multiply_by_quantized_multiplier (TFLite rounding).
#pragma once
#include "ctnn/kernels/fixed_point.hpp"
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/math.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/status.hpp"

namespace ctnn::ref {

using kernels::conv_geometry;
using kernels::pool_geometry;

// ---- convolution and linear ----------------------------------------------------------------

/// @brief conv2d float: out[oc][oy][ox] = bias[oc] + sum_{ic,ky,kx} in * w (zero padding).
inline status conv2d_f32(const conv_geometry& g, const float* in, const float* w, const float* bias, float* out) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || w == nullptr || out == nullptr) return status::null_pointer;
  const int64_t oh = g.out_h(), ow = g.out_w(), icg = g.in_c_per_group(), ocg = g.out_c_per_group();
  for (int64_t oc = 0; oc < g.out_c; ++oc) {
    const int64_t grp = oc / ocg;
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        float acc = 0.0f;
        for (int64_t ic = 0; ic < icg; ++ic)
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              const int64_t iy = oy * g.sh - g.pt + ky * g.dh, ix = ox * g.sw - g.pl + kx * g.dw;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
              acc += in[((grp * icg + ic) * g.in_h + iy) * g.in_w + ix] * w[((oc * icg + ic) * g.kh + ky) * g.kw + kx];
            }
        out[(oc * oh + oy) * ow + ox] = bias != nullptr ? acc + bias[oc] : acc;
      }
  }
  return status::ok;
}

/// @brief conv2d int8. p.a_zp: input zero point, p.b_zp: weight zero point (0 for TFLite int8),
/// requantization per output channel (p.per_channel) or per tensor. Padding is the real value 0.
inline status conv2d_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias, int8_t* out,
                        const gemm_s8_params& p) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || w == nullptr || out == nullptr) return status::null_pointer;
  if (const status s = check_params(p, static_cast<int>(g.out_c)); s != status::ok) return s;
  const int64_t oh = g.out_h(), ow = g.out_w(), icg = g.in_c_per_group(), ocg = g.out_c_per_group();
  for (int64_t oc = 0; oc < g.out_c; ++oc) {
    const int64_t grp = oc / ocg;
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        int32_t acc = bias != nullptr ? bias[oc] : 0;
        for (int64_t ic = 0; ic < icg; ++ic)
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              const int64_t iy = oy * g.sh - g.pt + ky * g.dh, ix = ox * g.sw - g.pl + kx * g.dw;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;  // (a_zp - a_zp) * w = 0
              const int32_t x = in[((grp * icg + ic) * g.in_h + iy) * g.in_w + ix] - p.a_zp;
              const int32_t k = w[((oc * icg + ic) * g.kh + ky) * g.kw + kx] - p.b_zp;
              acc = detail::wrap_add(acc, x * k);
            }
        out[(oc * oh + oy) * ow + ox] = requantize(acc, static_cast<int>(oc), p);
      }
  }
  return status::ok;
}

/// @brief linear float: y[b][o] = bias[o] + sum_i x[b][i] * w[o][i].
inline status linear_f32(int batch, int in_f, int out_f, const float* x, const float* w, const float* bias, float* y) {
  if (batch < 0 || in_f < 0 || out_f < 0) return status::bad_size;
  if (batch == 0 || out_f == 0) return status::ok;
  if ((in_f > 0 && (x == nullptr || w == nullptr)) || y == nullptr) return status::null_pointer;
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out_f; ++o) {
      float acc = 0.0f;
      for (int i = 0; i < in_f; ++i) acc += x[b * in_f + i] * w[o * in_f + i];
      y[b * out_f + o] = bias != nullptr ? acc + bias[o] : acc;
    }
  return status::ok;
}

/// @brief linear int8 (TFLite fully connected, per-channel weights): p.a_zp input, p.b_zp weights.
inline status linear_s8(int batch, int in_f, int out_f, const int8_t* x, const int8_t* w, const int32_t* bias,
                        int8_t* y, const gemm_s8_params& p) {
  if (batch < 0 || in_f < 0 || out_f < 0) return status::bad_size;
  if (batch == 0 || out_f == 0) return status::ok;
  if ((in_f > 0 && (x == nullptr || w == nullptr)) || y == nullptr) return status::null_pointer;
  if (const status s = check_params(p, out_f); s != status::ok) return s;
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < out_f; ++o) {
      int32_t acc = bias != nullptr ? bias[o] : 0;
      for (int i = 0; i < in_f; ++i) acc = detail::wrap_add(acc, (x[b * in_f + i] - p.a_zp) * (w[o * in_f + i] - p.b_zp));
      y[b * out_f + o] = requantize(acc, o, p);
    }
  return status::ok;
}

// ---- pooling --------------------------------------------------------------------------------

/// @brief max pool (padding never wins: it is -infinity). T: float or int8_t.
template <class T>
inline status max_pool2d(const pool_geometry& g, const T* in, T* out) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  const int64_t oh = g.out_h(), ow = g.out_w();
  for (int64_t c = 0; c < g.c; ++c)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        bool any = false;
        T best = T{};
        for (int64_t ky = 0; ky < g.kh; ++ky)
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            const int64_t iy = oy * g.sh - g.pt + ky, ix = ox * g.sw - g.pl + kx;
            if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
            const T v = in[(c * g.in_h + iy) * g.in_w + ix];
            if (!any || v > best) best = v;
            any = true;
          }
        out[(c * oh + oy) * ow + ox] = best;  // valid() guarantees a non-empty window
      }
  return status::ok;
}

/// @brief The divisor and the window of average pooling output (oy, ox), PyTorch's rule: the
/// window is clipped to the padded input for count_include_pad, to the input otherwise.
struct avg_window {
  int64_t y0, y1, x0, x1;  ///< the part inside the input
  int64_t divisor;
};
constexpr avg_window avg_pool_window(const pool_geometry& g, int64_t oy, int64_t ox) {
  int64_t y0 = oy * g.sh - g.pt, x0 = ox * g.sw - g.pl;
  int64_t y1 = min(y0 + g.kh, g.in_h + g.pb), x1 = min(x0 + g.kw, g.in_w + g.pr);
  const int64_t padded = (y1 - y0) * (x1 - x0);
  y0 = max<int64_t>(y0, 0);
  x0 = max<int64_t>(x0, 0);
  y1 = min(y1, g.in_h);
  x1 = min(x1, g.in_w);
  return {y0, y1, x0, x1, g.count_include_pad ? padded : (y1 - y0) * (x1 - x0)};
}

/// @brief sum / count rounded half away from zero, in I (count > 0): int64_t here, int32_t where
/// the sum fits it and a 64-bit divide is a library call (rv32: kernels::scalar).
template <class I>
constexpr I divide_round_away(I sum, I count) {
  return sum >= 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

/// @brief TFLite's integer average: sum / count rounded half away from zero.
constexpr int32_t rounded_average(int64_t sum, int64_t count) {
  return static_cast<int32_t>(divide_round_away<int64_t>(sum, count));
}

/// @brief average pool, float.
inline status avg_pool2d_f32(const pool_geometry& g, const float* in, float* out) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  const int64_t oh = g.out_h(), ow = g.out_w();
  for (int64_t c = 0; c < g.c; ++c)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        const avg_window win = avg_pool_window(g, oy, ox);
        float sum = 0.0f;
        for (int64_t y = win.y0; y < win.y1; ++y)
          for (int64_t x = win.x0; x < win.x1; ++x) sum += in[(c * g.in_h + y) * g.in_w + x];
        out[(c * oh + oy) * ow + ox] = sum / static_cast<float>(win.divisor);
      }
  return status::ok;
}

/// @brief average pool, int8 with the same scale and zero point in and out (TFLite): padded
/// positions counted by count_include_pad hold the zero point (the real value 0).
inline status avg_pool2d_s8(const pool_geometry& g, const int8_t* in, int8_t* out, int32_t zero_point) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  if (zero_point < -128 || zero_point > 127) return status::bad_quant_param;
  const int64_t oh = g.out_h(), ow = g.out_w();
  for (int64_t c = 0; c < g.c; ++c)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        const avg_window win = avg_pool_window(g, oy, ox);
        // TFLite averages the raw values; padded positions counted by the divisor hold zero_point.
        const int64_t inside = (win.y1 - win.y0) * (win.x1 - win.x0);
        int64_t sum = (win.divisor - inside) * zero_point;
        for (int64_t y = win.y0; y < win.y1; ++y)
          for (int64_t x = win.x0; x < win.x1; ++x) sum += in[(c * g.in_h + y) * g.in_w + x];
        const int32_t v = rounded_average(sum, win.divisor);
        out[(c * oh + oy) * ow + ox] = static_cast<int8_t>(quant::clamp(v, -128, 127));
      }
  return status::ok;
}

/// @brief adaptive average pool to out_h x out_w (PyTorch windows). T float: mean;
/// T int8_t: rounded mean in the input's quantization (same scale and zero point out).
template <class T>
inline status adaptive_avg_pool2d(int64_t c, int64_t in_h, int64_t in_w, int64_t out_h, int64_t out_w, const T* in,
                                  T* out) {
  if (c <= 0 || in_h <= 0 || in_w <= 0 || out_h <= 0 || out_w <= 0) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t oy = 0; oy < out_h; ++oy)
      for (int64_t ox = 0; ox < out_w; ++ox) {
        const int64_t y0 = adaptive_start(oy, in_h, out_h), y1 = adaptive_end(oy, in_h, out_h);
        const int64_t x0 = adaptive_start(ox, in_w, out_w), x1 = adaptive_end(ox, in_w, out_w);
        const int64_t count = (y1 - y0) * (x1 - x0);
        if constexpr (is_same_v<T, float>) {
          float sum = 0.0f;
          for (int64_t y = y0; y < y1; ++y)
            for (int64_t x = x0; x < x1; ++x) sum += in[(ch * in_h + y) * in_w + x];
          out[(ch * out_h + oy) * out_w + ox] = sum / static_cast<float>(count);
        } else {
          int64_t sum = 0;
          for (int64_t y = y0; y < y1; ++y)
            for (int64_t x = x0; x < x1; ++x) sum += in[(ch * in_h + y) * in_w + x];
          // raw values averaged as TFLite does (same scale and zero point in and out)
          out[(ch * out_h + oy) * out_w + ox] = static_cast<T>(quant::clamp(rounded_average(sum, count), -128, 127));
        }
      }
  return status::ok;
}

/// @brief global average pool: adaptive average pool to 1 x 1.
template <class T>
inline status global_avg_pool2d(int64_t c, int64_t h, int64_t w, const T* in, T* out) {
  return adaptive_avg_pool2d<T>(c, h, w, 1, 1, in, out);
}

// ---- normalization ----------------------------------------------------------------------------

/// @brief batchnorm2d (inference): y = (x - mean) / sqrt(var + eps) * gamma + beta, per channel.
inline status batchnorm2d_f32(int64_t c, int64_t hw, const float* x, const float* mean, const float* var,
                              const float* gamma, const float* beta, float eps, float* y) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || mean == nullptr || var == nullptr || gamma == nullptr || beta == nullptr || y == nullptr)
    return status::null_pointer;
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t i = 0; i < hw; ++i)
      y[ch * hw + i] = (x[ch * hw + i] - mean[ch]) / kernels::math::sqrt(var[ch] + eps) * gamma[ch] + beta[ch];
  return status::ok;
}

/// @brief One output of batchnorm2d_s8, channel ch: requant_ch((x - a_zp) * (scale_q[ch] - b_zp) + bias[ch]).
inline int8_t batchnorm2d_s8_one(int8_t x, int64_t ch, const int8_t* scale_q, const int32_t* bias,
                                 const gemm_s8_params& p) {
  const int32_t acc = (x - p.a_zp) * (scale_q[ch] - p.b_zp) + (bias != nullptr ? bias[ch] : 0);
  return requantize(acc, static_cast<int>(ch), p);
}

/// @brief batchnorm2d int8, folded as TFLite does into a per-channel affine map (a depthwise
/// 1x1 convolution): y = requant_c((x - a_zp) * scale_q[c] + bias[c]), scale_q int8 per channel.
inline status batchnorm2d_s8(int64_t c, int64_t hw, const int8_t* x, const int8_t* scale_q, const int32_t* bias,
                             int8_t* y, const gemm_s8_params& p) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || scale_q == nullptr || y == nullptr) return status::null_pointer;
  if (const status s = check_params(p, static_cast<int>(c)); s != status::ok) return s;
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t i = 0; i < hw; ++i) y[ch * hw + i] = batchnorm2d_s8_one(x[ch * hw + i], ch, scale_q, bias, p);
  return status::ok;
}

/// @brief layer_norm2d (ConvNeXt's LayerNorm over channels): at each of the hw positions,
/// y[c] = (x[c] - mean) / sqrt(var + eps) * gamma[c] + beta[c], mean and (biased) var over c.
inline status layer_norm2d_f32(int64_t c, int64_t hw, const float* x, const float* gamma, const float* beta, float eps,
                               float* y) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || gamma == nullptr || beta == nullptr || y == nullptr) return status::null_pointer;
  for (int64_t i = 0; i < hw; ++i) {
    float mean = 0.0f;
    for (int64_t ch = 0; ch < c; ++ch) mean += x[ch * hw + i];
    mean /= static_cast<float>(c);
    float var = 0.0f;
    for (int64_t ch = 0; ch < c; ++ch) var += (x[ch * hw + i] - mean) * (x[ch * hw + i] - mean);
    const float inv = 1.0f / kernels::math::sqrt(var / static_cast<float>(c) + eps);
    for (int64_t ch = 0; ch < c; ++ch) y[ch * hw + i] = (x[ch * hw + i] - mean) * inv * gamma[ch] + beta[ch];
  }
  return status::ok;
}

/// @brief layer_norm2d int8: dequantize (in_scale, in_zp), layer_norm2d_f32's arithmetic per
/// position, quantize (out_scale, out_zp). gamma and beta stay float (as TFLite's float fallback).
inline status layer_norm2d_s8(int64_t c, int64_t hw, const int8_t* x, const float* gamma, const float* beta, float eps,
                              int8_t* y, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || gamma == nullptr || beta == nullptr || y == nullptr) return status::null_pointer;
  if (!(in_scale > 0.0f) || !(out_scale > 0.0f) || in_zp < -128 || in_zp > 127 || out_zp < -128 || out_zp > 127)
    return status::bad_quant_param;
  for (int64_t i = 0; i < hw; ++i) {
    float mean = 0.0f;
    for (int64_t ch = 0; ch < c; ++ch) mean += quant::dequantize<int8_t>(x[ch * hw + i], in_scale, in_zp);
    mean /= static_cast<float>(c);
    float var = 0.0f;
    for (int64_t ch = 0; ch < c; ++ch) {
      const float d = quant::dequantize<int8_t>(x[ch * hw + i], in_scale, in_zp) - mean;
      var += d * d;
    }
    const float inv = 1.0f / kernels::math::sqrt(var / static_cast<float>(c) + eps);
    for (int64_t ch = 0; ch < c; ++ch) {
      const float v = (quant::dequantize<int8_t>(x[ch * hw + i], in_scale, in_zp) - mean) * inv * gamma[ch] + beta[ch];
      y[ch * hw + i] = quant::quantize<int8_t>(v, out_scale, out_zp);
    }
  }
  return status::ok;
}

// ---- activations --------------------------------------------------------------------------------

enum class activation : uint8_t { identity, relu, relu6, sigmoid, silu, hardswish, tanh, hardsigmoid, gelu, gelu_tanh };

/// @brief The float activation functions (freestanding math).
constexpr float apply(activation a, float x) {
  switch (a) {
    case activation::identity: return x;
    case activation::relu: return kernels::math::relu(x);
    case activation::relu6: return kernels::math::relu6(x);
    case activation::sigmoid: return kernels::math::sigmoid(x);
    case activation::silu: return kernels::math::silu(x);
    case activation::hardswish: return kernels::math::hardswish(x);
    case activation::tanh: return kernels::math::tanh(x);
    case activation::hardsigmoid: return kernels::math::hardsigmoid(x);
    case activation::gelu: return kernels::math::gelu(x);
    case activation::gelu_tanh: return kernels::math::gelu_tanh(x);
  }
  return x;
}

/// @brief Elementwise float function f, in place allowed.
template <class F>
inline status unary_f32(F f, int64_t n, const float* x, float* y) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (x == nullptr || y == nullptr)) return status::null_pointer;
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
  return status::ok;
}

/// @brief Elementwise float activation, in place allowed.
inline status activation_f32(activation a, int64_t n, const float* x, float* y) {
  return unary_f32([a](float v) { return apply(a, v); }, n, x, y);
}

/// @brief Quantization of an int8 activation's input and output (per tensor).
struct act_s8_params {
  float in_scale;
  int32_t in_zp;
  float out_scale;
  int32_t out_zp;
};

/// @brief An int8 elementwise function as TFLite's table-driven kernels define it:
/// y = quantize(f(dequantize(x))) with round half away from zero, clamped to int8.
template <class F>
constexpr int8_t unary_s8_one(F f, int8_t x, const act_s8_params& p) {
  const float real = quant::dequantize<int8_t>(x, p.in_scale, p.in_zp);
  return quant::quantize<int8_t>(f(real), p.out_scale, p.out_zp);
}

/// @brief int8 activation a (unary_s8_one of apply(a, .)).
constexpr int8_t activation_s8_one(activation a, int8_t x, const act_s8_params& p) {
  return unary_s8_one([a](float v) { return apply(a, v); }, x, p);
}

inline bool valid(const act_s8_params& p) {
  return p.in_scale > 0.0f && p.out_scale > 0.0f && p.in_zp >= -128 && p.in_zp <= 127 && p.out_zp >= -128 &&
         p.out_zp <= 127;
}

/// @brief Elementwise int8 function f (unary_s8_one).
template <class F>
inline status unary_s8(F f, int64_t n, const int8_t* x, int8_t* y, const act_s8_params& p) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (x == nullptr || y == nullptr)) return status::null_pointer;
  if (!valid(p)) return status::bad_quant_param;
  for (int64_t i = 0; i < n; ++i) y[i] = unary_s8_one(f, x[i], p);
  return status::ok;
}

/// @brief Elementwise int8 activation.
inline status activation_s8(activation a, int64_t n, const int8_t* x, int8_t* y, const act_s8_params& p) {
  return unary_s8([a](float v) { return apply(a, v); }, n, x, y, p);
}

// ---- hard swish (TFLite's int8 fixed point) ----------------------------------------------------
//
// x * relu6(x + 3) / 6 in 16-bit fixed point, as TFLite's reference_ops::HardSwish (and TFLite
// Micro, CMSIS-NN) computes it for int8: the input moved to a "high-resolution" scale
// in_scale / 128, once rescaled to the output scale (not yet shifted) and once to the "relu-ish"
// scale where 3.0 is 32768, saturated to [-1, 1), mapped to [0, 1], multiplied in, shifted.
// Both multipliers are QuantizeMultiplier of a float ratio, rounded to 16 bits.

/// @brief The parameters of hardswish_s8_one, made from the quantizations by make_hardswish_s8_params.
struct hardswish_s8_params {
  int32_t in_zp = 0, out_zp = 0;
  int16_t reluish_multiplier = 0;  ///< Q0.15 multiplier to the relu-ish scale
  int32_t reluish_exponent = 0;
  int16_t output_multiplier = 0;   ///< Q0.15 multiplier to the output scale (before its shift)
  int32_t output_exponent = 0;     ///< <= 0
};

namespace detail {
/// TFLite's DownScaleInt32ToInt16Multiplier: the Q0.31 multiplier rounded to Q0.15.
constexpr int16_t downscale_to_int16(int32_t m) {
  if (m >= quant::int32_max - (int32_t{1} << 15)) return 32767;
  return static_cast<int16_t>((m + (int32_t{1} << 15)) >> 16);
}
/// gemmlowp's SaturatingRoundingDoublingHighMul on int16: round(a b / 2^15).
constexpr int16_t srdhm16(int16_t a, int16_t b) {
  if (a == b && a == -32768) return 32767;
  const int32_t ab = int32_t{a} * int32_t{b};
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}
/// TFLite's SaturatingDoublingHighMul on int16: a b / 2^15 truncated toward zero.
constexpr int16_t sdhm16(int16_t a, int16_t b) {
  if (a == b && a == -32768) return 32767;
  return static_cast<int16_t>((int32_t{a} * int32_t{b}) / (1 << 15));
}
/// value * 2^amount saturated to int16.
constexpr int16_t saturating_left_shift16(int16_t value, int amount) {
  const int64_t r = int64_t{value} * (int64_t{1} << amount);
  return static_cast<int16_t>(r > 32767 ? 32767 : (r < -32768 ? -32768 : r));
}
}  // namespace detail

/// @brief TFLite's HardSwishPrepare for int8 into `out`: status::bad_quant_param (nothing written)
/// for scales that are not finite and positive, zero points outside int8, an output multiplier
/// above 1 (TFLite requires its exponent <= 0) or shifts beyond 15 bits, where the 16-bit
/// arithmetic is not defined.
constexpr status make_hardswish_s8_params(hardswish_s8_params& out, float in_scale, int32_t in_zp, float out_scale,
                                          int32_t out_zp) {
  if (!quant::valid_scale(in_scale) || !quant::valid_scale(out_scale) || !quant::valid_zero_point(in_zp) ||
      !quant::valid_zero_point(out_zp))
    return status::bad_quant_param;
  const float hires_input_scale = (1.0f / 128.0f) * in_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  quant::requant o{}, r{};
  if (quant::make_requant(o, static_cast<double>(hires_input_scale / out_scale)) != status::ok ||
      quant::make_requant(r, static_cast<double>(hires_input_scale / reluish_scale)) != status::ok)
    return status::bad_quant_param;
  if (o.shift > 0 || o.shift < -15 || r.shift < -15 || r.shift > 15) return status::bad_quant_param;
  out = hardswish_s8_params{in_zp, out_zp, detail::downscale_to_int16(r.multiplier), r.shift,
                            detail::downscale_to_int16(o.multiplier), o.shift};
  return status::ok;
}

/// @brief One int8 hard swish, TFLite's reference_ops::HardSwish arithmetic.
constexpr int8_t hardswish_s8_one(int8_t x, const hardswish_s8_params& p) {
  const auto input_value = static_cast<int16_t>(x - p.in_zp);
  const auto hires = static_cast<int16_t>(input_value * (1 << 7));
  const int16_t preshift_output_scale = detail::srdhm16(hires, p.output_multiplier);
  int16_t reluish = hires;
  if (p.reluish_exponent > 0) reluish = detail::saturating_left_shift16(reluish, p.reluish_exponent - 1);
  reluish = detail::srdhm16(reluish, p.reluish_multiplier);
  if (p.reluish_exponent > 0) reluish = detail::saturating_left_shift16(reluish, 1);
  if (p.reluish_exponent < 0) reluish = static_cast<int16_t>(quant::rounding_divide_by_pot(reluish, -p.reluish_exponent));
  reluish = static_cast<int16_t>((int32_t{reluish} + (1 << 15)) >> 1);  // [-1, 1] -> [0, 1]
  const int16_t preshift_output = detail::sdhm16(reluish, preshift_output_scale);
  const int32_t y = quant::rounding_divide_by_pot(preshift_output, -p.output_exponent) + p.out_zp;
  return static_cast<int8_t>(quant::clamp(y, -128, 127));
}

/// @brief int8 hard swish of n elements (hardswish_s8_one), in place allowed.
inline status hardswish_s8(int64_t n, const int8_t* x, int8_t* y, const hardswish_s8_params& p) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (x == nullptr || y == nullptr)) return status::null_pointer;
  for (int64_t i = 0; i < n; ++i) y[i] = hardswish_s8_one(x[i], p);
  return status::ok;
}

// ---- softmax ---------------------------------------------------------------------------------

/// @brief softmax along the contiguous axis of a rows x cols matrix: exp(x - max) / sum.
inline status softmax_f32(int64_t rows, int64_t cols, const float* x, float* y) {
  if (rows < 0 || cols <= 0) return status::bad_size;
  if (rows > 0 && (x == nullptr || y == nullptr)) return status::null_pointer;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float mx = xr[0];
    for (int64_t i = 1; i < cols; ++i) mx = xr[i] > mx ? xr[i] : mx;
    float sum = 0.0f;
    for (int64_t i = 0; i < cols; ++i) {
      yr[i] = kernels::math::exp(xr[i] - mx);
      sum += yr[i];
    }
    const float inv = 1.0f / sum;
    for (int64_t i = 0; i < cols; ++i) yr[i] *= inv;
  }
  return status::ok;
}

/// Output quantization of int8 softmax (TFLite): scale 1/256, zero point -128.
inline constexpr float softmax_out_scale = 1.0f / 256.0f;
inline constexpr int32_t softmax_out_zp = -128;

/// @brief The parameters of TFLite's int8 softmax (beta 1), made from the input scale by
/// make_softmax_s8_params as TFLite's Prepare makes them.
struct softmax_s8_params {
  int32_t multiplier = 0;  ///< input_scale * 2^26 as a Q0.31 multiplier ...
  int32_t left_shift = 0;  ///< ... and its left shift (PreprocessSoftmaxScaling, 5 integer bits)
  int32_t diff_min = 0;    ///< differences from the row's maximum below this give exactly 0
};

/// @brief PreprocessSoftmaxScaling(beta = 1, in_scale, 5) and -CalculateInputRadius(5, left_shift)
/// into `out`; status::bad_quant_param (nothing written) for a scale that is not finite and
/// positive or outside (2^-26, 16), where the multiplier is not one TFLite represents.
constexpr status make_softmax_s8_params(softmax_s8_params& out, float in_scale) {
  if (!quant::valid_scale(in_scale)) return status::bad_quant_param;
  const double real = static_cast<double>(in_scale) * static_cast<double>(int64_t{1} << 26);
  quant::requant m{};
  if (!(real > 1.0) || quant::make_requant(m, real) != status::ok) return status::bad_quant_param;
  // the largest |difference| whose rescaled value fits Q5.26: floor(31 * 2^26 / 2^left_shift)
  const int64_t radius = (int64_t{31} << 26) >> m.shift;
  out = softmax_s8_params{m.multiplier, m.shift, static_cast<int32_t>(-radius)};
  return status::ok;
}

namespace detail {
/// exp(diff * in_scale) in Q0.31 for a difference from the row's maximum (diff <= 0, >= diff_min).
constexpr int32_t softmax_exp(int32_t diff, const softmax_s8_params& p) {
  const int32_t rescaled = quant::saturating_rounding_doubling_high_mul(diff * (int32_t{1} << p.left_shift), p.multiplier);
  return quant::fixed::exp_on_negative_values<5>(rescaled);  // Q5.26 in
}
/// The output of an element whose exp is e (Q0.31), given the row's reciprocal. An exponent above
/// 31 (a sum of exps of 2^8 or more: hundreds of values at the maximum; TFLite stops there) leaves
/// a product below 2^31 / 2^32, which rounds to 0.
constexpr int8_t softmax_out(int32_t e, int32_t shifted_scale, int exponent) {
  const int32_t unsat = exponent > 31 ? 0 : quant::rounding_divide_by_pot(quant::fixed::mul(shifted_scale, e), exponent);
  const int32_t v = unsat - 128;
  return static_cast<int8_t>(quant::clamp(v, -128, 127));
}
/// TFLite's int8 softmax (reference_ops::Softmax, int8 in and out) of the n values x[0], x[stride], ...
inline void softmax_s8_vector(int64_t n, int64_t stride, const int8_t* x, int8_t* y, const softmax_s8_params& p) {
  int32_t mx = -128;
  for (int64_t i = 0; i < n; ++i) mx = x[i * stride] > mx ? x[i * stride] : mx;
  int32_t sum = 0;  // Q12.19
  for (int64_t i = 0; i < n; ++i) {
    const int32_t diff = x[i * stride] - mx;
    if (diff >= p.diff_min)  // Q12 holds sums below 2^12 (TFLite's bound); beyond, it wraps as on hardware
      sum = static_cast<int32_t>(static_cast<uint32_t>(sum) +
                                 static_cast<uint32_t>(quant::fixed::rescale<12, 0>(softmax_exp(diff, p))));
  }
  int bits_over_unit = 0;
  const int32_t shifted_scale = quant::fixed::reciprocal(sum, 12, bits_over_unit);
  const int exponent = bits_over_unit + 31 - 8;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t diff = x[i * stride] - mx;
    y[i * stride] = diff >= p.diff_min ? softmax_out(softmax_exp(diff, p), shifted_scale, exponent) : int8_t{-128};
  }
}
}  // namespace detail

/// @brief int8 softmax along the rows of a rows x cols matrix: TFLite's fixed-point softmax
/// (gemmlowp's exp and reciprocal, quant/fixed_point.hpp), output at scale 1/256, zero point -128.
/// The input's zero point cancels (only differences from the row's maximum count).
inline status softmax_s8(int64_t rows, int64_t cols, const int8_t* x, int8_t* y, float in_scale, int32_t in_zp) {
  if (rows < 0 || cols <= 0) return status::bad_size;
  if (rows > 0 && (x == nullptr || y == nullptr)) return status::null_pointer;
  softmax_s8_params p{};
  if (in_zp < -128 || in_zp > 127 || make_softmax_s8_params(p, in_scale) != status::ok) return status::bad_quant_param;
  for (int64_t r = 0; r < rows; ++r) detail::softmax_s8_vector(cols, 1, x + r * cols, y + r * cols, p);
  return status::ok;
}

/// @brief softmax over the channels of a CHW tensor at each of the hw positions (stride hw);
/// for hw == 1 the same arithmetic as softmax_f32 on one row.
inline status softmax_channels_f32(int64_t c, int64_t hw, const float* x, float* y) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || y == nullptr) return status::null_pointer;
  for (int64_t i = 0; i < hw; ++i) {
    float mx = x[i];
    for (int64_t ch = 1; ch < c; ++ch) mx = x[ch * hw + i] > mx ? x[ch * hw + i] : mx;
    float sum = 0.0f;
    for (int64_t ch = 0; ch < c; ++ch) {
      y[ch * hw + i] = kernels::math::exp(x[ch * hw + i] - mx);
      sum += y[ch * hw + i];
    }
    const float inv = 1.0f / sum;
    for (int64_t ch = 0; ch < c; ++ch) y[ch * hw + i] *= inv;
  }
  return status::ok;
}

/// @brief int8 softmax over the channels at each position (softmax_s8's arithmetic, stride hw).
inline status softmax_channels_s8(int64_t c, int64_t hw, const int8_t* x, int8_t* y, float in_scale, int32_t in_zp) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || y == nullptr) return status::null_pointer;
  softmax_s8_params p{};
  if (in_zp < -128 || in_zp > 127 || make_softmax_s8_params(p, in_scale) != status::ok) return status::bad_quant_param;
  for (int64_t i = 0; i < hw; ++i) detail::softmax_s8_vector(c, hw, x + i, y + i, p);
  return status::ok;
}

// ---- data movement ----------------------------------------------------------------------------

/// @brief Zero padding of a CHW tensor (value: 0 for float, the zero point for int8).
template <class T>
inline status zero_pad2d(int64_t c, int64_t h, int64_t w, int64_t pt, int64_t pb, int64_t pl, int64_t pr, const T* in,
                         T* out, T value = T{}) {
  if (c <= 0 || h <= 0 || w <= 0 || pt < 0 || pb < 0 || pl < 0 || pr < 0) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  const int64_t oh = h + pt + pb, ow = w + pl + pr;
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x) {
        const int64_t iy = y - pt, ix = x - pl;
        const bool inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
        out[(ch * oh + y) * ow + x] = inside ? in[(ch * h + iy) * w + ix] : value;
      }
  return status::ok;
}

/// @brief Channel shuffle (ShuffleNet): view C as [groups][C/groups], transpose, flatten:
/// output channel j * groups + g is input channel g * (C/groups) + j.
template <class T>
inline status channel_shuffle(int64_t c, int64_t hw, int64_t groups, const T* in, T* out) {
  if (c <= 0 || hw <= 0 || groups <= 0 || c % groups != 0) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  const int64_t per = c / groups;
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t j = 0; j < per; ++j)
      for (int64_t i = 0; i < hw; ++i) out[(j * groups + g) * hw + i] = in[(g * per + j) * hw + i];
  return status::ok;
}

/// @brief Concatenation along channels of CHW tensors with the same h x w (int8: the inputs
/// must share the output's scale and zero point, as TFLite's concatenation requires).
template <class T>
inline status concat_channels(int n_inputs, const T* const* inputs, const int64_t* channels, int64_t hw, T* out) {
  if (n_inputs <= 0 || hw <= 0) return status::bad_size;
  if (inputs == nullptr || channels == nullptr || out == nullptr) return status::null_pointer;
  int64_t oc = 0;
  for (int k = 0; k < n_inputs; ++k) {
    if (inputs[k] == nullptr) return status::null_pointer;
    if (channels[k] <= 0) return status::bad_size;
    for (int64_t i = 0; i < channels[k] * hw; ++i) out[oc * hw + i] = inputs[k][i];
    oc += channels[k];
  }
  return status::ok;
}

// ---- elementwise binary -----------------------------------------------------------------------

inline status add_f32(int64_t n, const float* a, const float* b, float* y) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (a == nullptr || b == nullptr || y == nullptr)) return status::null_pointer;
  for (int64_t i = 0; i < n; ++i) y[i] = a[i] + b[i];
  return status::ok;
}

inline status mul_f32(int64_t n, const float* a, const float* b, float* y) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (a == nullptr || b == nullptr || y == nullptr)) return status::null_pointer;
  for (int64_t i = 0; i < n; ++i) y[i] = a[i] * b[i];
  return status::ok;
}

/// @brief int8 add, TFLite's quantized add: both inputs are shifted left by left_shift, rescaled
/// to twice the larger input scale, summed, and the sum requantized to the output.
struct add_s8_params {
  int32_t a_zp, b_zp, out_zp;
  int32_t left_shift;
  quant::requant a, b, out;
  int32_t act_min, act_max;
};

namespace detail {
/// The checks every int8 binary op's parameters share: three scales finite and > 0, three zero
/// points and the activation range in int8.
constexpr bool valid_binary_quant(double a_scale, int32_t a_zp, double b_scale, int32_t b_zp, double out_scale,
                                  int32_t out_zp, int32_t act_min, int32_t act_max) {
  using quant::valid_scale, quant::valid_zero_point;
  return valid_scale(a_scale) && valid_scale(b_scale) && valid_scale(out_scale) && valid_zero_point(a_zp) &&
         valid_zero_point(b_zp) && valid_zero_point(out_zp) && valid_zero_point(act_min) &&
         valid_zero_point(act_max) && act_min <= act_max;
}
}  // namespace detail

/// @brief Builds add_s8_params from real scales and zero points, as TFLite's Prepare does
/// (left_shift 20), into `out`. status::bad_quant_param, writing nothing, when a scale is zero,
/// negative, NaN or infinite, a zero point or the activation range lies outside int8, or a
/// rescaling multiplier cannot be represented (it would flush to {0, 0}: a zero input scale
/// silently dropped that input from the sum).
constexpr status make_add_s8_params(add_s8_params& out, double a_scale, int32_t a_zp, double b_scale, int32_t b_zp,
                                    double out_scale, int32_t out_zp, int32_t act_min = -128, int32_t act_max = 127) {
  if (!detail::valid_binary_quant(a_scale, a_zp, b_scale, b_zp, out_scale, out_zp, act_min, act_max))
    return status::bad_quant_param;
  const double twice_max = 2.0 * (a_scale > b_scale ? a_scale : b_scale);
  add_s8_params p{a_zp, b_zp, out_zp, 20, {}, {}, {}, act_min, act_max};
  const status made[] = {
      quant::make_requant(p.a, a_scale / twice_max), quant::make_requant(p.b, b_scale / twice_max),
      quant::make_requant(p.out, twice_max / (static_cast<double>(1 << p.left_shift) * out_scale))};
  for (const status s : made)
    if (s != status::ok) return s;
  out = p;
  return status::ok;
}

inline bool valid(const add_s8_params& p) {
  auto s8 = [](int32_t v) { return v >= -128 && v <= 127; };
  return s8(p.a_zp) && s8(p.b_zp) && s8(p.out_zp) && s8(p.act_min) && s8(p.act_max) && p.act_min <= p.act_max &&
         p.left_shift >= 0 && p.left_shift <= 22 && quant::valid(p.a) && quant::valid(p.b) && quant::valid(p.out) &&
         p.a.shift <= 0 && p.b.shift <= 0;
}

constexpr int8_t add_s8_one(int8_t a, int8_t b, const add_s8_params& p) {
  const int32_t sa = quant::apply(p.a, (a - p.a_zp) * (int32_t{1} << p.left_shift));
  const int32_t sb = quant::apply(p.b, (b - p.b_zp) * (int32_t{1} << p.left_shift));
  const int32_t v = quant::apply(p.out, sa + sb) + p.out_zp;
  return static_cast<int8_t>(quant::clamp(v, p.act_min, p.act_max));
}

inline status add_s8(int64_t n, const int8_t* a, const int8_t* b, int8_t* y, const add_s8_params& p) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (a == nullptr || b == nullptr || y == nullptr)) return status::null_pointer;
  if (!valid(p)) return status::bad_quant_param;
  for (int64_t i = 0; i < n; ++i) y[i] = add_s8_one(a[i], b[i], p);
  return status::ok;
}

/// @brief int8 multiply, TFLite: out_zp + requant((a - a_zp) * (b - b_zp)), real multiplier
/// a_scale * b_scale / out_scale.
struct mul_s8_params {
  int32_t a_zp, b_zp, out_zp;
  quant::requant out;
  int32_t act_min, act_max;
};

/// @brief Builds mul_s8_params from real scales and zero points into `out`; the faults of
/// make_add_s8_params (status::bad_quant_param, nothing written).
constexpr status make_mul_s8_params(mul_s8_params& out, double a_scale, int32_t a_zp, double b_scale, int32_t b_zp,
                                    double out_scale, int32_t out_zp, int32_t act_min = -128, int32_t act_max = 127) {
  if (!detail::valid_binary_quant(a_scale, a_zp, b_scale, b_zp, out_scale, out_zp, act_min, act_max))
    return status::bad_quant_param;
  mul_s8_params p{a_zp, b_zp, out_zp, {}, act_min, act_max};
  if (const status s = quant::make_requant(p.out, a_scale * b_scale / out_scale); s != status::ok) return s;
  out = p;
  return status::ok;
}

inline bool valid(const mul_s8_params& p) {
  auto s8 = [](int32_t v) { return v >= -128 && v <= 127; };
  return s8(p.a_zp) && s8(p.b_zp) && s8(p.out_zp) && s8(p.act_min) && s8(p.act_max) && p.act_min <= p.act_max &&
         quant::valid(p.out);
}

constexpr int8_t mul_s8_one(int8_t a, int8_t b, const mul_s8_params& p) {
  const int32_t v = quant::apply(p.out, (a - p.a_zp) * (b - p.b_zp)) + p.out_zp;
  return static_cast<int8_t>(quant::clamp(v, p.act_min, p.act_max));
}

inline status mul_s8(int64_t n, const int8_t* a, const int8_t* b, int8_t* y, const mul_s8_params& p) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (a == nullptr || b == nullptr || y == nullptr)) return status::null_pointer;
  if (!valid(p)) return status::bad_quant_param;
  for (int64_t i = 0; i < n; ++i) y[i] = mul_s8_one(a[i], b[i], p);
  return status::ok;
}

/// @brief Multiply broadcasting a per-channel gate (squeeze-and-excitation, and ConvNeXt's layer
/// scale with the gate = gamma): y[c][i] = x[c][i] * g[c]; in place allowed.
inline status mul_channels_f32(int64_t c, int64_t hw, const float* x, const float* g, float* y) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || g == nullptr || y == nullptr) return status::null_pointer;
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t i = 0; i < hw; ++i) y[ch * hw + i] = x[ch * hw + i] * g[ch];
  return status::ok;
}

/// @brief int8 multiply broadcasting a per-channel gate (mul_s8's arithmetic).
inline status mul_channels_s8(int64_t c, int64_t hw, const int8_t* x, const int8_t* g, int8_t* y,
                              const mul_s8_params& p) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || g == nullptr || y == nullptr) return status::null_pointer;
  if (!valid(p)) return status::bad_quant_param;
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t i = 0; i < hw; ++i) y[ch * hw + i] = mul_s8_one(x[ch * hw + i], g[ch], p);
  return status::ok;
}

}  // namespace ctnn::ref
