// ctnn-import: an ONNX model -> one self-contained ctnn header (the network as a type of the
// description language, a dag<> whose nodes keep the ONNX node names) plus its parameter blob in
// the layout of runtime::param_layout_of, assembled into .rodata by an .incbin:
//   ctnn-import MODEL.onnx -o DIR [--name NAME] [--namespace NS] [--fuse]
//       [--dtype int8 --calibration DATA.npy [--calibration-rule minmax|percentile|mse]
//        [--sqnr] [--sqnr-svg FILE]]
// writes DIR/NAME.hpp, DIR/NAME.f32.bin (float32) or DIR/NAME.i8.bin (int8) and DIR/NAME.S
// (assemble it with -I DIR). --fuse (float32): BatchNorm folded and ReLU / ReLU6 / Clip fused
// as the int8 import does (onnx_quantize.hpp's prepare_int8), the float32 values of the same
// graph within rounding (the folded weights are rounded once to float32). int8: post-training quantization in TFLite's scheme, calibrated by
// running ctnn's float32 executor on DATA.npy (onnx_quantize.hpp, ctnn/host/quantize.hpp);
// --sqnr prints each layer's SQNR of int8 against float32 over the calibration samples,
// --sqnr-svg draws it. The same input gives byte-identical output, and an output file that
// already holds it is not rewritten. Any refusal is one line on stderr, exit 1, and leaves no
// file that the run wrote.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "ctnn/host/cli.hpp"
#include "onnx_quantize.hpp"
#include "onnx_rows.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ctnn;

constexpr const char* usage_line =
    "usage: ctnn-import MODEL.onnx -o DIR [--name NAME] [--namespace NS] [--fuse] [--dtype float32|int8] "
    "[--calibration DATA.npy] [--calibration-rule minmax|percentile|mse] [--sqnr] [--sqnr-svg FILE]";

/// A bad command line: one line on stderr naming the fault, with the usage; status 2.
int usage(const std::string& why) {
  std::fprintf(stderr, "ctnn-import: %s (%s)\n", why.c_str(), usage_line);
  return 2;
}

bool identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string to_identifier(std::string s) {
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) c = '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "m_" + s;
  return s;
}

/// A C++ string literal of s (for fixed_string template arguments).
std::string literal(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned>(static_cast<unsigned char>(c)));
      o += buf;
    } else {
      o += c;
    }
  }
  return o + "\"";
}

/// The shortest ratio num/den (den a power of ten) whose ratio_value is exactly v.
std::pair<int64_t, int64_t> ratio_of(float v, const std::string& what) {
  int64_t den = 1;
  for (int k = 0; k <= 18; ++k, den *= 10) {
    const double n = std::nearbyint(static_cast<double>(v) * static_cast<double>(den));
    if (std::fabs(n) > 9.0e18) break;
    if (ratio_value(static_cast<int64_t>(n), den) == v) return {static_cast<int64_t>(n), den};
  }
  throw onnx_import::import_error(what + " " + std::to_string(v) + " has no exact ratio of integers with a power-of-ten denominator");
}

std::string hw_text(hw v) { return "{" + std::to_string(v.h) + ", " + std::to_string(v.w) + "}"; }
std::string pad_text(pad4 p) {
  return "{" + std::to_string(p.top) + ", " + std::to_string(p.bottom) + ", " + std::to_string(p.left) + ", " +
         std::to_string(p.right) + "}";
}

std::string plain_layer_type_text(const host::graph_node& n, const std::string& file);

