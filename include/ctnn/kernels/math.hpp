// Freestanding float transcendental functions for the activation kernels (the firmware links
// with -nostdlib: no libm). Accuracy, measured by tests/unit/test_kernels_math.cpp against the
// host libm over dense grids: exp <= 2 ulp relative (measured 1.06); expm1, tanh, sigmoid <= 4 ulp
// relative (measured 3.95, 2.54, 2.18); sqrt <= 1 ulp.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn::kernels::math {

namespace detail {

/// 2^n as a float for n in [-126, 127], built from the exponent bits.
constexpr float pow2i(int n) {
  return __builtin_bit_cast(float, static_cast<uint32_t>(n + 127) << 23);
}

/// exp(r) - 1 for |r| <= ln2/2 (~0.347): Taylor series to r^9, error < r^10/10! < 1.1e-11.
constexpr float expm1_small(float r) {
  // Horner: r (1 + r/2 (1 + r/3 (1 + r/4 (...))))
  float p = 1.0f + r * (1.0f / 9.0f);
  p = 1.0f + r * (1.0f / 8.0f) * p;
  p = 1.0f + r * (1.0f / 7.0f) * p;
  p = 1.0f + r * (1.0f / 6.0f) * p;
  p = 1.0f + r * (1.0f / 5.0f) * p;
  p = 1.0f + r * (1.0f / 4.0f) * p;
  p = 1.0f + r * (1.0f / 3.0f) * p;
  p = 1.0f + r * (1.0f / 2.0f) * p;
  return r * p;
}

}  // namespace detail

inline constexpr float infinity = __builtin_huge_valf();

/// @brief e^x. Cody-Waite reduction x = n ln2 + r, |r| <= ln2/2, series for e^r, scale by 2^n.
constexpr float exp(float x) {
  if (x != x) return x;             // NaN
  if (x > 88.72283935546875f) return infinity;
  if (x < -103.972084045410f) return 0.0f;
  const float log2e = 1.44269504088896341f;
  const float fn = x * log2e;
  const int n = static_cast<int>(fn >= 0.0f ? fn + 0.5f : fn - 0.5f);
  const float ln2_hi = 0.693145751953125f;        // 16 significant bits: n * ln2_hi is exact
  const float ln2_lo = 1.428606765330187045e-06f;
  const float r = (x - static_cast<float>(n) * ln2_hi) - static_cast<float>(n) * ln2_lo;
  const float er = 1.0f + detail::expm1_small(r);
  if (n > 127) return er * 2.0f * detail::pow2i(n - 1);
  if (n < -126) return er * detail::pow2i(n + 64) * detail::pow2i(-64);  // subnormal results
  return er * detail::pow2i(n);
}

/// @brief e^x - 1, accurate near 0.
constexpr float expm1(float x) {
  if (x < 0.34657359f && x > -0.34657359f) return detail::expm1_small(x);
  return exp(x) - 1.0f;
}

/// @brief tanh(x) = expm1(2x) / (expm1(2x) + 2), odd; saturates to +-1 beyond |x| = 9.1.
constexpr float tanh(float x) {
  if (x != x) return x;
  const float ax = x < 0.0f ? -x : x;
  if (ax > 9.1f) return x < 0.0f ? -1.0f : 1.0f;
  const float e = expm1(2.0f * ax);
  const float t = e / (e + 2.0f);
  return x < 0.0f ? -t : t;
}

/// @brief 1 / (1 + e^-x).
constexpr float sigmoid(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + exp(-x));
  const float e = exp(x);  // avoids exp overflow for very negative x
  return e / (1.0f + e);
}

constexpr float relu(float x) { return x > 0.0f ? x : 0.0f; }
constexpr float relu6(float x) { return x < 0.0f ? 0.0f : (x > 6.0f ? 6.0f : x); }
/// @brief x * sigmoid(x) (SiLU / swish).
constexpr float silu(float x) { return x * sigmoid(x); }
/// @brief x * relu6(x + 3) / 6 (MobileNetV3).
constexpr float hardswish(float x) { return x * relu6(x + 3.0f) * (1.0f / 6.0f); }

/// @brief relu6(x + 3) / 6 (MobileNetV3).
constexpr float hardsigmoid(float x) { return relu6(x + 3.0f) * (1.0f / 6.0f); }
/// @brief erf(x), to about 1 ulp of the float result. |x| < 2.5: the Maclaurin series
/// 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)) summed in double (its largest term is under 25,
/// so double keeps 14 digits); 2.5 <= |x| < 6: 1 - erfc(x) with erfc(x) = e^(-x^2) / (sqrt(pi) K(x))
/// and Laplace's continued fraction K(x) = x + (1/2)/(x + 1/(x + (3/2)/(x + ...))), 60 levels
/// evaluated from the bottom; beyond 6, +-1 (erfc(6) < 3e-17).
constexpr float erf(float x) {
  if (x != x) return x;
  const double ax = x < 0.0f ? -static_cast<double>(x) : static_cast<double>(x);
  const double two_over_sqrt_pi = 1.1283791670955125739;
  double r = 1.0;
  if (ax < 2.5) {
    const double x2 = ax * ax;
    double term = ax, sum = ax;
    for (int n = 1; n < 80; ++n) {
      term *= -x2 / n;
      const double add = term / (2 * n + 1);
      sum += add;
      if ((add < 0 ? -add : add) < 1e-17 * sum) break;
    }
    r = two_over_sqrt_pi * sum;
  } else if (ax < 6.0) {
    double k = ax;
    for (int level = 60; level >= 1; --level) k = ax + (0.5 * level) / k;
    const double erfc = static_cast<double>(exp(static_cast<float>(-ax * ax))) * (0.5 * two_over_sqrt_pi) / k;
    r = 1.0 - erfc;
  }
  const float f = static_cast<float>(r);
  return x < 0.0f ? -f : f;
}

/// @brief GELU, exact (PyTorch's default, ONNX Gelu and the Erf pattern): x/2 (1 + erf(x / sqrt 2)).
constexpr float gelu(float x) { return 0.5f * x * (1.0f + erf(x * 0.70710678118654752f)); }

/// @brief GELU in its tanh form (PyTorch's approximate="tanh"):
/// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); differs from the erf form by < 5e-4.
constexpr float gelu_tanh(float x) { return 0.5f * x * (1.0f + tanh(0.7978845608f * (x + 0.044715f * x * x * x))); }

/// @brief sqrt by Newton iteration (batchnorm's 1/sqrt(var + eps)); exact to 1 ulp for x >= 0.
constexpr float sqrt(float x) {
  if (!(x > 0.0f)) return x == 0.0f ? 0.0f : __builtin_nanf("");
  if (x == infinity) return x;
  // initial guess from halving the exponent
  float y = __builtin_bit_cast(float, (__builtin_bit_cast(uint32_t, x) >> 1) + 0x1FC00000u);
  for (int i = 0; i < 5; ++i) y = 0.5f * (y + x / y);
  return y;
}

}  // namespace ctnn::kernels::math
