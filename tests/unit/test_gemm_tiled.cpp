// Tiled GEMMs against the reference: int8 bit-exact on >10,000 random small shapes and several
// tilings (power-of-two and not, VNNI-eligible and portable), float within a stated tolerance.
#include <doctest/doctest.h>
#include <valgrind/valgrind.h>  // RUNNING_ON_VALGRIND

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/tiled.hpp"
#include "test_kernels_rng.hpp"

using ctnn::kernels::status;
namespace k = ctnn::kernels;

namespace {

struct shape3 { int M, N, K; };

/// The stride / bias variants (0..3: 2 pad + row_bias) that a float case of M x N x K runs: all
/// four natively; under valgrind (the memcheck preset runs these tests there, the AVX2 kernels
/// about 180 times slower), a case of more than 2^24 multiply-adds runs one of them, the next one
/// for the next such case. The smaller shapes still run every variant under valgrind. The
/// convolution-like case took 197 s of memcheck's longest test, unit.gemm_tiled_avx2 (205 s of a
/// 311 s memcheck run); with this the test takes 91 s (AMD Zen 5).
struct variant_picker {
  int turn = 0;
  int pick(int M, int N, int K) {
    if (RUNNING_ON_VALGRIND == 0 || int64_t{M} * N * K <= (int64_t{1} << 24)) return -1;
    return turn++ % 4;
  }
  static bool runs(int picked, int pad, int row_bias) { return picked < 0 || picked == 2 * pad + row_bias; }
};

shape3 random_shape(ctnn_test::rng& r, int max) {
  // 1 in 8 cases a degenerate dimension (1), K = 1 often
  auto dim = [&](void) { return r.range(0, 7) == 0 ? 1 : r.range(1, max); };
  return {dim(), dim(), dim()};
}

/// One int8 GEMM of M x N x K (leading dimensions, zero points, bias, per-channel scales and
/// activation drawn from r), int32 and int8 outputs, against the reference.
template <class Tiling>
void check_s8_case(ctnn_test::rng& r, int M, int N, int K, std::vector<int32_t>& ws_words) {
  const int lda = K + r.range(0, 3), ldb = N + r.range(0, 3), ldc = N + r.range(0, 3);
  const auto A = r.s8(size_t(M) * size_t(lda)), B = r.s8(size_t(K) * size_t(ldb));
  const auto bias = r.s32(size_t(N), -100000, 100000);
  const bool use_bias = r.range(0, 3) != 0;
  const int32_t a_zp = r.range(-128, 127), b_zp = r.range(0, 4) == 0 ? r.range(-128, 127) : 0;
  const bool per_channel = r.range(0, 1) == 1;
  std::vector<int32_t> mult(static_cast<size_t>(N)), shift(static_cast<size_t>(N));
  for (int n = 0; n < N; ++n) {
    const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-16, 2)));
    mult[size_t(n)] = q.multiplier;
    shift[size_t(n)] = q.shift;
  }
  const int32_t out_zp = r.range(-128, 127);
  const bool relu = r.range(0, 1) == 1;
  const ctnn::ref::gemm_s8_params p{a_zp, b_zp, out_zp, mult.data(), shift.data(), per_channel,
                                    relu ? out_zp : -128, 127};
  const int32_t* bp = use_bias ? bias.data() : nullptr;

  std::vector<int32_t> want32(size_t(M) * size_t(ldc), -7), got32(want32);
  REQUIRE(ctnn::ref::try_gemm_s8_s32(M, N, K, A.data(), lda, B.data(), ldb, bp, want32.data(), ldc, a_zp, b_zp) ==
          status::ok);
  REQUIRE(k::tiled::gemm_s8_s32<Tiling>(M, N, K, A.data(), lda, B.data(), ldb, bp, got32.data(), ldc, a_zp, b_zp,
                                        ws_words.data(), ws_words.size() * 4) == status::ok);
  INFO("M=" << M << " N=" << N << " K=" << K << " a_zp=" << a_zp << " b_zp=" << b_zp);
  REQUIRE(got32 == want32);

  std::vector<int8_t> want8(size_t(M) * size_t(ldc), 99), got8(want8);
  REQUIRE(ctnn::ref::try_gemm_s8(M, N, K, A.data(), lda, B.data(), ldb, bp, want8.data(), ldc, p) == status::ok);
  REQUIRE(k::tiled::gemm_s8<Tiling>(M, N, K, A.data(), lda, B.data(), ldb, bp, got8.data(), ldc, p, ws_words.data(),
                                    ws_words.size() * 4) == status::ok);
  REQUIRE(got8 == want8);
}

