// The GEMMs of a network and their fixed-tile splitting: every convolution and linear layer as
// (groups ×) an M×N×K product, and the T×T×T schedule an accelerator tile of size T runs for it —
// the course lab that split each Linear into 64×64 sub-GEMMs, done for a whole network at
// compile time.
#pragma once
#include "ctnn/kernels/fixed_tile.hpp"
#include "ctnn/nn/network.hpp"

namespace ctnn::analysis {

/// @brief One layer's GEMM: C[M×N] = A[M×K]·B[K×N], `count` times (once per group), as its op
/// declares it. Convolution (weights × im2col): M = Cout/groups, N = Hout·Wout,
/// K = (Cin/groups)·kh·kw. Linear: M = out_features, N = 1, K = in_features.
struct gemm_shape {
  int32_t leaf = -1;
  int64_t m = 0, n = 0, k = 0;
  int64_t count = 0;
  [[nodiscard]] constexpr uint64_t macs() const { return static_cast<uint64_t>(m * n * k * count); }
};

/// The GEMM of leaf row r: the op's GEMM view (op_def<K>::gemm, count 0 for ops that are not GEMMs).
constexpr gemm_shape gemm_of(const row& r) { return gemm_shape{r.leaf, r.gemm.m, r.gemm.n, r.gemm.k, r.gemm.count}; }

namespace detail {
template <Network Net>
constexpr int32_t count_gemms() {
  int32_t n = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i)
    if (Net::layer(i).gemm.count > 0) ++n;
  return n;
}
}  // namespace detail

/// @brief Every conv/linear GEMM of Net in execution order, a constant.
template <Network Net>
inline constexpr auto gemms = [] {
  array<gemm_shape, static_cast<size_t>(detail::count_gemms<Net>())> a{};
  size_t j = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const gemm_shape g = gemm_of(Net::layer(i));
    if (g.count > 0) a[j++] = g;
  }
  return a;
}();

/// @brief One layer's tiling: its GEMM and the plan of one of its `count` products.
struct layer_tiling {
  gemm_shape gemm{};
  kernels::fixed_tile_plan plan{};
  [[nodiscard]] constexpr int64_t sub_gemms() const { return plan.sub_gemms * gemm.count; }
  [[nodiscard]] constexpr int64_t padded_macs() const { return plan.padded_macs * gemm.count; }
  [[nodiscard]] constexpr int64_t total_bytes() const { return plan.total_bytes * gemm.count; }
};

/// @brief Totals of a network's tiling on a T×T×T engine.
template <size_t N>
struct network_tiling {
  int64_t tile = 0;
  array<layer_tiling, N> layers{};
  int64_t sub_gemms = 0;
  int64_t useful_macs = 0;
  int64_t padded_macs = 0;
  int64_t total_bytes = 0;
  /// Padded work that is padding, in parts per million.
  [[nodiscard]] constexpr int64_t waste_ppm() const {
    return padded_macs == 0 ? 0 : (padded_macs - useful_macs) * 1'000'000 / padded_macs;
  }
};

/// @brief The fixed-tile splitting of every GEMM of Net for tile T (a power of two) and element
/// size ElemBytes (1 for int8, 4 for float32), partial sums of AccBytes.
template <Network Net, int64_t T = 64, int64_t ElemBytes = 1, int64_t AccBytes = 4>
inline constexpr auto tiling_of = [] {
  constexpr auto& gs = gemms<Net>;
  network_tiling<gs.size()> t{};
  t.tile = T;
  for (size_t i = 0; i < gs.size(); ++i) {
    layer_tiling& l = t.layers[i];
    l.gemm = gs[i];
    l.plan = kernels::plan_fixed_tiles<T>(gs[i].m, gs[i].n, gs[i].k, ElemBytes, AccBytes);
    t.sub_gemms += l.sub_gemms();
    t.useful_macs += static_cast<int64_t>(gs[i].macs());
    t.padded_macs += l.padded_macs();
    t.total_bytes += l.total_bytes();
  }
  return t;
}();

}  // namespace ctnn::analysis