/// The clamp<lo, hi, den> of two bounds over one power-of-ten denominator (the larger is a multiple of
/// the other); an infinite bound is open (unbounded_below, unbounded_above).
std::string clamp_text(float lo_v, float hi_v, const std::string& where) {
  if (std::isinf(lo_v) || std::isinf(hi_v)) {  // an open bound: ctnn::unbounded_below / _above
    std::string lo = "ctnn::unbounded_below", hi = "ctnn::unbounded_above";
    int64_t den = 1;
    if (!std::isinf(lo_v)) {
      const auto [n, d] = ratio_of(lo_v, where + ": min");
      lo = std::to_string(n);
      den = d;
    }
    if (!std::isinf(hi_v)) {
      const auto [n, d] = ratio_of(hi_v, where + ": max");
      hi = std::to_string(n);
      den = d;
    }
    return "ctnn::clamp<" + lo + ", " + hi + ", " + std::to_string(den) + ">";
  }
  const auto [lo, lo_den] = ratio_of(lo_v, where + ": min");
  const auto [hi, hi_den] = ratio_of(hi_v, where + ": max");
  const int64_t den = std::max(lo_den, hi_den), lo_k = den / lo_den, hi_k = den / hi_den;
  if (std::llabs(lo) > INT64_MAX / lo_k || std::llabs(hi) > INT64_MAX / hi_k)
    throw onnx_import::import_error(where + ": Clip bounds too far apart in scale for one denominator");
  return "ctnn::clamp<" + std::to_string(lo * lo_k) + ", " + std::to_string(hi * hi_k) + ", " + std::to_string(den) + ">";
}

/// The layer type of a node, in the public description language: fused<Layer, Activation> when
/// an activation is fused into it (int8 imports).
std::string layer_type_text(const host::graph_node& n, const std::string& file) {
  const layer_geometry& g = n.geometry;
  if (g.act == fused_act::none) return plain_layer_type_text(n, file);
  host::graph_node plain = n;
  plain.geometry.act = fused_act::none;
  plain.geometry.act_lo = plain.geometry.act_hi = 0.0f;
  const std::string act = g.act == fused_act::relu    ? "ctnn::relu"
                          : g.act == fused_act::relu6 ? "ctnn::relu6"
                                                      : clamp_text(g.act_lo, g.act_hi, file + ": node '" + n.name + "'");
  return "ctnn::fused<" + plain_layer_type_text(plain, file) + ", " + act + ">";
}

