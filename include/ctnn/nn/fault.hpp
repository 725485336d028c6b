// Compile-time diagnostics: the vocabulary every op uses to report a fault of a network
// description, and the machinery that turns the first fault into a message naming the layer,
// its type and the fault. The faults themselves live with their ops (nn/<op>.hpp): each op has
// an enum of its faults, the error templates that name them, and `op_def<K>::raise<D>()`.
//
// The analysis walk records the first fault as a `diagnostic` value (the leaf, its op kind and
// type, the op's fault code and the numbers or shapes that disagree); once every row is built,
// the network writes the leaf's path into it (`with_path`: the names given with named<>, block
// names, indices of unnamed children). `raise<D>` hands it to the op, whose error template's
// static_assert message says what is wrong and whose template arguments (shown by the compiler
// as "In instantiation of ...", and by clang in the error line itself) say where:
//   error: static assertion failed: ctnn: conv2d: the input's channel count differs from the layer's in_channels
//   In instantiation of 'struct ctnn::error::conv2d_input_channels_mismatch<
//       ctnn::at<ctnn::path<{"Mixed_6c"}, {"branch7x7_1"}, {"conv"}>, 135>, ctnn::layer_type<{"Conv2d"}>,
//       ctnn::expected<760>, ctnn::got<768>>'
//
// One fault, one error: the walk records only the first fault and keeps going on a sane shape
// (later leaves are not checked against it), and nothing reads a value of the failed error
// template (clang marks a class or function whose instantiation failed as invalid, and each use
// of it would be one more error): an op's `raise<D>()` only names the error type
// (type_identity<E<...>>), and `raise<D>::value` instantiates it once, as a class.
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
/// The characters of a leaf's path a diagnostic keeps (its steps, each '\0'-terminated); a
/// longer path keeps its last steps, after a step "...".
inline constexpr size_t path_capacity = 256;

/// The first fault of a network, with the layer's execution position, op kind, type and path.
struct diagnostic {
  int64_t layer = -1;                      ///< execution position of the leaf (0-based, as Net::layer(i))
  op kind = op::container;                 ///< its op, which names the fault
  char type[type_name_capacity] = {};      ///< its type name, e.g. "Conv2d"
  fault_report report{};
  int32_t n_steps = 0;                     ///< the steps of the leaf's path (with_path)
  char steps[path_capacity] = {};          ///< each step's text, '\0'-terminated, one after another
};

/// The path of a leaf from the network down, one template argument per step (clang shows at
/// most 32 characters of a string template argument, so the steps are kept apart):
/// path<"Mixed_6c", "branch7x7_2", "conv">.
template <fixed_string... Steps> struct path {};
/// Where a fault is: the leaf's path and its execution position (Net::layer(i)).
template <class Path, int64_t Leaf> struct at {};
template <fixed_string Name> struct layer_type {};
template <int64_t V> struct expected {};
template <int64_t V> struct got {};
template <shape S> struct expected_shape {};
template <shape S> struct got_shape {};

