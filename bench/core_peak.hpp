// The core's arithmetic peak, measured in one thread: independent multiply-adds back to back, so
// that each GEMM of the standalone harnesses (sgemm_shapes.cpp, qgemm_shapes.cpp) can be read as a
// fraction of what this core can do at all, beside its peers' fractions. A GEMM at 95 % of this
// peak has 5 % left to win, whoever runs it.
//
//   float: 24 accumulators of 512-bit vfmadd231ps (AVX-512F), or 12 of 256-bit (AVX2 + FMA):
//          2 x lanes flop an instruction
//   int8:  24 accumulators of 512-bit vpdpbusd (AVX512-VNNI): 64 u8 x s8 products and their sums,
//          128 operations an instruction (the harness's GOP/s count 2 M N K)
//
// Each loop runs for at least `seconds`, the best of a few runs is kept (a shared host's other
// work only ever slows a run). All operands are zero, so no denormal ever enters. Another
// architecture, or a CPU without the instructions: gops 0, "not measured".
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "paired_rounds.hpp"

namespace ctnn_bench {

struct core_peak {
  const char* what = "not measured";
  double gops = 0;  ///< 1e9 operations (flop, or int8 multiply-add counted as 2) a second
};

namespace detail {

#if defined(__x86_64__) && defined(__GNUC__)
// 24 independent chains (zmm4..zmm27) of `iters` steps of `insn zmm1, zmm2, zmm<r>`; zmm1, zmm2:
// the zero operands. One text for both instructions (an asm string must be a literal).
#define CTNN_BENCH_CHAINS512(insn)                                                                              \
  __asm__ volatile(                                                                                             \
      ".irp r,1,2,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27\n\t"                        \
      "vpxord %%zmm\\r, %%zmm\\r, %%zmm\\r\n\t"                                                                 \
      ".endr\n"                                                                                                 \
      "1:\n\t"                                                                                                  \
      ".irp r,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27\n\t"                            \
      insn " %%zmm1, %%zmm2, %%zmm\\r\n\t"                                                                      \
      ".endr\n\t"                                                                                               \
      "dec %0\n\t"                                                                                              \
      "jnz 1b\n"                                                                                                 \
      : "+r"(iters)                                                                                             \
      :                                                                                                         \
      : "cc", "xmm1", "xmm2", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", \
        "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",       \
        "xmm25", "xmm26", "xmm27")

__attribute__((target("avx512f"))) inline void fma512_chains(long iters) { CTNN_BENCH_CHAINS512("vfmadd231ps"); }
__attribute__((target("avx512f,avx512vnni"))) inline void vnni512_chains(long iters) {
  CTNN_BENCH_CHAINS512("vpdpbusd");
}
#undef CTNN_BENCH_CHAINS512

// 12 independent chains (ymm4..ymm15) for AVX2 + FMA.
__attribute__((target("avx2,fma"))) inline void fma256_chains(long iters) {
  __asm__ volatile(
      ".irp r,1,2,4,5,6,7,8,9,10,11,12,13,14,15\n\t"
      "vpxor %%ymm\\r, %%ymm\\r, %%ymm\\r\n\t"
      ".endr\n"
      "1:\n\t"
      ".irp r,4,5,6,7,8,9,10,11,12,13,14,15\n\t"
      "vfmadd231ps %%ymm1, %%ymm2, %%ymm\\r\n\t"
      ".endr\n\t"
      "dec %0\n\t"
      "jnz 1b\n"
      : "+r"(iters)
      :
      : "cc", "xmm1", "xmm2", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
        "xmm14", "xmm15");
}
#endif

/// The best rate of five runs of loop(iters), each of at least `seconds` (iters doubled until then).
template <class Loop>
double best_rate(Loop&& loop, double ops_per_iter, double seconds) {
  using clock = std::chrono::steady_clock;
  long iters = 1 << 16;
  double best = 0;
  for (int run = 0; run < 5;) {
    const auto t0 = clock::now();
    loop(iters);
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (s < seconds) {
      iters *= 2;
      continue;
    }
    best = std::max(best, ops_per_iter * double(iters) / s * 1e-9);
    ++run;
  }
  return best;
}

}  // namespace detail

/// The float peak: 512-bit FMAs where the CPU has AVX-512F, else 256-bit ones with AVX2 + FMA.
inline core_peak fma_peak(double seconds = 0.05) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f"))
    return {"512-bit vfmadd231ps, 24 chains", detail::best_rate(detail::fma512_chains, 24.0 * 16 * 2, seconds)};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {"256-bit vfmadd231ps, 12 chains", detail::best_rate(detail::fma256_chains, 12.0 * 8 * 2, seconds)};
#endif
  (void)seconds;
  return {};
}

/// The int8 peak: 512-bit vpdpbusd where the CPU has AVX512-VNNI.
inline core_peak vnni_peak(double seconds = 0.05) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni"))
    return {"512-bit vpdpbusd, 24 chains", detail::best_rate(detail::vnni512_chains, 24.0 * 64 * 2, seconds)};
#endif
  (void)seconds;
  return {};
}

/// "core peak, one thread (<what>): <rate> <unit>" and a newline: the header of a harness's table.
inline void print_peak(const core_peak& peak, const char* unit) {
  if (peak.gops > 0)
    std::printf("core peak, one thread (%s): %.1f %s\n", peak.what, peak.gops, unit);
  else
    std::printf("core peak: not measured (this CPU lacks the instructions of the loops, or is not x86-64)\n");
}

/// "  of peak <impl> <its median rate over the peak, %> ..." (no newline); nothing without a peak.
inline void print_of_peak(const std::vector<paired_impl>& impls, const core_peak& peak) {
  if (peak.gops <= 0) return;
  std::printf("  of peak");
  for (const paired_impl& x : impls) std::printf(" %s %.1f %%", x.name, 100.0 * quantile(x.rate, 0.5) / peak.gops);
}

}  // namespace ctnn_bench
