// ctnn-report: prints the analysis of a zoo model (its compile-time constants) or of an ONNX file
// (the same arithmetic and planner over the rows built from the file) as a table, JSON or CSV.
//   ctnn-report --list
//   ctnn-report <model>|MODEL.onnx [--dtype float32|int8] [--format table|json|csv] [--memory-svg FILE] [--tiles T]
//   ctnn-report <model>|MODEL.onnx [--dtype float32|int8] --roofline FILE.svg [--roofline-repeats N] [--roofline-buffer-mib M]
//   ctnn-report MODEL.onnx --dtype int8 --calibration DATA.npy [--calibration-rule R] [--sqnr-svg FILE]
// The last form reports the int8 model ctnn-import --dtype int8 writes (BatchNorm folded,
// activations fused) and then each layer's SQNR of int8 against float32 over the calibration
// samples, the worst layer named; --sqnr-svg draws it.
// --roofline runs the network on the optimized kernels, times each leaf (median of N runs),
// measures this host's GEMM peak and memory bandwidth, prints the per-leaf table and draws it.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "ctnn/host/memory_svg.hpp"
#include "ctnn/host/report.hpp"
#include "ctnn/host/roofline.hpp"
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
  /// each leaf's median time over `repeats` runs on the optimized kernels (empty: `failed` says why)
  std::function<std::vector<double>(ctnn::dtype, int, std::string&)> time_leaves;
};

std::vector<model_entry> models() {
  std::vector<model_entry> v;
  ctnn::zoo::for_each_model([&v]<class Net>(const char* name) {
    v.push_back({name, [](ctnn::dtype t) { return ctnn::host::make_report<Net>(t); },
                 [](const ctnn::host::report& r, int64_t tile) { return ctnn::host::tiling_table<Net>(r, tile); },
                 [](ctnn::dtype t, int repeats, std::string& failed) {
                   return t == ctnn::dtype::int8 ? ctnn::host::time_leaves<Net, int8_t>(repeats, 1, failed)
                                                 : ctnn::host::time_leaves<Net, float>(repeats, 1, failed);
                 }});
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
               "       ctnn-report <model>|MODEL.onnx [--dtype float32|int8] --roofline FILE.svg [--roofline-repeats N]\n"
               "                   [--roofline-buffer-mib M] [--calibration DATA.npy (int8 ONNX)]\n"
               "                   (each layer timed on this host against its GEMM peak\n"
               "                   and memory bandwidth: N runs, default 7; STREAM over M MiB, default 256)\n"
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

/// What --roofline asks for.
struct roofline_request {
  std::string path;
  uint64_t repeats = 7;
  uint64_t buffer_mib = 256;
};

/// The roofline of report r: the SVG written atomically (a temporary beside it, renamed), the
/// table printed after the memory SVG, if any. Status 1 when the SVG cannot be written or a run fails.
int emit_roofline(const ctnn::host::report& r, const std::string& svg_path, const roofline_request& q,
                  const std::function<std::vector<double>(ctnn::dtype, int, std::string&)>& time_leaves,
                  const std::string& after = {}) {
  // the temporary first: an unwritable path fails before minutes of measurement
  const std::string tmp = q.path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "ctnn-report: cannot write '%s': %s\n", q.path.c_str(), std::strerror(errno));
    return 1;
  }
  std::string failed;
  std::vector<double> seconds;
  ctnn::host::host_roofs roofs;
  try {  // the buffers: up to 4 GiB for STREAM
    seconds = time_leaves(r.type, static_cast<int>(q.repeats), failed);
    if (!seconds.empty()) roofs = ctnn::host::measure_roofs(r.type, q.buffer_mib << 20);
  } catch (const std::bad_alloc&) {
    failed = "not enough memory for the measurement (--roofline-buffer-mib " + std::to_string(q.buffer_mib) + ")";
    seconds.clear();
  }
  if (seconds.empty()) {
    std::fclose(f);
    std::remove(tmp.c_str());
    std::fprintf(stderr, "ctnn-report: %s: %s\n", r.model.c_str(), failed.c_str());
    return 1;
  }
  const ctnn::host::roofline line = ctnn::host::make_roofline(r, seconds, roofs, static_cast<int>(q.repeats));
  const std::string svg = ctnn::host::roofline_svg(line);
  bool ok = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), q.path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    std::fprintf(stderr, "ctnn-report: error writing '%s': %s\n", q.path.c_str(), std::strerror(e));
    return 1;
  }
  const std::string table = ctnn::host::roofline_table(line) + after;
  return emit(r, "table", svg_path, [&] { return table; });
}

