// ctnn-fw-model-data: the data a firmware image of an imported int8 model carries (ctnn_add_firmware,
// firmware/cmake/ctnn_firmware.cmake). Built once per model from the model's own header
// (CTNN_MODEL_HEADER / CTNN_MODEL, ctnn-import --dtype int8), it reads float32 test inputs and,
// optionally, their integer labels, quantizes the first N inputs with the header's quantize_input,
// runs each on the host with the reference kernels (runtime::run<Net, int8_t>, backend::reference)
// and writes one header with
//   - the quantized inputs (N x input elements, int8), the labels and the class names,
//   - every image's output bytes (the host int8 result the target must reproduce byte for byte),
//   - per leaf, the CRC-32 of its output over all N images in order (crc32_update chained), the
//     same over the first M images (the ones an accelerator runs, --accel-images, default N), and
//     of the parameter blob, with the facts that tie the table to the model (leaves, arena, blob size).
//
//   ctnn-fw-model-data --inputs X.npy --images N --out F.hpp [--accel-images M] [--labels Y.npy]
//                      [--class-names a,b,...]
//
// Exit status: 0 written (or unchanged), 1 a run failed or the file cannot be written, 2 bad
// arguments or input files (one line naming the file and the fault).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ctnn/core/crc32.hpp"
#include "ctnn/host/cli.hpp"
#include "ctnn/host/npy.hpp"
#include "ctnn/host/run_buffers.hpp"
#include "ctnn/memory/planner.hpp"
#include "ctnn/runtime/runtime.hpp"
#include CTNN_MODEL_HEADER

namespace {

namespace rt = ctnn::runtime;
using model = CTNN_MODEL;
using net = model::network;

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08xu", v);
  return b;
}

/// Writes text to path unless the file already holds it (a rebuild of the firmware only when the
/// data changed); false when it cannot be written.
bool write_if_changed(const std::string& path, const std::string& text) {
  std::ifstream old(path, std::ios::binary);
  std::stringstream cur;
  cur << old.rdbuf();
  if (old && cur.str() == text) return true;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();  // a write the system refuses (a full disk) shows at the flush
  return static_cast<bool>(f);
}

/// An int8 array, 24 values a line.
void put_int8(std::ostringstream& o, const char* name, const std::vector<int8_t>& v, const char* align) {
  o << align << "inline constexpr int8_t " << name << "[" << v.size() << "] = {";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i % 24 == 0) o << "\n   ";
    o << ' ' << static_cast<int>(v[i]) << ',';
  }
  o << "\n};\n";
}

/// A C string literal of s (class names are the user's text).
std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (static_cast<unsigned char>(c) < 0x20) throw std::runtime_error("--class-names: a control character in a name");
    q += c;
  }
  return q + "\"";
}