/// The layer type of a node without a fused activation.
std::string plain_layer_type_text(const host::graph_node& n, const std::string& file) {
  const layer_geometry& g = n.geometry;
  auto where = [&] { return file + ": node '" + n.name + "'"; };
  switch (n.kind) {
    case op::conv2d:
      return "ctnn::conv2d_layer<ctnn::conv2d_config{" + std::to_string(g.in_channels) + ", " +
             std::to_string(g.out_channels) + ", " + hw_text(g.kernel) + ", " + hw_text(g.stride) + ", " +
             pad_text(g.padding) + ", " + hw_text(g.dilation) + ", " + std::to_string(g.groups) + ", " +
             (g.bias ? "true" : "false") + "}>";
    case op::linear:
      return "ctnn::linear<" + std::to_string(g.in_channels) + ", " + std::to_string(g.out_channels) + ", " +
             (g.bias ? "true" : "false") + ">";
    case op::max_pool2d:
    case op::avg_pool2d:
      return std::string(n.kind == op::max_pool2d ? "ctnn::max_pool2d_layer" : "ctnn::avg_pool2d_layer") +
             "<ctnn::pool2d_config{" + hw_text(g.kernel) + ", " + hw_text(g.stride) + ", " + pad_text(g.padding) +
             ", " + hw_text(g.dilation) + ", " + (g.ceil_mode ? "true" : "false") + ", " +
             (g.count_include_pad ? "true" : "false") + "}>";
    case op::adaptive_avg_pool2d:
      return "ctnn::adaptive_avg_pool2d<" + std::to_string(g.out_size.h) + ", " + std::to_string(g.out_size.w) + ">";
    case op::batch_norm2d: {
      const auto [num, den] = ratio_of(g.epsilon, where() + ": epsilon");
      return "ctnn::batch_norm2d<" + std::to_string(g.in_channels) + ", " + std::to_string(num) + ", " +
             std::to_string(den) + ">";
    }
    case op::layer_norm2d: {
      const auto [num, den] = ratio_of(g.epsilon, where() + ": epsilon");
      return "ctnn::layer_norm2d<" + std::to_string(g.in_channels) + ", " + std::to_string(num) + ", " +
             std::to_string(den) + ">";
    }
    case op::channel_scale: return "ctnn::channel_scale<" + std::to_string(g.in_channels) + ">";
    case op::leaky_relu: {
      const auto [num, den] = ratio_of(g.alpha, where() + ": alpha");
      return "ctnn::leaky_relu<" + std::to_string(num) + ", " + std::to_string(den) + ">";
    }
    case op::clamp: return clamp_text(g.alpha, g.beta, where());
    case op::relu: return "ctnn::relu";
    case op::relu6: return "ctnn::relu6";
    case op::sigmoid: return "ctnn::sigmoid";
    case op::silu: return "ctnn::silu";
    case op::hardswish: return "ctnn::hardswish";
    case op::hardsigmoid: return "ctnn::hardsigmoid";
    case op::tanh: return "ctnn::tanh_activation";
    case op::gelu: return g.variant == 1 ? "ctnn::gelu_tanh" : "ctnn::gelu";
    case op::flatten: return "ctnn::flatten";
    case op::dropout: return "ctnn::dropout<0>";
    case op::softmax: return "ctnn::softmax";
    case op::zero_pad2d:
      return "ctnn::zero_pad2d<" + std::to_string(g.padding.top) + ", " + std::to_string(g.padding.bottom) + ", " +
             std::to_string(g.padding.left) + ", " + std::to_string(g.padding.right) + ">";
    case op::channel_shuffle: return "ctnn::channel_shuffle<" + std::to_string(g.groups) + ">";
    case op::channel_slice:
      return "ctnn::channel_slice<" + std::to_string(g.first_channel) + ", " +
             std::to_string(g.first_channel + g.out_channels) + ">";
    case op::add: return "ctnn::join<ctnn::op::add>";
    case op::mul: return "ctnn::join<ctnn::op::mul>";
    case op::concat: return "ctnn::join<ctnn::op::concat>";
    case op::container: break;
  }
  throw onnx_import::import_error(where() + ": no ctnn layer type for this node");
}

void write_file(const fs::path& p, const std::string& data, const std::string& fault) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  f.close();
  if (!f) throw onnx_import::import_error(fault + "cannot write '" + p.string() + "'");
}

/// True when the regular file p holds exactly `data` (read in 1 MiB pieces, up to the first
/// difference); false when it differs or cannot be read.
bool holds(const fs::path& p, const std::string& data) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) != data.size() || ec) return false;
  std::ifstream f(p, std::ios::binary);
  std::string piece(std::size_t{1} << 20, '\0');
  for (std::size_t at = 0; at < data.size();) {
    const std::size_t n = std::min(piece.size(), data.size() - at);
    if (!f.read(piece.data(), static_cast<std::streamsize>(n)) || std::memcmp(piece.data(), data.data() + at, n) != 0)
      return false;
    at += n;
  }
  return true;
}

/// A float exactly, as a C++ hexadecimal float literal (deterministic, no rounding on the way back).
std::string float_literal(float v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%af", static_cast<double>(v));
  return buf;
}

