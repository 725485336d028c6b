// <model>-run: runs an imported model (ctnn-import's header) on the host, float32.
//   <model>-run --input IN.npy --output OUT.npy [--dump-layers DIR] [--backend reference|optimized]
// IN: float32 [1, C, H, W] or a batch [N, C, H, W] (or [N, F] for a flat input), run sample by
// sample; OUT: [N, ...]. --dump-layers writes every leaf's output for all samples as
// DIR/<leaf>.npy and DIR/layers.tsv: leaf index, file, node name, ONNX output tensor name.
// Built by ctnn_add_model_runner with CTNN_MODEL_HEADER (the header) and CTNN_MODEL (its
// <name>_model struct). Faults: one line on stderr and exit 1.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ctnn/host/cli.hpp"
#include "ctnn/host/npy.hpp"
#include "ctnn/host/run_buffers.hpp"
#include "ctnn/runtime/runtime.hpp"
#include CTNN_MODEL_HEADER

namespace {

using model = CTNN_MODEL;
using net = model::network;
namespace rt = ctnn::runtime;

std::vector<std::int64_t> dims_of(ctnn::shape s, std::int64_t n) {
  if (s.rank == 1) return {n, s.c};
  return {n, s.c, s.h, s.w};
}

std::string file_name(int32_t leaf, const char* node) {
  std::string f = std::to_string(leaf) + "_";
  for (const char* p = node; *p != '\0'; ++p) {
    const char c = *p;
    f += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  }
  return f + ".npy";
}

int run(int argc, char** argv) {
  std::string in_path, out_path, dump_dir;
  rt::backend be = rt::backend::optimized;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--input") in_path = next();
    else if (a == "--output") out_path = next();
    else if (a == "--dump-layers") dump_dir = next();
    else if (a == "--backend") {
      const std::string b = next();
      if (b == "reference") be = rt::backend::reference;
      else if (b == "optimized") be = rt::backend::optimized;
      else throw std::runtime_error("unknown backend '" + b + "' (reference or optimized)");
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s --input IN.npy --output OUT.npy [--dump-layers DIR] [--backend reference|optimized]\n", argv[0]);
      return ctnn::cli::stdout_written(argv[0]) ? 0 : 1;
    } else {
      throw std::runtime_error("unknown argument '" + a + "'");
    }
  }
  if (in_path.empty() || out_path.empty()) throw std::runtime_error("--input and --output are required");
  const ctnn::host::npy_array x = ctnn::host::read_npy(in_path);
  const std::vector<std::int64_t> one = dims_of(net::input_shape, 1);
  std::int64_t n = 0;
  if (x.shape.size() == one.size() && x.shape.size() > 1 && std::equal(one.begin() + 1, one.end(), x.shape.begin() + 1))
    n = x.shape[0];
  std::string want;
  for (std::size_t k = 1; k < one.size(); ++k) want += ", " + std::to_string(one[k]);
  if (n <= 0) throw std::runtime_error(in_path + ": the input must be float32 [N" + want + "], N >= 1");

  constexpr auto& plan = ctnn::memory::plan_of<net, ctnn::dtype::float32>;
  ctnn::host::aligned_bytes arena(static_cast<std::size_t>(plan.arena_bytes));
  // the blob in .rodata as it is (16-byte aligned by the .S): a copy would touch every page of it twice
  const std::uint8_t* params = model::params();
  const std::int64_t in_elems = net::input_shape.elems(), out_elems = net::output_shape.elems();
  std::vector<float> y(static_cast<std::size_t>(n * out_elems));
  ctnn::host::layer_recorder rec;
  std::vector<std::vector<float>> layers(static_cast<std::size_t>(net::leaf_count));
  for (std::int64_t s = 0; s < n; ++s) {
    std::memcpy(arena.data + plan.offset_of(0), x.data.data() + s * in_elems, static_cast<std::size_t>(in_elems) * 4);
    rec.outputs.assign(static_cast<std::size_t>(net::leaf_count), {});
    const rt::run_status st =
        dump_dir.empty()
            ? rt::run<net, float>(arena.data, arena.size, params, model::params_bytes, be)
            : rt::run<net, float>(arena.data, arena.size, params, model::params_bytes, be, &ctnn::host::layer_recorder::record, &rec);
    if (!st.ok())
      throw std::runtime_error(std::string("sample ") + std::to_string(s) + ": the run stopped at leaf " +
                               std::to_string(st.leaf) + " (" + rt::name_of(st.code) + ")");
    std::memcpy(y.data() + s * out_elems, arena.data + plan.offset_of(net::output_tensor),
                static_cast<std::size_t>(out_elems) * 4);
    for (std::size_t l = 0; l < layers.size() && !dump_dir.empty(); ++l) {
      const std::vector<std::uint8_t>& b = rec.outputs[l];
      const std::size_t at = layers[l].size();
      layers[l].resize(at + b.size() / 4);
      std::memcpy(layers[l].data() + at, b.data(), b.size());
    }
  }
  if (!ctnn::host::write_npy(out_path, dims_of(net::output_shape, n), y.data()))
    throw std::runtime_error("cannot write '" + out_path + "'");
  if (!dump_dir.empty()) {
    std::filesystem::create_directories(dump_dir);
    std::ofstream index(std::filesystem::path(dump_dir) / "layers.tsv", std::ios::trunc);
    for (int32_t l = 0; l < net::leaf_count; ++l) {
      const ctnn::row& r = net::layer(l);
      const char* node = r.name != nullptr ? r.name : r.type;
      const std::string f = file_name(l, node);
      if (!ctnn::host::write_npy((std::filesystem::path(dump_dir) / f).string(), dims_of(r.out, n),
                                 layers[static_cast<std::size_t>(l)].data()))
        throw std::runtime_error("cannot write '" + f + "' in '" + dump_dir + "'");
      index << l << '\t' << f << '\t' << node << '\t' << model::onnx_outputs[l] << '\n';
    }
    index.close();
    if (!index) throw std::runtime_error("cannot write layers.tsv in '" + dump_dir + "'");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
}
