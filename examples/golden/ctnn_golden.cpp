// ctnn-golden: the per-layer golden harness. Runs a network end to end through the optimized
// kernels and through the reference kernels (same seeded parameters and input, same arena plan)
// and prints one row per leaf with both outputs' CRC-32, the largest difference and the verdict.
// "ref min..max" is the reference output's range (int8: quantized values) to show that the
// activations use the int8 grid without saturating. int8 must match bit for bit; float32 within max|opt - ref| <= 1e-4 * max(1, max|ref|) per layer.
// Exit code 0 only when every layer matches; 1: a layer differs or a run failed; 2: a bad command
// line (one line on stderr); 3: the report could not be written to stdout.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ctnn/host/run_buffers.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"
#include "ctnn/zoo/resnet.hpp"
#include "ctnn/host/cli.hpp"

namespace {

namespace rt = ctnn::runtime;

/// One ResNet-18 BasicBlock with a projection shortcut, as layer2.0 of ResNet-18: 64x56x56 -> 128x28x28.
using resnet18_block = ctnn::network<"ResNet18Block", ctnn::shape{64, 56, 56}, ctnn::zoo::basic_block<64, 128, 2>>;

constexpr float float_tolerance = 1e-4f;  ///< relative to max(1, max|ref|) of the layer

using ctnn::host::aligned_bytes;
using recorder = ctnn::host::layer_recorder;

std::string shape_text(const ctnn::shape& s) {
  if (s.rank == 1) return std::to_string(s.c);
  return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w);
}

template <ctnn::Network Net, class T>
rt::run_status run_backend(rt::backend be, const aligned_bytes& params, uint64_t seed, recorder& rec, double& ms) {
  constexpr ctnn::dtype dt = ctnn::dtype_of<T>;
  constexpr auto& plan = ctnn::memory::plan_of<Net, dt>;
  aligned_bytes arena(static_cast<size_t>(plan.arena_bytes));
  std::memset(arena.data, 0xA5, arena.size);  // stale bytes must not matter
  rt::fill_input<T>(reinterpret_cast<T*>(arena.data + plan.offset_of(0)), Net::input_shape.elems(), seed + 1,
                    rt::default_tensor_quant<Net>(0));
  rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
  const auto t0 = std::chrono::steady_clock::now();
  const rt::run_status s = rt::run<Net, T>(arena.data, arena.size, params.data, params.size, be, &recorder::record, &rec);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

template <ctnn::Network Net, class T>
int golden(const char* model, uint64_t seed) {
  constexpr bool q = std::is_same_v<T, int8_t>;
  constexpr ctnn::dtype dt = ctnn::dtype_of<T>;
  constexpr auto& layout = rt::param_layout_of<Net, dt>;
  aligned_bytes params(static_cast<size_t>(layout.total_bytes));
  if (!rt::fill_params<Net, dt>(params.data, params.size, seed)) {
    std::fprintf(stderr, "ctnn-golden: cannot fill the parameters\n");
    return 2;
  }
  recorder opt, ref;
  double ms_opt = 0, ms_ref = 0;
  const rt::run_status so = run_backend<Net, T>(rt::backend::optimized, params, seed, opt, ms_opt);
  const rt::run_status sr = run_backend<Net, T>(rt::backend::reference, params, seed, ref, ms_ref);
  std::printf("%s %s: arena %llu bytes, parameters %llu bytes, seed %llu\n", model, q ? "int8" : "float32",
              static_cast<unsigned long long>(ctnn::memory::plan_of<Net, dt>.arena_bytes),
              static_cast<unsigned long long>(layout.total_bytes), static_cast<unsigned long long>(seed));
  std::printf("%4s  %-24s %-12s %-10s %-10s %-10s %-17s %12s  %s\n", "leaf", "layer", "type", "output", "crc32 opt",
              "crc32 ref", "ref min..max", q ? "max |diff|" : "max abs err", "match");
  bool all = so.ok() && sr.ok();
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const ctnn::row& r = Net::layer(i);
    const auto& a = opt.outputs[static_cast<size_t>(i)];
    const auto& b = ref.outputs[static_cast<size_t>(i)];
    if (a.empty() || b.empty() || a.size() != b.size()) {
      std::printf("%4d  %-24s %-12s %-10s %-10s %-10s %-17s %12s  %s\n", i, r.name != nullptr ? r.name : r.type,
                  r.type, shape_text(r.out).c_str(), "-", "-", "-", "-", "not run");
      all = false;
      continue;
    }
    const uint32_t ca = ctnn::crc32(a.data(), a.size()), cb = ctnn::crc32(b.data(), b.size());
    double err = 0.0, lo = INFINITY, hi = -INFINITY;
    bool match = false;
    if constexpr (q) {
      for (size_t k = 0; k < a.size(); ++k) {
        err = std::max(err, std::fabs(double(static_cast<int8_t>(a[k])) - double(static_cast<int8_t>(b[k]))));
        lo = std::min(lo, double(static_cast<int8_t>(b[k])));
        hi = std::max(hi, double(static_cast<int8_t>(b[k])));
      }
      match = ca == cb && a == b;
    } else {
      const size_t n = a.size() / sizeof(float);
      std::vector<float> fa(n), fb(n);
      std::memcpy(fa.data(), a.data(), a.size());
      std::memcpy(fb.data(), b.data(), b.size());
      double mag = 1.0;
      for (size_t k = 0; k < n; ++k) {
        err = std::max(err, std::fabs(double(fa[k]) - double(fb[k])));
        mag = std::max(mag, std::fabs(double(fb[k])));
        lo = std::min(lo, double(fb[k]));
        hi = std::max(hi, double(fb[k]));
        if (!std::isfinite(fa[k]) || !std::isfinite(fb[k])) err = INFINITY;
      }
      match = err <= double(float_tolerance) * mag;
    }
    all = all && match;
    char range[48];
    std::snprintf(range, sizeof range, q ? "%.0f..%.0f" : "%.3g..%.3g", lo, hi);
    std::printf("%4d  %-24s %-12s %-10s %08x   %08x   %-17s %12.3g  %s\n", i, r.name != nullptr ? r.name : r.type,
                r.type, shape_text(r.out).c_str(), ca, cb, range, err, match ? "yes" : "NO");
  }
  if (!so.ok())
    std::printf("optimized run failed at leaf %d: %s (%s)\n", so.leaf, rt::name_of(so.code),
                ctnn::kernels::name_of(so.kernel));
  if (!sr.ok())
    std::printf("reference run failed at leaf %d: %s (%s)\n", sr.leaf, rt::name_of(sr.code),
                ctnn::kernels::name_of(sr.kernel));
  std::printf("time (one run, per-layer copies included): optimized %.2f ms, reference %.2f ms\n", ms_opt, ms_ref);
  std::printf("%s: %s\n", model, all ? (q ? "all layers bit-exact" : "all layers within tolerance") : "MISMATCH");
  return all ? 0 : 1;
}