/// The header: the network type, the blob's symbol and size, and for int8 every quantization.
std::string header_text(const std::string& input, const std::string& name, const std::string& ns, const std::string& symbol,
                        const onnx_import::model& m, const host::graph_rows& rows, std::size_t blob_bytes,
                        const std::string& bin_name, const onnx_import::int8_import* q,
                        const std::string& calibration_file) {
  const bool int8 = q != nullptr;
  const std::string dt = int8 ? "int8" : "float32";
  const std::string file = fs::path(input).filename().string();
  std::ostringstream h;
  h << "// Generated by ctnn-import from " << file << ". DO NOT EDIT.\n"
    << "// " << m.nodes.size() << " leaves, " << rows.rows[0].params() << " parameters, " << rows.rows[0].counts.macs
    << " MACs. Parameters: " << bin_name << " (" << blob_bytes << " bytes, " << dt
    << ", runtime::param_layout_of), placed in .rodata by " << name << ".S (-I this directory).\n";
  if (int8)
    h << "// int8: TFLite's scheme (per-tensor asymmetric activations, per-channel symmetric weights, int32 bias),\n"
      << "// calibrated by ctnn-import on " << fs::path(calibration_file).filename().string() << " (" << q->cal.samples
      << " samples, rule " << host::name_of(q->cal.rule) << "); " << q->changes.folded << " BatchNorm folded, "
      << q->changes.fused << " activations fused.\n";
  h << "#pragma once\n#include <stddef.h>\n#include <stdint.h>\n\n#include \"ctnn/nn/layers.hpp\"\n#include \"ctnn/runtime/params.hpp\"\n\n"
    << "extern \"C\" const unsigned char " << symbol << "[];\n\nnamespace " << ns << " {\n\n"
    << "/// " << file << ": input " << m.input_name << " "
    << (m.input.rank == 1 ? "[1, " + std::to_string(m.input.c) + "]"
                          : "[1, " + std::to_string(m.input.c) + ", " + std::to_string(m.input.h) + ", " + std::to_string(m.input.w) + "]")
    << ", output " << m.output_name << ".\n"
    << "using " << name << " = ctnn::network<" << literal(name) << ", ctnn::shape{" << m.input.c << ", " << m.input.h
    << ", " << m.input.w << ", " << m.input.rank << "},\n    ctnn::dag<" << literal(name);
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const host::graph_node& n = m.nodes[i];
    h << ",\n        ctnn::node<" << literal(n.name) << ", " << layer_type_text(n, input);
    for (int32_t v : n.inputs) h << ", " << v;
    h << ">";
  }
  h << ">>;\n\n"
    << "/// The " << dt << " parameters of " << name << " (16-byte aligned, in .rodata).\n"
    << "inline const uint8_t* " << name << "_params() { return reinterpret_cast<const uint8_t*>(" << symbol << "); }\n"
    << "inline constexpr size_t " << name << "_params_bytes = " << blob_bytes << ";\n"
    << "static_assert(ctnn::runtime::param_layout_of<" << name << ", ctnn::dtype::" << dt << ">.total_bytes == " << name
    << "_params_bytes, \"ctnn-import: the blob's layout differs from the network type's\");\n"
    << "/// The ONNX tensor each leaf computes, in execution order (for per-layer comparisons).\n"
    << "inline constexpr const char* " << name << "_onnx_outputs[] = {";
  for (std::size_t i = 0; i < m.outputs.size(); ++i) h << (i ? ", " : "") << literal(m.outputs[i]);
  h << "};\n\n";
  if (int8) {
    const std::vector<runtime::tensor_quant>& tq = q->cal.quant;
    const runtime::tensor_quant in = tq.front(), out = tq[static_cast<std::size_t>(rows.output_tensor)];
    h << "/// int8 quantization of every tensor (tensor 0 the input, tensor i + 1 leaf i's output): real = scale *\n"
      << "/// (q - zero_point). The same values as the blob's table (runtime::param_layout_of<...>.quant_scale / quant_zp).\n"
      << "inline constexpr float " << name << "_tensor_scales[] = {";
    for (std::size_t t = 0; t < tq.size(); ++t) h << (t ? ", " : "") << float_literal(tq[t].scale);
    h << "};\ninline constexpr int32_t " << name << "_tensor_zero_points[] = {";
    for (std::size_t t = 0; t < tq.size(); ++t) h << (t ? ", " : "") << tq[t].zero_point;
    h << "};\n/// The calibrated range of each tensor (before TFLite's widening to include 0).\n"
      << "inline constexpr float " << name << "_tensor_ranges[][2] = {";
    for (std::size_t t = 0; t < tq.size(); ++t)
      h << (t ? ", " : "") << "{" << float_literal(q->cal.lo[t]) << ", " << float_literal(q->cal.hi[t]) << "}";
    h << "};\n/// Per-output-channel weight scales (zero point 0) of the leaves with weights: leaf i's are at\n"
      << "/// " << name << "_weight_scales + " << name << "_weight_scale_offsets[i] (-1: the leaf has none).\n"
      << "inline constexpr float " << name << "_weight_scales[] = {";
    std::vector<int64_t> offsets;
    int64_t at = 0;
    bool first = true;
    for (const std::vector<float>& ws : q->q.weight_scales) {
      offsets.push_back(ws.empty() ? -1 : at);
      for (float v : ws) {
        h << (first ? "" : ", ") << float_literal(v);
        first = false;
      }
      at += static_cast<int64_t>(ws.size());
    }
    if (first) h << "0.0f";
    h << "};\ninline constexpr int32_t " << name << "_weight_scale_offsets[] = {";
    for (std::size_t i = 0; i < offsets.size(); ++i) h << (i ? ", " : "") << offsets[i];
    h << "};\n/// The input's and the output's quantization.\n"
      << "inline constexpr ctnn::runtime::tensor_quant " << name << "_input_quant{" << float_literal(in.scale) << ", "
      << in.zero_point << "};\n"
      << "inline constexpr ctnn::runtime::tensor_quant " << name << "_output_quant{" << float_literal(out.scale) << ", "
      << out.zero_point << "};\n"
      << "/// Quantizes n input values: clamp(round(x / scale) + zero_point) (round half away from zero).\n"
      << "inline void " << name << "_quantize_input(const float* x, int8_t* q, size_t n) {\n"
      << "  for (size_t i = 0; i < n; ++i)\n"
      << "    q[i] = ctnn::quant::quantize<int8_t>(x[i], " << name << "_input_quant.scale, " << name
      << "_input_quant.zero_point);\n}\n"
      << "/// Dequantizes n output values: scale * (q - zero_point).\n"
      << "inline void " << name << "_dequantize_output(const int8_t* q, float* y, size_t n) {\n"
      << "  for (size_t i = 0; i < n; ++i)\n"
      << "    y[i] = ctnn::quant::dequantize<int8_t>(q[i], " << name << "_output_quant.scale, " << name
      << "_output_quant.zero_point);\n}\n\n";
  }
  h << "/// Everything a generic program (the runner of ctnn_add_model_runner) needs of " << name << ".\n"
    << "struct " << name << "_model {\n  using network = " << name << ";\n  static constexpr const char* name = "
    << literal(name) << ";\n  static constexpr ctnn::dtype dtype = ctnn::dtype::" << dt << ";\n"
    << "  static const uint8_t* params() { return " << name << "_params(); }\n"
    << "  static constexpr size_t params_bytes = " << name << "_params_bytes;\n"
    << "  static constexpr const char* const* onnx_outputs = " << name << "_onnx_outputs;\n";
  if (int8)
    h << "  static constexpr ctnn::runtime::tensor_quant input_quant = " << name << "_input_quant;\n"
      << "  static constexpr ctnn::runtime::tensor_quant output_quant = " << name << "_output_quant;\n"
      << "  static constexpr const float* tensor_scales = " << name << "_tensor_scales;\n"
      << "  static constexpr const int32_t* tensor_zero_points = " << name << "_tensor_zero_points;\n"
      << "  static void quantize_input(const float* x, int8_t* q, size_t n) { " << name << "_quantize_input(x, q, n); }\n"
      << "  static void dequantize_output(const int8_t* q, float* y, size_t n) { " << name
      << "_dequantize_output(q, y, n); }\n";
  h << "};\n\n}  // namespace " << ns << "\n";
  return h.str();
}

}  // namespace