bool is_onnx_path(const std::string& s) { return s.size() > 5 && s.compare(s.size() - 5, 5, ".onnx") == 0; }

/// How an ONNX file is quantized for the int8 report (empty calibration: not).
struct int8_request {
  std::string calibration, rule = "minmax", sqnr_svg;
};

/// The report of an ONNX file: status 1 and one line when it cannot be read or lowered. With a
/// calibration file, the report of its int8 model and the per-layer SQNR table after it.
int report_file(const std::string& path, ctnn::dtype type, const std::string& format, const std::string& svg_path,
                int64_t tile, const int8_request& q, const roofline_request& roof) {
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
      if (!roof.path.empty())
        return emit_roofline(
            r, svg_path, roof,
            [&](ctnn::dtype, int repeats, std::string& failed) {
              return ctnn::host::time_rows<int8_t>(r8.rows, r8.q.blob->data, r8.q.layout, repeats, 1, failed);
            },
            "\n" + table);
      return emit(r, format, svg_path, [&] { return ctnn::host::to_table(r) + "\n" + table; });
    }
    const ctnn::host::report r = ctnn::host::make_report(x.rows.view(), type);
    if (!roof.path.empty()) {  // float32: the file's own parameters (int8 needs --calibration, checked before)
      const std::string blob = ctnn::onnx_import::float_blob(x.m, x.rows);
      ctnn::host::aligned_bytes params(blob.size());
      if (!blob.empty()) std::memcpy(params.data, blob.data(), blob.size());
      const ctnn::host::graph_param_layout layout = ctnn::host::param_layout(x.rows, ctnn::dtype::float32);
      return emit_roofline(r, svg_path, roof, [&](ctnn::dtype, int repeats, std::string& failed) {
        return ctnn::host::time_rows<float>(x.rows, params.data, layout, repeats, 1, failed);
      });
    }
    std::function<std::string()> tiling;
    if (tile > 0) tiling = [&] { return ctnn::host::tiling_table(x.rows.view(), r, tile); };
    return emit(r, format, svg_path, tiling);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ctnn-report: %s\n", e.what());
    return 1;
  }
#else
  (void)type, (void)format, (void)svg_path, (void)tile, (void)q, (void)roof;
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
  roofline_request roof;
  bool roof_option = false;
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
    } else if (a == "--roofline") {
      const char* v = value("--roofline");
      if (v == nullptr) return usage("--roofline needs a file name (FILE.svg)");
      if (*v == '\0') return usage("--roofline: the file name is empty");
      roof.path = v;
    } else if (a == "--roofline-repeats" || a == "--roofline-buffer-mib") {
      const char* v = value(a.c_str());
      const bool repeats = a == "--roofline-repeats";
      if (v == nullptr) return usage((a + (repeats ? " needs a number of runs" : " needs a size in MiB")).c_str());
      const std::string why = repeats ? ctnn::cli::number_option(a, v, 1, 1000, roof.repeats)
                                      : ctnn::cli::number_option(a, v, 1, 4096, roof.buffer_mib);
      if (!why.empty()) return usage(why.c_str());
      roof_option = true;
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
  if (!roof.path.empty()) {
    if (format != "table" || tile > 0) return usage("--roofline prints its own table (no --format json/csv, no --tiles)");
    if (is_onnx_path(model) && type == ctnn::dtype::int8 && quantize.calibration.empty())
      return usage("--roofline of an int8 MODEL.onnx needs --calibration DATA.npy (the int8 model is quantized from it)");
  } else if (roof_option) {
    return usage("--roofline-repeats and --roofline-buffer-mib go with --roofline");
  }
  if (is_onnx_path(model)) return report_file(model, type, format, svg_path, tile, quantize, roof);
  for (const model_entry& m : zoo) {
    if (m.name != model) continue;
    const ctnn::host::report r = m.make(type);
    std::function<std::string()> tiling;
    if (tile > 0) tiling = [&] { return m.tiling(r, tile); };
    if (!roof.path.empty()) return emit_roofline(r, svg_path, roof, m.time_leaves);
    return emit(r, format, svg_path, tiling);
  }
  return usage(("unknown model '" + model + "'").c_str());
}
