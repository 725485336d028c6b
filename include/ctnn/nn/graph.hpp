// The graph of a network: the rows the analysis walk emits, and the composition nodes
// (sequential, block, named, repeat, identity; residual, concat and scale are in nn/join.hpp).
//
// Every node type N provides
//   static constexpr int32_t leaf_count, row_count;    // independent of the input shape
//   template <class B> static constexpr value emit(B&, value in, context);
// emit() appends N's rows (a container row for composites, then its children, depth-first in
// execution order) and returns the tensor N produces. Tensor 0 is the network input; the output
// of the leaf executed i-th is tensor i + 1. A leaf row lists the tensors it reads, which is the
// dataflow the planner and the executors use.
#pragma once
#include "ctnn/core/dtype.hpp"
#include "ctnn/core/shape.hpp"
#include "ctnn/core/window.hpp"
#include "ctnn/nn/fault.hpp"
#include "ctnn/nn/op.hpp"

namespace ctnn {

// A leaf reads any number of tensors (a concat of all earlier features in DenseNet): a row keeps
// its input tensor ids in the network's input pool (Net::input_pool), not inline.

/// The per-layer numbers a leaf type computes from its input shape.
struct leaf_counts {
  uint64_t weights = 0;  ///< parameters that are not biases (conv/linear weights, BN gamma)
  uint64_t biases = 0;   ///< bias parameters (conv/linear bias, BN beta)
  uint64_t buffers = 0;  ///< non-trainable state needed at inference (BN running mean and var)
  uint64_t macs = 0;     ///< conv + linear multiply-accumulates (bias excluded)
  uint64_t ext_ops = 0;  ///< the other operations, per the documented per-type formulas
};

/// @brief An activation fused into the op that computes a leaf's output (TFLite's fused
/// activation function): the output is clamped to [act_lo, act_hi] before it is stored, in int8
/// by the requantization's clamp. Only ops that declare `op_def<K>::fuses_activation` take one
/// (conv2d, linear, add); `fused<Layer, Activation>` (nn/fused.hpp) writes it.
enum class fused_act : uint8_t {
  none,   ///< no clamp
  relu,   ///< [0, +inf)
  relu6,  ///< [0, 6]
  clamp,  ///< [act_lo, act_hi], any two bounds (ONNX Clip, Hardtanh)
};

/// The largest finite float: ReLU's upper bound as a fused clamp.
inline constexpr float fused_act_unbounded = 3.40282347e+38f;

/// @brief The attributes of a leaf: with its op kind, everything its op's value-level functions
/// (`op_def<K>::check/output/counts`) need besides the input shape. A layer type is a constant
/// of this (`L::geometry()`); an imported graph builds it at run time. Unused fields keep their
/// defaults.
struct layer_geometry {
  hw kernel{1, 1};
  hw stride{1, 1};
  pad4 padding{};             ///< top, bottom, left, right; "same" is resolved per input (resolved())
  pad_mode padding_mode = pad_mode::given;  ///< given, or "same" (found from the input's shape)
  hw dilation{1, 1};
  int64_t groups = 1;
  bool bias = false;
  bool ceil_mode = false;
  bool count_include_pad = true;
  int64_t first_channel = 0;  ///< channel_slice: the first channel taken
  float alpha = 0.0f;         ///< a scalar attribute (leaky_relu: the negative slope; clamp: the lower bound)
  float beta = 0.0f;          ///< a second scalar attribute (clamp: the upper bound)
  int64_t in_channels = 0;    ///< conv2d: in_channels; linear: in_features; per-channel ops: C
  int64_t out_channels = 0;   ///< conv2d: out_channels; linear: out_features; per-channel ops: C;
                              ///< channel_slice: the channels taken
  hw out_size{0, 0};          ///< adaptive pooling: the output's height and width
  float epsilon = 0.0f;       ///< batch / layer norm: added to the variance
  uint8_t variant = 0;        ///< a variant of the op's function (gelu: 1 = the tanh form)
  fused_act act = fused_act::none;  ///< conv2d, linear, add: the activation fused into the output
  float act_lo = 0.0f;              ///< its lower bound (fused_act::none: unused)
  float act_hi = 0.0f;              ///< its upper bound (relu: fused_act_unbounded)
  friend constexpr bool operator==(const layer_geometry&, const layer_geometry&) = default;
};

/// @brief Sets on g (the geometry of the op before it) the fused clamp that a ReLU, ReLU6 or
/// Clamp of bounds [lo, hi] stands for; any other kind leaves g as it is. One place for
/// fused<Layer, A>, the import's fusion and the float CPU chains.
constexpr void set_fused_clamp(layer_geometry& g, op kind, float lo = 0.0f, float hi = 0.0f) {
  if (kind == op::relu) {
    g.act = fused_act::relu;
    g.act_lo = 0.0f;
    g.act_hi = fused_act_unbounded;
  } else if (kind == op::relu6) {
    g.act = fused_act::relu6;
    g.act_lo = 0.0f;
    g.act_hi = 6.0f;
  } else if (kind == op::clamp) {
    g.act = fused_act::clamp;
    g.act_lo = lo;
    g.act_hi = hi;
  }
}

/// @brief How a leaf's output may share memory with its inputs: the planner's may-reuse facts.
struct reuse_rule {
  bool alias = false;           ///< the output is input 0's bytes reinterpreted (flatten, dropout)
  int8_t in_place_inputs = 0;   ///< the output may take over the buffer of one of its first N
                                ///< inputs that has the output's size and dies at this step
  bool concat_slices = false;   ///< inputs that die here may be written straight into their
                                ///< channel slice of the output (no copy)
  friend constexpr bool operator==(const reuse_rule&, const reuse_rule&) = default;
};

/// @brief Scratch a leaf's kernel asks for: up to `max_units` units of `unit_elems` elements
/// (an im2col panel: output rows of patches). The plan grants the most units that fit under the
/// peak of live tensors at the leaf's step, possibly 0 (then the kernel runs without scratch).
struct scratch_request {
  uint64_t unit_elems = 0;
  int64_t max_units = 0;
  [[nodiscard]] constexpr uint64_t elems(int64_t units) const {
    return units <= 0 ? 0 : unit_elems * static_cast<uint64_t>(units);
  }
};

/// @brief A leaf seen as `count` GEMMs C[M×N] = A[M×K]·B[K×N] (count 0: not a GEMM).
struct gemm_view {
  int64_t m = 0, n = 0, k = 0;
  int64_t count = 0;
};

/// @brief g with its "same" padding (if any) found for an input of shape `in` (the row keeps the
/// four numbers; every kernel reads them).
constexpr layer_geometry resolved(layer_geometry g, shape in) {
  if (g.padding_mode == pad_mode::given || in.rank != 3) return g;
  const bool upper = g.padding_mode == pad_mode::same_upper;
  same_padding(in.h, g.kernel.h, g.stride.h, g.dilation.h, upper, g.padding.top, g.padding.bottom);
  same_padding(in.w, g.kernel.w, g.stride.w, g.dilation.w, upper, g.padding.left, g.padding.right);
  return g;
}

namespace detail {
template <class L>
constexpr layer_geometry geometry_of() {
  if constexpr (requires { L::geometry(); }) return L::geometry();
  else return layer_geometry{};
}
}  // namespace detail

/// One line of the analysis: a leaf layer or a container, in depth-first execution order.
struct row {
  const char* type = "";      ///< "Conv2d", "Sequential", "BasicBlock", ...
  const char* name = nullptr;  ///< instance name if given with named<>, else the index is used
  /// name is a non-empty instance name. Constant evaluation asks this instead of comparing name
  /// with nullptr: under -fsanitize=null (-fno-delete-null-pointer-checks) GCC does not fold the
  /// address of a template parameter object against null, and the comparison is not a constant.
  bool has_name = false;
  op kind = op::container;
  int32_t depth = 0;   ///< 0 for the network's top level
  int32_t index = 0;   ///< position among its siblings
  int32_t parent = -1; ///< row of the enclosing container, -1 at top level
  int32_t leaf = -1;   ///< execution position among leaves; -1 for a container
  shape in{};
  shape out{};
  leaf_counts counts{};    ///< for a container: the sum over its leaves
  layer_geometry geometry{};  ///< convolution / pooling window (leaves only)
  reuse_rule reuse{};         ///< what the output may share (leaves only)
  scratch_request scratch{};  ///< the kernel's scratch request (leaves only)
  gemm_view gemm{};           ///< the leaf as GEMMs, for analysis and offload (leaves only)
  uint64_t in_elems = 0;   ///< elements of all inputs read (leaves only)
  int32_t n_inputs = 0;
  int32_t first_input = 0;           ///< position of inputs[0] in the network's input pool
  const int32_t* inputs = nullptr;   ///< the n_inputs tensor ids read (in the input pool)
  int32_t output = -1;               ///< tensor id written (leaf + 1)
  int32_t end = 0;                   ///< one past the last row of this subtree

