// Fixed-tile GEMM splitting: plans by hand, and the executor against the untiled reference
// (int8 bit-exact, float within the bound stated in fixed_tile.hpp) for several tile sizes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "ctnn/kernels/fixed_tile.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/tiled.hpp"
#include "test_kernels_rng.hpp"

namespace k = ctnn::kernels;
using k::status;

TEST_CASE("plan_fixed_tiles: counts, padding waste, bytes") {
  const auto p = k::plan_fixed_tiles<64>(100, 130, 65);
  CHECK(p.tiles_m == 2);
  CHECK(p.tiles_n == 3);
  CHECK(p.tiles_k == 2);
  CHECK(p.sub_gemms == 12);
  CHECK(p.padded_macs == 128 * 192 * 128);
  CHECK(p.waste_macs == 128 * 192 * 128 - 100 * 130 * 65);
  CHECK(p.total_bytes == 12 * (64 * 64 * 2 + 64 * 64 * 4));
  // every schedule entry visits each (tm, tn, tk) once, tk innermost
  std::vector<int> seen(12, 0);
  for (int64_t i = 0; i < p.sub_gemms; ++i) {
    const auto s = k::schedule_entry(p, i);
    CHECK(s.tk == i % 2);
    ++seen[static_cast<size_t>((s.tm * 3 + s.tn) * 2 + s.tk)];
  }
  for (int v : seen) CHECK(v == 1);
  for (int64_t i = 0; i < 300; ++i) {
    CHECK(k::tile_index<16>(i) == i / 16);
    CHECK(k::tile_offset<16>(i) == i % 16);
  }
}

namespace {

template <int64_t T>
int run_s8(uint64_t seed, int cases, int max_dim) {
  ctnn_test::rng r(seed);
  auto buf = std::make_unique<k::fixed_tile_buffers<T, int8_t, int32_t>>();
  int done = 0;
  for (int c = 0; c < cases; ++c) {
    const int M = r.range(1, max_dim), N = r.range(1, max_dim), K = r.range(1, max_dim);
    const int lda = K + r.range(0, 2), ldb = N + r.range(0, 2);
    const auto A = r.s8(size_t(M * lda)), B = r.s8(size_t(K * ldb));
    const auto bias = r.s32(size_t(N), -50000, 50000);
    const int32_t a_zp = r.range(-128, 127), b_zp = r.range(0, 3) == 0 ? r.range(-128, 127) : 0;
    std::vector<int32_t> want(size_t(M * N)), got(want.size());
    REQUIRE(ctnn::ref::try_gemm_s8_s32(M, N, K, A.data(), lda, B.data(), ldb, bias.data(), want.data(), N, a_zp, b_zp) ==
            status::ok);
    REQUIRE(k::fixed_tile_gemm_s8_s32<T>(M, N, K, A.data(), lda, B.data(), ldb, bias.data(), got.data(), N, a_zp, b_zp,
                                         *buf) == status::ok);
    INFO("T=" << T << " M=" << M << " N=" << N << " K=" << K);
    REQUIRE(got == want);
    const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-14, -6)));
    const ctnn::ref::gemm_s8_params p{a_zp, b_zp, r.range(-10, 10), &q.multiplier, &q.shift, false, -128, 127};
    std::vector<int8_t> w8(size_t(M * N)), g8(w8.size());
    REQUIRE(ctnn::ref::try_gemm_s8(M, N, K, A.data(), lda, B.data(), ldb, bias.data(), w8.data(), N, p) == status::ok);
    REQUIRE(k::fixed_tile_gemm_s8<T>(M, N, K, A.data(), lda, B.data(), ldb, bias.data(), g8.data(), N, p, *buf) ==
            status::ok);
    REQUIRE(g8 == w8);
    ++done;
  }
  return done;
}

}  // namespace

TEST_CASE("fixed-tile int8 executor is bit-exact with the untiled reference") {
  int n = 0;
  n += run_s8<1>(91, 200, 5);
  n += run_s8<4>(92, 600, 13);
  n += run_s8<8>(93, 600, 20);
  n += run_s8<16>(94, 150, 40);
  n += run_s8<64>(95, 6, 130);  // the lab's tile, shapes crossing tile borders
  CHECK(n == 1556);
}

