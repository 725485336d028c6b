// TFLite-compatible fixed-point requantization: the integer arithmetic shared by the int8
// kernels, the firmware and the accelerator testbench (its golden model).
//
// A real multiplier m > 0 is stored as  m = multiplier * 2^(shift - 31),  multiplier in
// [2^30, 2^31) (a Q0.31 number in [0.5, 1)), shift an exponent (> 0: left, < 0: right).
// Requantizing an int32 accumulator x:
//
//   x' = x << max(shift, 0)                          (wraps mod 2^32, as TFLite does on hardware)
//   h  = saturating_rounding_doubling_high_mul(x', multiplier)   = round(x' * multiplier / 2^31)
//   y  = rounding_divide_by_pot(h, max(-shift, 0))   = round-half-away-from-zero(h / 2^-shift)
#pragma once
#include "ctnn/core/utility.hpp"
#include "ctnn/kernels/status.hpp"

namespace ctnn::quant {

namespace detail {
// Non-constexpr on purpose: reaching it in a constant expression is a compile error whose note
// names the fault.
inline void shift_out_of_range_must_be_in_minus31_to_30() {}
inline void exponent_out_of_range_must_be_in_0_to_31() {}
inline void real_multiplier_must_be_finite_and_positive() {}
}  // namespace detail

inline constexpr int32_t int32_min = -2147483647 - 1;
inline constexpr int32_t int32_max = 2147483647;
inline constexpr int min_shift = -31;  ///< smallest shift multiply_by_quantized_multiplier accepts
inline constexpr int max_shift = 30;   ///< largest shift (TFLite's bound)

/// @brief round(a * b / 2^31) with ties away from zero; saturates the single overflow case
/// a == b == INT32_MIN to INT32_MAX. gemmlowp's SaturatingRoundingDoublingHighMul.
constexpr int32_t saturating_rounding_doubling_high_mul(int32_t a, int32_t b) {
  if (a == b && a == int32_min) return int32_max;
  const int64_t ab = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : (int64_t{1} - (int64_t{1} << 30));
  // Division truncates toward zero; with the nudge this is the gemmlowp rounding exactly.
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));
}

/// @brief x / 2^exponent rounded to nearest, ties away from zero (gemmlowp RoundingDivideByPOT).
/// exponent in [0, 31].
constexpr int32_t rounding_divide_by_pot(int32_t x, int exponent) {
  if (exponent < 0 || exponent > 31) {
    detail::exponent_out_of_range_must_be_in_0_to_31();
    exponent = exponent < 0 ? 0 : 31;
  }
  const int32_t mask = static_cast<int32_t>((int64_t{1} << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/// @brief TFLite MultiplyByQuantizedMultiplier: x * multiplier * 2^(shift - 31), rounded.
/// shift > 0 is a left shift, shift < 0 a right shift; shift in [-31, 30]. The left shift wraps
/// modulo 2^32 (TFLite leaves it undefined; every target it runs on wraps).
constexpr int32_t multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift) {
  if (shift < min_shift || shift > max_shift) {
    detail::shift_out_of_range_must_be_in_minus31_to_30();
    shift = shift < min_shift ? min_shift : max_shift;
  }
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, multiplier), right);
}

/// @brief A quantized real multiplier: real = multiplier * 2^(shift - 31).
struct requant {
  int32_t multiplier = 0;
  int32_t shift = 0;
  friend constexpr bool operator==(const requant&, const requant&) = default;
};

/// @brief True when r is a multiplier the kernels accept: multiplier 0, or in [2^30, 2^31),
/// and shift in [min_shift, max_shift].
constexpr bool valid(requant r) {
  const bool m_ok = r.multiplier == 0 || r.multiplier >= (int32_t{1} << 30);
  return m_ok && r.shift >= min_shift && r.shift <= max_shift;
}

/// @brief What quantize_multiplier(real) gives at run time for a real that cannot be a
/// multiplier (zero, negative, NaN, infinite): valid() refuses it, so every int8 kernel given it
/// returns status::bad_quant_param instead of computing with a silent {0, 0}.
inline constexpr requant invalid_requant{0, min_shift - 1};

/// @brief True for a quantization scale: finite and > 0 (not 0, negative, NaN or infinite).
constexpr bool valid_scale(double scale) { return scale > 0.0 && scale - scale == 0.0; }
/// @brief The same for a float32 scale (a tensor's, as the blob stores it), on its bits alone: no
/// floating-point arithmetic, so firmware without an FPU calls no soft-float routine for it.
constexpr bool valid_scale(float scale) {
  const uint32_t bits = __builtin_bit_cast(uint32_t, scale);
  return bits != 0 && bits < 0x7F800000u;  // sign 0, not +0, exponent not all ones (infinity, NaN)
}