/// k_max > 0: K drawn from [k_min, k_max] instead (M and N as usual).
template <class Tiling>
int run_s8_cases(uint64_t seed, int cases, int max_dim, int k_min = 0, int k_max = 0) {
  ctnn_test::rng r(seed);
  std::vector<int32_t> ws_words(Tiling::workspace_bytes(4 * (k_max > max_dim ? k_max : max_dim)) / 4 + 1);
  int checked = 0;
  for (int c = 0; c < cases; ++c) {
    const shape3 sh = random_shape(r, max_dim);
    const int M = sh.M, N = sh.N, K = k_max > 0 ? r.range(k_min, k_max) : sh.K;  // plain ints: INFO captures them
    check_s8_case<Tiling>(r, M, N, K, ws_words);
    ++checked;
  }
  return checked;
}

/// One float GEMM against the reference; row_bias: gemm_f32_row_bias (bias[m]), else bias[n].
/// intel_blocking: values of detail::f32_intel_blocking_force to run the GEMM with, one after the other
/// on the same operands and reference (none: once, as the host chooses); the force is -1 after.
template <class Tiling>
void check_f32(ctnn_test::rng& r, int M, int N, int K, int lda, int ldb, int ldc, bool use_bias, bool row_bias,
               std::vector<float>& ws, std::initializer_list<int> intel_blocking = {}) {
  const auto A = r.f32(size_t(M) * size_t(lda)), B = r.f32(size_t(K) * size_t(ldb));
  const auto bias = r.f32(size_t(row_bias ? M : N));
  const float* bp = use_bias ? bias.data() : nullptr;
  std::vector<float> want(size_t(M) * size_t(ldc), 5.0f), got(want);
  REQUIRE(ctnn::ref::try_gemm_f32(M, N, K, A.data(), lda, B.data(), ldb, row_bias ? nullptr : bp, want.data(), ldc) ==
          status::ok);
  if (row_bias && bp != nullptr)
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) want[size_t(m) * size_t(ldc) + size_t(n)] += bp[m];
  // row bias: half the cases with a fused clamp between two of the outputs (some clamped below,
  // some above), which must land on every tile however K is blocked
  const bool clamp = row_bias && r.range(0, 1) == 1 && M > 0 && N > 0;
  float lo = 0.0f, hi = 0.0f;
  if (clamp) {
    lo = want[size_t(r.range(0, M - 1)) * size_t(ldc) + size_t(r.range(0, N - 1))];
    hi = want[size_t(r.range(0, M - 1)) * size_t(ldc) + size_t(r.range(0, N - 1))];
    if (lo > hi) std::swap(lo, hi);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float& v = want[size_t(m) * size_t(ldc) + size_t(n)];
        v = std::clamp(v, lo, hi);
      }
  }
  // Tolerance: both sums have |terms| <= 1 and K + 1 of them; reordering and FMA contraction
  // change each partial sum by at most one rounding: |err| <= 2 (K + 1) 2^-24 (K + 1).
  // (The row bias is added to the reference afterwards: one rounding more, inside the same bound.)
  const float tol = 2.0f * float(K + 1) * float(K + 1) * 5.97e-8f + 1e-6f;
  const auto run = [&](int force) {
    INFO("M=" << M << " N=" << N << " K=" << K << " lda=" << lda << " ldb=" << ldb << " ldc=" << ldc
              << " row_bias=" << row_bias << " clamp=" << clamp << " intel_blocking_force=" << force);
    k::detail::f32_intel_blocking_force = force;
    std::fill(got.begin(), got.end(), 5.0f);
    if (clamp)
      REQUIRE(k::tiled::gemm_f32_row_bias_clamp<Tiling>(M, N, K, A.data(), lda, B.data(), ldb, bp, got.data(), ldc,
                                                        ws.data(), lo, hi) == status::ok);
    else if (row_bias)
      REQUIRE(k::tiled::gemm_f32_row_bias<Tiling>(M, N, K, A.data(), lda, B.data(), ldb, bp, got.data(), ldc,
                                                  ws.data()) == status::ok);
    else
      REQUIRE(k::tiled::gemm_f32<Tiling>(M, N, K, A.data(), lda, B.data(), ldb, bp, got.data(), ldc, ws.data()) ==
              status::ok);
    k::detail::f32_intel_blocking_force = -1;
    REQUIRE(ctnn_test::within(got, want, tol) == "");
  };
  if (intel_blocking.size() == 0) run(-1);
  for (const int force : intel_blocking) run(force);
}