TEST_CASE("fixed-tile executor with the tiled kernel as the tile engine") {
  // The engine is pluggable: here the tiled int8 GEMM computes each 8x8x8 tile.
  struct tiled_engine {
    void operator()(const int8_t* a, const int8_t* b, int32_t* part, int32_t a_zp, int32_t b_zp) const {
      int32_t ws[256];
      (void)k::tiled::gemm_s8_s32<k::qgemm_tiling<2, 4, 4, 8, 8>>(8, 8, 8, a, 8, b, 8, nullptr, part, 8, a_zp, b_zp,
                                                                   ws, sizeof ws);
    }
  };
  ctnn_test::rng r(96);
  auto buf = std::make_unique<k::fixed_tile_buffers<8, int8_t, int32_t>>();
  for (int c = 0; c < 100; ++c) {
    const int M = r.range(1, 30), N = r.range(1, 30), K = r.range(1, 30);
    const auto A = r.s8(size_t(M * K)), B = r.s8(size_t(K * N));
    std::vector<int32_t> want(size_t(M * N)), got(want.size());
    ctnn::ref::gemm_s8_s32(M, N, K, A.data(), K, B.data(), N, nullptr, want.data(), N, 7, 0);
    REQUIRE(k::fixed_tile_gemm_s8_s32<8>(M, N, K, A.data(), K, B.data(), N, nullptr, got.data(), N, 7, 0, *buf,
                                         tiled_engine{}) == status::ok);
    REQUIRE(got == want);
  }
}

TEST_CASE("fixed-tile float executor within the stated bound") {
  ctnn_test::rng r(97);
  auto buf = std::make_unique<k::fixed_tile_buffers<16, float, float>>();
  for (int c = 0; c < 150; ++c) {
    const int M = r.range(1, 40), N = r.range(1, 40), K = r.range(1, 70);
    const auto A = r.f32(size_t(M * K)), B = r.f32(size_t(K * N)), bias = r.f32(size_t(N));
    std::vector<float> want(size_t(M * N)), got(want.size());
    ctnn::ref::gemm_f32(M, N, K, A.data(), K, B.data(), N, bias.data(), want.data(), N);
    REQUIRE(k::fixed_tile_gemm_f32<16>(M, N, K, A.data(), K, B.data(), N, bias.data(), got.data(), N, *buf) == status::ok);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double mag = std::fabs(bias[size_t(n)]);
        for (int kk = 0; kk < K; ++kk) mag += std::fabs(double(A[size_t(m * K + kk)]) * B[size_t(kk * N + n)]);
        const double bound = 2.0 * (K + 1) * std::ldexp(1.0, -24) * mag;
        REQUIRE(std::fabs(got[size_t(m * N + n)] - want[size_t(m * N + n)]) <= bound);
      }
  }
}

TEST_CASE("fixed-tile executors: faults and K = 0") {
  auto buf = std::make_unique<k::fixed_tile_buffers<4, int8_t, int32_t>>();
  int8_t a[4] = {};
  int32_t c[4] = {9, 9, 9, 9};
  const int32_t bias[2] = {5, 6};
  CHECK(k::fixed_tile_gemm_s8_s32<4>(2, 2, 2, nullptr, 2, a, 2, nullptr, c, 2, 0, 0, *buf) == status::null_pointer);
  CHECK(k::fixed_tile_gemm_s8_s32<4>(2, 2, 2, a, 2, a, 2, nullptr, c, 2, 200, 0, *buf) == status::bad_quant_param);
  CHECK(c[0] == 9);
  CHECK(k::fixed_tile_gemm_s8_s32<4>(2, 2, 0, nullptr, 0, nullptr, 0, bias, c, 2, 0, 0, *buf) == status::ok);
  CHECK(c[0] == 5);
  CHECK(c[3] == 6);
}