int run(int argc, char** argv) {
  std::string inputs_path, labels_path, out_path, names_arg;
  int64_t images = -1, accel_images = -1;
  const char* usage =
      "usage: ctnn-fw-model-data --inputs X.npy --images N --out F.hpp [--accel-images M] [--labels Y.npy] "
      "[--class-names a,b,...]";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--inputs") inputs_path = value();
    else if (a == "--labels") labels_path = value();
    else if (a == "--out") out_path = value();
    else if (a == "--class-names") names_arg = value();
    else if (a == "--images") {
      uint64_t n = 0;
      const std::string fault = ctnn::cli::number_option("--images", value(), 1, 1000000, n);
      if (!fault.empty()) throw std::runtime_error(fault);
      images = static_cast<int64_t>(n);
    } else if (a == "--accel-images") {
      uint64_t n = 0;
      const std::string fault = ctnn::cli::number_option("--accel-images", value(), 1, 1000000, n);
      if (!fault.empty()) throw std::runtime_error(fault);
      accel_images = static_cast<int64_t>(n);
    }
    else throw std::runtime_error("unknown argument '" + a + "' (" + usage + ")");
  }
  if (inputs_path.empty() || out_path.empty() || images < 1)
    throw std::runtime_error(std::string("--inputs, --images and --out are required (") + usage + ")");
  if (accel_images > images)
    throw std::runtime_error("--accel-images " + std::to_string(accel_images) + " is more than --images " +
                             std::to_string(images));
  if (accel_images < 0) accel_images = images;

  constexpr int64_t in_elems = net::input_shape.elems();
  constexpr int64_t out_elems = net::output_shape.elems();
  const ctnn::host::npy_array x = ctnn::host::read_npy(inputs_path);
  if (x.shape.empty() || x.shape[0] < 1)
    throw std::runtime_error(inputs_path + ": no samples (the first dimension counts them)");
  int64_t per_sample = 1;
  for (size_t d = 1; d < x.shape.size(); ++d) per_sample *= x.shape[d];
  if (per_sample != in_elems)
    throw std::runtime_error(inputs_path + ": a sample has " + std::to_string(per_sample) + " values, " + model::name +
                             "'s input " + std::to_string(in_elems));
  if (x.shape[0] < images)
    throw std::runtime_error(inputs_path + ": " + std::to_string(x.shape[0]) + " samples, --images asks for " +
                             std::to_string(images));
  for (int64_t i = 0; i < images * in_elems; ++i)
    if (!(x.data[static_cast<size_t>(i)] - x.data[static_cast<size_t>(i)] == 0.0f))
      throw std::runtime_error(inputs_path + ": sample " + std::to_string(i / in_elems) + " holds NaN or Inf");
  std::vector<int64_t> labels;
  if (!labels_path.empty()) {
    const ctnn::host::npy_int_array l = ctnn::host::read_npy_int(labels_path);
    if (l.shape.size() != 1 || l.shape[0] < images)
      throw std::runtime_error(labels_path + ": expected one label per sample, at least " + std::to_string(images));
    for (int64_t i = 0; i < images; ++i) {
      const int64_t v = l.data[static_cast<size_t>(i)];
      if (v < 0 || v >= out_elems)
        throw std::runtime_error(labels_path + ": label " + std::to_string(v) + " of sample " + std::to_string(i) +
                                 " is not a class of " + model::name + "'s " + std::to_string(out_elems) + " outputs");
      labels.push_back(v);
    }
  }
  std::vector<std::string> names;
  if (!names_arg.empty()) {
    std::string cur;
    for (const char c : names_arg + ",") {
      if (c != ',') {
        cur += c;
        continue;
      }
      names.push_back(cur);
      cur.clear();
    }
    if (static_cast<int64_t>(names.size()) != out_elems)
      throw std::runtime_error("--class-names: " + std::to_string(names.size()) + " names, " + model::name + " has " +
                               std::to_string(out_elems) + " outputs");
  }

  constexpr auto& plan = ctnn::memory::plan_of<net, ctnn::dtype::int8>;
  ctnn::host::aligned_bytes arena(static_cast<size_t>(plan.arena_bytes));
  std::vector<int8_t> q_inputs(static_cast<size_t>(images * in_elems));
  std::vector<int8_t> outputs(static_cast<size_t>(images * out_elems));
  std::vector<uint32_t> leaf_crc(static_cast<size_t>(net::leaf_count), 0u);
  std::vector<uint32_t> leaf_crc_accel;  // leaf_crc after the first accel_images images
  ctnn::host::layer_recorder rec;
  for (int64_t img = 0; img < images; ++img) {
    int8_t* q = q_inputs.data() + img * in_elems;
    model::quantize_input(x.data.data() + img * in_elems, q, static_cast<size_t>(in_elems));
    std::memcpy(arena.data + plan.offset_of(0), q, static_cast<size_t>(in_elems));
    rec.outputs.assign(static_cast<size_t>(net::leaf_count), {});
    const rt::run_status s = rt::run<net, int8_t>(arena.data, arena.size, model::params(), model::params_bytes,
                                                  rt::backend::reference, &ctnn::host::layer_recorder::record, &rec);
    if (!s.ok()) {
      std::fprintf(stderr, "ctnn-fw-model-data: %s: the reference run of sample %lld failed at leaf %d (%s)\n",
                   model::name, static_cast<long long>(img), s.leaf, rt::name_of(s.code));
      return 1;
    }
    for (size_t l = 0; l < leaf_crc.size(); ++l)
      leaf_crc[l] = ctnn::crc32_update(leaf_crc[l], rec.outputs[l].data(), rec.outputs[l].size());
    if (img + 1 == accel_images) leaf_crc_accel = leaf_crc;
    std::memcpy(outputs.data() + img * out_elems, arena.data + plan.offset_of(net::output_tensor),
                static_cast<size_t>(out_elems));
  }

  std::ostringstream o;
  o << "// generated — do not edit. Written by ctnn-fw-model-data (firmware/host/ctnn_fw_model_data.cpp) at build\n"
    << "// time from " << model::name << "'s header: the first " << images << " samples of " << inputs_path << ",\n"
    << "// quantized by its quantize_input and run on the host by runtime::run<Net, int8_t> (backend::reference).\n"
    << "#pragma once\n#include <stdint.h>\n\nnamespace ctnn_fw_model_data {\n\n"
    << "inline constexpr const char* model = \"" << model::name << "\";\n"
    << "inline constexpr int32_t images = " << images << ";\n"
    << "/// the images an accelerator runs (the first ones); leaf_crc_accel covers them\n"
    << "inline constexpr int32_t accel_images = " << accel_images << ";\n"
    << "inline constexpr int32_t input_elems = " << in_elems << ";\n"
    << "inline constexpr int32_t output_elems = " << out_elems << ";\n"
    << "inline constexpr int32_t leaf_count = " << net::leaf_count << ";\n"
    << "inline constexpr uint64_t arena_bytes = " << plan.arena_bytes << ";\n"
    << "inline constexpr uint64_t params_bytes = " << model::params_bytes << ";\n"
    << "/// CRC-32 of the parameter blob\n"
    << "inline constexpr uint32_t params_crc = " << hex32(ctnn::crc32(model::params(), model::params_bytes)) << ";\n"
    << "/// CRC-32 of each leaf's output over images 0 .. images - 1, in order\n"
    << "inline constexpr uint32_t leaf_crc[" << net::leaf_count << "] = {\n";
  auto put_crcs = [&](const std::vector<uint32_t>& crc) {
    for (int32_t i = 0; i < net::leaf_count; ++i) {
      const ctnn::row& r = net::layer(i);
      o << "    " << hex32(crc[static_cast<size_t>(i)]) << ",  // " << i << " " << (r.name != nullptr ? r.name : "-")
        << " " << r.type << "\n";
    }
  };
  put_crcs(leaf_crc);
  o << "};\n/// CRC-32 of each leaf's output over images 0 .. accel_images - 1, in order\n"
    << "inline constexpr uint32_t leaf_crc_accel[" << net::leaf_count << "] = {\n";
  put_crcs(leaf_crc_accel);
  o << "};\n/// the quantized inputs, image after image\n";
  put_int8(o, "inputs", q_inputs, "alignas(16) ");
  o << "/// the host's int8 output of every image\n";
  put_int8(o, "outputs", outputs, "");
  o << "inline constexpr bool has_labels = " << (labels.empty() ? "false" : "true") << ";\n"
    << "inline constexpr uint8_t labels[" << (labels.empty() ? 1 : labels.size()) << "] = {";
  for (size_t i = 0; i < labels.size(); ++i) o << (i % 32 == 0 ? "\n   " : "") << ' ' << labels[i] << ',';
  if (labels.empty()) o << "0";
  o << "\n};\n/// the class names (none: the firmware prints class numbers)\n"
    << "inline constexpr const char* class_names[" << (names.empty() ? 1 : names.size()) << "] = {";
  for (const std::string& n : names) o << quoted(n) << ", ";
  if (names.empty()) o << "nullptr";
  o << "};\n\n}  // namespace ctnn_fw_model_data\n";
  if (!write_if_changed(out_path, o.str())) {
    std::fprintf(stderr, "ctnn-fw-model-data: cannot write %s\n", out_path.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ctnn-fw-model-data: %s\n", e.what());
    return 2;
  }
}