/// @brief True for a zero point of an int8 tensor: [-128, 127].
constexpr bool valid_zero_point(int32_t zero_point) { return zero_point >= -128 && zero_point <= 127; }

/// The real multipliers a requant represents without flushing or saturating: [2^-32, 2^30).
inline constexpr double min_real_multiplier = 0x1p-32;
inline constexpr double max_real_multiplier = 0x1p30;

/// @brief TFLite QuantizeMultiplier: splits real > 0 into a Q0.31 multiplier in [2^30, 2^31)
/// and a power-of-two exponent. Rounds half away from zero. Multipliers below 2^-32 flush to
/// {0, 0}; above 2^30 they saturate to {2^31 - 1, 30} (TFLite's behaviour).
/// A real that is zero, negative, NaN or infinite is no multiplier: in a constant expression it
/// fails to compile (the note names the fault); at run time the result is invalid_requant, which
/// every kernel refuses. Where the real comes from run-time data, make_requant returns the fault
/// as a status instead.
constexpr requant quantize_multiplier(double real) {
  if (!valid_scale(real)) {
    detail::real_multiplier_must_be_finite_and_positive();
    return invalid_requant;
  }
  // frexp: real = q * 2^e, q in [0.5, 1), and q_fixed = round(q * 2^31), half away from zero.
  // A normal double gives both from its bits: e = its exponent + 1, q * 2^53 = its 53-bit
  // significand m, so q * 2^31 = m / 2^22: floor m >> 22, and the fraction is >= 1/2 when bit 21
  // of m is set (the soft-double loop of halvings it replaces took thousands of cycles on rv32
  // for a multiplier near 2^-20). A subnormal halves or doubles its way there, exactly.
  const uint64_t bits = __builtin_bit_cast(uint64_t, real);
  const auto biased = static_cast<int>((bits >> 52) & 0x7FFu);
  int e = 0;
  int64_t q_fixed = 0;
  if (biased != 0) {
    const uint64_t m = (bits & ((uint64_t{1} << 52) - 1u)) | (uint64_t{1} << 52);
    e = biased - 1022;
    q_fixed = static_cast<int64_t>(m >> 22) + static_cast<int64_t>((m >> 21) & 1u);
  } else {
    double q = real;
    while (q >= 1.0) { q *= 0.5; ++e; }
    while (q < 0.5) { q *= 2.0; --e; }
    const double scaled = q * 2147483648.0;    // in [2^30, 2^31), at most 22 fractional bits
    q_fixed = static_cast<int64_t>(scaled);    // truncation of a positive value = floor
    if (scaled - static_cast<double>(q_fixed) >= 0.5) ++q_fixed;
  }
  if (q_fixed == (int64_t{1} << 31)) { q_fixed /= 2; ++e; }
  if (e < min_shift) return {0, 0};
  if (e > max_shift) return {int32_max, max_shift};
  return {static_cast<int32_t>(q_fixed), e};
}

/// @brief quantize_multiplier of a real made from run-time numbers (a scale ratio), checked:
/// writes the requant to `out` and returns status::ok, or returns status::bad_quant_param and
/// writes nothing when the real is zero, negative, NaN, infinite or outside [2^-32, 2^30) (a
/// multiplier that would flush to {0, 0} or saturate).
constexpr kernels::status make_requant(requant& out, double real) {
  if (!valid_scale(real) || real < min_real_multiplier || !(real < max_real_multiplier))
    return kernels::status::bad_quant_param;
  out = quantize_multiplier(real);
  return kernels::status::ok;
}

/// @brief The real value a requant stands for (for tests and reports).
constexpr double to_real(requant r) {
  double v = static_cast<double>(r.multiplier) / 2147483648.0;
  for (int i = 0; i < r.shift; ++i) v *= 2.0;
  for (int i = 0; i > r.shift; --i) v *= 0.5;
  return v;
}

/// @brief Applies r to an int32 accumulator.
constexpr int32_t apply(requant r, int32_t x) {
  return multiply_by_quantized_multiplier(x, r.multiplier, r.shift);
}

/// @brief Range of a quantized element type.
template <class T> inline constexpr int32_t qmin = 0;
template <class T> inline constexpr int32_t qmax = 0;
template <> inline constexpr int32_t qmin<int8_t> = -128;
template <> inline constexpr int32_t qmax<int8_t> = 127;
template <> inline constexpr int32_t qmin<uint8_t> = 0;
template <> inline constexpr int32_t qmax<uint8_t> = 255;

constexpr int32_t clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

/// @brief Round to nearest, ties away from zero, without libm (TfLiteRound / std::round).
/// Exact for every float: the fraction x - trunc(x) is computed without rounding error.
constexpr float round_half_away(float x) {
  if (!(x < 8388608.0f && x > -8388608.0f)) return x;  // already integral (or NaN)
  const float t = static_cast<float>(static_cast<int32_t>(x));
  const float frac = x - t;
  if (frac >= 0.5f) return t + 1.0f;
  if (frac <= -0.5f) return t - 1.0f;
  return t;
}

