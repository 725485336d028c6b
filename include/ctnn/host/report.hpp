// Host-only: the analysis of a network as a runtime report, printed as a torchinfo-like table,
// JSON or CSV. Uses the C++ standard library; firmware never includes this header.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "ctnn/host/plan.hpp"
#include "ctnn/memory/planner.hpp"
#include "ctnn/nn/network.hpp"

namespace ctnn::host {

/// One row of the report: a leaf or a container, with its dotted name.
struct report_row {
  std::string name;  ///< dotted path of instance names or sibling indices ("layer1.0.0.0.0")
  std::string local;  ///< its own instance name, or its sibling index (an ONNX node name may hold dots)
  std::string type;
  int depth = 0;
  int index = 0;
  int leaf = -1;
  shape in{};
  shape out{};
  leaf_counts counts{};
  std::uint64_t params = 0;
  std::uint64_t output_bytes = 0;
  std::uint64_t read_bytes = 0;
  std::uint64_t write_bytes = 0;
  std::vector<int> inputs;  ///< tensor ids read (leaves)
};

/// One box of the memory picture: a tensor or a scratch buffer, alive over steps [first, last].
struct memory_box {
  int tensor = -1;  ///< tensor id, -1 for a layer's scratch
  int leaf = -1;    ///< producing leaf (or the leaf owning the scratch); -1 for the network input
  int first = 0;
  int last = 0;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};

/// The arena plan of the network in the report's dtype.
struct memory_report {
  std::uint64_t alignment = 0;
  std::uint64_t arena_bytes = 0;
  std::uint64_t lower_bound_bytes = 0;
  std::uint64_t baseline_bytes = 0;
  std::uint64_t plain_liveness_bytes = 0;
  std::uint64_t largest_scratch_bytes = 0;
  int peak_step = 0;
  int steps = 0;
  std::string strategy;
  std::vector<memory_box> boxes;
};

struct report {
  std::string model;
  dtype type = dtype::float32;
  shape input{};
  shape output{};
  std::uint64_t params_total = 0;
  std::uint64_t buffers_total = 0;
  std::uint64_t weight_bytes = 0;
  std::uint64_t buffer_bytes = 0;
  std::uint64_t input_bytes = 0;
  std::uint64_t macs_conv_linear = 0;
  std::uint64_t ext_ops = 0;
  std::uint64_t macs_total = 0;
  std::uint64_t activation_bytes_sum = 0;
  std::uint64_t read_bytes = 0;
  std::uint64_t write_bytes = 0;
  std::uint64_t peak_io_bytes = 0;
  int peak_io_layer = 0;
  std::vector<report_row> rows;  ///< all rows; rows[0] is the network
  memory_report memory;
};

/// A plan (its summary, tensors and per-leaf scratch) as a memory_report.
inline memory_report memory_report_of(const memory::plan_summary& p, const memory::tensor_plan* tensors,
                                      const std::uint64_t* scratch_bytes, const std::uint64_t* scratch_offset) {
  memory_report m;
  m.alignment = p.alignment;
  m.arena_bytes = p.arena_bytes;
  m.lower_bound_bytes = p.lower_bound_bytes;
  m.baseline_bytes = p.baseline_bytes;
  m.plain_liveness_bytes = p.plain_liveness_bytes;
  m.largest_scratch_bytes = p.scratch_total_bytes;
  m.peak_step = p.peak_step;
  m.steps = p.steps;
  m.strategy = memory::name_of(p.chosen);
  for (int32_t t = 0; t < p.n_tensors; ++t) {
    const memory::tensor_plan& tp = tensors[t];
    m.boxes.push_back({t, t - 1, tp.first, tp.last, tp.offset, tp.bytes});
  }
  for (int32_t i = 0; i < p.steps; ++i)
    if (scratch_bytes[i] > 0) m.boxes.push_back({-1, i, i, i, scratch_offset[i], scratch_bytes[i]});
  return m;
}

/// The plan of Net in dtype T (the constant memory::plan_of) as a memory_report.
template <Network Net, dtype T>
memory_report make_memory_report() {
  constexpr const auto& p = memory::plan_of<Net, T>;
  return memory_report_of(p, p.tensors.data(), p.scratch_bytes.data(), p.scratch_offset.data());
}

template <Network Net>
memory_report make_memory_report(dtype t) {
  switch (t) {
    // The plan depends on the element size only: uint8 plans as int8, int32 as float32.
    case dtype::int8:
    case dtype::uint8: return make_memory_report<Net, dtype::int8>();
    case dtype::int16: return make_memory_report<Net, dtype::int16>();
    case dtype::int32:
    case dtype::float32: return make_memory_report<Net, dtype::float32>();
  }
  return {};
}

/// The plan of rows known at run time, in dtype t (host::plan_rows: the same planner).
inline memory_report make_memory_report(const rows_view& v, dtype t) {
  const dynamic_plan p = plan_rows(v, size_of(t));
  return memory_report_of(p, p.tensors.data(), p.scratch_bytes.data(), p.scratch_offset.data());
}

/// Builds the report of the rows v computed in element type t, with the plan m.
inline report make_report(const rows_view& v, dtype t, memory_report m) {
  report r;
  r.model = v.rows[0].type;
  r.type = t;
  r.input = v.input;
  r.output = v.output;
  const leaf_counts& totals = v.rows[0].counts;
  r.params_total = totals.weights + totals.biases;
  r.buffers_total = totals.buffers;
  r.weight_bytes = v.weight_bytes(t);
  r.buffer_bytes = v.buffer_bytes(t);
  r.input_bytes = v.input_bytes(t);
  r.macs_conv_linear = totals.macs;
  r.ext_ops = totals.ext_ops;
  r.macs_total = totals.macs + totals.ext_ops;
  r.activation_bytes_sum = v.activation_bytes_sum(t);
  r.read_bytes = v.read_bytes(t);
  r.write_bytes = v.write_bytes(t);
  r.peak_io_bytes = v.peak_io_bytes(t);
  r.peak_io_layer = v.peak_io_layer(t);
  r.memory = std::move(m);
  std::vector<std::string> paths(static_cast<std::size_t>(v.row_count));
  for (int32_t i = 0; i < v.row_count; ++i) {
    const row& src = v.rows[i];
    report_row x;
    const std::string label = src.name != nullptr ? std::string(src.name) : std::to_string(src.index);
    if (i > 0) {
      const std::string& parent = src.parent > 0 ? paths[static_cast<std::size_t>(src.parent)] : std::string();
      x.name = parent.empty() ? label : parent + "." + label;
    }
    paths[static_cast<std::size_t>(i)] = x.name;
    x.local = label;
    x.type = src.type;
    x.depth = src.depth;
    x.index = src.index;
    x.leaf = src.leaf;
    x.in = src.in;
    x.out = src.out;
    x.counts = src.counts;
    x.params = src.params();
    x.output_bytes = src.output_bytes(t);
    if (src.is_leaf()) {
      x.read_bytes = src.read_bytes(t);
      x.write_bytes = src.write_bytes(t);
      for (int32_t k = 0; k < src.n_inputs; ++k) x.inputs.push_back(src.inputs[k]);
    } else {
      for (int32_t k = i + 1; k < src.end; ++k) {
        const row& c = v.rows[k];
        if (!c.is_leaf()) continue;
        x.read_bytes += c.read_bytes(t);
        x.write_bytes += c.write_bytes(t);
      }
    }
    r.rows.push_back(std::move(x));
  }
  return r;
}

/// Builds the report of rows known at run time (a model read from a file), planned at run time.
inline report make_report(const rows_view& v, dtype t) { return make_report(v, t, make_memory_report(v, t)); }

/// Builds the report of Net computed in element type t (its plan: the constant memory::plan_of).
template <Network Net>
report make_report(dtype t) {
  return make_report(Net::view(), t, make_memory_report<Net>(t));
}

/// "[1, 64, 56, 56]" (torchinfo's batch-first notation) or "[1, 1000]" for a flat tensor.
std::string shape_text(const shape& s);
/// 1234567 -> "1,234,567".
std::string grouped(std::uint64_t v);

std::string to_table(const report& r);
std::string to_json(const report& r);
std::string to_csv(const report& r);

// ---- implementation (header-only: inline) ---------------------------------

inline std::string shape_text(const shape& s) {
  if (s.rank == 1) return "[1, " + std::to_string(s.c) + "]";
  return "[1, " + std::to_string(s.c) + ", " + std::to_string(s.h) + ", " + std::to_string(s.w) + "]";
}

inline std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[i];
    if ((n - i - 1) % 3 == 0 && i + 1 < n) out += ',';
  }
  return out;
}

