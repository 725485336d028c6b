// Layers that move no data or only rearrange it: flatten, dropout (identity at inference),
// zero_pad2d, channel_shuffle, channel_slice; and softmax. Each with its op.
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn {

/// The faults of the rearranging layers and softmax (one each).
enum class zero_pad_fault : uint8_t { none, empty_output, not_feature_map };
enum class channel_shuffle_fault : uint8_t { none, groups, not_feature_map };
enum class channel_slice_fault : uint8_t { none, range, not_feature_map };
enum class softmax_fault : uint8_t { none, input };

namespace error {
CTNN_DEFINE_ERROR(channel_shuffle_groups_do_not_divide_channels, "ctnn: channel_shuffle: groups must divide the channel count");
CTNN_DEFINE_ERROR(channel_shuffle_input_is_not_a_feature_map, "ctnn: channel_shuffle: input must be a (C, H, W) feature map, not a flat vector");
CTNN_DEFINE_ERROR(zero_pad_output_is_empty, "ctnn: zero_pad2d: negative padding leaves an empty output");
CTNN_DEFINE_ERROR(zero_pad_input_is_not_a_feature_map, "ctnn: zero_pad2d: input must be a (C, H, W) feature map, not a flat vector");
CTNN_DEFINE_ERROR(softmax_bad_input, "ctnn: softmax: input must be non-empty");
CTNN_DEFINE_ERROR(channel_slice_out_of_range, "ctnn: channel_slice: the slice ends beyond the input's channels");
CTNN_DEFINE_ERROR(channel_slice_input_is_not_a_feature_map, "ctnn: channel_slice: input must be a (C, H, W) feature map, not a flat vector");
}  // namespace error

/// @brief (C, H, W) -> (C·H·W,). An alias of its input at inference.
struct flatten : leaf<flatten> {
  static constexpr op kind = op::flatten;
};

/// @brief Dropout with probability Num/Den (`dropout<1, 5>` is p = 0.2; Den defaults to 100, so
/// one argument is a percentage: `dropout<20>`, the same p; `dropout<>` is PyTorch's 0.5): the
/// identity at inference (an alias). The row keeps p (geometry.alpha).
template <int64_t Num = 50, int64_t Den = 100>
struct dropout : leaf<dropout<Num, Den>> {
  static_assert(Den > 0 && Num >= 0 && Num <= Den, "ctnn: dropout: the probability Num/Den must lie in [0, 1]");
  static constexpr op kind = op::dropout;
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.alpha = static_cast<float>(static_cast<double>(Num) / static_cast<double>(Den));
    return g;
  }
};

/// @brief torchvision's StochasticDepth (EfficientNet, ConvNeXt) with drop probability Num/Den,
/// mode "row": the identity at inference, an alias of its input as dropout, shown as a leaf of
/// its own ("StochasticDepth") so that the leaves are torchvision's modules.
template <int64_t Num, int64_t Den>
struct stochastic_depth : leaf<stochastic_depth<Num, Den>> {
  static_assert(Den > 0 && Num >= 0 && Num <= Den, "ctnn: stochastic_depth: the probability Num/Den must lie in [0, 1]");
  static constexpr op kind = op::dropout;
  static constexpr const char* type_name = "StochasticDepth";
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.alpha = static_cast<float>(static_cast<double>(Num) / static_cast<double>(Den));
    g.variant = 1;  // stochastic depth, not dropout
    return g;
  }
};

/// @brief ZeroPad2d with the library's one padding order: zero_pad2d<top, bottom, left, right>
/// (defaults: bottom = top, left = top, right = left, so zero_pad2d<p> pads p on every side).
/// PyTorch's ZeroPad2d((left, right, top, bottom)) is zero_pad2d<top, bottom, left, right>.
/// Negative values crop, as in PyTorch.
template <int64_t Top, int64_t Bottom = Top, int64_t Left = Top, int64_t Right = Left>
struct zero_pad2d : leaf<zero_pad2d<Top, Bottom, Left, Right>> {
  static constexpr op kind = op::zero_pad2d;
  static constexpr pad4 padding{Top, Bottom, Left, Right};
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.padding = padding;
    return g;
  }
};

