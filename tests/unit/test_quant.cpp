// Fixed-point requantization against an independent int64 model and TFLite's known values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "ctnn/kernels/quant.hpp"
#include "test_kernels_rng.hpp"

namespace q = ctnn::quant;

namespace {
// Independent model: gemmlowp's doubling high mul rounds ties toward +inf (floor(x + 1/2)),
// the power-of-two divide rounds ties away from zero.
int32_t model_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t ab = int64_t{a} * b;
  return static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
}
int32_t model_rdbp(int32_t x, int e) {
  if (e == 0) return x;
  const int64_t half = int64_t{1} << (e - 1);
  if (x >= 0) return static_cast<int32_t>((int64_t{x} + half) >> e);
  return static_cast<int32_t>(-((-int64_t{x} + half) >> e));
}
int32_t model_mbqm(int32_t x, int32_t m, int shift) {
  const int64_t wide = shift > 0 ? int64_t{x} * (int64_t{1} << shift) : x;
  const auto wrapped = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(wide)));
  return model_rdbp(model_srdhm(wrapped, m), shift > 0 ? 0 : -shift);
}
}  // namespace

TEST_CASE("saturating_rounding_doubling_high_mul: known values") {
  CHECK(q::saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MIN) == INT32_MAX);
  CHECK(q::saturating_rounding_doubling_high_mul(1 << 30, 1 << 30) == 1 << 29);
  CHECK(q::saturating_rounding_doubling_high_mul(INT32_MAX, INT32_MAX) == INT32_MAX - 1);
  CHECK(q::saturating_rounding_doubling_high_mul(INT32_MIN, INT32_MAX) == -INT32_MAX);
  // 0.5 ulp ties: +0.5 rounds to 1, -0.5 rounds to 0 (gemmlowp nudge).
  CHECK(q::saturating_rounding_doubling_high_mul(1, 1 << 30) == 1);
  CHECK(q::saturating_rounding_doubling_high_mul(-1, 1 << 30) == 0);
  CHECK(q::saturating_rounding_doubling_high_mul(-3, 1 << 30) == -1);
  static_assert(q::saturating_rounding_doubling_high_mul(1 << 30, 1 << 30) == 1 << 29);
}

TEST_CASE("rounding_divide_by_pot: ties away from zero") {
  CHECK(q::rounding_divide_by_pot(5, 1) == 3);
  CHECK(q::rounding_divide_by_pot(-5, 1) == -3);
  CHECK(q::rounding_divide_by_pot(3, 1) == 2);
  CHECK(q::rounding_divide_by_pot(-3, 1) == -2);
  CHECK(q::rounding_divide_by_pot(-4, 1) == -2);
  CHECK(q::rounding_divide_by_pot(7, 0) == 7);
  CHECK(q::rounding_divide_by_pot(INT32_MIN, 31) == -1);
  CHECK(q::rounding_divide_by_pot(INT32_MAX, 31) == 1);
  CHECK(q::rounding_divide_by_pot(-(1 << 30), 31) == -1);  // -0.5 -> -1
  CHECK(q::rounding_divide_by_pot((1 << 30) - 1, 31) == 0);
}

TEST_CASE("fixed point: 60k random cases equal the int64 model") {
  ctnn_test::rng r(1);
  for (int i = 0; i < 60000; ++i) {
    const auto a = static_cast<int32_t>(r.next());
    const auto b = static_cast<int32_t>(r.next());
    const int e = r.range(0, 31);
    REQUIRE(q::saturating_rounding_doubling_high_mul(a, b) == model_srdhm(a, b));
    REQUIRE(q::rounding_divide_by_pot(a, e) == model_rdbp(a, e));
    const int shift = r.range(q::min_shift, q::max_shift);
    const int32_t m = static_cast<int32_t>(r.uniform(int64_t{1} << 30, (int64_t{1} << 31) - 1));
    // small accumulators too, where the rounding matters most
    const int32_t x = (i & 1) ? a : static_cast<int32_t>(r.uniform(-100000, 100000));
    REQUIRE(q::multiply_by_quantized_multiplier(x, m, shift) == model_mbqm(x, m, shift));
  }
}