/// @brief Quantizes a real value: clamp(round(x / scale) + zp) into T's range.
template <class T = int8_t>
constexpr T quantize(float x, float scale, int32_t zero_point) {
  const float r = round_half_away(x / scale);
  // Clamp in float first so the int conversion cannot overflow.
  const float lo = static_cast<float>(qmin<T> - zero_point);
  const float hi = static_cast<float>(qmax<T> - zero_point);
  const float c = r < lo ? lo : (r > hi ? hi : r);
  return static_cast<T>(static_cast<int32_t>(c) + zero_point);
}

/// @brief Real value of a quantized element: scale * (q - zero_point).
template <class T = int8_t>
constexpr float dequantize(T q, float scale, int32_t zero_point) {
  return scale * static_cast<float>(static_cast<int32_t>(q) - zero_point);
}

// ---- parameters known at compile time: checked with a readable error ----------------------

/// @brief A requant fixed at compile time. Fails to compile, naming the fault, when the
/// multiplier is not 0 or in [2^30, 2^31), or the shift is outside [-31, 30].
template <int32_t Multiplier, int32_t Shift>
struct static_requant {
  static_assert(Multiplier == 0 || Multiplier >= (int32_t{1} << 30),
                "ctnn::quant: requant multiplier must be 0 or in [2^30, 2^31) (a normalized Q0.31 value); "
                "use quantize_multiplier(real) to build it");
  static_assert(Shift >= min_shift && Shift <= max_shift,
                "ctnn::quant: requant shift must be in [-31, 30] (TFLite bound)");
  static constexpr requant value{Multiplier, Shift};
};

/// @brief quantize_multiplier of the ratio Num / Den known at compile time (e.g. the scale
/// ratio in_scale * w_scale / out_scale written as integers); fails to compile, with one error,
/// when the ratio is zero or negative, or so small (< 2^-32) or large (>= 2^30) that it cannot be
/// represented.
template <int64_t Num, int64_t Den>
struct static_multiplier_ratio {
  static constexpr bool positive = Den != 0 && Num != 0 && (Num > 0) == (Den > 0);
  static constexpr double real = positive ? static_cast<double>(Num) / static_cast<double>(Den) : 0.0;
  static constexpr bool in_range = real >= min_real_multiplier && real < max_real_multiplier;
  static_assert(Den != 0, "ctnn::quant: real multiplier ratio with a zero denominator");
  static_assert(Den == 0 || positive,
                "ctnn::quant: real multiplier must be positive (a zero or negative one comes from a zero or negative scale)");
  static_assert(!positive || in_range, "ctnn::quant: real multiplier out of the representable range [2^-32, 2^30)");
  static constexpr requant value = positive && in_range ? quantize_multiplier(real) : invalid_requant;
};

#if defined(__cpp_nontype_template_args) && __cpp_nontype_template_args >= 201911L
/// @brief quantize_multiplier of a real known at compile time (floating-point template
/// argument: GCC 11+, Clang 18+); fails to compile, with one error, when the real is zero or
/// negative, or so small (< 2^-32) or large (>= 2^30) that it cannot be represented.
template <double Real>
struct static_multiplier {
  static constexpr bool in_range = Real >= min_real_multiplier && Real < max_real_multiplier;
  static_assert(Real > 0.0,
                "ctnn::quant: real multiplier must be positive (a zero or negative one comes from a zero or negative scale)");
  static_assert(!(Real > 0.0) || in_range, "ctnn::quant: real multiplier out of the representable range [2^-32, 2^30)");
  static constexpr requant value = in_range ? quantize_multiplier(Real) : invalid_requant;
};
#endif

/// @brief A zero point fixed at compile time; fails to compile when outside T's range.
template <int32_t ZeroPoint, class T = int8_t>
struct static_zero_point {
  static_assert(is_same_v<T, int8_t> || is_same_v<T, uint8_t>,
                "ctnn::quant: zero points are defined for int8 and uint8 tensors only");
  static_assert(ZeroPoint >= qmin<T> && ZeroPoint <= qmax<T>,
                "ctnn::quant: zero point out of range of the quantized type (int8: [-128, 127], uint8: [0, 255])");
  static constexpr int32_t value = ZeroPoint;
};

/// @brief Weights are symmetric (TFLite int8): a weight zero point must be 0.
template <int32_t ZeroPoint>
struct static_weight_zero_point {
  static_assert(ZeroPoint == 0, "ctnn::quant: int8 weights are symmetric per channel: weight zero point must be 0");
  static constexpr int32_t value = 0;
};

}  // namespace ctnn::quant