template <class Tiling>
void run_f32_cases(uint64_t seed, int cases, int max_dim) {
  ctnn_test::rng r(seed);
  std::vector<float> ws(Tiling::workspace_elems);
  for (int c = 0; c < cases; ++c) {
    const auto [M, N, K] = random_shape(r, max_dim);
    const int lda = K + r.range(0, 3), ldb = N + r.range(0, 3), ldc = N + r.range(0, 3);
    const bool use_bias = r.range(0, 1) == 1, row_bias = r.range(0, 1) == 1;
    check_f32<Tiling>(r, M, N, K, lda, ldb, ldc, use_bias, row_bias, ws);
  }
}

}  // namespace

TEST_CASE("tiled int8 GEMM is bit-exact with the reference on 11,400 random cases") {
  int n = 0;
  // MR/NR not powers of two, portable micro-kernel
  n += run_s8_cases<k::qgemm_tiling<3, 5, 6, 10, 64>>(21, 3000, 9);
  // powers of two, portable (NR = 4)
  n += run_s8_cases<k::qgemm_tiling<2, 4, 4, 8, 64>>(22, 3000, 9);
  // NR = 16: the VNNI micro-kernel when the host has it
  n += run_s8_cases<k::qgemm_tiling<3, 16, 6, 32, 64>>(23, 3000, 18);
  // the default tiling of this build
  n += run_s8_cases<k::default_s8_tiling>(24, 1770, 12);
  // a few bigger shapes crossing several MC/NC blocks
  n += run_s8_cases<k::qgemm_tiling<4, 16, 8, 32, 256>>(25, 30, 70);
  // MR a multiple of 3: edge panels run 2 or 4 of the 6 rows (micro_s8_rows), portable kernel
  n += run_s8_cases<k::qgemm_tiling<6, 8, 12, 16, 64>>(26, 600, 14);
  CHECK(n == 11400);
  // K over several chunks of the AVX2 kernel (s8_avx2_k_chunk = 256 values) and between them
  CHECK(run_s8_cases<k::default_s8_tiling>(27, 40, 40, 240, 1100) == 40);
  CHECK(run_s8_cases<k::qgemm_tiling<8, 16, 16, 32, 1024>>(28, 20, 30, 250, 800) == 20);
  // N up to 140 with the default tiling: AVX-512 builds pack B's 32-column panels two at a time
  // (pack_b_s8_panels64), then a single full panel and an edge one; K from 1 (no full group) up
  CHECK(run_s8_cases<k::default_s8_tiling>(29, 10, 140, 1, 160) == 10);
  // wide B blocks: AVX-512 builds pack 8, 4, then 2 whole panels in one sweep of K each
  // (pack_b_s8_panels64<4, 2, 1>), then one whole panel and an edge: N = 487 = 15 x 32 + 7; N =
  // 600 crosses NC = 512 into a second block of 2 whole panels and an edge of 24 columns
  ctnn_test::rng r(30);
  std::vector<int32_t> ws(k::default_s8_tiling::workspace_bytes(200) / 4 + 1);
  for (const int N : {487, 600, 256, 128})
    for (const int K : {1, 7, 64, 130}) check_s8_case<k::default_s8_tiling>(r, 13, N, K, ws);
  // more than two MC blocks of A and B wider than NC: B is one block of all N columns where the
  // workspace holds it packed (K = 64, 130), NC-column blocks where it does not (K = 200); the
  // workspace is the larger of the K = 200 minimum and all of B packed at K = 130, in any tiling
  using T = k::default_s8_tiling;
  const int M = 2 * T::mc + 17, N = T::nc + 88;
  static_assert(T::whole_b_workspace_bytes(200, T::nc) == T::workspace_bytes(200), "whole B: NC widened to N");
  std::vector<int32_t> ws2(std::max(T::workspace_bytes(200), T::whole_b_workspace_bytes(130, N)) / 4 + 1);
  for (const int K : {64, 130, 200}) {
    CHECK((ws2.size() * 4 >= T::whole_b_workspace_bytes(K, N)) == (K != 200));
    check_s8_case<T>(r, M, N, K, ws2);
  }
}

