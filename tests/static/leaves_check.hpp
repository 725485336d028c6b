// The leaf-by-leaf check of a model against the table torchvision_leaves.py writes from PyTorch
// (torchvision_leaves.hpp): each leaf's type, output shape, conv + linear MACs and, for Dropout and
// StochasticDepth, drop probability.
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

}  // namespace ctnn_test_leaves