  [[nodiscard]] constexpr bool is_leaf() const { return leaf >= 0; }
  [[nodiscard]] constexpr uint64_t params() const { return counts.weights + counts.biases; }
  [[nodiscard]] constexpr uint64_t param_bytes(dtype t) const {
    return counts.weights * size_of(t) + counts.biases * bias_size_of(t);
  }
  [[nodiscard]] constexpr uint64_t buffer_bytes(dtype t) const { return counts.buffers * size_of(t); }
  [[nodiscard]] constexpr uint64_t output_bytes(dtype t) const {
    return static_cast<uint64_t>(out.elems()) * size_of(t);
  }
  /// Inputs plus parameters plus buffers, once each.
  [[nodiscard]] constexpr uint64_t read_bytes(dtype t) const {
    return in_elems * size_of(t) + param_bytes(t) + buffer_bytes(t);
  }
  [[nodiscard]] constexpr uint64_t write_bytes(dtype t) const { return output_bytes(t); }
};

/// A tensor flowing between nodes during the walk.
struct value {
  int32_t tensor = 0;
  shape s{};
};

/// Where a node is emitted: its depth, its parent row and its index among siblings.
struct context {
  int32_t depth = 0;
  int32_t parent = -1;
  int32_t index = 0;
};

/// Accumulates rows during a walk: the constexpr walk of a network type (rows in an array of
/// exactly row_count), or a graph built at run time from a file (host: rows in a vector sized
/// beforehand). Both run the same emit functions.
template <class Rows, class Inputs>
struct basic_builder {
  Rows rows{};
  Inputs input_pool{};   ///< every leaf's input tensor ids, leaf after leaf
  int32_t n_rows = 0;
  int32_t n_pooled = 0;  ///< entries of input_pool used
  int32_t n_leaves = 0;
  diagnostic first_fault{};