TEST_CASE("tiled float GEMM matches the reference within tolerance") {
  run_f32_cases<k::gemm_tiling<3, 2 * ctnn::kernels::simd::f32_lanes, 5, 6, 4 * ctnn::kernels::simd::f32_lanes>>(31, 800, 20);
  run_f32_cases<k::gemm_tiling<4, ctnn::kernels::simd::f32_lanes, 8, 8, ctnn::kernels::simd::f32_lanes>>(32, 800, 20);
  run_f32_cases<k::default_f32_tiling>(33, 60, 60);
  // MR = 12 (edge tiles of 4 and 8 rows), several MC, NC and KC blocks: A packed (a whole NC
  // block, 4 NR-panels) or read in place, B packed or read in place (M <= MC)
  using L = std::integral_constant<int, ctnn::kernels::simd::f32_lanes>;
  run_f32_cases<k::gemm_tiling<12, 2 * L::value, 7, 24, 8 * L::value>>(34, 300, 80);
  // K in one block past KC (B in place, 2 MR K <= MC KC: 16 < K <= 32)
  run_f32_cases<k::gemm_tiling<12, 2 * L::value, 16, 48, 4 * L::value>>(36, 300, 40);
  // ... but not when B's edge panel over all of K would overflow a narrow B block (NC = NR)
  run_f32_cases<k::gemm_tiling<3, L::value, 16, 48, L::value>>(37, 200, 40);
}

