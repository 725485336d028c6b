// Host-only: the rows of a network known only at run time (a model read from a file), built by
// the same emit functions and op_def value-level arithmetic as the constexpr walk of a network
// type, so the rows equal those of the header the importer writes for it:
//   row 0 the network, row 1 its dag (both named after the model), then one leaf per node.
// Uses the C++ standard library; firmware never includes this header.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/params.hpp"

namespace ctnn::host {

/// @brief One node of a run-time graph: a leaf of kind `kind` with attributes `geometry`, reading
/// values `inputs` (0 = the network input, k = the output of node k, 1-based as in dag<>).
struct graph_node {
  op kind = op::container;
  layer_geometry geometry{};
  std::vector<int32_t> inputs;
  std::string name;
};

/// @brief The rows of a run-time graph (see the file comment) and what a network type would
/// offer of them: leaf rows in execution order, tensor shapes, the first fault.
struct graph_rows {
  std::deque<std::string> names;  ///< storage for the rows' names and types (stable addresses)
  std::vector<int32_t> input_pool;  ///< every leaf's input tensor ids (row.inputs points into it)
  std::vector<row> rows;
  std::vector<int32_t> leaf_rows;
  shape input{};
  shape output{};
  int32_t output_tensor = 0;
  diagnostic first_fault{};

  graph_rows() = default;
  graph_rows(graph_rows&&) = default;
  graph_rows& operator=(graph_rows&&) = default;
  graph_rows(const graph_rows&) = delete;  // the rows point into names and input_pool
  graph_rows& operator=(const graph_rows&) = delete;

  [[nodiscard]] int32_t leaf_count() const { return static_cast<int32_t>(leaf_rows.size()); }
  [[nodiscard]] int32_t tensor_count() const { return leaf_count() + 1; }
  [[nodiscard]] const row& layer(int32_t i) const { return view().layer(i); }
  [[nodiscard]] shape tensor_shape(int32_t t) const { return view().tensor_shape(t); }
  /// The rows as the planner and the reports read them (valid while this object lives unchanged).
  [[nodiscard]] rows_view view() const {
    return rows_view{rows.data(), static_cast<int32_t>(rows.size()), leaf_rows.data(), leaf_count(), input, output,
                     output_tensor};
  }
};

/// @brief Builds the rows of network `model` on an input of shape `input` from `nodes`.
/// A node reading a value not computed before it (or none) is a fault of that node (first_fault.layer = its position); the walk stops there.
inline graph_rows build_rows(const std::string& model, shape input, const std::vector<graph_node>& nodes) {
  graph_rows g;
  g.input = input;
  basic_builder<std::vector<row>, std::vector<int32_t>> b;
  b.rows.resize(nodes.size() + 2);
  std::size_t pooled = 0;
  for (const graph_node& n : nodes) pooled += n.inputs.size();
  b.input_pool.resize(pooled);
  const char* name = g.names.emplace_back(model).c_str();
  const int32_t net = ctnn::detail::open_container(b, context{0, -1, 0}, name, input);
  const int32_t body = ctnn::detail::open_container(b, context{1, net, 0}, name, input);
  std::vector<value> values{value{0, input}};
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const graph_node& n = nodes[i];
    const int32_t count = static_cast<int32_t>(n.inputs.size());
    bool bad = count < 1;
    std::vector<value> ins(static_cast<std::size_t>(count > 0 ? count : 0));
    for (int32_t k = 0; !bad && k < count; ++k) {
      const int32_t v = n.inputs[static_cast<std::size_t>(k)];
      bad = v < 0 || v > static_cast<int32_t>(i);
      if (!bad) ins[static_cast<std::size_t>(k)] = values[static_cast<std::size_t>(v)];
    }
    if (bad || n.kind == op::container) {
      g.first_fault.layer = static_cast<int32_t>(i);
      g.first_fault.kind = n.kind;
      g.first_fault.report = fault_report{1, 0, 0, {}, {}};
      break;
    }
    const int32_t at = b.n_rows;
    const value out = visit_kind<all_kinds>(
        n.kind,
        [&]<op K>() {
          return ctnn::detail::emit_leaf<K>(b, context{2, body, static_cast<int32_t>(i)}, op_def<K>::type_name, n.geometry,
                                      ins.data(), count);
        },
        value{});
    if (!n.name.empty()) {
      b.rows[static_cast<std::size_t>(at)].name = g.names.emplace_back(n.name).c_str();
      b.rows[static_cast<std::size_t>(at)].has_name = true;
    }
    values.push_back(out);
  }
  b.close_container(body, values.back().s);
  b.close_container(net, values.back().s);
  b.rows.resize(static_cast<std::size_t>(b.n_rows));
  g.input_pool = std::move(b.input_pool);
  for (row& r : b.rows) r.inputs = g.input_pool.data() + r.first_input;
  g.rows = std::move(b.rows);
  if (g.first_fault.report.ok()) g.first_fault = b.first_fault;
  for (std::size_t r = 0; r < g.rows.size(); ++r)
    if (g.rows[r].is_leaf()) g.leaf_rows.push_back(static_cast<int32_t>(r));
  g.output = values.back().s;
  g.output_tensor = values.back().tensor;
  return g;
}

/// @brief The parameter layout of a run-time graph in dtype t (the layout of param_layout_of).
struct graph_param_layout {
  std::vector<runtime::leaf_param_layout> leaves;
  std::uint64_t quant_scale = 0, quant_zp = 0, total_bytes = 0;
};
inline graph_param_layout param_layout(const graph_rows& g, dtype t) {
  graph_param_layout p;
  p.leaves.resize(static_cast<std::size_t>(g.leaf_count()));
  p.total_bytes = runtime::detail::lay_out_params<all_kinds>(
      g.leaf_count(), g.tensor_count(), t, [&g](int32_t i) -> const row& { return g.layer(i); }, p.leaves,
      p.quant_scale, p.quant_zp);
  return p;
}

}  // namespace ctnn::host
