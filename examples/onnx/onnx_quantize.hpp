// Host-only: an imported model made ready for int8 (ctnn-import --dtype int8), in float32 first:
//
//   - BatchNorm folded into the convolution that makes its input (when the BatchNormalization is
//     the convolution's only reader): m = gamma / sqrt(var + eps) per output channel, W' = W m,
//     b' = (b - mean) m + beta (b = 0 without a bias), in double, rounded once to float32;
//   - ReLU, ReLU6 and Clip fused into the convolution, linear layer or add that makes their input
//     (when they are its only reader): the node takes the activation as its fused clamp
//     (layer_geometry::act, nn/fused.hpp) and the activation's node goes;
//   - x * HardSigmoid(x) (PyTorch's Hardswish at opset 13) becomes one HardSwish (TFLite's int8
//     hard swish) when the HardSigmoid has no other reader.
//
// The folded and fused node keeps the name of the node it started from and computes the ONNX
// tensor of the last node it absorbed. Then the calibration data is read and checked
// (read_calibration), and host::calibrate / host::quantize_params (ctnn/host/quantize.hpp) do
// the rest. Every refusal is an import_error of one line naming the file and the tensor or layer.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ctnn/host/npy.hpp"
#include "ctnn/host/quantize.hpp"
#include "onnx_rows.hpp"

