// Host-only: reads an ONNX file and checks its structure before the ONNX checker and the lowering
// see it, so that a file which is not ONNX, a truncated file, a graph with a cycle, a dangling
// input or nodes out of order, an initializer whose data does not match its dims, and a dynamic or
// batched input are each refused with one line naming the file, the node, its op type and the
// fault (the ONNX checker would refuse some of them too, with a node dump over many lines, and
// not the others). Each check returns that line, or "" when the model passes.
#pragma once
#include <google/protobuf/stubs/logging.h>
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <map>
#include <string>
#include <vector>

namespace ctnn::onnx_import {

namespace detail {

/// "node 'name' (OpType)" (or "node #k" when unnamed), for messages.
inline std::string node_text(const onnx::NodeProto& n, int index) {
  const std::string who = n.name().empty() ? "node #" + std::to_string(index) : "node '" + n.name() + "'";
  return who + " (" + n.op_type() + ")";
}

inline std::string dims_text(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (std::size_t k = 0; k < d.size(); ++k) s += (k ? ", " : "") + std::to_string(d[k]);
  return s + "]";
}

/// Where the top-level walk of the protobuf wire format stopped.
struct wire_walk {
  enum { complete, truncated, malformed } status = complete;
  uint64_t field = 0;      ///< the field being read when it stopped
  uint64_t need = 0;       ///< truncated: the bytes the field declares
  uint64_t have = 0;       ///< truncated: the bytes left in the file
  bool first_is_ir_version = false;
};

/// Reads a varint at `at`; false when the bytes end first or it is longer than 10 bytes.
inline bool read_varint(const std::string& b, std::size_t& at, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at >= b.size()) return false;
    const auto byte = static_cast<unsigned char>(b[at++]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

/// Walks the top-level fields of a serialized onnx.ModelProto without parsing them, to tell a
/// file cut short (a field runs past the end) from one that is no protobuf at all.
inline wire_walk walk_model_fields(const std::string& b) {
  // ModelProto: 1 ir_version, 5 model_version (varints); 2, 3, 4, 6 strings, 7 graph,
  // 8 opset_import, 14 metadata_props, 20 training_info, 25 functions (length-delimited)
  auto expected_type = [](uint64_t field) -> int {
    switch (field) {
      case 1: case 5: return 0;
      case 2: case 3: case 4: case 6: case 7: case 8: case 14: case 20: case 25: return 2;
      default: return -1;
    }
  };
  wire_walk w;
  std::size_t at = 0;
  bool first = true;
  while (at < b.size()) {
    uint64_t key = 0;
    if (!read_varint(b, at, key)) {
      w.status = wire_walk::truncated;
      return w;
    }
    w.field = key >> 3;
    const int type = static_cast<int>(key & 7);
    if (expected_type(w.field) != type) {
      w.status = wire_walk::malformed;
      return w;
    }
    if (first) w.first_is_ir_version = w.field == 1;
    first = false;
    uint64_t v = 0;
    if (!read_varint(b, at, v)) {
      w.status = wire_walk::truncated;
      w.have = b.size() - at;
      return w;
    }
    if (type == 2) {
      if (v > b.size() - at) {
        w.status = wire_walk::truncated;
        w.need = v;
        w.have = b.size() - at;
        return w;
      }
      at += static_cast<std::size_t>(v);
    }
  }
  return w;
}

inline const char* model_field_name(uint64_t field) {
  switch (field) {
    case 1: return "ir_version";
    case 2: return "producer_name";
    case 3: return "producer_version";
    case 4: return "domain";
    case 5: return "model_version";
    case 6: return "doc_string";
    case 7: return "graph";
    case 8: return "opset_import";
    case 14: return "metadata_props";
    case 20: return "training_info";
    case 25: return "functions";
    default: return "?";
  }
}

/// Bytes per element of an ONNX tensor element type stored as raw_data (0: not storable raw).
inline uint64_t raw_element_bytes(int32_t type) {
  switch (type) {
    case onnx::TensorProto::BOOL: case onnx::TensorProto::INT8: case onnx::TensorProto::UINT8: return 1;
    case onnx::TensorProto::INT16: case onnx::TensorProto::UINT16: case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16: return 2;
    case onnx::TensorProto::INT32: case onnx::TensorProto::UINT32: case onnx::TensorProto::FLOAT: return 4;
    case onnx::TensorProto::INT64: case onnx::TensorProto::UINT64: case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::COMPLEX64: return 8;
    case onnx::TensorProto::COMPLEX128: return 16;
    default: return 0;
  }
}

/// The values a tensor holds in its typed field (not raw_data), per element.
inline uint64_t typed_values(const onnx::TensorProto& t, uint64_t& per_element) {
  per_element = 1;
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT: return static_cast<uint64_t>(t.float_data_size());
    case onnx::TensorProto::COMPLEX64: per_element = 2; return static_cast<uint64_t>(t.float_data_size());
    case onnx::TensorProto::INT64: return static_cast<uint64_t>(t.int64_data_size());
    case onnx::TensorProto::DOUBLE: return static_cast<uint64_t>(t.double_data_size());
    case onnx::TensorProto::COMPLEX128: per_element = 2; return static_cast<uint64_t>(t.double_data_size());
    case onnx::TensorProto::UINT32: case onnx::TensorProto::UINT64: return static_cast<uint64_t>(t.uint64_data_size());
    case onnx::TensorProto::STRING: return static_cast<uint64_t>(t.string_data_size());
    default: return static_cast<uint64_t>(t.int32_data_size());  // int8..int32, uint8, uint16, bool, float16
  }
}

/// What is wrong with a tensor's data against its dims ("" if nothing).
inline std::string tensor_fault(const onnx::TensorProto& t, const std::string& what) {
  std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return what + " has a negative dimension " + dims_text(dims);
    if (d != 0 && n > (uint64_t{1} << 40) / static_cast<uint64_t>(d))
      return what + " has dims " + dims_text(dims) + ": more than 2^40 elements";
    n *= static_cast<uint64_t>(d);
  }
  if (t.data_location() == onnx::TensorProto::EXTERNAL) return "";  // the lowering refuses external data
  if (t.has_raw_data()) {
    const uint64_t elem = raw_element_bytes(t.data_type());
    if (elem == 0) return what + " has raw data of element type " + std::to_string(t.data_type()) + ", which has no fixed size";
    if (t.raw_data().size() != n * elem)
      return what + " holds " + std::to_string(t.raw_data().size()) + " bytes of data, its dims " + dims_text(dims) +
             " need " + std::to_string(n * elem) + " (" + std::to_string(n) + " x " + std::to_string(elem) + ")";
    return "";
  }
  uint64_t per = 1;
  const uint64_t values = typed_values(t, per);
  if (values != n * per)
    return what + " holds " + std::to_string(values) + " values, its dims " + dims_text(dims) + " need " +
           std::to_string(n * per);
  return "";
}

/// Where a value comes from: a graph input, an initializer, or the output of node `index`.
struct producer {
  enum { graph_input, initializer, node } kind = graph_input;
  int index = -1;
};

}  // namespace detail

