// Host-only: an ONNX file read, checked and lowered (onnx_model.hpp), and the rows of its ctnn
// network built by the same emit code as a network type (host::build_rows): what ctnn-import
// writes a header of and ctnn-report analyzes, and its float32 parameter blob. A node ctnn rejects
// is an import_error naming the file, the node and the fault.
#pragma once
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "ctnn/host/runtime_graph.hpp"
#include "onnx_model.hpp"

namespace ctnn::onnx_import {

/// @brief A model read from a file and the rows of its network named `name`.
struct imported {
  model m;
  host::graph_rows rows;
};

/// @brief Reads `path` and builds the rows of its network, named `name`. Throws import_error.
inline imported read_rows(const std::string& path, const std::string& name) {
  imported x{read(path), {}};
  x.rows = host::build_rows(name, x.m.input, x.m.nodes);
  if (!x.rows.first_fault.report.ok()) {
    const auto at = static_cast<std::size_t>(x.rows.first_fault.layer);
    const std::string node = at < x.m.nodes.size() ? x.m.nodes[at].name : std::string("?");
    throw import_error(path + ": node '" + node + "': ctnn rejects the node (" + std::string(x.rows.first_fault.type) + ")");
  }
  return x;
}

/// @brief The float32 parameter blob of m in the layout of param_layout_of (computed from its
/// rows); import_error when a leaf's parameters do not fit that layout.
inline std::string float_blob(const model& m, const host::graph_rows& rows) {
  const host::graph_param_layout layout = host::param_layout(rows, dtype::float32);
  std::string blob(layout.total_bytes, '\0');
  auto put = [&](uint64_t offset, uint64_t bytes, const std::vector<float>& v, std::size_t leaf, const char* what) {
    if (bytes != v.size() * sizeof(float))
      throw import_error(m.file + ": node '" + m.nodes[leaf].name + "': " + what + " has " + std::to_string(v.size()) +
                         " values, ctnn's layout " + std::to_string(bytes / sizeof(float)));
    if (bytes > 0) std::memcpy(blob.data() + offset, v.data(), bytes);
  };
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const runtime::leaf_param_layout& l = layout.leaves[i];
    const leaf_params& p = m.params[i];
    put(l.w, l.w_bytes, p.w, i, "the weight");
    put(l.b, l.b_bytes, p.b, i, "the bias");
    if (!p.mean.empty()) {
      const uint64_t stats = static_cast<uint64_t>(l.channels) * sizeof(float);  // one float per channel
      put(l.mean, stats, p.mean, i, "the mean");
      put(l.var, stats, p.var, i, "the variance");
    }
  }
  return blob;
}

}  // namespace ctnn::onnx_import