TEST_CASE("multiply_by_quantized_multiplier approximates x * real") {
  ctnn_test::rng r(2);
  for (int i = 0; i < 20000; ++i) {
    const double real = std::ldexp(static_cast<double>(r.real(0.5f, 1.0f)), r.range(-20, 4));
    const q::requant rq = q::quantize_multiplier(real);
    const int32_t x = static_cast<int32_t>(r.uniform(-1000000, 1000000));
    const double want = x * real;
    if (std::fabs(want) > 2e9) continue;
    const int32_t got = q::apply(rq, x);
    // two roundings (each <= 1/2) plus the Q31 multiplier error (<= |x| * real * 2^-31)
    REQUIRE(std::fabs(got - want) <= 1.0 + std::fabs(want) * 1e-9);
  }
}

TEST_CASE("quantize_multiplier: TFLite values") {
  CHECK(q::quantize_multiplier(0.5) == q::requant{1 << 30, 0});
  CHECK(q::quantize_multiplier(1.0) == q::requant{1 << 30, 1});
  CHECK(q::quantize_multiplier(0.25) == q::requant{1 << 30, -1});
  CHECK(q::quantize_multiplier(0.75) == q::requant{1610612736, 0});
  // 1 - 2^-40 rounds up to 2^31 and is renormalized
  CHECK(q::quantize_multiplier(1.0 - std::ldexp(1.0, -40)) == q::requant{1 << 30, 1});
  CHECK(q::quantize_multiplier(std::ldexp(1.0, -40)) == q::requant{0, 0});
  CHECK(q::quantize_multiplier(std::ldexp(1.0, 40)) == q::requant{INT32_MAX, 30});
  static_assert(q::quantize_multiplier(0.5) == q::requant{1 << 30, 0});
  ctnn_test::rng r(3);
  for (int i = 0; i < 10000; ++i) {
    const double real = std::ldexp(static_cast<double>(r.real(0.5f, 1.0f)) + 1e-9, r.range(-30, 29));
    const q::requant rq = q::quantize_multiplier(real);
    int e = 0;
    const double frac = std::frexp(real, &e);
    CHECK(rq.shift == e);
    CHECK(rq.multiplier == static_cast<int32_t>(std::llround(frac * 2147483648.0)));
    CHECK(q::valid(rq));
    CHECK(std::fabs(q::to_real(rq) - real) <= real * std::ldexp(1.0, -30));
  }
}

TEST_CASE("quantize_multiplier: the frexp from the bits equals std::frexp on every exponent") {
  ctnn_test::rng r(11);
  for (int e2 = -1074; e2 <= 1023; ++e2)
    for (int i = 0; i < 4; ++i) {
      const double real = i == 0 ? std::ldexp(1.0, e2) : std::ldexp(1.0 + static_cast<double>(r.real(0.0f, 1.0f)), e2);
      if (!(real > 0.0) || std::isinf(real)) continue;
      CAPTURE(real);
      int e = 0;
      const double frac = std::frexp(real, &e);
      const q::requant rq = q::quantize_multiplier(real);
      int64_t fixed = std::llround(frac * 2147483648.0);
      int shift = e;
      if (fixed == (int64_t{1} << 31)) {  // rounded up to 1.0: renormalized
        fixed /= 2;
        ++shift;
      }
      if (shift < -31) CHECK(rq == q::requant{0, 0});              // below 2^-32: flushed
      else if (shift > 30) CHECK(rq == q::requant{INT32_MAX, 30});  // saturated
      else CHECK(rq == q::requant{static_cast<int32_t>(fixed), shift});
    }
  static_assert(q::quantize_multiplier(0x1p-20) == q::requant{1 << 30, -19});
  static_assert(q::quantize_multiplier(0x1p-1074) == q::requant{0, 0});  // subnormal
}

