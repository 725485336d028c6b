// Layers that move no data or only rearrange it: flatten, dropout (identity at inference),
// zero_pad2d and channel_shuffle.
#pragma once
#include "ctnn/nn/graph.hpp"

namespace ctnn {

/// @brief (C, H, W) -> (C·H·W,). An alias of its input at inference.
struct flatten : leaf<flatten> {
  static constexpr const char* type_name = "Flatten";
  static constexpr op kind = op::flatten;
  static constexpr fault_report check(shape) { return ok(); }
  static constexpr shape output(shape in) { return features(in.elems()); }
  static constexpr leaf_counts counts(shape) { return {}; }
};

/// @brief Dropout with probability PercentP/100: the identity at inference (an alias).
template <int64_t PercentP = 50>
struct dropout : leaf<dropout<PercentP>> {
  static_assert(PercentP >= 0 && PercentP <= 100, "ctnn: dropout: probability is a percentage 0..100");
  static constexpr const char* type_name = "Dropout";
  static constexpr op kind = op::dropout;
  static constexpr fault_report check(shape) { return ok(); }
  static constexpr shape output(shape in) { return in; }
  static constexpr leaf_counts counts(shape) { return {}; }
};

/// @brief ZeroPad2d(left, right, top, bottom); negative values crop, as in PyTorch.
template <int64_t Left, int64_t Right = Left, int64_t Top = Left, int64_t Bottom = Top>
struct zero_pad2d : leaf<zero_pad2d<Left, Right, Top, Bottom>> {
  static constexpr const char* type_name = "ZeroPad2d";
  static constexpr op kind = op::zero_pad2d;
  static constexpr pad4 padding{Top, Bottom, Left, Right};
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.padding = padding;
    return g;
  }
  static constexpr shape output(shape in) { return shape{in.c, in.h + Top + Bottom, in.w + Left + Right, 3}; }
  static constexpr fault_report check(shape in) {
    if (in.rank != 3) return fail_shape(fault::zero_pad_empty_output, shape{in.c, 0, 0, 3}, in);
    const shape o = output(in);
    if (o.h < 1 || o.w < 1) return fail_shape(fault::zero_pad_empty_output, in, o);
    return ok();
  }
  static constexpr leaf_counts counts(shape) { return {}; }
};

/// @brief ShuffleNet's channel shuffle: (G, C/G) -> (C/G, G) over the channel axis.
template <int64_t Groups>
struct channel_shuffle : leaf<channel_shuffle<Groups>> {
  static_assert(Groups > 0, "ctnn: channel_shuffle: groups must be positive");
  static constexpr const char* type_name = "ChannelShuffle";
  static constexpr op kind = op::channel_shuffle;
  static constexpr int64_t groups = Groups;
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.groups = Groups;
    return g;
  }
  static constexpr fault_report check(shape in) {
    if (in.c % Groups != 0) return fail(fault::channel_shuffle_groups, Groups, in.c);
    return ok();
  }
  static constexpr shape output(shape in) { return in; }
  static constexpr leaf_counts counts(shape) { return {}; }
};

/// @brief Channels [Begin, End) of the input (ShuffleNetV2's channel split: x.chunk(2, dim=1)).
/// A copy in the plan (the slice is contiguous in C, H, W order but the input lives on).
template <int64_t Begin, int64_t End>
struct channel_slice : leaf<channel_slice<Begin, End>> {
  static_assert(0 <= Begin && Begin < End, "ctnn: channel_slice: needs 0 <= Begin < End");
  static constexpr const char* type_name = "ChannelSlice";
  static constexpr op kind = op::channel_slice;
  static constexpr int64_t begin = Begin;
  static constexpr int64_t end = End;
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.first_channel = Begin;
    return g;
  }
  static constexpr fault_report check(shape in) {
    if (in.rank != 3 || End > in.c) return fail(fault::channel_slice_range, End, in.c);
    return ok();
  }
  static constexpr shape output(shape in) { return shape{End - Begin, in.h, in.w, 3}; }
  static constexpr leaf_counts counts(shape) { return {}; }
};

/// @brief Softmax over the channel axis (over the features of a flat input).
/// ext_ops = 3 per element: an exponential, its share of the sum, a division.
struct softmax : leaf<softmax> {
  static constexpr const char* type_name = "Softmax";
  static constexpr op kind = op::softmax;
  static constexpr fault_report check(shape in) {
    if (!in.valid()) return fail_shape(fault::softmax_input, shape{1, 1, 1, 1}, in);
    return ok();
  }
  static constexpr shape output(shape in) { return in; }
  static constexpr leaf_counts counts(shape in) {
    leaf_counts c{};
    c.ext_ops = 3 * static_cast<uint64_t>(in.elems());
    return c;
  }
};

}  // namespace ctnn