namespace detail {
inline std::string pad_right(std::string s, std::size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}
inline std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() < w ? std::string(w - s.size(), ' ') + s : s;
}
inline std::string mb(std::uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(bytes) / 1e6);
  return buf;
}
inline std::string fixed2(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}
inline std::string json_shape(const shape& s) {
  if (s.rank == 1) return "[" + std::to_string(s.c) + "]";
  return "[" + std::to_string(s.c) + ", " + std::to_string(s.h) + ", " + std::to_string(s.w) + "]";
}
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}
/// torchinfo's tree prefix: "│    " per ancestor level, "└─" before the layer.
inline std::string tree_prefix(int depth) {
  std::string p;
  for (int d = 1; d < depth; ++d) p += "\xe2\x94\x82    ";  // "│    "
  if (depth > 0) p += depth == 1 ? "\xe2\x94\x9c\xe2\x94\x80" : "\xe2\x94\x94\xe2\x94\x80";  // ├─ or └─
  return p;
}
/// Display width of a UTF-8 string (the box-drawing characters are one column each).
inline std::size_t columns(const std::string& s) {
  std::size_t n = 0;
  for (const char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0u) != 0x80u ? 1 : 0;  // not a continuation byte
  return n;
}
inline std::string pad_cols(const std::string& s, std::size_t w) {
  const std::size_t c = columns(s);
  return c < w ? s + std::string(w - c, ' ') : s;
}
}  // namespace detail