TEST_CASE("tiled float GEMM on convolution-like shapes, every packing path") {
  // small M (in-place B), M not a multiple of MR, N not a multiple of NR, K not a multiple of
  // KC, N with fewer than 4 NR-panels (in-place A), M above MC (packed B), strides above the width
  ctnn_test::rng r(35);
  std::vector<float> ws(k::default_f32_tiling::workspace_elems);
  const shape3 shapes[] = {{64, 200, 300}, {64, 49, 600},  {20, 49, 300},  {150, 49, 70},  {13, 100, 33},
                           {130, 260, 270}, {200, 17, 520}, {1, 300, 9},    {7, 33, 1},     {300, 70, 40},
                           {64, 3136 / 16, 576}, {24, 96, 260}, {24, 1030, 70}, {150, 1030, 20},
                           // B packed panel by panel over K blocks (48 <= M <= MC, N >= 512, K > KC,
                           // which is 512 with AVX-512; a short last block)
                           {48, 512, 520},
                           // two MC blocks with K >= 96: B packed on an Intel host, else in place
                           {150, 40, 100},
                           // three MC blocks (B packed), a first K block whose panels are over
                           // 32 KiB (AVX-512: 512 x 32 floats) run in groups of four panels, the
                           // second group ending in the edge panel; a short second K block
                           {300, 200, 600},
                           // three MC blocks, B packed in groups of whole panels (AVX-512: 4, then
                           // 6 over a K block of 300): the first block's tiles pack the next group
                           // as they run, the last group of one panel (the copies left after the
                           // k loop: the MC 48 tiling below)
                           {300, 416, 812},
                           // one MC block, one K block, B in place in NC-column blocks (AVX-512:
                           // 1024, 1024, 52): A packed by the first block, kept for the second
                           {40, 2100, 130}};
  // the Intel blocking (panel-by-panel packing, B packed for two blocks) forced on and off (the
  // host picks it by vendor), then as chosen,
  // on the same operands (one reference GEMM for the three)
  variant_picker vp;
  for (const shape3& s : shapes) {
    const int picked = vp.pick(s.M, s.N, s.K);
    for (int pad = 0; pad < 2; ++pad)
      for (int row_bias = 0; row_bias < 2; ++row_bias)
        if (variant_picker::runs(picked, pad, row_bias))
          check_f32<k::default_f32_tiling>(r, s.M, s.N, s.K, s.K + 5 * pad, s.N + 3 * pad, s.N + 7 * pad,
                                           pad == 0 || row_bias == 1, row_bias == 1, ws, {1, 0, -1});
  }
  // B packed ahead with only four tiles a block (MC 48): the tiles have fewer k steps for the
  // copies than their share of the next group has rows, and copy the rest at the end (panels of
  // KC x NR = 16384 floats with every vector width; groups of 4 panels, then 1; K blocks of KC
  // and KC - 50)
  constexpr int lanes = ctnn::kernels::simd::f32_lanes;
  using ahead = k::gemm_tiling<12, 2 * lanes, 8192 / lanes, 48, 32 * lanes>;
  std::vector<float> ws_ahead(ahead::workspace_elems);
  const int ahead_picked = vp.pick(150, 9 * ahead::nr, 2 * ahead::kc - 50);
  for (int pad = 0; pad < 2; ++pad)
    for (int row_bias = 0; row_bias < 2; ++row_bias)
      if (variant_picker::runs(ahead_picked, pad, row_bias))
        check_f32<ahead>(r, 150, 9 * ahead::nr, 2 * ahead::kc - 50, 2 * ahead::kc + 5 * pad,
                         9 * ahead::nr + 3 * pad, 9 * ahead::nr + 7 * pad, pad == 0 || row_bias == 1, row_bias == 1,
                         ws_ahead);
  // K in one block (whole_k: 16 < K <= 32 with KC 16) and B's rows 1024 floats or more apart:
  // with AVX-512, row tiles of 12-14 rows (28 = 2 x 14, 40 = 14 + 2 x 13, 27 = 14 + 13); B's
  // rows exactly 1024 floats apart (pad 0 of N = 1024): KC blocks instead
  using L = std::integral_constant<int, ctnn::kernels::simd::f32_lanes>;
  using wide_k = k::gemm_tiling<12, 2 * L::value, 16, 48, 4 * L::value>;
  std::vector<float> ws_wide(wide_k::workspace_elems);
  const shape3 wide_shapes[] = {{28, 1030, 30}, {40, 1024, 25}, {27, 1100, 32}};
  for (const shape3& s : wide_shapes)
    for (int pad = 0; pad < 2; ++pad)
      for (int row_bias = 0; row_bias < 2; ++row_bias)
        check_f32<wide_k>(r, s.M, s.N, s.K, s.K + 5 * pad, s.N + 3 * pad, s.N + 7 * pad,
                          pad == 0 || row_bias == 1, row_bias == 1, ws_wide);
}