  constexpr int32_t push(const row& r) {
    rows[static_cast<size_t>(n_rows)] = r;
    return n_rows++;
  }
  constexpr void record(const fault_report& f, op kind, const char* type) {
    if (f.ok() || !first_fault.report.ok()) return;
    first_fault.layer = n_leaves;
    first_fault.kind = kind;
    first_fault.report = f;
    for (size_t i = 0; i + 1 < type_name_capacity && type[i] != '\0'; ++i) first_fault.type[i] = type[i];
  }
  /// Sums the leaf counts of rows [first, end) into the container row `first`.
  constexpr void close_container(int32_t first, shape out) {
    row& c = rows[static_cast<size_t>(first)];
    c.end = n_rows;
    c.out = out;
    for (int32_t i = first + 1; i < n_rows; ++i) {
      const row& r = rows[static_cast<size_t>(i)];
      if (!r.is_leaf()) continue;
      c.counts.weights += r.counts.weights;
      c.counts.biases += r.counts.biases;
      c.counts.buffers += r.counts.buffers;
      c.counts.macs += r.counts.macs;
      c.counts.ext_ops += r.counts.ext_ops;
    }
  }
};

/// The builder of the constexpr walk. Rows, Leaves and Inputs are exact (from row_count,
/// leaf_count and input_count).
template <size_t Rows, size_t Leaves, size_t Inputs = 1>
struct builder : basic_builder<array<row, Rows>, array<int32_t, Inputs>> {};

/// Points every row's `inputs` at its entries of `pool` (after the walk, where the pool is kept).
template <class Rows>
constexpr Rows with_inputs_in(Rows rows, const int32_t* pool) {
  for (auto& r : rows) r.inputs = pool + r.first_input;
  return rows;
}

namespace detail {

/// A shape that cannot be empty, used to keep walking after a fault so only the first is reported.
constexpr shape sane(shape s) {
  return shape{s.c > 0 ? s.c : 1, s.h > 0 ? s.h : 1, s.w > 0 ? s.w : 1, s.rank};
}

/// Appends a leaf row of kind K reading `inputs` and producing `out` with `counts`; the row's
/// buffer facts (reuse, scratch) and GEMM view come from op_def<K>.
template <op K, class B>
constexpr value push_leaf(B& b, context ctx, const char* type, shape in, shape out, const leaf_counts& counts,
                          const layer_geometry& geometry, const value* inputs, int32_t n_inputs) {
  row r{};
  r.type = type;
  r.kind = K;
  r.geometry = geometry;
  r.depth = ctx.depth;
  r.index = ctx.index;
  r.parent = ctx.parent;
  r.leaf = b.n_leaves;
  r.in = in;
  r.out = sane(out);
  r.counts = counts;
  r.n_inputs = n_inputs;
  r.first_input = b.n_pooled;
  for (int32_t i = 0; i < n_inputs; ++i) {
    b.input_pool[static_cast<size_t>(b.n_pooled++)] = inputs[i].tensor;
    r.in_elems += static_cast<uint64_t>(inputs[i].s.elems());
  }
  r.output = b.n_leaves + 1;
  if constexpr (requires { op_def<K>::reuse; }) r.reuse = op_def<K>::reuse;
  if constexpr (requires { op_def<K>::scratch(r); }) r.scratch = op_def<K>::scratch(r);
  if constexpr (requires { op_def<K>::gemm(r); }) r.gemm = op_def<K>::gemm(r);
  const int32_t at = b.push(r);
  b.rows[static_cast<size_t>(at)].end = at + 1;
  ++b.n_leaves;
  return value{r.output, r.out};
}

/// What the op of kind K says of a leaf with attributes g over input shapes `in` (n of them):
/// its first fault, its output shape and (when it has no fault) its counts. Single-input ops
/// provide check/output/counts(g, shape); joins provide them over all inputs (g, shapes, n).
struct leaf_facts {
  fault_report fault{};
  shape out{};
  leaf_counts counts{};
};
template <op K>
constexpr leaf_facts describe_leaf(const layer_geometry& g, const shape* in, int32_t n) {
  using D = op_def<K>;
  leaf_facts x{};
  if constexpr (requires(shape s) { D::check(g, s); }) {
    x.fault = D::check(g, in[0]);
    x.out = D::output(g, in[0]);
    if (x.fault.ok()) x.counts = D::counts(g, in[0]);
  } else {
    x.fault = D::check(g, in, n);
    x.out = D::output(g, in, n);
    if (x.fault.ok()) x.counts = D::counts(g, in, n);
  }
  return x;
}

/// Emits one leaf of kind K with attributes g over `inputs`: checks them with the op's own
/// value-level functions (describe_leaf, recording the first fault), then appends the row.
template <op K, class B>
constexpr value emit_leaf(B& b, context ctx, const char* type, const layer_geometry& given, const value* inputs,
                          int32_t n_inputs) {
  const layer_geometry g = resolved(given, inputs[0].s);
  // the input shapes, for the op's functions (a join reads them all; most reads one)
  constexpr int32_t inline_shapes = 8;
  shape few[inline_shapes] = {};
  shape* ins = n_inputs <= inline_shapes ? few : new shape[static_cast<size_t>(n_inputs)];
  for (int32_t k = 0; k < n_inputs; ++k) ins[k] = inputs[k].s;
  const leaf_facts x = describe_leaf<K>(g, ins, n_inputs);
  if (ins != few) delete[] ins;
  b.record(x.fault, K, type);
  return push_leaf<K>(b, ctx, type, inputs[0].s, x.out, x.counts, g, inputs, n_inputs);
}

template <class B>
constexpr int32_t open_container(B& b, context ctx, const char* type, shape in) {
  row r{};
  r.type = type;
  r.depth = ctx.depth;
  r.index = ctx.index;
  r.parent = ctx.parent;
  r.in = in;
  return b.push(r);
}

}  // namespace detail

/// @brief Base of every leaf layer L: a type with `kind` and its attributes `geometry()` (a
/// layer_geometry constant). Its shape, counts and faults are its op's value-level functions
/// (`op_def<L::kind>::check/output/counts(geometry, in)`), the same ones an imported graph calls at
/// run time, so a layer's arithmetic is written once.
template <class L>
struct leaf {
  static constexpr int32_t leaf_count = 1;
  static constexpr int32_t row_count = 1;
  static constexpr int32_t input_count = 1;  ///< input tensor ids its rows keep
  static constexpr int32_t sibling_slots = 1;
  static constexpr fault_report check(shape in) {
    return op_def<L::kind>::check(resolved(detail::geometry_of<L>(), in), in);
  }
  static constexpr shape output(shape in) { return op_def<L::kind>::output(resolved(detail::geometry_of<L>(), in), in); }
  static constexpr leaf_counts counts(shape in) {
    return op_def<L::kind>::counts(resolved(detail::geometry_of<L>(), in), in);
  }
  /// The row's type: the layer's own `type_name` if it has one (stochastic_depth, an alias op
  /// shown as torchvision's StochasticDepth), else its op's.
  static constexpr const char* row_type() {
    if constexpr (requires { L::type_name; }) return L::type_name;
    else return op_def<L::kind>::type_name;
  }
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    return detail::emit_leaf<L::kind>(b, ctx, row_type(), detail::geometry_of<L>(), &in, 1);
  }
};