/// @brief The structural faults of a parsed model, as one line naming the file, the node, its op
/// type and the fault; "" when there is none. Checks: every node input is a graph input, an
/// initializer or the output of an earlier node (else: a dangling input, a cycle, or nodes out of
/// topological order); no value is produced twice; the graph outputs are produced; every
/// initializer's and Constant's data matches its dims; the graph's input has fixed dims, batch 1
/// and at most 2^31 elements.
inline std::string check_structure(const onnx::ModelProto& mp, const std::string& path) {
  using detail::node_text;
  const onnx::GraphProto& g = mp.graph();
  std::map<std::string, detail::producer> made;
  std::map<std::string, int> first_use;  // value -> the first node reading it
  for (int i = g.node_size() - 1; i >= 0; --i)
    for (const std::string& in : g.node(i).input()) first_use[in] = i;
  auto user = [&](const std::string& value) {
    auto it = first_use.find(value);
    return it == first_use.end() ? std::string("(used by no node)") : node_text(g.node(it->second), it->second);
  };

  for (const onnx::TensorProto& t : g.initializer()) {
    if (made.count(t.name())) return path + ": initializer '" + t.name() + "' is defined twice";
    made[t.name()] = {detail::producer::initializer, -1};
    const std::string fault = detail::tensor_fault(t, "initializer '" + t.name() + "'");
    if (!fault.empty()) return path + ": " + user(t.name()) + ": " + fault;
  }
  for (const onnx::ValueInfoProto& v : g.input()) {
    if (made.count(v.name())) continue;  // an initializer listed as an input (IR version < 4)
    made[v.name()] = {detail::producer::graph_input, -1};
    const std::string who = path + ": " + user(v.name()) + ": the graph input '" + v.name() + "'";
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return who + " has no tensor shape";
    const auto& dims = v.type().tensor_type().shape().dim();
    uint64_t elems = 1;
    for (int k = 0; k < dims.size(); ++k) {
      const auto& d = dims[k];
      if (!d.has_dim_value())
        return who + " has a dynamic dimension " + std::to_string(k) +
               (d.dim_param().empty() ? std::string() : " ('" + d.dim_param() + "')") +
               ": ctnn needs fixed shapes (export with a fixed input shape and batch 1)";
      if (d.dim_value() <= 0) return who + " has dimension " + std::to_string(k) + " = " + std::to_string(d.dim_value());
      if (k == 0 && d.dim_value() != 1)
        return who + " has batch " + std::to_string(d.dim_value()) +
               ": ctnn runs one sample (export with batch 1; the runner feeds a batch sample by sample)";
      if (static_cast<uint64_t>(d.dim_value()) > (uint64_t{1} << 31) / elems)
        return who + " has more than 2^31 elements";
      elems *= static_cast<uint64_t>(d.dim_value());
    }
  }
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    for (const std::string& out : n.output()) {
      if (out.empty()) continue;  // an optional output left out
      auto it = made.find(out);
      if (it != made.end())
        return path + ": " + node_text(n, i) + ": its output '" + out + "' is also " +
               (it->second.kind == detail::producer::node ? "the output of " + node_text(g.node(it->second.index), it->second.index)
                : it->second.kind == detail::producer::initializer ? std::string("an initializer")
                                                                     : std::string("a graph input"));
      made[out] = {detail::producer::node, i};
    }
    if (n.op_type() == "Constant")
      for (const onnx::AttributeProto& a : n.attribute())
        if (a.has_t()) {
          const std::string fault = detail::tensor_fault(a.t(), "its value");
          if (!fault.empty()) return path + ": " + node_text(n, i) + ": " + fault;
        }
  }

  // every input of node i must exist before node i
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    for (const std::string& in : n.input()) {
      if (in.empty()) continue;  // an optional input left out
      auto it = made.find(in);
      if (it == made.end())
        return path + ": " + node_text(n, i) + ": its input '" + in +
               "' is no graph input, initializer or output of any node (a dangling input)";
      if (it->second.kind != detail::producer::node || it->second.index < i) continue;
      // produced by node j >= i: a cycle when j depends on node i, else nodes out of order
      const int j = it->second.index;
      std::vector<int> from(static_cast<std::size_t>(g.node_size()), -1);  // breadth-first, i's consumers
      std::vector<int> queue{i};
      from[static_cast<std::size_t>(i)] = i;
      for (std::size_t q = 0; q < queue.size() && from[static_cast<std::size_t>(j)] < 0; ++q) {
        const onnx::NodeProto& a = g.node(queue[q]);
        for (int k = 0; k < g.node_size(); ++k) {
          if (from[static_cast<std::size_t>(k)] >= 0) continue;
          bool reads = false;
          for (const std::string& x : g.node(k).input())
            for (const std::string& o : a.output()) reads = reads || (!o.empty() && x == o);
          if (reads) {
            from[static_cast<std::size_t>(k)] = queue[q];
            queue.push_back(k);
          }
        }
      }
      if (from[static_cast<std::size_t>(j)] >= 0) {  // i -> ... -> j -> i
        std::vector<int> chain{j};
        while (chain.front() != i) chain.insert(chain.begin(), from[static_cast<std::size_t>(chain.front())]);
        chain.push_back(i);
        std::string cycle;
        for (std::size_t k = 0; k < chain.size(); ++k) {
          const onnx::NodeProto& c = g.node(chain[k]);
          cycle += (k ? " -> " : "") + (c.name().empty() ? "#" + std::to_string(chain[k]) : c.name());
        }
        return path + ": " + node_text(n, i) + ": its input '" + in + "' depends on its own output: a cycle (" + cycle + ")";
      }
      return path + ": " + node_text(n, i) + ": its input '" + in + "' is the output of the later " +
             node_text(g.node(j), j) + ": the nodes are not in topological order";
    }
  }
  for (const onnx::ValueInfoProto& v : g.output())
    if (!made.count(v.name())) return path + ": the graph output '" + v.name() + "' is computed by no node";
  return "";
}

