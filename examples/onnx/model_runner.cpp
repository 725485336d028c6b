// <model>-run: runs an imported model (ctnn-import's header) on the host, float32 or int8.
//   <model>-run --input IN.npy --output OUT.npy [--dump-layers DIR] [--backend reference|optimized] [--raw]
// IN: float32 [1, C, H, W] or a batch [N, C, H, W] (or [N, F] for a flat input), run sample by
// sample; OUT: [N, ...]. An int8 model (ctnn-import --dtype int8) quantizes each float input
// itself with the input's scale and zero point (<name>_quantize_input) and writes its output
// dequantized to float32 (<name>_dequantize_output); --raw writes the int8 values themselves
// (int8 .npy, '|i1'). --dump-layers writes every leaf's output for all samples as
// DIR/<leaf>_<node>.npy (int8: dequantized with the tensor's scale and zero point, or raw with
// --raw) and DIR/layers.tsv: leaf index, file, node name, ONNX output tensor name, the leaf's
// input tensors (comma-separated; tensor 0 is the input, tensor i + 1 leaf i's output).
// Built by ctnn_add_model_runner with CTNN_MODEL_HEADER (the header) and CTNN_MODEL (its
// <name>_model struct). Faults: one line on stderr and exit 1.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <type_traits>
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

/// The model's dtype (headers written before int8 imports have none: float32).
constexpr ctnn::dtype model_dtype = [] {
  if constexpr (requires { model::dtype; }) return model::dtype;
  else return ctnn::dtype::float32;
}();
constexpr bool int8_model = model_dtype == ctnn::dtype::int8;
using elem = std::conditional_t<int8_model, std::int8_t, float>;

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

/// int8: the blob's quantization table must be the header's (a blob from another import is refused).
template <class M>
void check_quant_table() {
  if constexpr (int8_model) {
    constexpr auto& layout = rt::param_layout_of<net, ctnn::dtype::int8>;
    const float* scale = reinterpret_cast<const float*>(M::params() + layout.quant_scale);
    const std::int32_t* zp = reinterpret_cast<const std::int32_t*>(M::params() + layout.quant_zp);
    for (std::int32_t t = 0; t < net::tensor_count; ++t)
      if (std::memcmp(&scale[t], &M::tensor_scales[t], sizeof(float)) != 0 || zp[t] != M::tensor_zero_points[t])
        throw std::runtime_error("the parameter blob's quantization of tensor " + std::to_string(t) +
                                 " differs from the header's: the blob is from another import");
  }
}