/// @brief ShuffleNet's channel shuffle: (G, C/G) -> (C/G, G) over the channel axis.
template <int64_t Groups>
struct channel_shuffle : leaf<channel_shuffle<Groups>> {
  static_assert(Groups > 0, "ctnn: channel_shuffle: groups must be positive");
  static constexpr op kind = op::channel_shuffle;
  static constexpr int64_t groups = Groups;
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.groups = Groups;
    return g;
  }
};

/// @brief Channels [Begin, End) of the input (ShuffleNetV2's channel split: x.chunk(2, dim=1)).
/// A copy in the plan (the slice is contiguous in C, H, W order but the input lives on).
template <int64_t Begin, int64_t End>
struct channel_slice : leaf<channel_slice<Begin, End>> {
  static_assert(0 <= Begin && Begin < End, "ctnn: channel_slice: needs 0 <= Begin < End");
  static constexpr op kind = op::channel_slice;
  static constexpr int64_t begin = Begin;
  static constexpr int64_t end = End;
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.first_channel = Begin;
    g.out_channels = End - Begin;
    return g;
  }
};

/// @brief Softmax over the channel axis (over the features of a flat input).
struct softmax : leaf<softmax> {
  static constexpr op kind = op::softmax;
};

namespace detail {
/// The op of an alias (flatten, dropout): the output is the input's bytes; int8 keeps the input's
/// quantization. Nothing moves when the plan shares the buffer; otherwise a copy.
struct alias_op {
  static constexpr fault_report check(const layer_geometry&, shape) { return ok(); }
  static constexpr shape output(const layer_geometry&, shape in) { return in; }
  static constexpr leaf_counts counts(const layer_geometry&, shape) { return {}; }
  static constexpr reuse_rule reuse{true, 0, false};
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    if (!runtime::keeps_quant(c)) return runtime::quant_mismatch;
    runtime::move_elems(c.out, c.in[0], c.r->out.elems());
    return runtime::leaf_done;
  }
};
}  // namespace detail

template <>
struct op_def<op::flatten> : detail::alias_op {
  static constexpr const char* type_name = "Flatten";
  static constexpr shape output(const layer_geometry&, shape in) { return features(in.elems()); }
};
template <>
struct op_def<op::dropout> : detail::alias_op {
  static constexpr const char* type_name = "Dropout";
};

/// @brief Zero padding (negative: cropping); int8 pads with the input's zero point.
template <>
struct op_def<op::zero_pad2d> {
  static constexpr const char* type_name = "ZeroPad2d";
  static constexpr shape output(const layer_geometry& g, shape in) {
    const pad4& p = g.padding;
    return shape{in.c, in.h + p.top + p.bottom, in.w + p.left + p.right, 3};
  }
  static constexpr fault_report check(const layer_geometry& g, shape in) {
    if (in.rank != 3) return fail_shape(zero_pad_fault::not_feature_map, shape{in.c, 0, 0, 3}, in);
    const shape o = output(g, in);
    if (o.h < 1 || o.w < 1) return fail_shape(zero_pad_fault::empty_output, in, o);
    return ok();
  }
  static constexpr leaf_counts counts(const layer_geometry&, shape) { return {}; }
  template <diagnostic D>
  static constexpr auto raise() {
    if constexpr (static_cast<zero_pad_fault>(D.report.code) == zero_pad_fault::not_feature_map)
      return raise_shapes<D, error::zero_pad_input_is_not_a_feature_map>();
    else return raise_shapes<D, error::zero_pad_output_is_empty>();
  }
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    if (!runtime::keeps_quant(c)) return runtime::quant_mismatch;
    const pad4& p = r.geometry.padding;
    const T pad_value = is_same_v<T, int8_t> ? static_cast<T>(c.q_in[0].zero_point) : T{};
    return runtime::from(
        ref::zero_pad2d<T>(r.in.c, r.in.h, r.in.w, p.top, p.bottom, p.left, p.right, c.in[0], c.out, pad_value));
  }
};