/// @brief Reads and parses the ONNX file `path` into `mp`, then check_structure(). Returns the
/// refusal as one line naming the file and the fault ("" when the model may be lowered): the file
/// cannot be read or is empty, is truncated (a field runs past its end), or is no onnx.ModelProto.
inline std::string load_model(const std::string& path, onnx::ModelProto& mp) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return path + ": cannot open the file";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return path + ": cannot read the file";
  // one read of the whole file (VGG-16's 553 MB: 3.2 s instead of 11.4 s through istreambuf_iterator)
  const std::streamoff size = f.tellg();
  if (size < 0 || !f.seekg(0)) return path + ": cannot read the file";
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!f.read(bytes.data(), size) || f.gcount() != size) return path + ": cannot read the file";
  if (bytes.empty()) return path + ": not an ONNX model: the file is empty";
  const detail::wire_walk w = detail::walk_model_fields(bytes);
  if (w.status == detail::wire_walk::truncated && w.first_is_ir_version)
    return path + ": the file is truncated: the model's field " + std::to_string(w.field) + " (" +
           detail::model_field_name(w.field) + ") " +
           (w.need > 0 ? "needs " + std::to_string(w.need) + " bytes, " + std::to_string(w.have) + " remain"
                       : std::string("is cut short")) +
           " (" + std::to_string(bytes.size()) + " bytes read)";
  google::protobuf::LogSilencer quiet;  // a refusal is our one line, not protobuf's log
  if (w.status != detail::wire_walk::complete || !mp.ParseFromString(bytes))
    return path + ": not an ONNX model (not a protobuf onnx.ModelProto)";
  if (!mp.has_graph()) return path + ": not an ONNX model: it has no graph";
  return check_structure(mp, path);
}

}  // namespace ctnn::onnx_import
