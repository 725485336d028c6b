// Paired rounds for the standalone GEMM harnesses (sgemm_shapes.cpp, qgemm_shapes.cpp): each
// round times every implementation over a short burst of calls, in an order rotated from round to
// round, and ctnn's speed (the first implementation) is taken over each peer's within the round.
// A shared host's speed drifts by 10-20 % within minutes (bench/README), which moves both sides
// of a round alike, where separate runs or the best of separate samples compare different moments.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

namespace ctnn_bench {

struct paired_impl {
  const char* name;
  std::function<void()> run;
  std::vector<double> rate;  ///< work / s (1e-9: GFLOP/s or GOP/s), one per round
};

/// The q-quantile of v (nearest rank).
inline double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[size_t(q * double(v.size() - 1) + 0.5)];
}

/// Warms every implementation (code, workspaces, the operands in cache as the rounds find them),
/// then runs `rounds` rounds of `reps` calls each, `work` operations a call.
inline void run_paired_rounds(std::vector<paired_impl>& impls, int rounds, int reps, double work) {
  for (paired_impl& x : impls) x.run();
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < impls.size(); ++i) {
      paired_impl& x = impls[(i + size_t(r)) % impls.size()];
      const auto t0 = std::chrono::steady_clock::now();
      for (int q = 0; q < reps; ++q) x.run();
      const auto t1 = std::chrono::steady_clock::now();
      x.rate.push_back(work * reps / std::chrono::duration<double>(t1 - t0).count() * 1e-9);
    }
}

/// "<name>  <impl> <median rate> ...  ctnn/<peer> <median ratio> [<quartiles>] ..." (no newline).
inline void print_paired(const char* name, const std::vector<paired_impl>& impls) {
  std::printf("%-14s", name);
  for (const paired_impl& x : impls) std::printf("  %s %6.1f", x.name, quantile(x.rate, 0.5));
  for (size_t i = 1; i < impls.size(); ++i) {
    std::vector<double> ratio;
    for (size_t r = 0; r < impls[0].rate.size(); ++r) ratio.push_back(impls[0].rate[r] / impls[i].rate[r]);
    std::printf("  %s/%s %.3f [%.3f, %.3f]", impls[0].name, impls[i].name, quantile(ratio, 0.5),
                quantile(ratio, 0.25), quantile(ratio, 0.75));
  }
}

}  // namespace ctnn_bench
