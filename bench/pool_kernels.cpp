// ctnn_pool_kernels: the pooling kernels of the optimized backend against the ones they replaced,
// on ResNet-18's pools (batch 1, one thread): max pool 3x3/2 pad 1 on 64x112x112 (the stem: its
// windows touch the padding) through kernels::max_pool2d (separable, vectorized) and
// kernels::detail::max_pool2d_windows (the window-by-window kernel it was), float and int8; global
// average pool of 512x7x7 through kernels::global_avg_pool2d and ref::adaptive_avg_pool2d (what ran
// before). Each figure: the best of 7 repetitions of 50 calls; the outputs are checked against
// ref:: first (exit 1 on a difference; float global pool within 1e-5 relative).
//   ctnn_pool_kernels        (built by the release preset; bench/README.md has portable builds)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/ref_layers.hpp"

namespace {

// Called out of line, as the executor calls them (the geometry from the row at run time). The
// figures move with code placement: the same kernels called through a function pointer from a
// lambda measured 0.09 / 0.16 ms (separable float / int8) and 0.24 / 0.4-0.6 ms (window by
// window) on the same machine, so compare the two columns of one run, not runs of two binaries.
template <class T>
[[gnu::noinline]] void separable(const ctnn::kernels::pool_geometry& g, const T* in, T* out) {
  (void)ctnn::kernels::max_pool2d<T>(g, in, out);
}
template <class T>
[[gnu::noinline]] void windows(const ctnn::kernels::pool_geometry& g, const T* in, T* out) {
  ctnn::kernels::detail::max_pool2d_windows<T>(g, in, out);
}

template <class F>
double best_ms(F f) {
  double best = 1e30;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 50; ++k) f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 50);
  }
  return best * 1e3;
}

template <class T>
bool max_pool(const char* dtype) {
  ctnn::kernels::pool_geometry g{};
  g.c = 64; g.in_h = 112; g.in_w = 112; g.kh = g.kw = 3; g.sh = g.sw = 2; g.pt = g.pb = g.pl = g.pr = 1;
  std::vector<T> in(static_cast<size_t>(g.in_elems())), want(static_cast<size_t>(g.out_elems())), got(want.size());
  std::mt19937 rng(1);  // values -128 ... 127, in float32 too
  for (T& v : in) v = static_cast<T>(static_cast<int>(rng() % 256) - 128);
  if (ctnn::ref::max_pool2d<T>(g, in.data(), want.data()) != ctnn::kernels::status::ok) return false;
  if (ctnn::kernels::max_pool2d<T>(g, in.data(), got.data()) != ctnn::kernels::status::ok || got != want) return false;
  const double fresh = best_ms([&] { separable<T>(g, in.data(), got.data()); });
  const double old = best_ms([&] { windows<T>(g, in.data(), got.data()); });
  if (got != want) return false;
  std::printf("max_pool 64x112x112 3x3/2 pad 1  %-7s  separable %.4f ms  window-by-window %.4f ms  %.2fx\n", dtype,
              fresh, old, old / fresh);
  return true;
}

template <class T>
bool global_pool(const char* dtype) {
  const int64_t c = 512, h = 7, w = 7;
  std::vector<T> in(static_cast<size_t>(c * h * w)), want(static_cast<size_t>(c)), got(want.size());
  std::mt19937 rng(2);
  for (T& v : in) v = static_cast<T>(static_cast<int>(rng() % 256) - 128);
  if (ctnn::ref::adaptive_avg_pool2d<T>(c, h, w, 1, 1, in.data(), want.data()) != ctnn::kernels::status::ok) return false;
  if (ctnn::kernels::global_avg_pool2d<T>(c, h, w, in.data(), got.data()) != ctnn::kernels::status::ok) return false;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i])) > 1e-5 * (1.0 + std::fabs(double(want[i]))))
      return false;
  const double fresh = best_ms([&] { (void)ctnn::kernels::global_avg_pool2d<T>(c, h, w, in.data(), got.data()); });
  const double old = best_ms([&] { (void)ctnn::ref::adaptive_avg_pool2d<T>(c, h, w, 1, 1, in.data(), got.data()); });
  std::printf("global_avg_pool 512x7x7          %-7s  vector    %.4f ms  reference        %.4f ms  %.2fx\n", dtype,
              fresh, old, old / fresh);
  return true;
}

}  // namespace

int main() {
  const bool ok = max_pool<float>("float32") && max_pool<int8_t>("int8") && global_pool<float>("float32") &&
                  global_pool<int8_t>("int8");
  if (!ok) std::fprintf(stderr, "ctnn_pool_kernels: an output differs from the reference\n");
  return ok ? 0 : 1;
}
