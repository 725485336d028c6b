// dag: a network region written as explicit dataflow, for graphs that are not series-parallel
// (DenseNet's concatenations of all earlier features, any graph an exporter wrote). Each node
// names the values it reads; the rows, the planner and the executors see the same leaves as for
// the nested forms (sequential, residual, concat), since they only ever read each leaf's inputs.
//
//   using block = dag<"Block",
//       node<"conv1", conv2d<64, 64, 3, 1, 1>, 0>,       // value 1 = conv1(value 0, the dag's input)
//       node<"relu1", relu, 1>,                           // value 2
//       node<"conv2", conv2d<64, 64, 3, 1, 1>, 2>,        // value 3
//       node<"add", join<op::add>, 3, 0>,                 // value 4 = value 3 + value 0
//       node<"cat", join<op::concat>, 0, 2, 4>>;          // value 5: the dag's output (the last node)
//
// Value 0 is the dag's input, value k the output of its k-th node; a node reads earlier values
// only, so a dag has no cycle by construction. A node's layer is any single-input node type
// (a leaf, a block, a residual, ...); join<op::add>, join<op::mul> (x, gate) and join<op::concat>
// read several values. A node's name (may be empty) names its first row in reports and errors.
#pragma once
#include "ctnn/nn/join.hpp"

namespace ctnn {

/// @brief The join of several values in a dag node: op::add (two of one shape), op::mul (x and a
/// gate of x's shape or (C, 1, 1)), op::concat (any number, along channels).
template <op K>
struct join {
  static_assert(K == op::add || K == op::mul || K == op::concat, "ctnn: dag: join<K> takes op::add, op::mul or op::concat");
  static constexpr op kind = K;
  static constexpr int32_t leaf_count = 1;
  static constexpr int32_t row_count = 1;
  static constexpr int32_t input_count = 0;  ///< counted by its node (one per value read)
};

namespace detail {
template <class T> inline constexpr bool is_join_v = false;
template <op K> inline constexpr bool is_join_v<join<K>> = true;
}  // namespace detail

/// @brief One node of a dag: Layer applied to the values In... (see the header comment).
template <fixed_string Name, class Layer, int32_t... In>
struct node {
  static constexpr bool joins = detail::is_join_v<Layer>;
  static_assert(sizeof...(In) >= 1, "ctnn: dag: a node reads at least one value");
  static_assert(joins || sizeof...(In) == 1,
                "ctnn: dag: a layer node reads one value; use join<op::add|op::mul|op::concat> to read several");
  static_assert(((In >= 0) && ...), "ctnn: dag: value indices are >= 0 (0 is the dag's input)");
  static constexpr int32_t leaf_count = Layer::leaf_count;
  static constexpr int32_t row_count = Layer::row_count;
  static constexpr int32_t input_count = joins ? static_cast<int32_t>(sizeof...(In)) : Layer::input_count;
  static constexpr int32_t sibling_slots = 1;
  static constexpr int32_t n_inputs = sizeof...(In);
  static constexpr int32_t inputs[sizeof...(In)] = {In...};
  static constexpr int32_t last_input = [] {
    int32_t m = 0;
    ((m = In > m ? In : m), ...);
    return m;
  }();

  template <class B>
  static constexpr value emit(B& b, const value* values, context ctx) {
    const int32_t first = b.n_rows;
    value out{};
    if constexpr (joins) {
      const value ins[sizeof...(In)] = {values[In]...};
      out = detail::emit_leaf<Layer::kind>(b, ctx, op_def<Layer::kind>::type_name, detail::geometry_of<Layer>(), ins,
                                           static_cast<int32_t>(sizeof...(In)));
    } else {
      out = Layer::emit(b, values[inputs[0]], ctx);
    }
    if constexpr (Name.size() > 0)
      if (b.n_rows > first) {
        b.rows[static_cast<size_t>(first)].name = Name.c_str();
        b.rows[static_cast<size_t>(first)].has_name = true;
      }
    return out;
  }
};

namespace detail {
/// The first node (1-based) that reads a value not computed before it, or 0.
template <class... Nodes>
constexpr int32_t first_forward_reference() {
  int32_t k = 0, bad = 0;
  ((++k, bad = (bad == 0 && Nodes::last_input >= k) ? k : bad), ...);
  return bad;
}
}  // namespace detail

namespace error {
/// dag<...>: node `Node` (1-based) reads a value that is not computed before it.
template <int32_t Node>
struct dag_node_reads_a_value_not_yet_computed {
  static_assert(Node == 0, "ctnn: dag: a node reads a value that is not computed before it (a node reads value 0, "
                           "the dag's input, or the output of an earlier node)");
  static constexpr bool value = true;
};
}  // namespace error

/// @brief Explicit dataflow: Nodes in execution order; the output is the last node's value.
/// Rows: a container labelled Name, then each node's rows.
template <fixed_string Name, class... Nodes>
struct dag {
  static_assert(sizeof...(Nodes) >= 1, "ctnn: dag: needs at least one node");
  static_assert(error::dag_node_reads_a_value_not_yet_computed<detail::first_forward_reference<Nodes...>()>::value);
  static constexpr int32_t leaf_count = (0 + ... + Nodes::leaf_count);
  static constexpr int32_t row_count = 1 + (0 + ... + Nodes::row_count);
  static constexpr int32_t input_count = (0 + ... + Nodes::input_count);
  static constexpr int32_t sibling_slots = 1;
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    // a forward reference is reported above; emitting nothing keeps it the only error
    if constexpr (detail::first_forward_reference<Nodes...>() != 0) return in;
    const int32_t me = detail::open_container(b, ctx, Name.c_str(), in.s);
    value values[sizeof...(Nodes) + 1] = {};
    values[0] = in;
    int32_t i = 0;
    ((values[i + 1] = Nodes::emit(b, values, context{ctx.depth + 1, me, i}), ++i), ...);
    b.close_container(me, values[sizeof...(Nodes)].s);
    return values[sizeof...(Nodes)];
  }
};

}  // namespace ctnn
