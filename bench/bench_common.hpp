// Helpers shared by the benchmark files: deterministic data and throughput counters.
#pragma once
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace ctnn_bench {

inline std::vector<float> random_f32(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 1u;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / 16777216.0f - 0.5f;
  }
  return v;
}

inline std::vector<int8_t> random_s8(size_t n, uint32_t seed) {
  std::vector<int8_t> v(n);
  uint32_t s = seed * 2654435761u + 7u;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<int8_t>(s >> 24);
  }
  return v;
}

/// Sets "GFLOP/s" (float) or "GOP/s" (int8) from the operations of one iteration (2 per MAC).
inline void set_rate(benchmark::State& state, const char* name, double ops_per_iter) {
  state.counters[name] = benchmark::Counter(ops_per_iter * static_cast<double>(state.iterations()) / 1e9,
                                            benchmark::Counter::kIsRate);
}

}  // namespace ctnn_bench
