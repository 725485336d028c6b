// ctnn-fw-golden <lenet5|cifar_resnet> <out.hpp> [<params.hpp>]: runs the demo network on the host with the
// reference kernels (runtime::run<Net, int8_t>, backend::reference), the seeded parameters and
// input of demo_nets.hpp, and writes the golden table the firmware compares against: the CRC-32 of
// the parameters, of the input and of every leaf's output, plus the facts that tie the table to
// the network type (leaf count, arena and parameter bytes). The file is rewritten only when its
// content changes. With <params.hpp>, also writes the parameter blob and the input tensor as
// constant arrays (ctnn_fw::deploy::<net>), for an image that carries its weights instead of
// generating them (firmware/tests/lenet5_deploy.cpp).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "ctnn/core/crc32.hpp"
#include "ctnn/host/run_buffers.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "demo_nets.hpp"

namespace {

namespace rt = ctnn::runtime;

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08xu", v);
  return b;
}

/// Writes text to path unless the file already holds it; 0 or 1 (cannot write).
int write_if_changed(const char* path, const std::string& text) {
  std::ifstream old(path, std::ios::binary);
  std::stringstream cur;
  cur << old.rdbuf();
  if (old && cur.str() == text) return 0;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();  // a write the system refuses (a full disk) shows at the flush
  if (!f) {
    std::fprintf(stderr, "ctnn-fw-golden: cannot write %s\n", path);
    return 1;
  }
  return 0;
}

/// A constant byte array, 16 bytes a line.
void put_bytes(std::ostringstream& o, const char* name, const uint8_t* p, size_t n) {
  o << "  alignas(16) static constexpr uint8_t " << name << "[" << n << "] = {";
  for (size_t i = 0; i < n; ++i) {
    if (i % 16 == 0) o << "\n     ";
    char b[8];
    std::snprintf(b, sizeof b, " 0x%02x,", p[i]);
    o << b;
  }
  o << "\n  };\n";
}

template <ctnn::Network Net>
int golden(const char* id, const char* type_name, const char* path, const char* params_path) {
  constexpr auto& plan = ctnn::memory::plan_of<Net, ctnn::dtype::int8>;
  constexpr auto& layout = rt::param_layout_of<Net, ctnn::dtype::int8>;
  ctnn::host::aligned_bytes params(static_cast<size_t>(layout.total_bytes));
  ctnn::host::aligned_bytes arena(static_cast<size_t>(plan.arena_bytes));
  if (!rt::fill_params<Net, ctnn::dtype::int8>(params.data, params.size, ctnn_fw::demo::param_seed)) return 2;
  auto* input = reinterpret_cast<int8_t*>(arena.data + plan.offset_of(0));
  const auto in_bytes = static_cast<size_t>(Net::input_shape.elems());
  rt::fill_input<int8_t>(input, Net::input_shape.elems(), ctnn_fw::demo::input_seed, rt::default_tensor_quant<Net>(0));
  const uint32_t input_crc = ctnn::crc32(reinterpret_cast<const uint8_t*>(input), in_bytes);
  const std::string input_copy(reinterpret_cast<const char*>(input), in_bytes);
  ctnn::host::layer_recorder rec;
  rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
  const rt::run_status s = rt::run<Net, int8_t>(arena.data, arena.size, params.data, params.size,
                                                rt::backend::reference, &ctnn::host::layer_recorder::record, &rec);
  if (!s.ok()) {
    std::fprintf(stderr, "ctnn-fw-golden: %s: the reference run failed at leaf %d (%s)\n", id, s.leaf,
                 rt::name_of(s.code));
    return 1;
  }
  std::ostringstream o;
  o << "// generated — do not edit. Written by ctnn-fw-golden (firmware/host/ctnn_fw_golden.cpp) at build time:\n"
    << "// " << type_name << " int8, runtime::run with backend::reference, parameter seed "
    << ctnn_fw::demo::param_seed << ", input seed " << ctnn_fw::demo::input_seed << ".\n"
    << "#pragma once\n#include <stdint.h>\n\nnamespace ctnn_fw::golden {\n\n"
    << "struct " << id << " {\n"
    << "  static constexpr const char* network = \"" << Net::name << "\";\n"
    << "  static constexpr int32_t leaf_count = " << Net::leaf_count << ";\n"
    << "  static constexpr uint64_t arena_bytes = " << plan.arena_bytes << ";\n"
    << "  static constexpr uint64_t param_bytes = " << layout.total_bytes << ";\n"
    << "  static constexpr uint64_t param_seed = " << ctnn_fw::demo::param_seed << ";\n"
    << "  static constexpr uint64_t input_seed = " << ctnn_fw::demo::input_seed << ";\n"
    << "  static constexpr uint32_t params_crc = " << hex(ctnn::crc32(params.data, params.size)) << ";\n"
    << "  static constexpr uint32_t input_crc = " << hex(input_crc) << ";\n"
    << "  /// CRC-32 of each leaf's output\n"
    << "  static constexpr uint32_t leaf_crc[" << Net::leaf_count << "] = {\n";
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const ctnn::row& r = Net::layer(i);
    const auto& out = rec.outputs[static_cast<size_t>(i)];
    o << "      " << hex(ctnn::crc32(out.data(), out.size())) << ",  // " << i << " "
      << (r.name != nullptr ? r.name : "-") << " " << r.type << "\n";
  }
  o << "  };\n};\n\n}  // namespace ctnn_fw::golden\n";
  if (write_if_changed(path, o.str()) != 0) return 1;
  if (params_path == nullptr) return 0;
  std::ostringstream w;
  w << "// generated — do not edit. Written by ctnn-fw-golden (firmware/host/ctnn_fw_golden.cpp) at build time:\n"
    << "// " << type_name << " int8: the parameter blob (runtime::fill_params, seed " << ctnn_fw::demo::param_seed
    << ", laid out by param_layout_of) and the input tensor (fill_input, seed " << ctnn_fw::demo::input_seed << ").\n"
    << "#pragma once\n#include <stdint.h>\n\nnamespace ctnn_fw::deploy {\n\n"
    << "struct " << id << " {\n";
  put_bytes(w, "params", params.data, params.size);
  put_bytes(w, "input", reinterpret_cast<const uint8_t*>(input_copy.data()), input_copy.size());
  w << "};\n\n}  // namespace ctnn_fw::deploy\n";
  return write_if_changed(params_path, w.str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: ctnn-fw-golden <lenet5|cifar_resnet> <out.hpp> [<params.hpp>]\n");
    return 2;
  }
  const std::string net = argv[1];
  const char* params_path = argc == 4 ? argv[3] : nullptr;
  if (net == "lenet5") return golden<ctnn::zoo::lenet5>("lenet5", "ctnn::zoo::lenet5", argv[2], params_path);
  if (net == "cifar_resnet")
    return golden<ctnn::zoo::cifar_resnet>("cifar_resnet", "ctnn::zoo::cifar_resnet", argv[2], params_path);
  std::fprintf(stderr, "ctnn-fw-golden: unknown network '%s'\n", argv[1]);
  return 2;
}
