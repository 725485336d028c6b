// Standalone int8 GEMM timing, like for like with oneDNN's int8 BLAS call: ctnn's gemm_s8_s32
// (int8 A and B, int32 C = the zero-point-corrected sums) beside dnnl_gemm_u8s8s32 (A + 128 as
// uint8 with the offset ao = 128 + a_zp, the same int32 sums), on cubes (issue 14: N = 64 ...
// 1024), on convolution shapes (M = output channels, N = output pixels, K = in_c kh kw) and on
// one GEMM of several A blocks over a B wider than a B block (2048x2048x512: B in one block).
// Every shape's two outputs are compared bit for bit before the timing ("mismatches", which a
// CPU without VNNI makes nonzero: oneDNN then saturates 16-bit pair sums). Paired rounds
// (paired_rounds.hpp), about 3e8 operations a burst; each one's median GOP/s is also given as a
// fraction of the core's vpdpbusd peak, measured first (core_peak.hpp); GOP/s = 2 M N K / t:
//
//   cmake --build build/release --target ctnn_qgemm_shapes
//   OMP_NUM_THREADS=1 build/release/bench/ctnn_qgemm_shapes [substring of a shape]   # or SHAPE=64x3136x576
//   ROUNDS=101 ...                                                                     # default 31
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <dnnl.h>

#include "core_peak.hpp"
#include "paired_rounds.hpp"
#include "ctnn/kernels/tiled.hpp"

namespace {
struct shape {
  int M, N, K;
};
}  // namespace

int main(int argc, char** argv) {
  namespace t = ctnn::kernels::tiled;
  std::vector<shape> shapes = {{64, 64, 64},     {128, 128, 128},  {256, 256, 256},  {512, 512, 512},
                               {1024, 1024, 1024}, {64, 3136, 576}, {128, 784, 1152}, {256, 196, 2304},
                               {512, 49, 4608},  {64, 3136, 64},   {2048, 2048, 512}};
  const char* only = argc > 1 ? argv[1] : nullptr;
  if (const char* e = std::getenv("SHAPE")) {
    shape x{0, 0, 0};
    if (std::sscanf(e, "%dx%dx%d", &x.M, &x.N, &x.K) != 3) return 2;
    shapes = {x};
    only = nullptr;
  }
  const int rounds = std::getenv("ROUNDS") != nullptr ? std::max(1, std::atoi(std::getenv("ROUNDS"))) : 31;
  constexpr int32_t a_zp = 3, b_zp = 0;  // as BM_qgemm_s32 (bench_gemm.cpp)
  std::mt19937 g(1);
  std::uniform_int_distribution<int> d(-128, 127);
  const ctnn_bench::core_peak peak = ctnn_bench::vnni_peak();
  ctnn_bench::print_peak(peak, "GOP/s");
  for (const shape s : shapes) {
    char name[64];
    std::snprintf(name, sizeof name, "%dx%dx%d", s.M, s.N, s.K);
    if (only != nullptr && std::strstr(name, only) == nullptr) continue;
    std::vector<int8_t> A(size_t(s.M) * size_t(s.K)), B(size_t(s.K) * size_t(s.N));
    for (auto* v : {&A, &B})
      for (int8_t& x : *v) x = static_cast<int8_t>(d(g));
    std::vector<uint8_t> Au(A.size());
    for (size_t i = 0; i < A.size(); ++i) Au[i] = static_cast<uint8_t>(A[i] + 128);
    std::vector<int32_t> C(size_t(s.M) * size_t(s.N)), D(C.size());
    const int32_t co = 0;
    const auto ctnn_call = [&] {
      return t::gemm_s8_s32(s.M, s.N, s.K, A.data(), s.K, B.data(), s.N, nullptr, C.data(), s.N, a_zp, b_zp);
    };
    const auto dnnl_call = [&] {
      return dnnl_gemm_u8s8s32('N', 'N', 'F', s.M, s.N, s.K, 1.0f, Au.data(), s.K, static_cast<uint8_t>(128 + a_zp),
                               B.data(), s.N, static_cast<int8_t>(b_zp), 0.0f, D.data(), s.N, &co);
    };
    // (the static workspace holds K up to the tiling's kmax: beyond it ctnn says so, and the
    // shape is skipped)
    if (const auto st = ctnn_call(); st != ctnn::kernels::status::ok) {
      std::printf("%-14s  ctnn: status %d\n", name, static_cast<int>(st));
      continue;
    }
    if (const dnnl_status_t st = dnnl_call(); st != dnnl_success) {
      std::printf("%-14s  dnnl_gemm_u8s8s32: status %d\n", name, static_cast<int>(st));
      continue;
    }
    size_t mismatches = 0;
    for (size_t i = 0; i < C.size(); ++i) mismatches += C[i] != D[i];
    std::vector<ctnn_bench::paired_impl> impls;
    impls.push_back({"ctnn", [&] { ctnn_call(); }, {}});
    impls.push_back({"dnnl_u8s8s32", [&] { dnnl_call(); }, {}});
    const double ops = 2.0 * s.M * s.N * s.K;
    ctnn_bench::run_paired_rounds(impls, rounds, int(std::max(1.0, 3e8 / ops)), ops);
    ctnn_bench::print_paired(name, impls);
    ctnn_bench::print_of_peak(impls, peak);
    std::printf("  mismatches %zu\n", mismatches);
  }
}
