// Host-only: the fixed-tile splitting of a network's GEMMs as a table (ctnn-report --tiles T).
#pragma once
#include <cstdio>
#include <string>

#include "ctnn/analysis/gemm.hpp"
#include "ctnn/host/report.hpp"

namespace ctnn::host {

namespace detail {
template <Network Net, int64_t T, int64_t ElemBytes>
std::string tiling_table(const report& r) {
  constexpr auto& t = analysis::tiling_of<Net, T, ElemBytes>;
  std::string s = "Fixed-tile splitting on a " + std::to_string(T) + "x" + std::to_string(T) + "x" + std::to_string(T) +
                  " engine (" + std::to_string(ElemBytes) + "-byte elements, 4-byte partial sums)\n";
  char line[256];
  std::snprintf(line, sizeof line, "%5s  %-28s %-9s %7s %7s %7s %6s %13s %15s %8s %15s\n", "layer", "name", "type", "M",
                "N", "K", "count", "tiles m*n*k", "sub-GEMMs", "waste %", "bytes moved");
  s += line;
  for (const analysis::layer_tiling& l : t.layers) {
    const report_row* row_of = nullptr;
    for (const report_row& x : r.rows)
      if (x.leaf == l.gemm.leaf) row_of = &x;
    const std::string tiles = std::to_string(l.plan.tiles_m) + "*" + std::to_string(l.plan.tiles_n) + "*" +
                              std::to_string(l.plan.tiles_k);
    std::snprintf(line, sizeof line, "%5d  %-28s %-9s %7lld %7lld %7lld %6lld %13s %15s %8.2f %15s\n", l.gemm.leaf,
                  row_of != nullptr ? row_of->name.c_str() : "?", row_of != nullptr ? row_of->type.c_str() : "?",
                  static_cast<long long>(l.gemm.m), static_cast<long long>(l.gemm.n), static_cast<long long>(l.gemm.k),
                  static_cast<long long>(l.gemm.count), tiles.c_str(),
                  grouped(static_cast<std::uint64_t>(l.sub_gemms())).c_str(),
                  static_cast<double>(l.plan.waste_ppm()) / 1e4, grouped(static_cast<std::uint64_t>(l.total_bytes())).c_str());
    s += line;
  }
  s += "Total: " + grouped(static_cast<std::uint64_t>(t.sub_gemms)) + " sub-GEMMs, useful MACs " +
       grouped(static_cast<std::uint64_t>(t.useful_macs)) + " of " + grouped(static_cast<std::uint64_t>(t.padded_macs)) +
       " padded (waste " + detail::fixed2(static_cast<double>(t.waste_ppm()) / 1e4) + " %), bytes moved " +
       grouped(static_cast<std::uint64_t>(t.total_bytes)) + "\n";
  return s;
}
}  // namespace detail

/// @brief The tiling table of Net for tile T in {8, 16, 32, 64, 128, 256}; empty for another T.
template <Network Net>
std::string tiling_table(const report& r, int64_t tile) {
  const bool wide = size_of(r.type) == 4;
  switch (tile) {
    case 8: return wide ? detail::tiling_table<Net, 8, 4>(r) : detail::tiling_table<Net, 8, 1>(r);
    case 16: return wide ? detail::tiling_table<Net, 16, 4>(r) : detail::tiling_table<Net, 16, 1>(r);
    case 32: return wide ? detail::tiling_table<Net, 32, 4>(r) : detail::tiling_table<Net, 32, 1>(r);
    case 64: return wide ? detail::tiling_table<Net, 64, 4>(r) : detail::tiling_table<Net, 64, 1>(r);
    case 128: return wide ? detail::tiling_table<Net, 128, 4>(r) : detail::tiling_table<Net, 128, 1>(r);
    case 256: return wide ? detail::tiling_table<Net, 256, 4>(r) : detail::tiling_table<Net, 256, 1>(r);
    default: return {};
  }
}

}  // namespace ctnn::host
