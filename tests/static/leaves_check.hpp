// The leaf-by-leaf check of a model against the table torchvision_leaves.py writes from PyTorch
// (torchvision_leaves.hpp): each leaf's type, output shape, conv + linear MACs and, for Dropout and
// StochasticDepth, drop probability; for a model named as torchvision names its modules, each
// leaf's path (the one a compile error shows) against the module's name.
#pragma once
#include "ctnn/nn/layers.hpp"
#include "torchvision_leaves.hpp"

namespace ctnn_test_leaves {

constexpr bool same_text(const char* a, const char* b) {
  size_t i = 0;
  for (; a[i] != '\0' && b[i] != '\0'; ++i)
    if (a[i] != b[i]) return false;
  return a[i] == b[i];
}

/// The first leaf of Net that differs from PyTorch's, or -1 when every leaf matches (a leaf count
/// that differs is the first leaf one of them lacks).
template <class Net, size_t N>
constexpr int32_t first_mismatch(const leaf_fact (&torch)[N]) {
  const int32_t n = Net::leaf_count < static_cast<int32_t>(N) ? Net::leaf_count : static_cast<int32_t>(N);
  for (int32_t i = 0; i < n; ++i) {
    const ctnn::row& r = Net::layer(i);
    const leaf_fact& t = torch[i];
    if (!same_text(r.type, t.type) || !(r.out == t.out) || r.counts.macs != t.macs) return i;
    const double p = static_cast<double>(r.geometry.alpha);
    if (r.kind == ctnn::op::dropout && (p - t.p > 1e-6 || t.p - p > 1e-6)) return i;
  }
  return Net::leaf_count == static_cast<int32_t>(N) ? -1 : n;
}

/// True when leaf i's path, its steps joined by '.', is `dotted`.
template <class Net>
constexpr bool path_is(int32_t i, const char* dotted) {
  ctnn::diagnostic d{};
  d.layer = i;
  d.report.code = 1;
  d = ctnn::with_path_at(d, Net::rows.data(), Net::leaf_rows[static_cast<size_t>(i)]);
  const char* step = d.steps;
  size_t k = 0;
  for (int32_t s = 0; s < d.n_steps; ++s) {
    if (s > 0 && dotted[k++] != '.') return false;
    for (; *step != '\0'; ++step, ++k)
      if (dotted[k] != *step) return false;
    ++step;
  }
  return dotted[k] == '\0';
}

/// The leaves PyTorch runs in a module of their own (a non-empty `module`).
template <size_t N>
constexpr int32_t module_leaves(const leaf_fact (&torch)[N]) {
  int32_t n = 0;
  for (const leaf_fact& t : torch) n += t.module[0] != '\0' ? 1 : 0;
  return n;
}

/// The first leaf made by a torchvision module whose path differs from the module's name, or -1.
template <class Net, size_t N>
constexpr int32_t first_path_mismatch(const leaf_fact (&torch)[N]) {
  for (int32_t i = 0; i < Net::leaf_count && i < static_cast<int32_t>(N); ++i)
    if (torch[i].module[0] != '\0' && !path_is<Net>(i, torch[i].module)) return i;
  return -1;
}

}  // namespace ctnn_test_leaves