int main(int argc, char** argv) {
  // protobuf would print its own log lines (a fatal one before throwing FatalException, which the
  // catch below turns into the one line of the refusal)
  google::protobuf::SetLogHandler(nullptr);
  std::string input, dir, name, ns = "ctnn_models", dtype_name = "float32", calibration, rule_name, sqnr_svg;
  bool sqnr = false, fuse = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](const char* flag) -> std::string {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') throw std::invalid_argument(std::string(flag) + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "-h" || a == "--help") {
        std::printf("%s\n", usage_line);
        return ctnn::cli::stdout_written("ctnn-import") ? 0 : 1;
      }
      if (a == "-o") dir = next("-o");
      else if (a == "--name") name = next("--name");
      else if (a == "--namespace") ns = next("--namespace");
      else if (a == "--dtype") dtype_name = next("--dtype");
      else if (a == "--calibration") calibration = next("--calibration");
      else if (a == "--calibration-rule") rule_name = next("--calibration-rule");
      else if (a == "--sqnr") sqnr = true;
      else if (a == "--fuse") fuse = true;
      else if (a == "--sqnr-svg") sqnr_svg = next("--sqnr-svg");
      else if (!a.empty() && a[0] == '-') return usage("unknown option '" + a + "'");
      else if (input.empty()) input = a;
      else return usage("unexpected argument '" + a + "'");
    } catch (const std::invalid_argument& e) {
      return usage(e.what());
    }
  }
  if (input.empty()) return usage("no model given");
  if (dir.empty()) return usage("no output directory given (-o DIR)");
  if (name.empty()) name = to_identifier(fs::path(input).stem().string());
  if (!identifier(name)) return usage("--name '" + name + "' is not a C++ identifier");
  if (!identifier(ns)) return usage("--namespace '" + ns + "' is not a C++ identifier");
  if (dtype_name != "float32" && dtype_name != "int8") return usage("--dtype '" + dtype_name + "': float32 or int8");
  const bool int8 = dtype_name == "int8";
  if (int8 && calibration.empty()) return usage("--dtype int8 needs --calibration DATA.npy (the calibration samples)");
  if (!int8 && (!calibration.empty() || !rule_name.empty() || sqnr || !sqnr_svg.empty()))
    return usage("--calibration, --calibration-rule, --sqnr and --sqnr-svg go with --dtype int8");
  if (int8 && fuse) return usage("--fuse goes with --dtype float32 (the int8 import always folds and fuses)");
  host::calibration_rule rule = host::calibration_rule::minmax;
  if (!rule_name.empty() && !host::parse_rule(rule_name, rule))
    return usage("--calibration-rule '" + rule_name + "': minmax, percentile or mse");
  const fs::path out_dir(dir);
  const fs::path hpp = out_dir / (name + ".hpp"), asm_file = out_dir / (name + ".S");
  const std::string bin_name = name + (int8 ? ".i8.bin" : ".f32.bin");
  const fs::path bin = out_dir / bin_name;
  std::vector<fs::path> written, renamed;  // removed again on any failure: no partial output
  try {
    const onnx_import::imported x = onnx_import::read_rows(input, name);
    // int8: the folded and fused model, calibrated, its int8 parameters
    onnx_import::int8_import q8;
    if (int8) {
      q8 = onnx_import::quantize_model(x.m, name, calibration, rule, sqnr || !sqnr_svg.empty());
      if (sqnr) std::fputs(onnx_import::sqnr_table(q8).c_str(), stdout);
      if (!sqnr_svg.empty()) {
        written.push_back(sqnr_svg);
        write_file(sqnr_svg, onnx_import::sqnr_chart(q8, name), input + ": the SQNR chart: ");
      }
    }
    // float32 --fuse: the graph the int8 import quantizes (BatchNorm folded, activations fused)
    onnx_import::model fused_m;
    host::graph_rows fused_rows;
    onnx_import::int8_changes fused_changes;
    if (fuse) {
      fused_m = onnx_import::prepare_int8(x.m, &fused_changes);
      fused_rows = host::build_rows(name, fused_m.input, fused_m.nodes);
      if (!fused_rows.first_fault.report.ok())
        throw onnx_import::import_error(input + ": the fused graph (BatchNorm folded, activations fused) is refused: " +
                                        std::string(fused_rows.first_fault.type));
    }
    const onnx_import::model& m = int8 ? q8.m : (fuse ? fused_m : x.m);
    const host::graph_rows& rows = int8 ? q8.rows : (fuse ? fused_rows : x.rows);
    const std::string blob = int8 ? std::string(reinterpret_cast<const char*>(q8.q.blob->data), q8.q.blob->size)
                                  : onnx_import::float_blob(m, rows);
    const std::string symbol = ns + "_" + name + "_params";
    const std::string header =
        header_text(input, name, ns, symbol, m, rows, blob.size(), bin_name, int8 ? &q8 : nullptr, calibration);
    std::ostringstream s;
    s << "/* Generated by ctnn-import from " << fs::path(input).filename().string() << ". DO NOT EDIT. */\n"
      << "    .section .rodata." << symbol << ",\"a\"\n    .balign 16\n    .global " << symbol << "\n"
      << "    .type " << symbol << ", %object\n" << symbol << ":\n    .incbin \"" << bin_name << "\"\n"
      << "    .size " << symbol << ", . - " << symbol << "\n"
      << "    .section .note.GNU-stack,\"\",%progbits\n";
    // all three files or none: each is written to NAME.*.tmp, then the three are renamed. A file
    // that already holds its new content is left as it is, its time stamp too (and is not removed
    // on a failure, which leaves it as it was): a float32 model retrained (new weights, same
    // graph) changes only the blob, so a build that depends on the header recompiles nothing and
    // only reassembles the .incbin and relinks.
    const std::string output_fault = input + ": the output: ";
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) throw onnx_import::import_error(output_fault + "cannot create '" + out_dir.string() + "': " + ec.message());
    const std::pair<fs::path, std::string> all[] = {{bin, blob}, {asm_file, s.str()}, {hpp, header}};
    std::vector<std::pair<fs::path, const std::string*>> files;
    for (const auto& [path, data] : all)
      if (!holds(path, data)) files.emplace_back(path, &data);
    for (const auto& [path, data] : files) {
      const fs::path tmp = path.string() + ".tmp";
      written.push_back(tmp);
      write_file(tmp, *data, output_fault);
    }
    for (const auto& [path, data] : files) {
      fs::rename(path.string() + ".tmp", path, ec);
      if (ec)
        throw onnx_import::import_error(output_fault + "cannot rename '" + path.string() + ".tmp' to '" + path.string() +
                                        "': " + ec.message());
      renamed.push_back(path);
    }
    std::printf("ctnn-import: %s -> %s (%zu leaves, %zu parameter bytes", input.c_str(), hpp.string().c_str(),
                m.nodes.size(), blob.size());
    if (int8)
      std::printf(", int8 calibrated on %lld samples, rule %s; %d BatchNorm folded, %d activations fused%s",
                  static_cast<long long>(q8.cal.samples), host::name_of(q8.cal.rule), q8.changes.folded, q8.changes.fused,
                  q8.changes.hardswish > 0 ? ("; " + std::to_string(q8.changes.hardswish) + " x * HardSigmoid(x) as HardSwish").c_str() : "");
    if (fuse)
      std::printf(", %d BatchNorm folded, %d activations fused%s", fused_changes.folded, fused_changes.fused,
                  fused_changes.hardswish > 0 ? ("; " + std::to_string(fused_changes.hardswish) + " x * HardSigmoid(x) as HardSwish").c_str() : "");
    std::printf(")\n");
    // the summary is the last thing written: an stdout that refuses it fails the import (and the
    // files go, as for any other fault)
    if (!ctnn::cli::stdout_written("ctnn-import")) {
      for (const fs::path& p : renamed) fs::remove(p, ec);
      for (const fs::path& p : written) fs::remove(p, ec);
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::error_code ec;
    for (const fs::path& p : written) fs::remove(p, ec);
    for (const fs::path& p : renamed) fs::remove(p, ec);
    std::string what = e.what();
    for (char& c : what)
      if (c == '\n' || c == '\r') c = ' ';
    std::fprintf(stderr, "ctnn-import: %s\n", what.c_str());
    return 1;
  }
}
