// Deterministic random numbers and buffer helpers shared by the kernel unit tests.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace ctnn_test {

/// xorshift64*: fixed seed, same sequence on every platform.
struct rng {
  uint64_t s;
  explicit rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
  /// uniform integer in [lo, hi]
  int64_t uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  int range(int lo, int hi) { return static_cast<int>(uniform(lo, hi)); }
  /// uniform float in [lo, hi)
  float real(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 40) / static_cast<float>(1ull << 24);
  }
  std::vector<int8_t> s8(size_t n, int lo = -128, int hi = 127) {
    std::vector<int8_t> v(n);
    for (auto& x : v) x = static_cast<int8_t>(range(lo, hi));
    return v;
  }
  std::vector<float> f32(size_t n, float lo = -1.0f, float hi = 1.0f) {
    std::vector<float> v(n);
    for (auto& x : v) x = real(lo, hi);
    return v;
  }
  std::vector<int32_t> s32(size_t n, int32_t lo, int32_t hi) {
    std::vector<int32_t> v(n);
    for (auto& x : v) x = static_cast<int32_t>(uniform(lo, hi));
    return v;
  }
};

/// "" when got and want have the same size and |got[i] - want[i]| <= tol for every i (a NaN is
/// not), else "element I: got G, want W, tolerance T" for the first i that is not. A whole buffer
/// in one assertion, REQUIRE(within(got, want, tol) == ""): one REQUIRE per element made 4.5
/// million assertions of unit.gemm_tiled_avx2 (11 of its 71 s under valgrind) and 5.4 million of
/// unit.kernels_depthwise_avx2 (7 of 17 s).
template <class T>
std::string within(const std::vector<T>& got, const std::vector<T>& want, T tol) {
  std::ostringstream out;
  if (got.size() != want.size()) {
    out << "got " << got.size() << " elements, want " << want.size();
    return out.str();
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= tol)) {
      out.precision(9);
      out << "element " << i << ": got " << got[i] << ", want " << want[i] << ", tolerance " << tol;
      return out.str();
    }
  return "";
}

/// v with every element clamped to [lo, hi] (the reference of a fused clamp).
template <class T>
std::vector<T> clamped(std::vector<T> v, T lo, T hi) {
  for (T& x : v) x = std::clamp(x, lo, hi);
  return v;
}

}  // namespace ctnn_test