/// M is the model: a template parameter, so that the int8-only members (tensor_scales,
/// quantize_input, ...) are only named in the branches an int8 model instantiates.
template <class M>
int run(int argc, char** argv) {
  std::string in_path, out_path, dump_dir;
  rt::backend be = rt::backend::optimized;
  bool raw = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc || argv[i + 1][0] == '\0') throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--input") in_path = next();
    else if (a == "--output") out_path = next();
    else if (a == "--dump-layers") dump_dir = next();
    else if (a == "--raw") {
      if (!int8_model) throw std::runtime_error("--raw: the model is float32 (its output is already raw)");
      raw = true;
    } else if (a == "--backend") {
      const std::string b = next();
      if (b == "reference") be = rt::backend::reference;
      else if (b == "optimized") be = rt::backend::optimized;
      else throw std::runtime_error("unknown backend '" + b + "' (reference or optimized)");
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s --input IN.npy --output OUT.npy [--dump-layers DIR] [--backend reference|optimized]%s\n",
                  argv[0], int8_model ? " [--raw]" : "");
      return ctnn::cli::stdout_written(argv[0]) ? 0 : 1;
    } else {
      throw std::runtime_error("unknown argument '" + a + "'");
    }
  }
  if (in_path.empty() || out_path.empty()) throw std::runtime_error("--input and --output are required");
  check_quant_table<M>();
  const ctnn::host::npy_array x = ctnn::host::read_npy(in_path);
  const std::vector<std::int64_t> one = dims_of(net::input_shape, 1);
  std::int64_t n = 0;
  if (x.shape.size() == one.size() && x.shape.size() > 1 && std::equal(one.begin() + 1, one.end(), x.shape.begin() + 1))
    n = x.shape[0];
  std::string want;
  for (std::size_t k = 1; k < one.size(); ++k) want += ", " + std::to_string(one[k]);
  if (n <= 0) throw std::runtime_error(in_path + ": the input must be float32 [N" + want + "], N >= 1");

  constexpr auto& plan = ctnn::memory::plan_of<net, model_dtype>;
  ctnn::host::aligned_bytes arena(static_cast<std::size_t>(plan.arena_bytes));
  // the blob in .rodata as it is (16-byte aligned by the .S): a copy would touch every page of it twice
  const std::uint8_t* params = M::params();
  const std::int64_t in_elems = net::input_shape.elems(), out_elems = net::output_shape.elems();
  std::vector<float> y(static_cast<std::size_t>(n * out_elems));
  std::vector<std::int8_t> y_raw(int8_model ? static_cast<std::size_t>(n * out_elems) : 0);
  ctnn::host::layer_recorder rec;
  std::vector<std::vector<elem>> layers(static_cast<std::size_t>(net::leaf_count));
  for (std::int64_t s = 0; s < n; ++s) {
    elem* in = reinterpret_cast<elem*>(arena.data + plan.offset_of(0));
    const float* xs = x.data.data() + s * in_elems;
    if constexpr (int8_model) M::quantize_input(xs, in, static_cast<std::size_t>(in_elems));
    else std::memcpy(in, xs, static_cast<std::size_t>(in_elems) * sizeof(float));
    rec.outputs.assign(static_cast<std::size_t>(net::leaf_count), {});
    const rt::run_status st =
        dump_dir.empty()
            ? rt::run<net, elem>(arena.data, arena.size, params, M::params_bytes, be)
            : rt::run<net, elem>(arena.data, arena.size, params, M::params_bytes, be, &ctnn::host::layer_recorder::record, &rec);
    if (!st.ok())
      throw std::runtime_error(std::string("sample ") + std::to_string(s) + ": the run stopped at leaf " +
                               std::to_string(st.leaf) + " (" + rt::name_of(st.code) + ")");
    const elem* out = reinterpret_cast<const elem*>(arena.data + plan.offset_of(net::output_tensor));
    if constexpr (int8_model) {
      M::dequantize_output(out, y.data() + s * out_elems, static_cast<std::size_t>(out_elems));
      std::memcpy(y_raw.data() + s * out_elems, out, static_cast<std::size_t>(out_elems));
    } else {
      std::memcpy(y.data() + s * out_elems, out, static_cast<std::size_t>(out_elems) * sizeof(float));
    }
    for (std::size_t l = 0; l < layers.size() && !dump_dir.empty(); ++l) {
      const std::vector<std::uint8_t>& b = rec.outputs[l];
      const std::size_t at = layers[l].size();
      layers[l].resize(at + b.size() / sizeof(elem));
      std::memcpy(layers[l].data() + at, b.data(), b.size());
    }
  }
  const bool wrote = raw ? ctnn::host::write_npy(out_path, dims_of(net::output_shape, n), y_raw.data())
                         : ctnn::host::write_npy(out_path, dims_of(net::output_shape, n), y.data());
  if (!wrote) throw std::runtime_error("cannot write '" + out_path + "'");
  if (!dump_dir.empty()) {
    std::filesystem::create_directories(dump_dir);
    std::ofstream index(std::filesystem::path(dump_dir) / "layers.tsv", std::ios::trunc);
    for (int32_t l = 0; l < net::leaf_count; ++l) {
      const ctnn::row& r = net::layer(l);
      const char* node = r.name != nullptr ? r.name : r.type;
      const std::string f = file_name(l, node);
      const std::string path = (std::filesystem::path(dump_dir) / f).string();
      const std::vector<elem>& v = layers[static_cast<std::size_t>(l)];
      bool ok = false;
      if constexpr (int8_model) {
        if (raw) {
          ok = ctnn::host::write_npy(path, dims_of(r.out, n), v.data());
        } else {
          std::vector<float> d(v.size());
          const float scale = M::tensor_scales[r.output];
          const std::int32_t zp = M::tensor_zero_points[r.output];
          for (std::size_t k = 0; k < v.size(); ++k) d[k] = ctnn::quant::dequantize<std::int8_t>(v[k], scale, zp);
          ok = ctnn::host::write_npy(path, dims_of(r.out, n), d.data());
        }
      } else {
        ok = ctnn::host::write_npy(path, dims_of(r.out, n), v.data());
      }
      if (!ok) throw std::runtime_error("cannot write '" + f + "' in '" + dump_dir + "'");
      index << l << '\t' << f << '\t' << node << '\t' << M::onnx_outputs[l] << '\t';
      for (int32_t k = 0; k < r.n_inputs; ++k) index << (k ? "," : "") << r.inputs[k];
      index << '\n';
    }
    index.close();
    if (!index) throw std::runtime_error("cannot write layers.tsv in '" + dump_dir + "'");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run<model>(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
}
