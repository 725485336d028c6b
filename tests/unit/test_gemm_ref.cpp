// The reference GEMMs: hand-computed values, an independent int64/double model, status codes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "ctnn/kernels/reference.hpp"
#include "test_kernels_rng.hpp"

using ctnn::kernels::status;

TEST_CASE("gemm_s8_s32: 2x2x3 by hand, zero points and bias") {
  const int8_t A[6] = {1, 2, 3, 4, 5, 6};        // 2x3
  const int8_t B[6] = {1, -1, 0, 2, -3, 1};      // 3x2
  const int32_t bias[2] = {10, -10};
  int32_t C[4] = {};
  ctnn::ref::gemm_s8_s32(2, 2, 3, A, 3, B, 2, bias, C, 2, 0, 0);
  CHECK(C[0] == 10 + 1 + 0 - 9);
  CHECK(C[1] == -10 - 1 + 4 + 3);
  CHECK(C[2] == 10 + 4 + 0 - 18);
  CHECK(C[3] == -10 - 4 + 10 + 6);
  // a_zp = 1, b_zp = -1: (A - 1)(B + 1)
  ctnn::ref::gemm_s8_s32(2, 2, 3, A, 3, B, 2, nullptr, C, 2, 1, -1);
  CHECK(C[0] == 0 * 2 + 1 * 1 + 2 * -2);
  CHECK(C[3] == 3 * 0 + 4 * 3 + 5 * 2);
}

TEST_CASE("gemm_s8: per-channel requantization equals the double model within one step") {
  ctnn_test::rng r(11);
  for (int it = 0; it < 300; ++it) {
    const int M = r.range(1, 9), N = r.range(1, 9), K = r.range(1, 40);
    const auto A = r.s8(size_t(M * K)), B = r.s8(size_t(K * N));
    const auto bias = r.s32(size_t(N), -5000, 5000);
    std::vector<int32_t> mult(static_cast<size_t>(N)), shift(static_cast<size_t>(N));
    std::vector<double> real(static_cast<size_t>(N));
    for (int n = 0; n < N; ++n) {
      real[size_t(n)] = std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-14, -6));
      const auto q = ctnn::quant::quantize_multiplier(real[size_t(n)]);
      mult[size_t(n)] = q.multiplier;
      shift[size_t(n)] = q.shift;
    }
    const ctnn::ref::gemm_s8_params p{r.range(-128, 127), 0, r.range(-20, 20), mult.data(), shift.data(),
                                      true, -128, 127};
    std::vector<int8_t> C(size_t(M * N));
    REQUIRE(ctnn::ref::try_gemm_s8(M, N, K, A.data(), K, B.data(), N, bias.data(), C.data(), N, p) == status::ok);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        int64_t acc = bias[size_t(n)];
        for (int k = 0; k < K; ++k) acc += int64_t(A[size_t(m * K + k)] - p.a_zp) * B[size_t(k * N + n)];
        const double want = std::fmin(127.0, std::fmax(-128.0, double(acc) * real[size_t(n)] + p.out_zp));
        REQUIRE(std::fabs(C[size_t(m * N + n)] - want) <= 1.0);
      }
  }
}

TEST_CASE("gemm_f32: equals a double model; leading dimensions respected") {
  ctnn_test::rng r(12);
  const int M = 5, N = 7, K = 13, lda = 20, ldb = 9, ldc = 11;
  const auto A = r.f32(size_t(M * lda)), B = r.f32(size_t(K * ldb)), bias = r.f32(size_t(N));
  std::vector<float> C(size_t(M * ldc), 42.0f);
  ctnn::ref::gemm_f32(M, N, K, A.data(), lda, B.data(), ldb, bias.data(), C.data(), ldc);
  for (int m = 0; m < M; ++m) {
    for (int n = 0; n < N; ++n) {
      double acc = bias[size_t(n)];
      for (int k = 0; k < K; ++k) acc += double(A[size_t(m * lda + k)]) * B[size_t(k * ldb + n)];
      CHECK(C[size_t(m * ldc + n)] == doctest::Approx(acc).epsilon(1e-5));
    }
    for (int n = N; n < ldc; ++n) CHECK(C[size_t(m * ldc + n)] == 42.0f);  // padding untouched
  }
}