inline std::string to_table(const report& r) {
  using detail::pad_cols;
  using detail::pad_left;
  constexpr std::size_t w_layer = 52, w_shape = 22, w_num = 16;
  const std::string rule(w_layer + w_shape + 4 * w_num, '=');
  std::string s = rule + "\n";
  s += pad_cols("Layer (type (name): depth-idx)", w_layer) + pad_cols("Output Shape", w_shape) +
       pad_left("Param #", w_num) + pad_left("MACs", w_num) + pad_left("Read bytes", w_num) +
       pad_left("Write bytes", w_num) + "\n" + rule + "\n";
  for (const report_row& x : r.rows) {
    std::string label;
    if (x.depth == 0) {
      label = x.type;
    } else {
      const std::string& local = x.local;
      const bool named = !local.empty() && (local[0] < '0' || local[0] > '9');
      label = detail::tree_prefix(x.depth) + x.type + (named ? " (" + local + ")" : std::string()) + ": " +
              std::to_string(x.depth) + "-" + std::to_string(x.index + 1);
    }
    const bool leaf = x.leaf >= 0;
    s += pad_cols(label, w_layer) + pad_cols(shape_text(x.out), w_shape) +
         pad_left(x.params > 0 ? grouped(x.params) : "--", w_num) +
         pad_left(x.counts.macs > 0 ? grouped(x.counts.macs) : "--", w_num) +
         pad_left(leaf ? grouped(x.read_bytes) : "--", w_num) +
         pad_left(leaf ? grouped(x.write_bytes) : "--", w_num) + "\n";
  }
  s += rule + "\n";
  s += "Total params: " + grouped(r.params_total) + "\n";
  s += "Non-trainable buffers (batch-norm statistics): " + grouped(r.buffers_total) + "\n";
  s += "Total mult-adds, conv + linear (G): " + detail::fixed2(static_cast<double>(r.macs_conv_linear) / 1e9) + "\n";
  s += "Total operations, incl. batch norm, activations, pools, adds (G): " + detail::fixed2(static_cast<double>(r.macs_total) / 1e9) + "\n";
  s += rule + "\n";
  s += std::string("Element type: ") + name_of(r.type) + "\n";
  s += "Input size (MB): " + detail::mb(r.input_bytes) + "\n";
  s += "Activations, sum of all layer outputs (MB): " + detail::mb(r.activation_bytes_sum) + "\n";
  s += "Params size (MB): " + detail::mb(r.weight_bytes) + "\n";
  s += "Buffers size (MB): " + detail::mb(r.buffer_bytes) + "\n";
  s += "Bytes read / written by all layers (MB): " + detail::mb(r.read_bytes) + " / " + detail::mb(r.write_bytes) + "\n";
  const report_row* peak = nullptr;
  for (const report_row& x : r.rows)
    if (x.leaf == r.peak_io_layer) peak = &x;
  s += "Naive peak, largest inputs + output of one layer (MB): " + detail::mb(r.peak_io_bytes) +
       (peak != nullptr ? "  at layer " + std::to_string(r.peak_io_layer) + " " + peak->type + " (" + peak->name + ")" : "") +
       "\n";
  const memory_report& m = r.memory;
  const report_row* at_peak = nullptr;
  for (const report_row& x : r.rows)
    if (x.leaf == m.peak_step) at_peak = &x;
  s += "Arena, planned at compile time (bytes): " + grouped(m.arena_bytes) + "  (" + m.strategy + ", " +
       std::to_string(m.alignment) + "-byte alignment)\n";
  s += "Arena lower bound, largest live sum (bytes): " + grouped(m.lower_bound_bytes) +
       (at_peak != nullptr ? "  at step " + std::to_string(m.peak_step) + " " + at_peak->type + " (" + at_peak->name + ")" : "") +
       "\n";
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.4f", m.lower_bound_bytes ? static_cast<double>(m.arena_bytes) / static_cast<double>(m.lower_bound_bytes) : 0.0);
  s += std::string("Arena / lower bound: ") + ratio + "   greedy-by-size baseline (bytes): " + grouped(m.baseline_bytes) + "\n";
  s += "Plain liveness of the unmodified network (bytes): " + grouped(m.plain_liveness_bytes) +
       "   largest layer scratch (bytes): " + grouped(m.largest_scratch_bytes) + "\n";
  s += rule + "\n";
  return s;
}

