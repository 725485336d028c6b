// ctnn_bench_net: whole zoo networks (LeNet-5, ResNet-18, MobileNetV2; float32 and int8, batch 1)
// through runtime::run<Net, T, backend::optimized>, driven line by line from stdin so that
// bench/torch_peer.py can interleave its rounds with PyTorch's in one schedule.
//
//   ctnn_bench_net [case...]      prepares the cases (all when none given), prints "ready <cases>"
//   ctnn_bench_net --list         prints the cases, one per line
//   stdin:  "<case> <budget_seconds>"  -> runs the case until its run time reaches the budget
//   stdout: "<case> <runs> <seconds of run time> <checksum>"
//   stdin:  "check <case> <in.npy> <out.npy>" (imported models) -> runs the float32 input of
//           in.npy ([1, C, H, W]; int8 models quantize it with their input quantization) on the
//           optimized kernels, writes the output to out.npy (int8: dequantized), runs it again on
//           the reference kernels and prints "check <case> <max |optimized - reference|>" (int8:
//           in quantization steps)
//   stdin:  "profile <case> <runs>" -> runs the case <runs> times with every leaf timed and prints
//           per layer type (with its fused activation and, for pooling and convolution, its shapes) "profile
//           <case> <type> <leaves> <ms per run> <percent>", largest first, then "profile <case>
//           end <total ms per run>"
//
// A case is <model>.<dtype>: lenet5.float32, lenet5.int8, resnet18.float32, ..., and with
// CTNN_BENCH_FASHION_MNIST the trained Fashion-MNIST models fmnist_lenet5, fmnist_dscnn and
// fmnist_resnet8 (imported by ctnn_add_model, int8 calibrated with the mse rule, their parameter
// blobs), and with CTNN_BENCH_TORCHVISION torchvision's ResNet-18 and MobileNetV2 exported to
// ONNX by torch_peer.py --export and imported likewise (tv_resnet18, tv_mobilenet_v2).
// The zoo's parameters are fill_params(seed 1); the input is fill_input(seed 2), placed again
// before each run (in-place layers overwrite it) outside the timed interval. The checksum (sum of
// the outputs) lets the caller see that the runs compute something.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "ctnn/host/npy.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"
#include "ctnn/zoo/mobilenet_v2.hpp"
#include "ctnn/zoo/resnet.hpp"
#if CTNN_BENCH_FMNIST
#include "fmnist_dscnn_f32.hpp"
#include "fmnist_dscnn_i8.hpp"
#include "fmnist_lenet5_f32.hpp"
#include "fmnist_lenet5_i8.hpp"
#include "fmnist_resnet8_f32.hpp"
#include "fmnist_resnet8_i8.hpp"
#endif
#if CTNN_BENCH_TORCHVISION
#include "tv_mobilenet_v2_f32.hpp"
#include "tv_mobilenet_v2_i8.hpp"
#include "tv_resnet18_f32.hpp"
#include "tv_resnet18_i8.hpp"
#endif

namespace {

namespace rt = ctnn::runtime;

struct runner {
  virtual ~runner() = default;
  /// Runs until the summed run time reaches `budget` seconds (at least once); false on a fault.
  virtual bool measure(double budget, long& runs, double& seconds, double& checksum) = 0;
  /// The "check" command (imported models); false on a fault, with a message on stderr.
  virtual bool check(const std::string& in_path, const std::string& out_path, double& ref_diff) = 0;
  /// The "profile" command: prints its lines; false on a fault.
  virtual bool profile(const std::string& name, long runs) = 0;
};

/// An offload hook that declines every leaf and times each one (leaf_begin / leaf_end).
struct leaf_timer {
  using clock = std::chrono::steady_clock;
  std::vector<double>* seconds = nullptr;
  std::vector<long>* calls = nullptr;  // leaf_end per leaf: none for a leaf that ran in a chain
  clock::time_point t0{};
  template <class U>
  rt::offload_result offload(const rt::leaf_call<U>&) const {
    return rt::offload_result::declined();
  }
  void leaf_begin(int32_t) { t0 = clock::now(); }
  void leaf_end(int32_t i) {
    (*seconds)[static_cast<size_t>(i)] += std::chrono::duration<double>(clock::now() - t0).count();
    ++(*calls)[static_cast<size_t>(i)];
  }
};

/// A zoo network with fill_params parameters (Model = void) or a ctnn_add_model model (Model =
/// its <name>_model: its parameter blob in .rodata, its input quantization).
template <class Net, class T, class Model = void>
struct net_runner final : runner {
  static constexpr auto dt = ctnn::dtype_of<T>;
  static constexpr auto& plan = ctnn::memory::plan_of<Net, dt>;
  static constexpr auto& layout = rt::param_layout_of<Net, dt>;
  static constexpr bool imported = !std::is_void_v<Model>;
  std::vector<uint8_t> arena_v = std::vector<uint8_t>(plan.arena_bytes + 16);
  std::vector<uint8_t> params_v = std::vector<uint8_t>(imported ? 0 : layout.total_bytes + 16);
  uint8_t* arena = align(arena_v);
  const uint8_t* params = imported ? model_params() : align(params_v);
  bool filled = imported || rt::fill_params<Net, dt>(align(params_v), layout.total_bytes, 1);
  // the weights packed once for the optimized kernels (runtime/packed.hpp), before any timing
  std::unique_ptr<rt::packed_weights<Net, T>> packed = std::make_unique<rt::packed_weights<Net, T>>();
  bool packed_ok = filled && packed->pack(params) == ctnn::kernels::status::ok;

