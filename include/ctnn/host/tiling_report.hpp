// Host-only: the fixed-tile splitting of a network's GEMMs as a table (ctnn-report --tiles T).
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "ctnn/analysis/gemm.hpp"
#include "ctnn/host/report.hpp"

namespace ctnn::host {

/// @brief The fixed-tile splitting of every GEMM of the rows v (analysis::tile_gemm, the
/// arithmetic of analysis::tiling_of) as a table, for tile in {8, 16, 32, 64, 128, 256}; empty
/// for another tile. Names and types come from the report r of the same rows.
inline std::string tiling_table(const rows_view& v, const report& r, int64_t tile) {
  if (tile != 8 && tile != 16 && tile != 32 && tile != 64 && tile != 128 && tile != 256) return {};
  const int64_t elem = size_of(r.type) == 4 ? 4 : 1;
  std::string s = "Fixed-tile splitting on a " + std::to_string(tile) + "x" + std::to_string(tile) + "x" +
                  std::to_string(tile) + " engine (" + std::to_string(elem) + "-byte elements, 4-byte partial sums)\n";
  char line[256];
  std::snprintf(line, sizeof line, "%5s  %-28s %-9s %7s %7s %7s %6s %13s %15s %8s %15s\n", "layer", "name", "type", "M",
                "N", "K", "count", "tiles m*n*k", "sub-GEMMs", "waste %", "bytes moved");
  s += line;
  std::vector<const report_row*> row_of_leaf(static_cast<std::size_t>(v.leaf_count), nullptr);
  for (const report_row& x : r.rows)
    if (x.leaf >= 0 && x.leaf < v.leaf_count) row_of_leaf[static_cast<std::size_t>(x.leaf)] = &x;
  analysis::tiling_totals total{};
  total.tile = tile;
  for (int32_t i = 0; i < v.leaf_count; ++i) {
    const analysis::gemm_shape g = analysis::gemm_of(v.layer(i));
    if (g.count <= 0) continue;
    const analysis::layer_tiling l = analysis::tile_gemm(g, tile, elem, 4);
    total.add(l);
    const report_row* x = row_of_leaf[static_cast<std::size_t>(i)];
    const std::string tiles = std::to_string(l.plan.tiles_m) + "*" + std::to_string(l.plan.tiles_n) + "*" +
                              std::to_string(l.plan.tiles_k);
    std::snprintf(line, sizeof line, "%5d  %-28s %-9s %7lld %7lld %7lld %6lld %13s %15s %8.2f %15s\n", l.gemm.leaf,
                  x != nullptr ? x->name.c_str() : "?", x != nullptr ? x->type.c_str() : "?",
                  static_cast<long long>(l.gemm.m), static_cast<long long>(l.gemm.n), static_cast<long long>(l.gemm.k),
                  static_cast<long long>(l.gemm.count), tiles.c_str(),
                  grouped(static_cast<std::uint64_t>(l.sub_gemms())).c_str(),
                  static_cast<double>(l.plan.waste_ppm()) / 1e4, grouped(static_cast<std::uint64_t>(l.total_bytes())).c_str());
    s += line;
  }
  s += "Total: " + grouped(static_cast<std::uint64_t>(total.sub_gemms)) + " sub-GEMMs, useful MACs " +
       grouped(static_cast<std::uint64_t>(total.useful_macs)) + " of " +
       grouped(static_cast<std::uint64_t>(total.padded_macs)) + " padded (waste " +
       detail::fixed2(static_cast<double>(total.waste_ppm()) / 1e4) + " %), bytes moved " +
       grouped(static_cast<std::uint64_t>(total.total_bytes)) + "\n";
  return s;
}

/// @brief The tiling table of Net for tile T in {8, 16, 32, 64, 128, 256}; empty for another T.
template <Network Net>
std::string tiling_table(const report& r, int64_t tile) {
  return tiling_table(Net::view(), r, tile);
}

}  // namespace ctnn::host
