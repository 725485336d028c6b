// Tensor shapes (batch 1): rank 3 (C, H, W) for feature maps, rank 1 (features) after flatten.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn {

/// @brief Shape of one sample. Structural, so it can be a template argument: `network<shape{3, 224, 224}, ...>`.
struct shape {
  int64_t c = 0;
  int64_t h = 1;
  int64_t w = 1;
  int rank = 3;  ///< 3: (C, H, W); 1: (features,) with h = w = 1

  [[nodiscard]] constexpr int64_t elems() const { return c * h * w; }
  [[nodiscard]] constexpr bool valid() const { return c > 0 && h > 0 && w > 0; }
  friend constexpr bool operator==(const shape&, const shape&) = default;
};

/// A rank-1 shape of n features.
constexpr shape features(int64_t n) { return shape{n, 1, 1, 1}; }

/// A pair (h, w): kernel sizes, strides, dilations.
struct hw {
  int64_t h = 1;
  int64_t w = 1;
  friend constexpr bool operator==(const hw&, const hw&) = default;
};

/// Padding on the four sides, possibly asymmetric.
struct pad4 {
  int64_t top = 0;
  int64_t bottom = 0;
  int64_t left = 0;
  int64_t right = 0;
  friend constexpr bool operator==(const pad4&, const pad4&) = default;
};

constexpr pad4 pad_all(int64_t p) { return pad4{p, p, p, p}; }

}  // namespace ctnn