namespace ctnn::onnx_import {

/// @brief What prepare_int8 did: the folded batch norms, the fused activations, the hard swishes
/// found as x * HardSigmoid(x).
struct int8_changes {
  int folded = 0;
  int fused = 0;
  int hardswish = 0;
};

/// @brief m with BatchNorm folded and activations fused (see the file comment).
inline model prepare_int8(const model& m, int8_changes* changes = nullptr) {
  const std::size_t n = m.nodes.size();
  // readers of each value (0 = the input, k = node k); the last node's value is the graph output
  std::vector<int> readers(n + 1, 0);
  for (const host::graph_node& node : m.nodes)
    for (int32_t v : node.inputs) ++readers[static_cast<std::size_t>(v)];
  readers[n] += 1;
  model out;
  out.file = m.file;
  out.input = m.input;
  out.input_name = m.input_name;
  out.output_name = m.output_name;
  std::vector<int32_t> now(n + 1, 0);  // old value -> new value
  int8_changes done;
  // x * HardSigmoid(x) (PyTorch's Hardswish exported at opset 13): one hard swish, TFLite's int8
  // kernel, at the multiply; the HardSigmoid, read by the multiply alone, goes
  std::vector<int32_t> swish_of(n, -1);  // node -> x, for such a multiply
  std::vector<bool> absorbed(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const host::graph_node& node = m.nodes[i];
    if (node.kind != op::mul || node.inputs.size() != 2) continue;
    for (int k = 0; k < 2; ++k) {
      const int32_t h = node.inputs[static_cast<std::size_t>(k)], x = node.inputs[static_cast<std::size_t>(1 - k)];
      if (h <= 0 || readers[static_cast<std::size_t>(h)] != 1) continue;
      const host::graph_node& hs = m.nodes[static_cast<std::size_t>(h - 1)];
      if (hs.kind == op::hardsigmoid && hs.inputs.size() == 1 && hs.inputs[0] == x) {
        swish_of[i] = x;
        absorbed[static_cast<std::size_t>(h - 1)] = true;
        break;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (absorbed[i]) continue;  // its multiply reads x instead
    host::graph_node swish;
    if (swish_of[i] >= 0) {
      swish.kind = op::hardswish;
      swish.inputs = {swish_of[i]};
      swish.name = m.nodes[i].name;
      ++done.hardswish;
    }
    const host::graph_node& node = swish_of[i] >= 0 ? swish : m.nodes[i];
    const int32_t src = node.inputs.empty() ? -1 : node.inputs[0];
    const bool sole = src > 0 && node.inputs.size() == 1 && readers[static_cast<std::size_t>(src)] == 1;
    host::graph_node* prev = sole ? &out.nodes[static_cast<std::size_t>(now[static_cast<std::size_t>(src)] - 1)] : nullptr;
    // BatchNorm after a convolution without a fused activation: fold
    if (prev != nullptr && node.kind == op::batch_norm2d && prev->kind == op::conv2d && prev->geometry.act == fused_act::none) {
      leaf_params& cp = out.params[static_cast<std::size_t>(now[static_cast<std::size_t>(src)] - 1)];
      const leaf_params& bn = m.params[i];
      const auto channels = static_cast<std::size_t>(prev->geometry.out_channels);
      const std::size_t per = cp.w.size() / channels;
      if (cp.b.empty()) cp.b.assign(channels, 0.0f);
      for (std::size_t c = 0; c < channels; ++c) {
        const double mult = static_cast<double>(bn.w[c]) /
                            std::sqrt(static_cast<double>(bn.var[c]) + static_cast<double>(node.geometry.epsilon));
        for (std::size_t k = 0; k < per; ++k)
          cp.w[c * per + k] = static_cast<float>(static_cast<double>(cp.w[c * per + k]) * mult);
        cp.b[c] = static_cast<float>((static_cast<double>(cp.b[c]) - static_cast<double>(bn.mean[c])) * mult +
                                     static_cast<double>(bn.b[c]));
      }
      prev->geometry.bias = true;
      out.outputs[static_cast<std::size_t>(now[static_cast<std::size_t>(src)] - 1)] = m.outputs[i];
      now[i + 1] = now[static_cast<std::size_t>(src)];
      ++done.folded;
      continue;
    }
    // ReLU, ReLU6, Clip after an op that takes a fused activation and has none: fuse
    const bool activation = node.kind == op::relu || node.kind == op::relu6 || node.kind == op::clamp;
    if (prev != nullptr && activation && prev->geometry.act == fused_act::none &&
        visit_kind<all_kinds>(prev->kind, []<op K>() { return ctnn::detail::fuses_activation<K>(); }, false)) {
      layer_geometry& g = prev->geometry;
      set_fused_clamp(g, node.kind, node.geometry.alpha, node.geometry.beta);
      out.outputs[static_cast<std::size_t>(now[static_cast<std::size_t>(src)] - 1)] = m.outputs[i];
      now[i + 1] = now[static_cast<std::size_t>(src)];
      ++done.fused;
      continue;
    }
    host::graph_node copy = node;
    for (int32_t& v : copy.inputs) v = now[static_cast<std::size_t>(v)];
    out.nodes.push_back(std::move(copy));
    out.params.push_back(swish_of[i] >= 0 ? leaf_params{} : m.params[i]);
    out.outputs.push_back(m.outputs[i]);
    now[i + 1] = static_cast<int32_t>(out.nodes.size());
  }
  if (changes != nullptr) *changes = done;
  return out;
}

/// @brief The calibration samples of DATA.npy for a model whose input has shape `in`: float32
/// [N, C, H, W] (or [N, F] for a flat input), N >= 1, every value finite. Throws import_error
/// naming the file and the fault.
inline host::npy_array read_calibration(const std::string& path, shape in) {
  host::npy_array a;
  try {
    a = host::read_npy(path);
  } catch (const std::exception& e) {
    throw import_error(std::string("the calibration data: ") + e.what());
  }
  std::vector<int64_t> want = in.rank == 1 ? std::vector<int64_t>{in.c} : std::vector<int64_t>{in.c, in.h, in.w};
  auto dims = [](const std::vector<int64_t>& d, std::size_t from) {
    std::string s = "[";
    for (std::size_t k = from; k < d.size(); ++k) s += (k > from ? ", " : "") + std::to_string(d[k]);
    return s + "]";
  };
  const bool shaped = a.shape.size() == want.size() + 1 && std::equal(want.begin(), want.end(), a.shape.begin() + 1);
  if (!shaped)
    throw import_error("the calibration data: " + path + ": shape " + dims(a.shape, 0) + ", the model's input needs [N, " +
                       dims(want, 0).substr(1));
  if (a.shape[0] == 0) throw import_error("the calibration data: " + path + ": holds no sample (N = 0)");
  const std::size_t per = a.data.size() / static_cast<std::size_t>(a.shape[0]);
  for (std::size_t i = 0; i < a.data.size(); ++i)
    if (!std::isfinite(a.data[i]))
      throw import_error("the calibration data: " + path + ": sample " + std::to_string(i / per) + ", element " +
                         std::to_string(i % per) + " is " + (std::isnan(a.data[i]) ? "NaN" : "infinite") +
                         " (calibration values must be finite)");
  return a;
}

/// @brief The names of m's tensors (0: the input; k: node k's ONNX output) and leaves, for messages.
inline host::graph_names names_of(const model& m) {
  host::graph_names n;
  n.tensors.push_back(m.input_name);
  for (const std::string& t : m.outputs) n.tensors.push_back(t);
  for (const host::graph_node& node : m.nodes) n.leaves.push_back(node.name);
  return n;
}

/// @brief A model quantized to int8: the folded and fused model, its rows and names, the
/// calibration, the int8 parameters, what prepare_int8 did, and (when asked) each layer's SQNR.
struct int8_import {
  model m;
  host::graph_rows rows;
  host::graph_names names;
  host::calibration cal;
  host::quantized_model q;
  int8_changes changes;
  std::vector<host::layer_sqnr> sqnr;
};

/// @brief The int8 model of `x` (read_rows' result, named `name`) calibrated on the samples of
/// `calibration` with `rule`; with `sqnr`, each layer's SQNR over the same samples. Throws
/// import_error (one line naming the model file and the fault).
inline int8_import quantize_model(const model& x, const std::string& name, const std::string& calibration,
                                  host::calibration_rule rule, bool sqnr) {
  int8_import r;
  r.m = prepare_int8(x, &r.changes);
  r.rows = host::build_rows(name, r.m.input, r.m.nodes);
  if (!r.rows.first_fault.report.ok())
    throw import_error(x.file + ": the int8 graph (BatchNorm folded, activations fused) is refused: " +
                       std::string(r.rows.first_fault.type));
  host::npy_array data;
  try {
    data = read_calibration(calibration, r.m.input);
  } catch (const std::exception& e) {
    throw import_error(x.file + ": " + e.what());
  }
  // the float32 parameters of the folded model, in the layout of its rows
  const host::graph_param_layout f32_layout = host::param_layout(r.rows, dtype::float32);
  const std::string blob = float_blob(r.m, r.rows);
  host::aligned_bytes f32(blob.size());
  std::memcpy(f32.data, blob.data(), blob.size());
  r.names = names_of(r.m);
  try {
    r.cal = host::calibrate(r.rows, f32.data, f32_layout, data.data.data(), data.shape[0], rule, r.names);
    r.q = host::quantize_params(r.rows, f32.data, f32_layout, r.cal.quant, r.names);
    if (sqnr)
      r.sqnr = host::measure_sqnr(r.rows, f32.data, f32_layout, r.q.blob->data, r.q.layout, data.data.data(),
                                  data.shape[0], r.names);
  } catch (const host::quantize_error& e) {
    throw import_error(x.file + ": " + e.what());
  }
  return r;
}

/// @brief The per-layer SQNR table: a title line, one line per leaf (index, node, type, dB), the worst layer.
inline std::string sqnr_table(const int8_import& r) {
  std::size_t width = 4;
  for (const std::string& n : r.names.leaves) width = std::max(width, n.size());
  char line[512];
  std::string out;
  std::snprintf(line, sizeof line, "per-layer SQNR of int8 against float32 over %lld calibration samples (%s rule):\n",
                static_cast<long long>(r.cal.samples), host::name_of(r.cal.rule));
  out += line;
  std::snprintf(line, sizeof line, "%5s  %-*s  %-16s %9s\n", "leaf", static_cast<int>(width), "node", "type", "SQNR dB");
  out += line;
  std::size_t worst = 0;
  for (std::size_t i = 0; i < r.sqnr.size(); ++i) {
    const host::layer_sqnr& l = r.sqnr[i];
    if (l.db() < r.sqnr[worst].db()) worst = i;
    std::snprintf(line, sizeof line, "%5d  %-*s  %-16s %9.2f\n", l.leaf, static_cast<int>(width), r.names.leaves[i].c_str(),
                  host::leaf_type(r.rows.layer(l.leaf)).c_str(), l.db());
    out += line;
  }
  if (!r.sqnr.empty()) {
    std::snprintf(line, sizeof line, "worst layer: %d %s (%s), %.2f dB\n", r.sqnr[worst].leaf, r.names.leaves[worst].c_str(),
                  host::leaf_type(r.rows.layer(r.sqnr[worst].leaf)).c_str(), r.sqnr[worst].db());
    out += line;
  }
  return out;
}

/// @brief The SQNR chart of r (host::sqnr_svg) titled with the model's name, the rule and the samples.
inline std::string sqnr_chart(const int8_import& r, const std::string& name) {
  return host::sqnr_svg(r.rows, r.names, r.sqnr,
                        name + " int8 (" + host::name_of(r.cal.rule) + " rule): per-layer SQNR over " +
                            std::to_string(r.cal.samples) + " calibration samples");
}

}  // namespace ctnn::onnx_import