TEST_CASE("tiled float GEMM on small shapes: one K block, one row block of balanced tiles, whole B panels") {
  // gemm_f32_impl runs these tiles straight (no packing, no blocking loops): balanced row tiles
  // (32 = 11 + 11 + 10), every NR panel, bias per row or column, the fused clamp, strides above
  // the width, and B's rows a page or more apart (the in-place row prefetch)
  using T = k::default_f32_tiling;
  constexpr int nr = T::nr;
  ctnn_test::rng r(38);
  std::vector<float> ws(T::workspace_elems);
  const shape3 shapes[] = {{32, nr, 32}, {64, 2 * nr, 64}, {T::mr, nr, 1}, {2 * T::mr - 1, 3 * nr, 100},
                           {T::mc, nr, T::kc}, {40, 31 * nr, 200}};
  for (const shape3& s : shapes)
    for (int pad = 0; pad < 3; ++pad)
      for (int row_bias = 0; row_bias < 2; ++row_bias) {
        const int ldb = pad == 2 ? s.N + 1030 : s.N + 3 * pad;
        check_f32<T>(r, s.M, s.N, s.K, s.K + 5 * pad, ldb, s.N + 7 * pad, pad != 1 || row_bias == 1, row_bias == 1,
                     ws);
      }
}

TEST_CASE("tiled GEMMs: static workspace overloads, K = 0, bad arguments") {
  ctnn_test::rng r(41);
  const int M = 33, N = 47, K = 65;
  const auto A = r.s8(M * K), B = r.s8(K * N);
  std::vector<int32_t> want(M * N), got(M * N);
  ctnn::ref::gemm_s8_s32(M, N, K, A.data(), K, B.data(), N, nullptr, want.data(), N, 3, 0);
  CHECK(k::tiled::gemm_s8_s32(M, N, K, A.data(), K, B.data(), N, nullptr, got.data(), N, 3, 0) == status::ok);
  CHECK(got == want);

  const auto Af = r.f32(M * K), Bf = r.f32(K * N);
  std::vector<float> wf(M * N), gf(M * N);
  ctnn::ref::gemm_f32(M, N, K, Af.data(), K, Bf.data(), N, nullptr, wf.data(), N);
  CHECK(k::tiled::gemm_f32(M, N, K, Af.data(), K, Bf.data(), N, nullptr, gf.data(), N) == status::ok);
  for (size_t i = 0; i < wf.size(); ++i) CHECK(gf[i] == doctest::Approx(wf[i]).epsilon(1e-4));

  const float bias[3] = {1, 2, 3};
  float c[6] = {};
  CHECK(k::tiled::gemm_f32(2, 3, 0, nullptr, 0, nullptr, 0, bias, c, 3) == status::ok);
  CHECK(c[5] == 3.0f);

  int32_t small_ws[4];
  CHECK(k::tiled::gemm_s8_s32(M, N, K, A.data(), K, B.data(), N, nullptr, got.data(), N, 3, 0, small_ws, sizeof small_ws) ==
        status::scratch_too_small);
  CHECK(k::tiled::gemm_s8_s32(M, N, K, A.data(), K, B.data(), N, nullptr, got.data(), N, 3, 0, nullptr, 0) ==
        status::null_pointer);
  CHECK(k::tiled::gemm_s8_s32(M, N, K, A.data(), K - 1, B.data(), N, nullptr, got.data(), N, 3, 0) ==
        status::bad_leading_dim);
  CHECK(k::tiled::gemm_f32(-1, N, K, Af.data(), K, Bf.data(), N, nullptr, gf.data(), N) == status::bad_size);
  CHECK(k::tiled::gemm_f32(M, N, K, nullptr, K, Bf.data(), N, nullptr, gf.data(), N) == status::null_pointer);
}