TEST_CASE("make_requant refuses a real that cannot be a multiplier, never a silent {0, 0}") {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  // the checked form: status::bad_quant_param, nothing written
  for (const double real : {0.0, -0.0, -0.5, -1e-20, nan, inf, -inf, std::ldexp(1.0, -33), std::ldexp(1.0, -40),
                            std::ldexp(1.0, 30), std::ldexp(1.0, 40), 1e300, std::numeric_limits<double>::denorm_min()}) {
    CAPTURE(real);
    q::requant out{12345, 7};
    CHECK(q::make_requant(out, real) == ctnn::kernels::status::bad_quant_param);
    CHECK(out == q::requant{12345, 7});
  }
  // the representable range [2^-32, 2^30): the same value as TFLite's QuantizeMultiplier
  for (const double real : {std::ldexp(1.0, -32), 1e-9, 0.5, 0.75, 1.0, 3.0, std::ldexp(1.0, 30) * (1.0 - 1e-12)}) {
    CAPTURE(real);
    q::requant out{};
    CHECK(q::make_requant(out, real) == ctnn::kernels::status::ok);
    CHECK(out == q::quantize_multiplier(real));
    CHECK(q::valid(out));
  }
  // the unchecked form at run time: an invalid requant that valid() (and so every kernel) refuses
  for (const double real : {0.0, -0.5, nan, inf}) {
    CAPTURE(real);
    const q::requant r = q::quantize_multiplier(real);
    CHECK(r == q::invalid_requant);
    CHECK_FALSE(q::valid(r));
  }
  // in a constant expression the checked form answers too (the unchecked one fails to compile:
  // tests/fail/quant_zero_multiplier.cpp)
  static_assert([] {
    q::requant r{};
    return q::make_requant(r, 0.0) == ctnn::kernels::status::bad_quant_param &&
           q::make_requant(r, 0.25) == ctnn::kernels::status::ok && r == q::requant{1 << 30, -1};
  }());
  // scales and zero points
  CHECK(q::valid_scale(1.0 / 32.0));
  CHECK(q::valid_scale(std::numeric_limits<double>::denorm_min()));
  for (const double s : {0.0, -0.0, -1.0, nan, inf, -inf}) CHECK_FALSE(q::valid_scale(s));
  // float32 scales, decided on their bits: the same answers
  CHECK(q::valid_scale(1.0f / 32.0f));
  CHECK(q::valid_scale(std::numeric_limits<float>::denorm_min()));
  CHECK(q::valid_scale(std::numeric_limits<float>::max()));
  for (const float s : {0.0f, -0.0f, -1.0f, -std::numeric_limits<float>::denorm_min(), std::nanf(""), -std::nanf(""),
                        std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()})
    CHECK_FALSE(q::valid_scale(s));
  static_assert(q::valid_scale(0.5f) && !q::valid_scale(0.0f));
  CHECK(q::valid_zero_point(-128));
  CHECK(q::valid_zero_point(127));
  CHECK_FALSE(q::valid_zero_point(-129));
  CHECK_FALSE(q::valid_zero_point(128));
}

TEST_CASE("quantize / dequantize / round_half_away") {
  CHECK(q::round_half_away(0.49999997f) == 0.0f);
  CHECK(q::round_half_away(0.5f) == 1.0f);
  CHECK(q::round_half_away(-0.5f) == -1.0f);
  CHECK(q::round_half_away(2.5f) == 3.0f);
  CHECK(q::round_half_away(-2.4f) == -2.0f);
  CHECK(q::round_half_away(1e10f) == 1e10f);
  ctnn_test::rng r(4);
  for (int i = 0; i < 10000; ++i) {
    const float x = r.real(-300.0f, 300.0f);
    CHECK(q::round_half_away(x) == std::round(x));
  }
  CHECK(q::quantize<int8_t>(1.0f, 0.1f, 3) == 13);
  CHECK(q::quantize<int8_t>(100.0f, 0.1f, 3) == 127);
  CHECK(q::quantize<int8_t>(-100.0f, 0.1f, 3) == -128);
  CHECK(q::quantize<uint8_t>(-1.0f, 0.5f, 10) == 8);
  CHECK(q::dequantize<int8_t>(13, 0.1f, 3) == doctest::Approx(1.0f));
}
