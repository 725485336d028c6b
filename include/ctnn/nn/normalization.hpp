// Per-channel layers beside batch norm: layer_norm2d (ConvNeXt's LayerNorm over the channels of
// each position) and channel_scale (ConvNeXt's layer scale, a learned per-channel multiplier).
#pragma once
#include "ctnn/nn/batch_norm2d.hpp"

namespace ctnn {

/// @brief LayerNorm over the C channels at every (h, w), with affine γ and β (params 2·C).
/// ext_ops = 5 per element (mean and variance accumulation, subtract, scale, shift).
template <int64_t Channels>
struct layer_norm2d : leaf<layer_norm2d<Channels>>, detail::per_channel<Channels> {
  static constexpr const char* type_name = "LayerNorm2d";
  static constexpr op kind = op::layer_norm2d;
  static constexpr leaf_counts counts(shape in) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(Channels);
    c.biases = static_cast<uint64_t>(Channels);
    c.ext_ops = 5 * static_cast<uint64_t>(in.elems());
    return c;
  }
};

/// @brief y[c] = γ[c] · x[c] (ConvNeXt's layer scale). params C; ext_ops 1 per element. In place.
template <int64_t Channels>
struct channel_scale : leaf<channel_scale<Channels>>, detail::per_channel<Channels> {
  static constexpr const char* type_name = "LayerScale";
  static constexpr op kind = op::channel_scale;
  static constexpr leaf_counts counts(shape in) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(Channels);
    c.ext_ops = static_cast<uint64_t>(in.elems());
    return c;
  }
};

}  // namespace ctnn