/// @brief The identity: no rows, the output is the input (an identity shortcut, an empty branch).
struct identity {
  static constexpr int32_t leaf_count = 0;
  static constexpr int32_t row_count = 0;
  static constexpr int32_t input_count = 0;
  static constexpr int32_t sibling_slots = 0;
  template <class B>
  static constexpr value emit(B&, value in, context) { return in; }
};

namespace detail {
/// Emits Ns one after another as siblings under `parent`, starting at depth `depth`.
template <class... Ns, class B>
constexpr value emit_chain(B& b, value in, int32_t depth, int32_t parent) {
  value v = in;
  int32_t index = 0;
  ((v = Ns::emit(b, v, context{depth, parent, index}), index += Ns::sibling_slots), ...);
  return v;
}
}  // namespace detail

/// @brief A container of children run one after another, shown with the type label Name.
template <fixed_string Name, class... Ns>
struct block {
  static constexpr int32_t leaf_count = (0 + ... + Ns::leaf_count);
  static constexpr int32_t row_count = 1 + (0 + ... + Ns::row_count);
  static constexpr int32_t input_count = (0 + ... + Ns::input_count);
  static constexpr int32_t sibling_slots = 1;
  static constexpr int32_t child_slots = (0 + ... + Ns::sibling_slots);
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    const int32_t me = detail::open_container(b, ctx, Name.c_str(), in.s);
    const value out = detail::emit_chain<Ns...>(b, in, ctx.depth + 1, me);
    b.close_container(me, out.s);
    return out;
  }
  /// The children without this block's own row (a residual shows its body's layers directly).
  template <class B>
  static constexpr value emit_children(B& b, value in, int32_t depth, int32_t parent) {
    return detail::emit_chain<Ns...>(b, in, depth, parent);
  }
};

