// gemmlowp's fixed-point functions on int32, as TFLite's integer kernels use them (int8 softmax):
// a value in Qm.(31-m) is a raw int32 x standing for x / 2^(31-m). Products round to nearest
// (quant::saturating_rounding_doubling_high_mul, the NEON VQRDMULH); the transcendental functions
// are gemmlowp's: exp on [-1/4, 0) by a Taylor polynomial around -1/8, exp of any negative value
// by a barrel of exact exp(-2^k) factors, 1 / (1 + x) on [0, 1) by three Newton-Raphson steps.
// Integer arithmetic only: the same bits on the host, the firmware and in constant expressions.
#pragma once
#include "ctnn/kernels/quant.hpp"

namespace ctnn::quant::fixed {

/// x * 2^E: a left shift saturating to the int32 range (E > 0), a rounding right shift (E < 0).
template <int E>
constexpr int32_t saturating_rounding_multiply_by_pot(int32_t x) {
  if constexpr (E == 0) {
    return x;
  } else if constexpr (E > 0) {
    constexpr int32_t threshold = static_cast<int32_t>((int64_t{1} << (31 - E)) - 1);
    if (x > threshold) return int32_max;
    if (x < -threshold) return int32_min;
    return static_cast<int32_t>(static_cast<uint32_t>(x) << E);
  } else {
    return rounding_divide_by_pot(x, -E);
  }
}

/// A value of Q`From` moved to Q`To` (gemmlowp's Rescale).
template <int To, int From>
constexpr int32_t rescale(int32_t x) {
  return saturating_rounding_multiply_by_pot<From - To>(x);
}

/// (a + b) / 2 rounded to nearest, ties away from zero (NEON VRHADD).
constexpr int32_t rounding_half_sum(int32_t a, int32_t b) {
  const int64_t sum = int64_t{a} + int64_t{b};
  return static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/// The product of Qa and Qb values, a Q(a+b) value.
constexpr int32_t mul(int32_t a, int32_t b) { return saturating_rounding_doubling_high_mul(a, b); }

/// 1.0 in Q0.31 (its largest value).
inline constexpr int32_t one_q0 = int32_max;

/// exp(a) for a Q0.31 value a in [-1/4, 0): the Taylor series around -1/8 to the 4th power.
constexpr int32_t exp_on_interval_between_negative_one_quarter_and_0_excl(int32_t a) {
  constexpr int32_t exp_minus_one_eighth = 1895147668;  // exp(-1/8) in Q0.31
  constexpr int32_t one_third = 715827883;              // 1/3 in Q0.31
  const int32_t x = a + (int32_t{1} << 28);             // a + 1/8
  const int32_t x2 = mul(x, x), x3 = mul(x2, x), x4 = mul(x2, x2);
  const int32_t x4_over_4 = saturating_rounding_multiply_by_pot<-2>(x4);
  const int32_t poly = saturating_rounding_multiply_by_pot<-1>(mul(x4_over_4 + x3, one_third) + x2);
  return exp_minus_one_eighth + mul(exp_minus_one_eighth, x + poly);
}

/// exp(a) in Q0.31 for a value a < 0 in Q`IntegerBits` (a == 0 gives 1).
template <int IntegerBits>
constexpr int32_t exp_on_negative_values(int32_t a) {
  constexpr int fractional = 31 - IntegerBits;
  constexpr int32_t one_quarter = int32_t{1} << (fractional - 2);
  const int32_t a_mod_quarter_minus_one_quarter = (a & (one_quarter - 1)) - one_quarter;
  int32_t result = exp_on_interval_between_negative_one_quarter_and_0_excl(
      rescale<0, IntegerBits>(a_mod_quarter_minus_one_quarter));
  const int32_t remainder = a_mod_quarter_minus_one_quarter - a;
  // exp(-2^k) for k = -2 .. 4, in Q0.31: the factors of the barrel shifter
  constexpr int32_t factor[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
  for (int k = -2; k <= 4; ++k)
    if (IntegerBits > k && (remainder & (int32_t{1} << (fractional + k))) != 0) result = mul(result, factor[k + 2]);
  if constexpr (IntegerBits > 5) {
    if (a < -(int32_t{1} << (36 - IntegerBits))) result = 0;  // below -32: 0
  }
  return a == 0 ? one_q0 : result;
}

/// 1 / (1 + a) in Q0.31 for a Q0.31 value a in [0, 1): Newton-Raphson on the half denominator,
/// starting from 48/17 - 32/17 d.
constexpr int32_t one_over_one_plus_x_for_x_in_0_1(int32_t a) {
  const int32_t half_denominator = rounding_half_sum(a, one_q0);
  constexpr int32_t c48_over_17 = 1515870810;      // Q2.29
  constexpr int32_t c_neg_32_over_17 = -1010580540;  // Q2.29
  constexpr int32_t one_q2 = int32_t{1} << 29;
  int32_t x = c48_over_17 + mul(half_denominator, c_neg_32_over_17);
  for (int i = 0; i < 3; ++i) {
    const int32_t one_minus_half_denominator_times_x = one_q2 - mul(half_denominator, x);
    x = x + rescale<2, 4>(mul(x, one_minus_half_denominator_times_x));
  }
  return rescale<0, 1>(x);  // x / 2 (exact, one integer bit fewer), then to Q0.31
}

/// TFLite's GetReciprocal: 1 / x for a positive Q`x_integer_digits` value x, as a Q0.31 value
/// and `num_bits_over_unit`, the power of two it must still be divided by.
constexpr int32_t reciprocal(int32_t x, int x_integer_digits, int& num_bits_over_unit) {
  const int headroom_plus_one = __builtin_clz(static_cast<uint32_t>(x));
  num_bits_over_unit = x_integer_digits - headroom_plus_one;
  const auto shifted_sum_minus_one =
      static_cast<int32_t>((static_cast<uint32_t>(x) << headroom_plus_one) - (uint32_t{1} << 31));
  return one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one);
}

}  // namespace ctnn::quant::fixed
