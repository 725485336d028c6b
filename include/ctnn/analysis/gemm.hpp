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

/// True for the tile sizes tile_gemm plans: the powers of two from 1 to 1024.
constexpr bool supported_tile(int64_t tile) { return tile >= 1 && tile <= 1024 && (tile & (tile - 1)) == 0; }

/// @brief The tiling of one GEMM on a tile×tile×tile engine, the tile chosen at run time (a
/// supported_tile; another gives an empty plan): kernels::plan_fixed_tiles<tile>.
constexpr layer_tiling tile_gemm(const gemm_shape& g, int64_t tile, int64_t elem_bytes, int64_t acc_bytes) {
  layer_tiling l{g, {}};
  switch (tile) {
    case 1: l.plan = kernels::plan_fixed_tiles<1>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 2: l.plan = kernels::plan_fixed_tiles<2>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 4: l.plan = kernels::plan_fixed_tiles<4>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 8: l.plan = kernels::plan_fixed_tiles<8>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 16: l.plan = kernels::plan_fixed_tiles<16>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 32: l.plan = kernels::plan_fixed_tiles<32>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 64: l.plan = kernels::plan_fixed_tiles<64>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 128: l.plan = kernels::plan_fixed_tiles<128>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 256: l.plan = kernels::plan_fixed_tiles<256>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 512: l.plan = kernels::plan_fixed_tiles<512>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    case 1024: l.plan = kernels::plan_fixed_tiles<1024>(g.m, g.n, g.k, elem_bytes, acc_bytes); break;
    default: break;
  }
  return l;
}

/// @brief Totals of a network's tiling on a T×T×T engine.
struct tiling_totals {
  int64_t tile = 0;
  int64_t sub_gemms = 0;
  int64_t useful_macs = 0;
  int64_t padded_macs = 0;
  int64_t total_bytes = 0;
  /// Counts one layer's tiling in the totals.
  constexpr void add(const layer_tiling& l) {
    sub_gemms += l.sub_gemms();
    useful_macs += static_cast<int64_t>(l.gemm.macs());
    padded_macs += l.padded_macs();
    total_bytes += l.total_bytes();
  }
  /// Padded work that is padding, in parts per million.
  [[nodiscard]] constexpr int64_t waste_ppm() const {
    return padded_macs == 0 ? 0 : (padded_macs - useful_macs) * 1'000'000 / padded_macs;
  }
};

/// @brief A network's tiling: every GEMM's and the totals.
template <size_t N>
struct network_tiling : tiling_totals {
  array<layer_tiling, N> layers{};
};

/// @brief The fixed-tile splitting of every GEMM of Net for tile T (a power of two) and element
/// size ElemBytes (1 for int8, 4 for float32), partial sums of AccBytes.
template <Network Net, int64_t T = 64, int64_t ElemBytes = 1, int64_t AccBytes = 4>
inline constexpr auto tiling_of = [] {
  static_assert(supported_tile(T), "ctnn: tiling_of: the tile must be a power of two from 1 to 1024");
  constexpr auto& gs = gemms<Net>;
  network_tiling<gs.size()> t{};
  t.tile = T;
  for (size_t i = 0; i < gs.size(); ++i) {
    t.layers[i] = tile_gemm(gs[i], T, ElemBytes, AccBytes);
    t.add(t.layers[i]);
  }
  return t;
}();

}  // namespace ctnn::analysis