  static uint8_t* align(std::vector<uint8_t>& v) {
    return v.data() + (16 - reinterpret_cast<uintptr_t>(v.data()) % 16) % 16;
  }
  static const uint8_t* model_params() {
    if constexpr (imported) return Model::params();
    return nullptr;
  }
  static rt::tensor_quant input_quant() {
    if constexpr (imported && dt == ctnn::dtype::int8) return Model::input_quant;
    else if constexpr (imported) return rt::tensor_quant{};
    else return rt::default_tensor_quant<Net>(0);
  }

  bool measure(double budget, long& runs, double& seconds, double& checksum) override {
    using clock = std::chrono::steady_clock;
    if (!filled || !packed_ok) return false;
    runs = 0;
    seconds = 0.0;
    while (runs == 0 || seconds < budget) {
      rt::fill_input<T>(reinterpret_cast<T*>(arena + plan.offset_of(0)), Net::input_shape.elems(), 2, input_quant());
      const auto t0 = clock::now();
      const rt::run_status s =
          rt::run<Net, T, rt::backend::optimized>(arena, plan.arena_bytes, params, layout.total_bytes, *packed);
      const auto t1 = clock::now();
      if (!s.ok()) return false;
      seconds += std::chrono::duration<double>(t1 - t0).count();
      ++runs;
    }
    const T* out = reinterpret_cast<const T*>(arena + plan.offset_of(Net::output_tensor));
    checksum = 0.0;
    for (int64_t i = 0; i < Net::output_shape.elems(); ++i) checksum += static_cast<double>(out[i]);
    return true;
  }

