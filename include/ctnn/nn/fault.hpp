// Compile-time diagnostics: the vocabulary every op uses to report a fault of a network
// description, and the machinery that turns the first fault into a message naming the layer,
// its type and the fault. The faults themselves live with their ops (nn/<op>.hpp): each op has
// an enum of its faults, the error templates that name them, and `op_def<K>::raise<D>()`.
//
// The analysis walk records the first fault as a `diagnostic` value (the leaf, its op kind and
// type, the op's fault code and the numbers or shapes that disagree); `raise<D>` hands it to the
// op, whose error template's static_assert message says what is wrong and whose template
// arguments (shown by the compiler as "In instantiation of ...") say where:
//   error: static assertion failed: ctnn: conv2d: the input's channel count differs from in_channels
//   In instantiation of 'struct ctnn::error::conv2d_input_channels_mismatch<ctnn::at_layer<3>,
//       ctnn::layer_type<{"Conv2d"}>, ctnn::expected<32>, ctnn::got<64>>'
#pragma once
#include "ctnn/core/shape.hpp"
#include "ctnn/nn/op.hpp"

namespace ctnn {

/// What a layer's check returns: its op's fault code (0: none) and the two numbers (or shapes)
/// that disagree.
struct fault_report {
  uint8_t code = 0;
  int64_t expected = 0;
  int64_t actual = 0;
  shape expected_shape{};
  shape actual_shape{};
  [[nodiscard]] constexpr bool ok() const { return code == 0; }
};

constexpr fault_report ok() { return {}; }
/// A fault of an op's own fault enum E (enumerator 0 is "none").
template <class E>
constexpr fault_report fail(E k, int64_t expected, int64_t actual) {
  return fault_report{static_cast<uint8_t>(k), expected, actual, {}, {}};
}
template <class E>
constexpr fault_report fail_shape(E k, shape expected, shape actual) {
  return fault_report{static_cast<uint8_t>(k), 0, 0, expected, actual};
}

inline constexpr size_t type_name_capacity = 24;

/// The first fault of a network, with the layer's execution position, op kind and type.
struct diagnostic {
  int64_t layer = -1;                      ///< execution position of the leaf (0-based, as Net::layer(i))
  op kind = op::container;                 ///< its op, which names the fault
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
// Each template fails when instantiated; its name and arguments are the diagnostic. Ops define
// theirs with this macro inside namespace ctnn::error.
#define CTNN_DEFINE_ERROR(name, message)                        \
  template <class Where, class What, class Expected, class Got> \
  struct name {                                                 \
    static_assert(sizeof(Where) == 0, message);                 \
    static constexpr bool value = false;                        \
  }
}  // namespace error

namespace detail {
template <size_t N>
constexpr fixed_string<N> to_fixed(const char* s) {
  char buf[N] = {};
  for (size_t i = 0; i + 1 < N; ++i) buf[i] = s[i];
  return fixed_string<N>(buf);
}
template <diagnostic D>
using where_of = at_layer<D.layer>;
template <diagnostic D>
using what_of = layer_type<to_fixed<string_length(D.type) + 1>(D.type)>;
}  // namespace detail

/// @brief Instantiates error template E with D's place and the two numbers that disagree.
template <diagnostic D, template <class, class, class, class> class E>
constexpr bool raise_values() {
  return E<detail::where_of<D>, detail::what_of<D>, expected<D.report.expected>, got<D.report.actual>>::value;
}
/// @brief Instantiates error template E with D's place and the two shapes that disagree.
template <diagnostic D, template <class, class, class, class> class E>
constexpr bool raise_shapes() {
  return E<detail::where_of<D>, detail::what_of<D>, expected_shape<D.report.expected_shape>,
           got_shape<D.report.actual_shape>>::value;
}

/// Instantiating raise<D> fails with the message of D's op unless D has no fault.
template <diagnostic D>
struct raise {
  static constexpr bool value = [] {
    if constexpr (D.report.ok()) return true;
    else return op_def<D.kind>::template raise<D>();
  }();
};

}  // namespace ctnn