TEST_CASE("tiled int8 GEMM wraps like the reference when int32 overflows") {
  const int K = 70000;
  std::vector<int8_t> A(K, -128), B(K * 2, -128);
  using T = k::qgemm_tiling<1, 2, 1, 2, 1>;
  std::vector<int32_t> ws(T::workspace_bytes(K) / 4 + 1);
  int32_t want[2], got[2];
  ctnn::ref::gemm_s8_s32(1, 2, K, A.data(), K, B.data(), 2, nullptr, want, 2, 5, 0);
  CHECK(k::tiled::gemm_s8_s32<T>(1, 2, K, A.data(), K, B.data(), 2, nullptr, got, 2, 5, 0, ws.data(), ws.size() * 4) ==
        status::ok);
  CHECK(got[0] == want[0]);
  CHECK(got[1] == want[1]);
}

#if CTNN_KERNELS_VNNI
TEST_CASE("AVX-512 requantization lanes equal quant::multiply_by_quantized_multiplier, ties included") {
  ctnn_test::rng r(27);
  int checked = 0;
  for (int it = 0; it < 4000; ++it) {
    alignas(64) int32_t x[16], m[16], sh[16], got[16];
    for (int l = 0; l < 16; ++l) {
      // m = 2^30 with odd x puts x m exactly halfway between two multiples of 2^31 (a tie)
      const bool tie = it % 4 == 0;
      m[l] = tie ? int32_t{1} << 30 : r.range(1 << 30, 0x7FFFFFFF);
      x[l] = tie ? 2 * r.range(-50000, 50000) + 1 : static_cast<int32_t>(r.uniform(INT32_MIN, INT32_MAX));
      sh[l] = r.range(ctnn::quant::min_shift, it % 3 == 0 ? ctnn::quant::max_shift : 0);
    }
    const __m512i v = k::detail::mbqm16(_mm512_load_si512(x), _mm512_load_si512(m), _mm512_load_si512(sh));
    _mm512_store_si512(got, v);
    for (int l = 0; l < 16; ++l) {
      INFO("x " << x[l] << " m " << m[l] << " shift " << sh[l]);
      REQUIRE(got[l] == ctnn::quant::multiply_by_quantized_multiplier(x[l], m[l], sh[l]));
      ++checked;
    }
  }
  CHECK(checked == 64000);
}
#endif

TEST_CASE("simd::clamp equals detail::clamp_f32 lane by lane: NaN, signed zeros, infinities, the bounds") {
  namespace s = ctnn::kernels::simd;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float values[] = {nan, -inf, -7.5f, -1.0f, -0.0f, 0.0f, 0.25f, 6.0f, 6.5f, inf, -nan, 1e-40f};
  const float bounds[][2] = {{0.0f, 6.0f}, {-1.0f, 1.0f}, {-0.0f, 0.0f}, {-inf, 0.5f}, {0.25f, inf}, {-inf, inf}};
  for (const auto& b : bounds) {
    float in[s::f32_lanes], out[s::f32_lanes], lo[s::f32_lanes], hi[s::f32_lanes];
    for (int l = 0; l < s::f32_lanes; ++l) {
      in[l] = values[static_cast<size_t>(l) % (sizeof(values) / sizeof(values[0]))];
      lo[l] = b[0], hi[l] = b[1];  // (not vf32{} + b: +0 + -0 is +0)
    }
    s::store(out, s::clamp(s::load<s::vf32>(in), s::load<s::vf32>(lo), s::load<s::vf32>(hi)));
    for (int l = 0; l < s::f32_lanes; ++l) {
      const float want = ctnn::kernels::detail::clamp_f32(in[l], b[0], b[1]);
      CAPTURE(l);
      if (std::isnan(want)) {
        CHECK(std::isnan(out[l]));
      } else {
        CHECK(out[l] == want);
        CHECK(std::signbit(out[l]) == std::signbit(want));
      }
    }
  }
}