TEST_CASE("reference GEMMs: bad arguments return a status and write nothing") {
  int8_t a[4] = {1, 1, 1, 1};
  int32_t c[4] = {7, 7, 7, 7};
  int8_t c8[4] = {7, 7, 7, 7};
  const int32_t mult[1] = {1 << 30}, sh[1] = {0}, bad_mult[1] = {5};
  CHECK(ctnn::ref::try_gemm_s8_s32(-1, 2, 2, a, 2, a, 2, nullptr, c, 2, 0, 0) == status::bad_size);
  CHECK(ctnn::ref::try_gemm_s8_s32(2, 2, 2, nullptr, 2, a, 2, nullptr, c, 2, 0, 0) == status::null_pointer);
  CHECK(ctnn::ref::try_gemm_s8_s32(2, 2, 2, a, 1, a, 2, nullptr, c, 2, 0, 0) == status::bad_leading_dim);
  CHECK(ctnn::ref::try_gemm_s8_s32(2, 2, 2, a, 2, a, 2, nullptr, c, 1, 0, 0) == status::bad_leading_dim);
  CHECK(ctnn::ref::try_gemm_s8_s32(2, 2, 2, a, 2, a, 2, nullptr, c, 2, 300, 0) == status::bad_quant_param);
  CHECK(ctnn::ref::try_gemm_s8_s32(0, 2, 2, nullptr, 2, nullptr, 2, nullptr, nullptr, 2, 0, 0) == status::ok);
  ctnn::ref::gemm_s8_s32(2, 2, 2, nullptr, 2, a, 2, nullptr, c, 2, 0, 0);
  CHECK(c[0] == 7);
  ctnn::ref::gemm_s8_params p{0, 0, 0, mult, sh, false, -128, 127};
  CHECK(ctnn::ref::try_gemm_s8(2, 2, 2, a, 2, a, 2, nullptr, c8, 2, p) == status::ok);
  CHECK(c8[0] == 1);  // 2 * 0.5
  c8[0] = 7;
  p.multiplier = bad_mult;
  CHECK(ctnn::ref::try_gemm_s8(2, 2, 2, a, 2, a, 2, nullptr, c8, 2, p) == status::bad_quant_param);
  p.multiplier = mult;
  p.act_min = 10;
  p.act_max = 0;
  CHECK(ctnn::ref::try_gemm_s8(2, 2, 2, a, 2, a, 2, nullptr, c8, 2, p) == status::bad_quant_param);
  p.act_min = -128;
  p.act_max = 127;
  p.multiplier = nullptr;
  CHECK(ctnn::ref::try_gemm_s8(2, 2, 2, a, 2, a, 2, nullptr, c8, 2, p) == status::null_pointer);
  CHECK(c8[0] == 7);
  // K = 0: C = bias
  const int32_t bias[2] = {3, -4};
  CHECK(ctnn::ref::try_gemm_s8_s32(2, 2, 0, nullptr, 0, nullptr, 0, bias, c, 2, 0, 0) == status::ok);
  CHECK(c[0] == 3);
  CHECK(c[3] == -4);
}

TEST_CASE("gemm_s8_s32: int32 accumulation wraps instead of overflowing") {
  const int K = 70000;  // 70000 * 128 * 128 > 2^31
  std::vector<int8_t> A(K, -128), B(K, -128);
  int32_t C = 0;
  CHECK(ctnn::ref::try_gemm_s8_s32(1, 1, K, A.data(), K, B.data(), 1, nullptr, &C, 1, 0, 0) == status::ok);
  CHECK(C == static_cast<int32_t>(static_cast<uint32_t>(uint64_t(K) * 16384u)));
}
