// Compile-time diagnostics: every fault a network description can have, and the error
// templates that turn the first fault into a message naming the layer, its type and the fault.
//
// The analysis walk records the first fault as a `diagnostic` value; `raise<D>` instantiates the
// matching `error::...` template, whose static_assert message says what is wrong and whose
// template arguments (shown by the compiler as "In instantiation of ...") say where:
//   error: static assertion failed: ctnn: conv2d: the input's channel count differs from in_channels
//   In instantiation of 'struct ctnn::error::conv2d_input_channels_mismatch<ctnn::at_layer<3>,
//       ctnn::layer_type<{"Conv2d"}>, ctnn::expected<32>, ctnn::got<64>>'
#pragma once
#include "ctnn/core/shape.hpp"

namespace ctnn {

enum class fault : uint8_t {
  none,
  conv_input_not_feature_map,
  conv_in_channels,
  conv_groups,
  conv_kernel_too_large,
  linear_input_not_flat,
  linear_in_features,
  pool_input_not_feature_map,
  pool_padding_too_large,
  pool_empty_output,
  batch_norm_channels,
  channel_shuffle_groups,
  zero_pad_empty_output,
  residual_shape_mismatch,
  concat_spatial_mismatch,
  scale_shape_mismatch,
  softmax_input,
  channel_slice_range,
};

/// What a layer's check returns: the fault and the two numbers (or shapes) that disagree.
struct fault_report {
  fault kind = fault::none;
  int64_t expected = 0;
  int64_t actual = 0;
  shape expected_shape{};
  shape actual_shape{};
};

constexpr fault_report ok() { return {}; }
constexpr fault_report fail(fault k, int64_t expected, int64_t actual) {
  return fault_report{k, expected, actual, {}, {}};
}
constexpr fault_report fail_shape(fault k, shape expected, shape actual) {
  return fault_report{k, 0, 0, expected, actual};
}

inline constexpr size_t type_name_capacity = 24;

/// The first fault of a network, with the layer's execution position and type.
struct diagnostic {
  int64_t layer = -1;                      ///< execution position of the leaf (0-based, as Net::layer(i))
  char type[type_name_capacity] = {};      ///< its type name, e.g. "Conv2d"
  fault_report report{};
};

template <int64_t Position> struct at_layer {};
template <fixed_string Name> struct layer_type {};
template <int64_t V> struct expected {};
template <int64_t V> struct got {};
template <shape S> struct expected_shape {};
template <shape S> struct got_shape {};

namespace error {
// Each template fails when instantiated; its name and arguments are the diagnostic.
#define CTNN_DEFINE_ERROR(name, message)                        \
  template <class Where, class What, class Expected, class Got> \
  struct name {                                                 \
    static_assert(sizeof(Where) == 0, message);                 \
    static constexpr bool value = false;                        \
  }
CTNN_DEFINE_ERROR(conv2d_input_is_not_a_feature_map, "ctnn: conv2d: input must be a (C, H, W) feature map, not a flat vector");
CTNN_DEFINE_ERROR(conv2d_input_channels_mismatch, "ctnn: conv2d: the input's channel count differs from the layer's in_channels");
CTNN_DEFINE_ERROR(conv2d_groups_do_not_divide_channels, "ctnn: conv2d: groups must divide both in_channels and out_channels");
CTNN_DEFINE_ERROR(conv2d_kernel_larger_than_padded_input, "ctnn: conv2d: the dilated kernel is larger than the padded input");
CTNN_DEFINE_ERROR(linear_input_not_flattened, "ctnn: linear: input is a feature map; insert flatten before linear");
CTNN_DEFINE_ERROR(linear_in_features_mismatch, "ctnn: linear: the flattened input size differs from the layer's in_features");
CTNN_DEFINE_ERROR(pool_input_is_not_a_feature_map, "ctnn: pool: input must be a (C, H, W) feature map");
CTNN_DEFINE_ERROR(pool_padding_exceeds_half_kernel, "ctnn: pool: padding must be at most half the kernel size");
CTNN_DEFINE_ERROR(pool_output_is_empty, "ctnn: pool: the output would be empty");
CTNN_DEFINE_ERROR(batch_norm_channels_mismatch, "ctnn: batch_norm2d / layer_norm2d / channel_scale: the input's channel count differs from the layer's");
CTNN_DEFINE_ERROR(channel_shuffle_groups_do_not_divide_channels, "ctnn: channel_shuffle: groups must divide the channel count");
CTNN_DEFINE_ERROR(zero_pad_output_is_empty, "ctnn: zero_pad2d: negative padding leaves an empty output");
CTNN_DEFINE_ERROR(residual_shape_mismatch, "ctnn: residual: the body's output shape differs from the shortcut's");
CTNN_DEFINE_ERROR(concat_spatial_mismatch, "ctnn: concat: branches disagree on height/width (or rank)");
CTNN_DEFINE_ERROR(scale_shape_mismatch, "ctnn: scale: the gate must output (C, 1, 1) or the input's shape");
CTNN_DEFINE_ERROR(softmax_bad_input, "ctnn: softmax: input must be non-empty");
CTNN_DEFINE_ERROR(channel_slice_out_of_range, "ctnn: channel_slice: the slice ends beyond the input's channels");
#undef CTNN_DEFINE_ERROR
}  // namespace error

namespace detail {
template <size_t N>
constexpr fixed_string<N> to_fixed(const char* s) {
  char buf[N] = {};
  for (size_t i = 0; i + 1 < N; ++i) buf[i] = s[i];
  return fixed_string<N>(buf);
}
}  // namespace detail

/// Instantiating raise<D> fails with D's message unless D.report.kind == fault::none.
template <diagnostic D>
struct raise {
  using where = at_layer<D.layer>;
  using what = layer_type<detail::to_fixed<string_length(D.type) + 1>(D.type)>;
  using e = expected<D.report.expected>;
  using g = got<D.report.actual>;
  using es = expected_shape<D.report.expected_shape>;
  using gs = got_shape<D.report.actual_shape>;
  static constexpr bool value = [] {
    constexpr fault k = D.report.kind;
    if constexpr (k == fault::conv_input_not_feature_map) return error::conv2d_input_is_not_a_feature_map<where, what, es, gs>::value;
    else if constexpr (k == fault::conv_in_channels) return error::conv2d_input_channels_mismatch<where, what, e, g>::value;
    else if constexpr (k == fault::conv_groups) return error::conv2d_groups_do_not_divide_channels<where, what, e, g>::value;
    else if constexpr (k == fault::conv_kernel_too_large) return error::conv2d_kernel_larger_than_padded_input<where, what, es, gs>::value;
    else if constexpr (k == fault::linear_input_not_flat) return error::linear_input_not_flattened<where, what, es, gs>::value;
    else if constexpr (k == fault::linear_in_features) return error::linear_in_features_mismatch<where, what, e, g>::value;
    else if constexpr (k == fault::pool_input_not_feature_map) return error::pool_input_is_not_a_feature_map<where, what, es, gs>::value;
    else if constexpr (k == fault::pool_padding_too_large) return error::pool_padding_exceeds_half_kernel<where, what, e, g>::value;
    else if constexpr (k == fault::pool_empty_output) return error::pool_output_is_empty<where, what, es, gs>::value;
    else if constexpr (k == fault::batch_norm_channels) return error::batch_norm_channels_mismatch<where, what, e, g>::value;
    else if constexpr (k == fault::channel_shuffle_groups) return error::channel_shuffle_groups_do_not_divide_channels<where, what, e, g>::value;
    else if constexpr (k == fault::zero_pad_empty_output) return error::zero_pad_output_is_empty<where, what, es, gs>::value;
    else if constexpr (k == fault::residual_shape_mismatch) return error::residual_shape_mismatch<where, what, es, gs>::value;
    else if constexpr (k == fault::concat_spatial_mismatch) return error::concat_spatial_mismatch<where, what, es, gs>::value;
    else if constexpr (k == fault::scale_shape_mismatch) return error::scale_shape_mismatch<where, what, es, gs>::value;
    else if constexpr (k == fault::softmax_input) return error::softmax_bad_input<where, what, es, gs>::value;
    else if constexpr (k == fault::channel_slice_range) return error::channel_slice_out_of_range<where, what, e, g>::value;
    else return true;
  }();
};

}  // namespace ctnn