namespace error {
// Each template fails when instantiated; its name and arguments are the diagnostic. Ops define
// theirs with this macro inside namespace ctnn::error.
// `value` is true so that the failed static_assert is the only error (see the top of the file).
#define CTNN_DEFINE_ERROR(name, message)                        \
  template <class Where, class What, class Expected, class Got> \
  struct name {                                                 \
    static_assert(sizeof(Where) == 0, message);                 \
    static constexpr bool value = true;                         \
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
using what_of = layer_type<to_fixed<string_length(D.type) + 1>(D.type)>;

constexpr void append(char* out, size_t& n, size_t cap, const char* s) {
  for (size_t i = 0; s[i] != '\0' && n + 1 < cap; ++i) out[n++] = s[i];
}
constexpr void append_int(char* out, size_t& n, size_t cap, int64_t v) {
  char digits[24] = {};
  size_t k = 0;
  const bool negative = v < 0;
  uint64_t u = negative ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
  do {
    digits[k++] = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  } while (u != 0);
  if (negative && n + 1 < cap) out[n++] = '-';
  while (k > 0 && n + 1 < cap) out[n++] = digits[--k];
}
constexpr bool same_text(const char* a, const char* b) {
  size_t i = 0;
  for (; a[i] != '\0' && b[i] != '\0'; ++i)
    if (a[i] != b[i]) return false;
  return a[i] == b[i];
}

/// Step I of D's path: its offset in D.steps and its length.
constexpr size_t step_offset(const diagnostic& d, int32_t i) {
  size_t at = 0;
  for (int32_t k = 0; k < i; ++k) at += string_length(d.steps + at) + 1;
  return at;
}
template <diagnostic D, int32_t I>
constexpr auto step() {
  constexpr size_t at = step_offset(D, I);
  return to_fixed<string_length(D.steps + at) + 1>(D.steps + at);
}
template <diagnostic D, size_t... I>
constexpr auto path_of(integer_sequence<size_t, I...>) -> path<step<D, static_cast<int32_t>(I)>()...>;
template <diagnostic D>
using where_of = at<decltype(path_of<D>(make_index_sequence<static_cast<size_t>(D.n_steps)>{})), D.layer>;
}  // namespace detail

/// @brief Names error template E with D's place and the two numbers that disagree (an op's
/// `raise<D>()` returns this; E is instantiated by raise<D>::value).
template <diagnostic D, template <class, class, class, class> class E>
constexpr auto raise_values() {
  return type_identity<E<detail::where_of<D>, detail::what_of<D>, expected<D.report.expected>, got<D.report.actual>>>{};
}
/// @brief Names error template E with D's place and the two shapes that disagree.
template <diagnostic D, template <class, class, class, class> class E>
constexpr auto raise_shapes() {
  return type_identity<E<detail::where_of<D>, detail::what_of<D>, expected_shape<D.report.expected_shape>,
                         got_shape<D.report.actual_shape>>>{};
}

namespace detail {
template <diagnostic D>
constexpr auto error_of() {
  if constexpr (D.report.ok()) return type_identity<void>{};
  else return op_def<D.kind>::template raise<D>();
}
template <class E> struct instantiate { static constexpr bool value = E::value; };
template <> struct instantiate<void> { static constexpr bool value = true; };
}  // namespace detail

/// Instantiating raise<D>::value fails with the message of D's op unless D has no fault; the
/// failure is that one static_assert, and the value stays true (one fault, one error).
template <diagnostic D>
struct raise {
  static constexpr bool value = detail::instantiate<typename decltype(detail::error_of<D>())::type>::value;
};

namespace detail {
/// Step text of row r (see with_path) into `out` (at most 63 characters); returns its length.
template <class Row>
constexpr size_t step_text(const Row& r, char (&out)[64]) {
  size_t n = 0;
  if (r.has_name) {
    append(out, n, 64, r.name);
  } else if (!r.is_leaf() && !same_text(r.type, "Sequential")) {
    append(out, n, 64, r.type);
    append(out, n, 64, "[");
    append_int(out, n, 64, r.index);
    append(out, n, 64, "]");
  } else {
    append_int(out, n, 64, r.index);
  }
  return n;
}
}  // namespace detail

/// @brief D with its path written from the rows of its network, for the leaf at row `at_row`:
/// the steps from the network down to the leaf ("Mixed_6c", "branch7x7_2", "conv"). A step is
/// the row's name (named<>, a dag node's name); an unnamed row is its index among its siblings,
/// preceded by its block name when it is a block other than a Sequential ("BasicBlock[1]"). An
/// unnamed Sequential or Concat (the plain sequential<> and concat<>) right above a named step is
/// left out: the name says which branch it is (torchvision's Mixed_6c.branch7x7_2 and
/// Mixed_7b.branch3x3_2a, whose branches and inner concatenation have no module of their own).
/// Row 0, the network, is not a step. A path longer than path_capacity keeps its deepest steps after a
/// step "...".
template <class Row>
constexpr diagnostic with_path_at(diagnostic d, const Row* rows, int32_t at_row) {
  const auto named = [&](int32_t r) { return rows[r].has_name; };
  int32_t steps[128] = {};  // the steps' rows, deepest first
  int32_t n_steps = 0;
  for (int32_t r = at_row; r > 0 && n_steps < 128; r = rows[r].parent) {
    const bool grouping = !named(r) && !rows[r].is_leaf() &&
                          (detail::same_text(rows[r].type, "Sequential") || detail::same_text(rows[r].type, "Concat"));
    if (grouping && n_steps > 0 && named(steps[n_steps - 1])) continue;
    steps[n_steps++] = r;
  }
  // keep the deepest steps that fit (with room for a "..." step when some are dropped)
  char text[64] = {};
  int32_t kept = 0;
  size_t used = 0;
  while (kept < n_steps) {
    const size_t len = detail::step_text(rows[steps[kept]], text) + 1;
    if (used + len + (kept + 1 < n_steps ? 4 : 0) > path_capacity) break;
    used += len;
    ++kept;
  }
  size_t n = 0;
  d.n_steps = 0;
  if (kept < n_steps) {
    detail::append(d.steps, n, path_capacity, "...");
    d.steps[n++] = '\0';
    ++d.n_steps;
  }
  for (int32_t k = kept - 1; k >= 0; --k) {
    char step[64] = {};
    detail::step_text(rows[steps[k]], step);
    detail::append(d.steps, n, path_capacity, step);
    d.steps[n++] = '\0';
    ++d.n_steps;
  }
  return d;
}

/// @brief D with the path of its leaf (D.layer) written from the rows of its network
/// (with_path_at); a diagnostic without a fault is returned as it is.
template <class Row>
constexpr diagnostic with_path(diagnostic d, const Row* rows, int32_t row_count) {
  if (d.report.ok()) return d;
  for (int32_t i = 0; i < row_count; ++i)
    if (rows[i].leaf == d.layer) return with_path_at(d, rows, i);
  return d;
}

/// The place of leaf `leaf` of a network as a diagnostic (its position and path), for the
/// diagnostics that name a leaf without a fault of its own (the memory budget's peak layer).
template <class Row>
constexpr diagnostic leaf_location(const Row* rows, int32_t row_count, int64_t leaf) {
  diagnostic d{};
  d.layer = leaf;
  d.report.code = 1;
  return with_path(d, rows, row_count);
}

}  // namespace ctnn
