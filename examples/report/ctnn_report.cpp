// ctnn-report: prints the analysis of a zoo model (its compile-time constants) or of an ONNX file
// (the same arithmetic and planner over the rows built from the file) as a table, JSON or CSV.
//   ctnn-report --list
//   ctnn-report <model>|MODEL.onnx [--dtype float32|int8] [--format table|json|csv] [--memory-svg FILE] [--tiles T]
//   ctnn-report MODEL.onnx --dtype int8 --calibration DATA.npy [--calibration-rule R] [--sqnr-svg FILE]
// The last form reports the int8 model ctnn-import --dtype int8 writes (BatchNorm folded,
// activations fused) and then each layer's SQNR of int8 against float32 over the calibration
// samples, the worst layer named; --sqnr-svg draws it.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ctnn/host/memory_svg.hpp"
#include "ctnn/host/report.hpp"
#include "ctnn/host/tiling_report.hpp"
#include "ctnn/zoo/zoo.hpp"
#include "ctnn/host/cli.hpp"
#if CTNN_REPORT_ONNX
#include <exception>
#include <filesystem>

#include "../onnx/onnx_quantize.hpp"
#include "../onnx/onnx_rows.hpp"
#endif

namespace {

struct model_entry {
  std::string name;
  std::function<ctnn::host::report(ctnn::dtype)> make;
  std::function<std::string(const ctnn::host::report&, int64_t)> tiling;
};

std::vector<model_entry> models() {
  std::vector<model_entry> v;
  ctnn::zoo::for_each_model([&v]<class Net>(const char* name) {
    v.push_back({name, [](ctnn::dtype t) { return ctnn::host::make_report<Net>(t); },
                 [](const ctnn::host::report& r, int64_t tile) { return ctnn::host::tiling_table<Net>(r, tile); }});
  });
  return v;
}

/// A bad command line: one line naming the fault, status 2. usage(nullptr): the help text (--help).
int usage(const char* why) {
  if (why != nullptr) {
    std::fprintf(stderr, "ctnn-report: %s (see ctnn-report --help)\n", why);
    return 2;
  }
  std::fprintf(stderr,
               "usage: ctnn-report --list\n"
               "       ctnn-report <model>|MODEL.onnx [--dtype float32|int8] [--format table|json|csv] [--memory-svg FILE]\n"
               "                   [--tiles 8|16|32|64|128|256]   (fixed-tile GEMM splitting instead of the report)\n"
               "       ctnn-report MODEL.onnx --dtype int8 --calibration DATA.npy [--calibration-rule minmax|percentile|mse]\n"
               "                   [--sqnr-svg FILE]   (the int8 model and each layer's SQNR against float32)\n"
               "Run 'ctnn-report --list' for the model names. A MODEL.onnx is read, checked and lowered as\n"
               "ctnn-import does; its layers keep the ONNX node names.\n");
  return 2;
}

/// Prints the report (or the tiling table) and writes the SVG; the status of the run.
int emit(const ctnn::host::report& r, const std::string& format, const std::string& svg_path,
         const std::function<std::string()>& tiling) {
  const std::string out = tiling ? tiling()
                          : format == "json" ? ctnn::host::to_json(r)
                          : format == "csv"  ? ctnn::host::to_csv(r)
                                             : ctnn::host::to_table(r);
  if (!svg_path.empty()) {
    std::FILE* f = std::fopen(svg_path.c_str(), "wb");
    if (f == nullptr) {
      std::fprintf(stderr, "ctnn-report: cannot write '%s'\n", svg_path.c_str());
      return 1;
    }
    const std::string svg = ctnn::host::memory_svg(r);
    const bool ok = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
    if (std::fclose(f) != 0 || !ok) {
      std::fprintf(stderr, "ctnn-report: error writing '%s'\n", svg_path.c_str());
      return 1;
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return ctnn::cli::stdout_written("ctnn-report") ? 0 : 1;
}

bool is_onnx_path(const std::string& s) { return s.size() > 5 && s.compare(s.size() - 5, 5, ".onnx") == 0; }

/// How an ONNX file is quantized for the int8 report (empty calibration: not).
struct int8_request {
  std::string calibration, rule = "minmax", sqnr_svg;
};

/// The report of an ONNX file: status 1 and one line when it cannot be read or lowered. With a
/// calibration file, the report of its int8 model and the per-layer SQNR table after it.
int report_file(const std::string& path, ctnn::dtype type, const std::string& format, const std::string& svg_path,
                int64_t tile, const int8_request& q) {
#if CTNN_REPORT_ONNX
  try {
    const std::string name = std::filesystem::path(path).stem().string();
    const ctnn::onnx_import::imported x = ctnn::onnx_import::read_rows(path, name);
    if (!q.calibration.empty()) {
      ctnn::host::calibration_rule rule{};
      ctnn::host::parse_rule(q.rule, rule);
      const ctnn::onnx_import::int8_import r8 = ctnn::onnx_import::quantize_model(x.m, name, q.calibration, rule, true);
      if (!q.sqnr_svg.empty()) {
        std::FILE* f = std::fopen(q.sqnr_svg.c_str(), "wb");
        const std::string svg = ctnn::onnx_import::sqnr_chart(r8, name);
        const bool ok = f != nullptr && std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
        if (f == nullptr || std::fclose(f) != 0 || !ok) {
          std::fprintf(stderr, "ctnn-report: cannot write '%s'\n", q.sqnr_svg.c_str());
          return 1;
        }
      }
      const ctnn::host::report r = ctnn::host::make_report(r8.rows.view(), type);
      const std::string table = ctnn::onnx_import::sqnr_table(r8);
      return emit(r, format, svg_path, [&] { return ctnn::host::to_table(r) + "\n" + table; });
    }
    const ctnn::host::report r = ctnn::host::make_report(x.rows.view(), type);
    std::function<std::string()> tiling;
    if (tile > 0) tiling = [&] { return ctnn::host::tiling_table(x.rows.view(), r, tile); };
    return emit(r, format, svg_path, tiling);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ctnn-report: %s\n", e.what());
    return 1;
  }
#else
  (void)type, (void)format, (void)svg_path, (void)tile, (void)q;
  std::fprintf(stderr, "ctnn-report: %s: this ctnn-report was built without ONNX support (libonnx-dev, libprotobuf-dev)\n",
               path.c_str());
  return 1;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<model_entry> zoo = models();
  std::string model;
  std::string format = "table";
  std::string svg_path;
  int64_t tile = 0;
  ctnn::dtype type = ctnn::dtype::float32;
  int8_request quantize;
  bool rule_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)flag;
      return argv[++i];
    };
    if (a == "--list") {
      for (const model_entry& m : zoo) std::printf("%s\n", m.name.c_str());
      return ctnn::cli::stdout_written("ctnn-report") ? 0 : 1;
    }
    if (a == "--help" || a == "-h") {
      usage(nullptr);
      return 0;
    }
    if (a == "--dtype") {
      const char* v = value("--dtype");
      if (v == nullptr) return usage("--dtype needs a value: float32 or int8");
      if (std::strcmp(v, "float32") == 0) type = ctnn::dtype::float32;
      else if (std::strcmp(v, "int8") == 0) type = ctnn::dtype::int8;
      else return usage((std::string("unknown dtype '") + v + "' (expected float32 or int8)").c_str());
    } else if (a == "--format") {
      const char* v = value("--format");
      if (v == nullptr) return usage("--format needs a value: table, json or csv");
      format = v;
      if (format != "table" && format != "json" && format != "csv")
        return usage(("unknown format '" + format + "' (expected table, json or csv)").c_str());
    } else if (a == "--tiles") {
      const char* v = value("--tiles");
      if (v == nullptr) return usage("--tiles needs a tile size: 8, 16, 32, 64, 128 or 256");
      const std::string t = v;
      if (t != "8" && t != "16" && t != "32" && t != "64" && t != "128" && t != "256")
        return usage(("unsupported tile size '" + t + "' (expected 8, 16, 32, 64, 128 or 256)").c_str());
      tile = std::stoll(t);
    } else if (a == "--memory-svg") {
      const char* v = value("--memory-svg");
      if (v == nullptr) return usage("--memory-svg needs a file name");
      if (*v == '\0') return usage("--memory-svg: the file name is empty");
      svg_path = v;
    } else if (a == "--calibration") {
      const char* v = value("--calibration");
      if (v == nullptr || *v == '\0') return usage("--calibration needs a file (float32 samples of the model's input, .npy)");
      quantize.calibration = v;
    } else if (a == "--calibration-rule") {
      const char* v = value("--calibration-rule");
      if (v == nullptr || (std::strcmp(v, "minmax") != 0 && std::strcmp(v, "percentile") != 0 && std::strcmp(v, "mse") != 0))
        return usage("--calibration-rule needs minmax, percentile or mse");
      quantize.rule = v;
      rule_given = true;
    } else if (a == "--sqnr-svg") {
      const char* v = value("--sqnr-svg");
      if (v == nullptr || *v == '\0') return usage("--sqnr-svg needs a file name");
      quantize.sqnr_svg = v;
    } else if (!a.empty() && a[0] == '-') {
      return usage(("unknown option '" + a + "'").c_str());
    } else if (model.empty()) {
      model = a;
    } else {
      return usage(("unexpected argument '" + a + "'").c_str());
    }
  }
  if (model.empty()) return usage("no model given");
  if (quantize.calibration.empty() && (rule_given || !quantize.sqnr_svg.empty()))
    return usage("--calibration-rule and --sqnr-svg go with --calibration");
  if (!quantize.calibration.empty()) {
    if (!is_onnx_path(model)) return usage("--calibration quantizes an ONNX model (MODEL.onnx)");
    if (type != ctnn::dtype::int8) return usage("--calibration goes with --dtype int8");
    if (format != "table" || tile > 0) return usage("--calibration prints tables (no --format json/csv, no --tiles)");
  }
  if (is_onnx_path(model)) return report_file(model, type, format, svg_path, tile, quantize);
  for (const model_entry& m : zoo) {
    if (m.name != model) continue;
    const ctnn::host::report r = m.make(type);
    std::function<std::string()> tiling;
    if (tile > 0) tiling = [&] { return m.tiling(r, tile); };
    return emit(r, format, svg_path, tiling);
  }
  return usage(("unknown model '" + model + "'").c_str());
}
