// ctnn-import: an ONNX model -> one self-contained ctnn header (the network as a type of the
// description language, a dag<> whose nodes keep the ONNX node names) plus its float32 parameter
// blob in the layout of runtime::param_layout_of, assembled into .rodata by an .incbin:
//   ctnn-import MODEL.onnx -o DIR [--name NAME] [--namespace NS]
// writes DIR/NAME.hpp, DIR/NAME.f32.bin and DIR/NAME.S (assemble it with -I DIR). The same input
// gives byte-identical output. Any refusal is one line on stderr, exit 1, and no file is left.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "ctnn/host/cli.hpp"
#include "onnx_rows.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ctnn;

constexpr const char* usage_line = "usage: ctnn-import MODEL.onnx -o DIR [--name NAME] [--namespace NS]";

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

/// The layer type of a node, in the public description language.
std::string layer_type_text(const host::graph_node& n, const std::string& file) {
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
    case op::clamp: {  // both bounds over one power-of-ten denominator (the larger is a multiple of the other)
      const auto [lo, lo_den] = ratio_of(g.alpha, where() + ": min");
      const auto [hi, hi_den] = ratio_of(g.beta, where() + ": max");
      const int64_t den = std::max(lo_den, hi_den), lo_k = den / lo_den, hi_k = den / hi_den;
      if (std::llabs(lo) > INT64_MAX / lo_k || std::llabs(hi) > INT64_MAX / hi_k)
        throw onnx_import::import_error(where() + ": Clip bounds too far apart in scale for one denominator");
      return "ctnn::clamp<" + std::to_string(lo * lo_k) + ", " + std::to_string(hi * hi_k) + ", " + std::to_string(den) + ">";
    }
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
      return "ctnn::zero_pad2d<" + std::to_string(g.padding.left) + ", " + std::to_string(g.padding.right) + ", " +
             std::to_string(g.padding.top) + ", " + std::to_string(g.padding.bottom) + ">";
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

/// The float32 blob in the layout of param_layout_of (computed from the same rows).
std::string blob_of(const onnx_import::model& m, const host::graph_rows& rows) {
  const host::graph_param_layout layout = host::param_layout(rows, dtype::float32);
  std::string blob(layout.total_bytes, '\0');
  auto put = [&](uint64_t offset, uint64_t bytes, const std::vector<float>& v, std::size_t leaf, const char* what) {
    if (bytes != v.size() * sizeof(float))
      throw onnx_import::import_error(m.file + ": node '" + m.nodes[leaf].name + "': " + what + " has " +
                                      std::to_string(v.size()) + " values, ctnn's layout " +
                                      std::to_string(bytes / sizeof(float)));
    if (bytes > 0) std::memcpy(blob.data() + offset, v.data(), bytes);
  };
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const runtime::leaf_param_layout& l = layout.leaves[i];
    const onnx_import::leaf_params& p = m.params[i];
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

void write_file(const fs::path& p, const std::string& data, const std::string& fault) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  f.close();
  if (!f) throw onnx_import::import_error(fault + "cannot write '" + p.string() + "'");
}

}  // namespace