/// @brief Channel shuffle: a permutation of channels, the input's quantization.
template <>
struct op_def<op::channel_shuffle> {
  static constexpr const char* type_name = "ChannelShuffle";
  /// A (C, H, W) input (PyTorch's channel_shuffle wants at least 3 dimensions, batch included).
  static constexpr fault_report check(const layer_geometry& g, shape in) {
    if (in.rank != 3) return fail_shape(channel_shuffle_fault::not_feature_map, shape{in.c, 0, 0, 3}, in);
    if (in.c % g.groups != 0) return fail(channel_shuffle_fault::groups, g.groups, in.c);
    return ok();
  }
  static constexpr shape output(const layer_geometry&, shape in) { return in; }
  static constexpr leaf_counts counts(const layer_geometry&, shape) { return {}; }
  template <diagnostic D>
  static constexpr auto raise() {
    if constexpr (static_cast<channel_shuffle_fault>(D.report.code) == channel_shuffle_fault::not_feature_map)
      return raise_shapes<D, error::channel_shuffle_input_is_not_a_feature_map>();
    else return raise_values<D, error::channel_shuffle_groups_do_not_divide_channels>();
  }
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    if (!runtime::keeps_quant(c)) return runtime::quant_mismatch;
    return runtime::from(ref::channel_shuffle<T>(r.out.c, r.out.h * r.out.w, r.geometry.groups, c.in[0], c.out));
  }
};

/// @brief Channel slice: a contiguous copy of channels [first, first + C), the input's quantization.
template <>
struct op_def<op::channel_slice> {
  static constexpr const char* type_name = "ChannelSlice";
  static constexpr fault_report check(const layer_geometry& g, shape in) {
    if (in.rank != 3) return fail_shape(channel_slice_fault::not_feature_map, shape{in.c, 0, 0, 3}, in);
    const int64_t end = g.first_channel + g.out_channels;
    if (end > in.c) return fail(channel_slice_fault::range, end, in.c);
    return ok();
  }
  static constexpr shape output(const layer_geometry& g, shape in) { return shape{g.out_channels, in.h, in.w, 3}; }
  static constexpr leaf_counts counts(const layer_geometry&, shape) { return {}; }
  template <diagnostic D>
  static constexpr auto raise() {
    if constexpr (static_cast<channel_slice_fault>(D.report.code) == channel_slice_fault::not_feature_map)
      return raise_shapes<D, error::channel_slice_input_is_not_a_feature_map>();
    else return raise_values<D, error::channel_slice_out_of_range>();
  }
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    if (!runtime::keeps_quant(c)) return runtime::quant_mismatch;
    runtime::move_elems(c.out, c.in[0] + r.geometry.first_channel * r.out.h * r.out.w, r.out.elems());
    return runtime::leaf_done;
  }
};

/// @brief Softmax over channels: int8 output at scale 1/256, zero point -128 (TFLite's).
template <>
struct op_def<op::softmax> {
  static constexpr const char* type_name = "Softmax";
  static constexpr fault_report check(const layer_geometry&, shape in) {
    if (!in.valid()) return fail_shape(softmax_fault::input, shape{1, 1, 1, 1}, in);
    return ok();
  }
  static constexpr shape output(const layer_geometry&, shape in) { return in; }
  /// ext_ops = 3 per element: an exponential, its share of the sum, a division.
  static constexpr leaf_counts counts(const layer_geometry&, shape in) {
    leaf_counts c{};
    c.ext_ops = 3 * static_cast<uint64_t>(in.elems());
    return c;
  }
  template <diagnostic D>
  static constexpr auto raise() { return raise_shapes<D, error::softmax_bad_input>(); }
  static constexpr runtime::quant_rule quant = runtime::quant_rule::unit_interval;
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    const int64_t ch = r.out.c, hw = r.out.h * r.out.w;
    if constexpr (is_same_v<T, int8_t>) {
      if (c.q_out.scale != ref::softmax_out_scale || c.q_out.zero_point != ref::softmax_out_zp)
        return runtime::quant_mismatch;
      if (B == runtime::backend::optimized && hw == 1)
        return runtime::from(kernels::softmax_s8(1, ch, c.in[0], c.out, c.q_in[0].scale, c.q_in[0].zero_point));
      return runtime::from(ref::softmax_channels_s8(ch, hw, c.in[0], c.out, c.q_in[0].scale, c.q_in[0].zero_point));
    } else {
      return runtime::from(ref::softmax_channels_f32(ch, hw, c.in[0], c.out));
    }
  }
};

}  // namespace ctnn
