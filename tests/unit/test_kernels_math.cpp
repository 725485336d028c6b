// Freestanding exp/tanh/sigmoid/sqrt against the host libm: the accuracy stated in math.hpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "ctnn/kernels/math.hpp"

namespace m = ctnn::kernels::math;

namespace {
// error in units of the last place of the exact (double) value
double ulp_error(float got, double want) {
  if (want == 0.0) return got == 0.0f ? 0.0 : 1e30;
  int e = 0;
  std::frexp(want, &e);
  const double ulp = std::ldexp(1.0, std::max(e - 24, -149));
  return std::fabs(double(got) - want) / ulp;
}
}  // namespace

TEST_CASE("exp <= 2 ulp, expm1 <= 4 ulp on [-103, 88.7]") {
  double worst = 0, worst_m1 = 0;
  for (float x = -103.0f; x < 88.7f; x += 0.0037f) {
    worst = std::max(worst, ulp_error(m::exp(x), std::exp(double(x))));
    if (std::fabs(x) < 20) worst_m1 = std::max(worst_m1, ulp_error(m::expm1(x), std::expm1(double(x))));
  }
  for (float x = -0.5f; x < 0.5f; x += 1.1e-5f) worst_m1 = std::max(worst_m1, ulp_error(m::expm1(x), std::expm1(double(x))));
  MESSAGE("exp worst " << worst << " ulp, expm1 worst " << worst_m1 << " ulp");
  CHECK(worst <= 2.0);
  CHECK(worst_m1 <= 4.0);
  CHECK(m::exp(0.0f) == 1.0f);
  CHECK(m::exp(100.0f) == m::infinity);
  CHECK(m::exp(-200.0f) == 0.0f);
  CHECK(m::exp(-100.0f) > 0.0f);  // subnormal range handled
  static_assert(m::exp(0.0f) == 1.0f);
}

TEST_CASE("tanh, sigmoid, silu, hardswish, sqrt") {
  double wt = 0, ws = 0;
  for (float x = -12.0f; x < 12.0f; x += 0.00071f) {
    wt = std::max(wt, ulp_error(m::tanh(x), std::tanh(double(x))));
    ws = std::max(ws, ulp_error(m::sigmoid(x), 1.0 / (1.0 + std::exp(-double(x)))));
    CHECK(std::fabs(m::silu(x) - x / (1.0 + std::exp(-double(x)))) <= 1e-6 * (1 + std::fabs(x)));
  }
  for (float x = -1e-3f; x < 1e-3f; x += 1.3e-7f) wt = std::max(wt, ulp_error(m::tanh(x), std::tanh(double(x))));
  MESSAGE("tanh worst " << wt << " ulp, sigmoid worst " << ws << " ulp");
  CHECK(wt <= 4.0);
  CHECK(ws <= 4.0);
  CHECK(m::tanh(20.0f) == 1.0f);
  CHECK(m::tanh(-20.0f) == -1.0f);
  CHECK(m::sigmoid(-100.0f) >= 0.0f);
  CHECK(m::hardswish(-4.0f) == 0.0f);
  CHECK(m::hardswish(4.0f) == 4.0f);
  CHECK(m::hardswish(1.0f) == doctest::Approx(1.0f * 4.0f / 6.0f));
  CHECK(m::relu6(7.0f) == 6.0f);
  for (float x = 1e-6f; x < 1e6f; x *= 1.013f) CHECK(ulp_error(m::sqrt(x), std::sqrt(double(x))) <= 1.0);
  CHECK(m::sqrt(0.0f) == 0.0f);
}