int main(int argc, char** argv) {
  // protobuf would print its own log lines (a fatal one before throwing FatalException, which the
  // catch below turns into the one line of the refusal)
  google::protobuf::SetLogHandler(nullptr);
  std::string input, dir, name, ns = "ctnn_models";
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
  const fs::path out_dir(dir);
  const fs::path hpp = out_dir / (name + ".hpp"), bin = out_dir / (name + ".f32.bin"), asm_file = out_dir / (name + ".S");
  std::vector<fs::path> written, renamed;  // removed again on any failure: no partial output
  try {
    const onnx_import::imported x = onnx_import::read_rows(input, name);
    const onnx_import::model& m = x.m;
    const host::graph_rows& rows = x.rows;
    const std::string blob = blob_of(m, rows);
    const std::string symbol = ns + "_" + name + "_params";
    std::ostringstream h;
    h << "// Generated by ctnn-import from " << fs::path(input).filename().string() << ". DO NOT EDIT.\n"
      << "// " << m.nodes.size() << " leaves, " << rows.rows[0].params() << " parameters, "
      << rows.rows[0].counts.macs << " MACs. Parameters: " << name << ".f32.bin (" << blob.size()
      << " bytes, float32, runtime::param_layout_of), placed in .rodata by " << name << ".S (-I this directory).\n"
      << "#pragma once\n#include <stddef.h>\n#include <stdint.h>\n\n#include \"ctnn/nn/layers.hpp\"\n#include \"ctnn/runtime/params.hpp\"\n\n"
      << "extern \"C\" const unsigned char " << symbol << "[];\n\nnamespace " << ns << " {\n\n"
      << "/// " << fs::path(input).filename().string() << ": input " << m.input_name << " "
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
      << "/// The float32 parameters of " << name << " (16-byte aligned, in .rodata).\n"
      << "inline const uint8_t* " << name << "_params() { return reinterpret_cast<const uint8_t*>(" << symbol << "); }\n"
      << "inline constexpr size_t " << name << "_params_bytes = " << blob.size() << ";\n"
      << "static_assert(ctnn::runtime::param_layout_of<" << name << ", ctnn::dtype::float32>.total_bytes == " << name
      << "_params_bytes, \"ctnn-import: the blob's layout differs from the network type's\");\n"
      << "/// The ONNX tensor each leaf computes, in execution order (for per-layer comparisons).\n"
      << "inline constexpr const char* " << name << "_onnx_outputs[] = {";
    for (std::size_t i = 0; i < m.outputs.size(); ++i) h << (i ? ", " : "") << literal(m.outputs[i]);
    h << "};\n\n"
      << "/// Everything a generic program (the runner of ctnn_add_model_runner) needs of " << name << ".\n"
      << "struct " << name << "_model {\n  using network = " << name << ";\n  static constexpr const char* name = "
      << literal(name) << ";\n  static const uint8_t* params() { return " << name << "_params(); }\n"
      << "  static constexpr size_t params_bytes = " << name << "_params_bytes;\n"
      << "  static constexpr const char* const* onnx_outputs = " << name << "_onnx_outputs;\n};\n\n"
      << "}  // namespace " << ns << "\n";
    std::ostringstream s;
    s << "/* Generated by ctnn-import from " << fs::path(input).filename().string() << ". DO NOT EDIT. */\n"
      << "    .section .rodata." << symbol << ",\"a\"\n    .balign 16\n    .global " << symbol << "\n"
      << "    .type " << symbol << ", %object\n" << symbol << ":\n    .incbin \"" << name << ".f32.bin\"\n"
      << "    .size " << symbol << ", . - " << symbol << "\n"
      << "    .section .note.GNU-stack,\"\",%progbits\n";
    // all three files or none: each is written to NAME.*.tmp, then the three are renamed
    const std::string output_fault = input + ": the output: ";
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) throw onnx_import::import_error(output_fault + "cannot create '" + out_dir.string() + "': " + ec.message());
    const std::pair<fs::path, std::string> files[] = {{bin, blob}, {asm_file, s.str()}, {hpp, h.str()}};
    for (const auto& [path, data] : files) {
      const fs::path tmp = path.string() + ".tmp";
      written.push_back(tmp);
      write_file(tmp, data, output_fault);
    }
    for (const auto& [path, data] : files) {
      fs::rename(path.string() + ".tmp", path, ec);
      if (ec)
        throw onnx_import::import_error(output_fault + "cannot rename '" + path.string() + ".tmp' to '" + path.string() +
                                        "': " + ec.message());
      renamed.push_back(path);
    }
    std::printf("ctnn-import: %s -> %s (%zu leaves, %zu parameter bytes)\n", input.c_str(), hpp.string().c_str(),
                m.nodes.size(), blob.size());
    // the summary is the last thing written: an stdout that refuses it fails the import (and the
    // files go, as for any other fault)
    if (!ctnn::cli::stdout_written("ctnn-import")) {
      for (const fs::path& p : renamed) fs::remove(p, ec);
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
