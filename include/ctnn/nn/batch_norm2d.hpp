// batch_norm2d: inference-time batch normalization. gamma/beta are parameters; the running mean and
// variance are buffers (torchinfo does not count them as parameters either).
#pragma once
#include "ctnn/nn/graph.hpp"

namespace ctnn {

namespace detail {
/// Shape logic shared by the per-channel layers (batch norm, layer norm, layer scale): the input
/// must have Channels channels and the shape is kept.
template <int64_t Channels>
struct per_channel {
  static_assert(Channels > 0, "ctnn: a per-channel layer needs a positive channel count");
  static constexpr fault_report check(shape in) {
    if (in.c != Channels) return fail(fault::batch_norm_channels, Channels, in.c);
    return ok();
  }
  static constexpr shape output(shape in) { return in; }
};
}  // namespace detail

/// @brief y = gamma·(x − mean)/sqrt(var + eps) + beta per channel. ext_ops = 2·C·H·W (a fused
/// multiply and add per element, ptflops' affine convention).
template <int64_t NumFeatures>
struct batch_norm2d : leaf<batch_norm2d<NumFeatures>>, detail::per_channel<NumFeatures> {
  static constexpr const char* type_name = "BatchNorm2d";
  static constexpr op kind = op::batch_norm2d;
  static constexpr int64_t num_features = NumFeatures;
  static constexpr leaf_counts counts(shape in) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(NumFeatures);
    c.biases = static_cast<uint64_t>(NumFeatures);
    c.buffers = 2 * static_cast<uint64_t>(NumFeatures);
    c.ext_ops = 2 * static_cast<uint64_t>(in.elems());
    return c;
  }
};

}  // namespace ctnn
