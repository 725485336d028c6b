// Instruction counts of the portable kernels under callgrind (no AVX-512: valgrind cannot
// decode it, so this target is built for baseline x86-64 with CTNN_PORTABLE_KERNELS).
// Usage: valgrind --tool=callgrind --toggle-collect='run_*' ./ctnn_callgrind_gemm [N]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ctnn/host/cli.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/tiled.hpp"

extern "C" {
__attribute__((noinline)) void run_sgemm_tiled(int n, const float* a, const float* b, float* c) {
  ctnn::kernels::tiled::gemm_f32(n, n, n, a, n, b, n, nullptr, c, n);
}
__attribute__((noinline)) void run_sgemm_reference(int n, const float* a, const float* b, float* c) {
  ctnn::ref::gemm_f32(n, n, n, a, n, b, n, nullptr, c, n);
}
__attribute__((noinline)) void run_qgemm_tiled(int n, const int8_t* a, const int8_t* b, int8_t* c,
                                               const ctnn::ref::gemm_s8_params& p) {
  ctnn::kernels::tiled::gemm_s8(n, n, n, a, n, b, n, nullptr, c, n, p);
}
__attribute__((noinline)) void run_qgemm_reference(int n, const int8_t* a, const int8_t* b, int8_t* c,
                                                   const ctnn::ref::gemm_s8_params& p) {
  ctnn::ref::gemm_s8(n, n, n, a, n, b, n, nullptr, c, n, p);
}
}

int main(int argc, char** argv) {
  uint64_t n_arg = 128;
  if (argc > 1) {
    if (const std::string why = ctnn::cli::number_option("N", argv[1], 1, 2048, n_arg); !why.empty()) {
      std::fprintf(stderr, "ctnn_callgrind_gemm: %s\n", why.c_str());
      return 2;
    }
  }
  const int n = static_cast<int>(n_arg);
  const auto sz = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> af(sz), bf(sz), cf(sz);
  std::vector<int8_t> aq(sz), bq(sz), cq(sz);
  for (size_t i = 0; i < sz; ++i) {
    af[i] = static_cast<float>(i % 7) - 3.0f;
    bf[i] = static_cast<float>(i % 5) - 2.0f;
    aq[i] = static_cast<int8_t>(i * 37 % 256 - 128);
    bq[i] = static_cast<int8_t>(i * 11 % 255 - 127);
  }
  const auto rq = ctnn::quant::quantize_multiplier(1.0 / (64.0 * n));
  const ctnn::ref::gemm_s8_params p{3, 0, -5, &rq.multiplier, &rq.shift, false, -128, 127};
  run_sgemm_tiled(n, af.data(), bf.data(), cf.data());
  run_sgemm_reference(n, af.data(), bf.data(), cf.data());
  run_qgemm_tiled(n, aq.data(), bq.data(), cq.data(), p);
  run_qgemm_reference(n, aq.data(), bq.data(), cq.data(), p);
  std::printf("n=%d c[0]=%g q[0]=%d\n", n, static_cast<double>(cf[0]), cq[0]);
  return 0;
}
