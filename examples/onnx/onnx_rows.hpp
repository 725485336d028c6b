// Host-only: an ONNX file read, checked and lowered (onnx_model.hpp), and the rows of its ctnn
// network built by the same emit code as a network type (host::build_rows): what ctnn-import
// writes a header of and ctnn-report analyzes. A node ctnn rejects is an import_error naming the
// file, the node and the fault.
#pragma once
#include <cstddef>
#include <string>

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

}  // namespace ctnn::onnx_import
