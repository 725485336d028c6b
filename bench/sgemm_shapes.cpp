// Standalone float GEMM timing on cubes and convolution shapes (M = output channels, N = output
// pixels, K = in_c * kh * kw; A = weights, B = im2col panel, both row-major), ctnn beside
// OpenBLAS and oneDNN when compiled in (bench/CMakeLists.txt: target ctnn_sgemm_shapes, with each
// peer whose package is installed). Paired rounds (paired_rounds.hpp): each round times every
// implementation over a short burst of calls (about 3e8 flop, at least one call), in an order
// rotated from round to round; printed are the median GFLOP/s of each and, for each peer, the
// median of ctnn's speed over the peer's within a round, with its quartiles, then each one's median
// as a fraction of the core's float peak measured first (core_peak.hpp). GFLOP/s = 2 M N K / t:
//
//   cmake --build build/release --target ctnn_sgemm_shapes
//   OMP_NUM_THREADS=1 build/release/bench/ctnn_sgemm_shapes [substring of a shape]   # or SHAPE=64x3136x576
//   ROUNDS=101 ...                                                                     # default 31
//
// Convolution shapes go through gemm_f32_row_bias (bias per row, as conv2d_f32 calls it), cubes
// through gemm_f32 without bias; maxerr is ctnn's largest difference from ref::gemm_f32.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "core_peak.hpp"
#include "paired_rounds.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/tiled.hpp"
#ifdef WITH_BLAS
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
#endif
#ifdef WITH_DNNL
#include <dnnl.h>
#endif

namespace {
struct shape {
  int M, N, K;
  bool row_bias;
};
}  // namespace

int main(int argc, char** argv) {
  namespace k = ctnn::kernels;
  std::vector<shape> shapes = {{32, 32, 32, false},      {64, 64, 64, false},      {128, 128, 128, false},
                               {256, 256, 256, false},   {512, 512, 512, false},   {1024, 1024, 1024, false},
                               {64, 3136, 576, true},    {64, 3136, 256, true},    {128, 3136, 576, true},
                               {512, 49, 4608, true},    {256, 196, 2304, true},   {128, 784, 1152, true},
                               {64, 3136, 64, true},     {256, 3136, 64, true},    {2048, 49, 512, true}};
  const char* only = argc > 1 ? argv[1] : nullptr;
  if (const char* e = std::getenv("SHAPE")) {
    shape x{0, 0, 0, true};
    if (std::sscanf(e, "%dx%dx%d", &x.M, &x.N, &x.K) != 3) return 2;
    shapes = {x};
    only = nullptr;
  }
#ifdef WITH_BLAS
  openblas_set_num_threads(1);
#endif
  std::mt19937 g(1);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> ws(k::default_f32_tiling::workspace_elems);
  const int rounds = std::getenv("ROUNDS") != nullptr ? std::max(1, std::atoi(std::getenv("ROUNDS"))) : 31;
  const ctnn_bench::core_peak peak = ctnn_bench::fma_peak();
  ctnn_bench::print_peak(peak, "GFLOP/s");
  for (const shape s : shapes) {
    char name[64];
    std::snprintf(name, sizeof name, "%dx%dx%d", s.M, s.N, s.K);
    if (only != nullptr && std::strstr(name, only) == nullptr) continue;
    std::vector<float> A(size_t(s.M) * size_t(s.K)), B(size_t(s.K) * size_t(s.N)), C(size_t(s.M) * size_t(s.N)),
        R(C.size()), bias(size_t(std::max(s.M, s.N)));
    for (auto* v : {&A, &B, &bias})
      for (float& x : *v) x = u(g);
    const double flop = 2.0 * s.M * s.N * s.K;
    const int reps = int(std::max(1.0, 3e8 / flop));
    auto run_ctnn = [&] {
      if (s.row_bias)
        k::tiled::gemm_f32_row_bias(s.M, s.N, s.K, A.data(), s.K, B.data(), s.N, bias.data(), C.data(), s.N, ws.data());
      else
        k::tiled::gemm_f32(s.M, s.N, s.K, A.data(), s.K, B.data(), s.N, nullptr, C.data(), s.N, ws.data());
    };
    std::vector<ctnn_bench::paired_impl> impls;
    impls.push_back({"ctnn", run_ctnn, {}});
#ifdef WITH_BLAS
    impls.push_back({"openblas",
                     [&] {
                       cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.M, s.N, s.K, 1.f, A.data(), s.K,
                                   B.data(), s.N, 0.f, C.data(), s.N);
                     },
                     {}});
#endif
#ifdef WITH_DNNL
    impls.push_back({"dnnl",
                     [&] { dnnl_sgemm('N', 'N', s.M, s.N, s.K, 1.f, A.data(), s.K, B.data(), s.N, 0.f, C.data(), s.N); },
                     {}});
#endif
    run_ctnn();
    ctnn::ref::gemm_f32(s.M, s.N, s.K, A.data(), s.K, B.data(), s.N, nullptr, R.data(), s.N);
    double maxerr = 0;
    for (size_t m = 0; m < size_t(s.M); ++m)
      for (size_t n = 0; n < size_t(s.N); ++n) {
        const float want = R[m * size_t(s.N) + n] + (s.row_bias ? bias[m] : 0.0f);
        maxerr = std::max(maxerr, double(std::fabs(want - C[m * size_t(s.N) + n])));
      }
    ctnn_bench::run_paired_rounds(impls, rounds, reps, flop);
    ctnn_bench::print_paired(name, impls);
    ctnn_bench::print_of_peak(impls, peak);
    std::printf("  maxerr %.2g\n", maxerr);
  }
}