namespace detail {
/// The per-layer numbers of the JSON and CSV reports, in their order: one list for both.
template <class F>
inline void for_each_layer_number(const report_row& x, F&& f) {
  f("params", x.params);
  f("buffers", x.counts.buffers);
  f("macs", x.counts.macs);
  f("ext_ops", x.counts.ext_ops);
  f("output_bytes", x.output_bytes);
  f("read_bytes", x.read_bytes);
  f("write_bytes", x.write_bytes);
}
}  // namespace detail

inline std::string to_json(const report& r) {
  using detail::json_shape;
  using detail::json_string;
  std::string s = "{\n";
  auto field = [&s](const std::string& k, const std::string& v) { s += "  " + json_string(k) + ": " + v + ",\n"; };
  auto number = [&field](const std::string& k, std::uint64_t v) { field(k, std::to_string(v)); };
  field("model", json_string(r.model));
  field("dtype", json_string(name_of(r.type)));
  field("input_shape", json_shape(r.input));
  field("output_shape", json_shape(r.output));
  number("params_total", r.params_total);
  number("buffers_total", r.buffers_total);
  number("weight_bytes", r.weight_bytes);
  number("buffer_bytes", r.buffer_bytes);
  number("input_bytes", r.input_bytes);
  number("macs_conv_linear", r.macs_conv_linear);
  number("ext_ops", r.ext_ops);
  number("macs_total", r.macs_total);
  number("activation_bytes_sum", r.activation_bytes_sum);
  number("read_bytes", r.read_bytes);
  number("write_bytes", r.write_bytes);
  number("peak_io_bytes", r.peak_io_bytes);
  number("peak_io_layer", static_cast<std::uint64_t>(r.peak_io_layer));
  number("arena_bytes", r.memory.arena_bytes);
  number("arena_lower_bound_bytes", r.memory.lower_bound_bytes);
  number("arena_baseline_bytes", r.memory.baseline_bytes);
  number("arena_plain_liveness_bytes", r.memory.plain_liveness_bytes);
  number("arena_peak_step", static_cast<std::uint64_t>(r.memory.peak_step));
  number("arena_alignment", r.memory.alignment);
  field("arena_strategy", json_string(r.memory.strategy));
  s += "  \"layers\": [\n";
  bool first = true;
  for (const report_row& x : r.rows) {
    if (x.leaf < 0) continue;
    if (!first) s += ",\n";
    first = false;
    std::string inputs = "[";
    for (std::size_t k = 0; k < x.inputs.size(); ++k) inputs += (k ? ", " : "") + std::to_string(x.inputs[k]);
    inputs += "]";
    s += "    {\"index\": " + std::to_string(x.leaf) + ", \"name\": " + json_string(x.name) +
         ", \"type\": " + json_string(x.type) + ", \"depth\": " + std::to_string(x.depth) +
         ", \"input_shape\": " + json_shape(x.in) + ", \"output_shape\": " + json_shape(x.out);
    detail::for_each_layer_number(x, [&s](const char* k, std::uint64_t v) {
      s += std::string(", ") + json_string(k) + ": " + std::to_string(v);
    });
    s += ", \"input_tensors\": " + inputs +
         ", \"output_tensor\": " + std::to_string(x.leaf + 1) +
         ", \"arena_offset\": " + std::to_string(r.memory.boxes[static_cast<std::size_t>(x.leaf + 1)].offset) + "}";
  }
  s += "\n  ]\n}\n";
  return s;
}

inline std::string to_csv(const report& r) {
  std::string s = "index,name,type,depth,input_shape,output_shape";
  detail::for_each_layer_number(report_row{}, [&s](const char* k, std::uint64_t) { s += std::string(",") + k; });
  s += "\n";
  auto dims = [](const shape& x) {
    return x.rank == 1 ? std::to_string(x.c)
                       : std::to_string(x.c) + "x" + std::to_string(x.h) + "x" + std::to_string(x.w);
  };
  for (const report_row& x : r.rows) {
    if (x.leaf < 0) continue;
    s += std::to_string(x.leaf) + "," + x.name + "," + x.type + "," + std::to_string(x.depth) + "," + dims(x.in) +
         "," + dims(x.out);
    detail::for_each_layer_number(x, [&s](const char*, std::uint64_t v) { s += "," + std::to_string(v); });
    s += "\n";
  }
  return s;
}

}  // namespace ctnn::host
