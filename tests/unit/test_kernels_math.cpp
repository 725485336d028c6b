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

TEST_CASE("erf <= 1 ulp against libm; exact GELU against PyTorch's formula in double") {
  double we = 0, wg = 0;
  for (float x = -7.0f; x < 7.0f; x += 0.00013f) {
    we = std::max(we, ulp_error(m::erf(x), std::erf(double(x))));
    const double gelu = 0.5 * double(x) * (1.0 + std::erf(double(x) / std::sqrt(2.0)));
    // the float formula (PyTorch's too) cancels in 1 + erf for x -> -inf: there the absolute
    // error, about an ulp of 1 times |x| / 2, is what it can promise
    wg = std::max(wg, std::fabs(double(m::gelu(x)) - gelu) / std::max(0.5 * std::fabs(double(x)), std::fabs(gelu)));
  }
  for (float x = -1e-3f; x < 1e-3f; x += 1.3e-7f) we = std::max(we, ulp_error(m::erf(x), std::erf(double(x))));
  MESSAGE("erf worst " << we << " ulp, gelu worst relative " << wg);
  CHECK(we <= 1.0);
  CHECK(wg <= 2.5e-7);
  CHECK(m::erf(0.0f) == 0.0f);
  CHECK(m::erf(10.0f) == 1.0f);
  CHECK(m::erf(-10.0f) == -1.0f);
  CHECK(std::isnan(m::erf(std::nanf(""))));
  static_assert(m::erf(0.0f) == 0.0f);
  // PyTorch: torch.nn.functional.gelu(torch.tensor([1.0, -0.5, -3.0])) (exact form)
  CHECK(m::gelu(1.0f) == doctest::Approx(0.8413447461).epsilon(1e-6));
  CHECK(m::gelu(-0.5f) == doctest::Approx(-0.1542687694).epsilon(1e-6));
  CHECK(m::gelu(-3.0f) == doctest::Approx(-0.0040496941).epsilon(1e-5));
  // the tanh form differs from it by up to about 5e-4 (PyTorch approximate="tanh" at 1: 0.8411920)
  CHECK(m::gelu_tanh(1.0f) == doctest::Approx(0.8411920f).epsilon(1e-6));
}