template <class T> inline constexpr bool is_block_v = false;
template <fixed_string Name, class... Ns> inline constexpr bool is_block_v<block<Name, Ns...>> = true;

namespace detail {
/// Emits a residual's body: a block's children directly under the residual, any other node as is.
/// Returns the output; `slots` receives the number of sibling indices used.
template <class Body, class B>
constexpr value emit_body(B& b, value in, int32_t depth, int32_t parent) {
  if constexpr (is_block_v<Body>) return Body::emit_children(b, in, depth, parent);
  else return Body::emit(b, in, context{depth, parent, 0});
}
template <class Body> inline constexpr int32_t body_rows = [] {
  if constexpr (is_block_v<Body>) return Body::row_count - 1;
  else return Body::row_count;
}();
template <class Body> inline constexpr int32_t body_slots = [] {
  if constexpr (is_block_v<Body>) return Body::child_slots;
  else return Body::sibling_slots;
}();
}  // namespace detail

/// @brief Sequential composition (torch.nn.Sequential).
template <class... Ns>
using sequential = block<"Sequential", Ns...>;

/// @brief N copies of Node as consecutive siblings (for a stage of identical blocks).
template <int32_t N, class Node>
struct repeat {
  static_assert(N >= 0, "ctnn: repeat: the count must not be negative");
  static constexpr int32_t leaf_count = N * Node::leaf_count;
  static constexpr int32_t row_count = N * Node::row_count;
  static constexpr int32_t input_count = N * Node::input_count;
  static constexpr int32_t sibling_slots = N;
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    value v = in;
    for (int32_t i = 0; i < N; ++i) v = Node::emit(b, v, context{ctx.depth, ctx.parent, ctx.index + i});
    return v;
  }
};

/// @brief Gives Node's row an instance name (shown as "layer1" instead of its index).
template <fixed_string Name, class Node>
struct named {
  static constexpr int32_t leaf_count = Node::leaf_count;
  static constexpr int32_t row_count = Node::row_count;
  static constexpr int32_t input_count = Node::input_count;
  static constexpr int32_t sibling_slots = 1;
  static_assert(Node::row_count > 0, "ctnn: named: an identity has no row to name");
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    const int32_t first = b.n_rows;
    const value out = Node::emit(b, in, ctx);
    b.rows[static_cast<size_t>(first)].name = Name.c_str();
    b.rows[static_cast<size_t>(first)].has_name = Name.size() > 0;
    return out;
  }
};

}  // namespace ctnn