template <ctnn::Network Net>
int golden_dtype(const char* model, const std::string& dtype, uint64_t seed) {
  const int rc = dtype == "int8" ? golden<Net, int8_t>(model, seed) : golden<Net, float>(model, seed);
  return ctnn::cli::stdout_written("ctnn-golden") ? rc : 3;
}

/// A bad command line: one line naming the fault, status 2. usage(nullptr): the help text (--help).
int usage(const std::string* why) {
  if (why != nullptr) {
    std::fprintf(stderr, "ctnn-golden: %s (see ctnn-golden --help)\n", why->c_str());
    return 2;
  }
  std::fprintf(stderr,
               "usage: ctnn-golden <lenet5|resnet18_block|resnet18> "
               "[--dtype float32|int8] [--seed N]   (N: a decimal integer, 0 to 2^64 - 1)\n");
  return 2;
}
int usage(const std::string& why) { return usage(&why); }

}  // namespace

int main(int argc, char** argv) {
  std::string model;
  std::string dtype = "float32";
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(nullptr);
      return 0;
    }
    if (a == "--dtype" || a == "--seed") {
      if (i + 1 >= argc) return usage(a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--dtype") {
        if (v != "float32" && v != "int8") return usage("unknown dtype '" + v + "' (expected float32 or int8)");
        dtype = v;
      } else {
        if (const std::string why = ctnn::cli::number_option("--seed", v, 0, UINT64_MAX, seed); !why.empty())
          return usage(why);
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option '" + a + "'");
    } else if (model.empty()) {
      model = a;
    } else {
      return usage("unexpected argument '" + a + "'");
    }
  }
  if (model.empty()) return usage("no model given");
  if (model == "lenet5") return golden_dtype<ctnn::zoo::lenet5>("lenet5", dtype, seed);
  if (model == "resnet18_block") return golden_dtype<resnet18_block>("resnet18_block", dtype, seed);
  if (model == "resnet18") return golden_dtype<ctnn::zoo::resnet18>("resnet18", dtype, seed);
  return usage("unknown model '" + model + "' (expected lenet5, resnet18_block or resnet18)");
}