  bool profile(const std::string& name, long runs) override {
    if (!filled || !packed_ok) return false;
    std::vector<double> t(static_cast<size_t>(Net::leaf_count), 0.0);
    std::vector<long> calls(static_cast<size_t>(Net::leaf_count), 0);
    leaf_timer timer{&t, &calls};
    for (long k = 0; k < runs; ++k) {
      rt::fill_input<T>(reinterpret_cast<T*>(arena + plan.offset_of(0)), Net::input_shape.elems(), 2, input_quant());
      // as measure() runs it: the weights packed once
      if (!rt::run<Net, T, rt::backend::optimized>(arena, plan.arena_bytes, params, layout.total_bytes, *packed, timer)
               .ok())
        return false;
    }
    // per layer type, the fused activation and a pooling's kernel in the key
    std::vector<std::pair<std::string, std::pair<int, double>>> by;
    double total = 0.0;
    // a float32 CPU chain (runtime/fold.hpp) is timed as its convolution: the folded batch norm
    // and the clamp in its key, the leaves it ran with none of their own; an int8 clamp chain as
    // its batch norm, the clamp leaf's type in the key (a leaf that ran in a chain was never timed)
    for (int32_t i = 0, chain_end = 0; i < Net::leaf_count; ++i) {
      if (i < chain_end) continue;
      rt::cpu_chain chain{};
      if constexpr (dt == ctnn::dtype::float32) chain = rt::cpu_chain_of<Net>.at[static_cast<size_t>(i)];
      const bool chained = chain.count > 0;
      const bool s8_chained = dt == ctnn::dtype::int8 && i + 1 < Net::leaf_count && calls[static_cast<size_t>(i)] > 0 &&
                              calls[static_cast<size_t>(i) + 1] == 0;
      chain_end = i + 1 + chain.count + (s8_chained ? 1 : 0);
      const ctnn::row& r = chained ? rt::cpu_chain_of<Net>.rows[static_cast<size_t>(i)] : Net::layer(i);
      const ctnn::layer_geometry& g = r.geometry;
      std::string key = r.type;
      if (chained && chain.fold != 0) key += "+" + std::string(Net::layer(i + chain.fold).type);
      if (s8_chained) key += "+" + std::string(Net::layer(i + 1).type);
      if (g.act != ctnn::fused_act::none) key += "+" + std::string(ctnn::fused_act_name(g.act));
      if (r.kind == ctnn::op::conv2d)  // shapes apart: the kernel depends on them
        key += "[" + std::to_string(r.in.c) + "x" + std::to_string(r.in.h) + "x" + std::to_string(r.in.w) + "->" +
               std::to_string(r.out.c) + "x" + std::to_string(r.out.h) + "x" + std::to_string(r.out.w) + " k" +
               std::to_string(g.kernel.h) + " s" + std::to_string(g.stride.h) +
               (g.groups > 1 ? " g" + std::to_string(g.groups) : std::string()) + "]";
      if (r.kind == ctnn::op::max_pool2d || r.kind == ctnn::op::avg_pool2d || r.kind == ctnn::op::adaptive_avg_pool2d)
        key += "[" + std::to_string(r.in.c) + "x" + std::to_string(r.in.h) + "x" + std::to_string(r.in.w) + "->" +
               std::to_string(r.out.h) + "x" + std::to_string(r.out.w) + "]";
      auto it = std::find_if(by.begin(), by.end(), [&](const auto& e) { return e.first == key; });
      if (it == by.end()) it = by.insert(by.end(), {key, {0, 0.0}});
      it->second.first += 1;
      it->second.second += t[static_cast<size_t>(i)];
      total += t[static_cast<size_t>(i)];
    }
    std::sort(by.begin(), by.end(), [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
    for (const auto& [key, v] : by)
      std::printf("profile %s %s %d %.4f %.1f\n", name.c_str(), key.c_str(), v.first,
                  v.second / static_cast<double>(runs) * 1e3, total > 0.0 ? 100.0 * v.second / total : 0.0);
    std::printf("profile %s end %.4f\n", name.c_str(), total / static_cast<double>(runs) * 1e3);
    return true;
  }

  /// Places x (float32) as the input: copied, or quantized by the model's input quantization.
  void place(const std::vector<float>& x) {
    T* in = reinterpret_cast<T*>(arena + plan.offset_of(0));
    if constexpr (imported && dt == ctnn::dtype::int8) Model::quantize_input(x.data(), in, x.size());
    else std::copy(x.begin(), x.end(), in);
  }

  bool check(const std::string& in_path, const std::string& out_path, double& ref_diff) override {
    if constexpr (!imported) {
      std::fprintf(stderr, "ctnn_bench_net: check: only the imported models have a float32 input to check\n");
      return false;
    } else {
      const int64_t n_in = Net::input_shape.elems(), n_out = Net::output_shape.elems();
      ctnn::host::npy_array x;
      try {
        x = ctnn::host::read_npy(in_path);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ctnn_bench_net: check: %s\n", e.what());
        return false;
      }
      if (static_cast<int64_t>(x.data.size()) != n_in) {
        std::fprintf(stderr, "ctnn_bench_net: check: %s holds %zu values, the input has %lld\n", in_path.c_str(),
                     x.data.size(), static_cast<long long>(n_in));
        return false;
      }
      const T* out = reinterpret_cast<const T*>(arena + plan.offset_of(Net::output_tensor));
      place(x.data);
      if (!rt::run<Net, T, rt::backend::optimized>(arena, plan.arena_bytes, params, layout.total_bytes).ok()) return false;
      const std::vector<T> fast(out, out + n_out);
      place(x.data);
      if (!rt::run<Net, T, rt::backend::reference>(arena, plan.arena_bytes, params, layout.total_bytes).ok()) return false;
      ref_diff = 0.0;
      for (int64_t i = 0; i < n_out; ++i)
        ref_diff = std::max(ref_diff, std::fabs(static_cast<double>(fast[i]) - static_cast<double>(out[i])));
      std::vector<float> y(static_cast<size_t>(n_out));
      if constexpr (dt == ctnn::dtype::int8) Model::dequantize_output(fast.data(), y.data(), y.size());
      else std::copy(fast.begin(), fast.end(), y.begin());
      const std::vector<int64_t> dims = Net::output_shape.rank == 1
                                            ? std::vector<int64_t>{1, Net::output_shape.c}
                                            : std::vector<int64_t>{1, Net::output_shape.c, Net::output_shape.h, Net::output_shape.w};
      return ctnn::host::write_npy(out_path, dims, y.data());
    }
  }
};

using case_list = std::vector<std::pair<std::string, std::unique_ptr<runner>>>;

bool wanted_case(const std::vector<std::string>& wanted, const std::string& c) {
  if (wanted.empty()) return true;
  for (const auto& w : wanted)
    if (w == c) return true;
  return false;
}

#if CTNN_BENCH_FMNIST || CTNN_BENCH_TORCHVISION
/// A model imported by ctnn_add_model (the trained Fashion-MNIST models of examples/fashion_mnist,
/// torchvision's networks exported by torch_peer.py).
template <class Model>
void add_imported(case_list& all, const std::string& name, const std::vector<std::string>& wanted) {
  using T = std::conditional_t<Model::dtype == ctnn::dtype::int8, int8_t, float>;
  const std::string c = name + (Model::dtype == ctnn::dtype::int8 ? ".int8" : ".float32");
  if (wanted_case(wanted, c)) all.emplace_back(c, std::make_unique<net_runner<typename Model::network, T, Model>>());
}
#endif

template <class Net>
void add_model(case_list& all, const std::string& model, const std::vector<std::string>& wanted) {
  if (wanted_case(wanted, model + ".float32"))
    all.emplace_back(model + ".float32", std::make_unique<net_runner<Net, float>>());
  if (wanted_case(wanted, model + ".int8"))
    all.emplace_back(model + ".int8", std::make_unique<net_runner<Net, int8_t>>());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> wanted(argv + 1, argv + argc);
  const bool list = wanted.size() == 1 && wanted[0] == "--list";
  if (list) wanted.clear();
  case_list cases;
  add_model<ctnn::zoo::lenet5>(cases, "lenet5", wanted);
  add_model<ctnn::zoo::resnet18>(cases, "resnet18", wanted);
  add_model<ctnn::zoo::mobilenet_v2>(cases, "mobilenet_v2", wanted);
#if CTNN_BENCH_FMNIST
  add_imported<ctnn_models::fmnist_lenet5_f32_model>(cases, "fmnist_lenet5", wanted);
  add_imported<ctnn_models::fmnist_lenet5_i8_model>(cases, "fmnist_lenet5", wanted);
  add_imported<ctnn_models::fmnist_dscnn_f32_model>(cases, "fmnist_dscnn", wanted);
  add_imported<ctnn_models::fmnist_dscnn_i8_model>(cases, "fmnist_dscnn", wanted);
  add_imported<ctnn_models::fmnist_resnet8_f32_model>(cases, "fmnist_resnet8", wanted);
  add_imported<ctnn_models::fmnist_resnet8_i8_model>(cases, "fmnist_resnet8", wanted);
#endif
#if CTNN_BENCH_TORCHVISION
  add_imported<ctnn_models::tv_resnet18_f32_model>(cases, "tv_resnet18", wanted);
  add_imported<ctnn_models::tv_resnet18_i8_model>(cases, "tv_resnet18", wanted);
  add_imported<ctnn_models::tv_mobilenet_v2_f32_model>(cases, "tv_mobilenet_v2", wanted);
  add_imported<ctnn_models::tv_mobilenet_v2_i8_model>(cases, "tv_mobilenet_v2", wanted);
#endif
  if (!wanted.empty() && cases.size() != wanted.size()) {
    std::fprintf(stderr, "ctnn_bench_net: unknown case among the arguments (--list prints them)\n");
    return 2;
  }
  if (list) {
    for (const auto& c : cases) std::printf("%s\n", c.first.c_str());
    return 0;
  }
  std::printf("ready");
  for (const auto& c : cases) std::printf(" %s", c.first.c_str());
  std::printf("\n");
  std::fflush(stdout);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string name;
    in >> name;
    auto find = [&](const std::string& n) -> runner* {
      for (auto& c : cases)
        if (c.first == n) return c.second.get();
      return nullptr;
    };
    if (name == "check") {
      std::string c, in_path, out_path;
      double ref_diff = 0.0;
      runner* r = (in >> c >> in_path >> out_path) ? find(c) : nullptr;
      if (r == nullptr || !r->check(in_path, out_path, ref_diff)) {
        std::printf("error check %s\n", c.c_str());
        std::fflush(stdout);
        return 1;
      }
      std::printf("check %s %.9g\n", c.c_str(), ref_diff);
      std::fflush(stdout);
      continue;
    }
    if (name == "profile") {
      std::string c;
      long runs = 0;
      runner* r = (in >> c >> runs) && runs > 0 ? find(c) : nullptr;
      if (r == nullptr || !r->profile(c, runs)) {
        std::printf("error profile %s\n", c.c_str());
        std::fflush(stdout);
        return 1;
      }
      std::fflush(stdout);
      continue;
    }
    double budget = 0.0;
    if (!(in >> budget)) continue;
    runner* r = find(name);
    long runs = 0;
    double seconds = 0.0, checksum = 0.0;
    if (r == nullptr || !r->measure(budget, runs, seconds, checksum)) {
      std::printf("error %s\n", name.c_str());
      std::fflush(stdout);
      return 1;
    }
    std::printf("%s %ld %.9g %.9g\n", name.c_str(), runs, seconds, checksum);
    std::fflush(stdout);
  }
  return 0;
}
