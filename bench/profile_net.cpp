// Per-leaf int8 profile of ResNet-18 and MobileNetV2 (zoo, fill_params seed 1): the median over R
// runs of each leaf's time between the executor's leaf_begin and leaf_end hooks, summed per kind,
// without and with packed weights (runtime/packed.hpp). Not a CMake target; build and run:
//
//   g++ -std=c++20 -O3 -march=native -Iinclude bench/profile_net.cpp -o /tmp/profile_net
//   /tmp/profile_net 11            # PROF_LEAVES=1 also prints every leaf
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "ctnn/host/run_buffers.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/mobilenet_v2.hpp"
#include "ctnn/zoo/resnet.hpp"
namespace rt = ctnn::runtime;
using clk = std::chrono::steady_clock;
struct timer_hook {
  std::vector<std::vector<double>>* t;
  clk::time_point t0;
  template <class T> rt::offload_result offload(const rt::leaf_call<T>&) const { return rt::offload_result::declined(); }
  void leaf_begin(int32_t) { t0 = clk::now(); }
  void leaf_end(int32_t i) { (*t)[size_t(i)].push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count()); }
};
template <class Net>
void prof(const char* name, bool packed, int reps) {
  constexpr auto dt = ctnn::dtype::int8;
  constexpr auto& plan = ctnn::memory::plan_of<Net, dt>;
  constexpr auto& lay = rt::param_layout_of<Net, dt>;
  ctnn::host::aligned_bytes arena(plan.arena_bytes), params(lay.total_bytes);
  rt::fill_params<Net, dt>(params.data, params.size, 1);
  auto pk = std::make_unique<rt::packed_weights<Net, int8_t>>();
  pk->pack(params.data);
  std::vector<std::vector<double>> t(static_cast<size_t>(Net::leaf_count));
  timer_hook h{&t, {}};
  std::vector<double> whole;
  for (int r = 0; r < reps; ++r) {
    rt::fill_input<int8_t>(reinterpret_cast<int8_t*>(arena.data + plan.offset_of(0)), Net::input_shape.elems(), 2, rt::default_tensor_quant<Net>(0));
    auto t0 = clk::now();
    rt::run_status s;
    if (packed) {
      // packed + hook: run_with directly
      s = rt::detail::run_with<Net, int8_t>(arena.data, arena.size, params.data, params.size,
                                            rt::detail::backend_constant<rt::backend::optimized>{}, h, nullptr, nullptr, pk.get());
    } else {
      s = rt::run<Net, int8_t, rt::backend::optimized>(arena.data, arena.size, params.data, params.size, h);
    }
    whole.push_back(std::chrono::duration<double, std::milli>(clk::now() - t0).count());
    if (!s.ok()) { std::printf("fault\n"); return; }
  }
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  std::map<std::string, double> by_kind;
  std::printf("# %s int8 %s: whole %.2f ms (median of %d)\n", name, packed ? "packed" : "unpacked", med(whole), reps);
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const auto& r = Net::layer(i);
    const double m = med(t[size_t(i)]);
    static const char* const names[] = {"container", "conv2d", "linear", "max_pool2d", "avg_pool2d",
                                        "adaptive_avg_pool2d", "batch_norm2d", "relu", "relu6", "sigmoid",
                                        "silu", "hardswish", "hardsigmoid", "tanh", "flatten", "dropout",
                                        "softmax", "zero_pad2d", "channel_shuffle", "add"};
    const int kind = int(r.kind);
    std::string k = kind < int(sizeof(names) / sizeof(names[0])) ? names[kind] : "op" + std::to_string(kind);
    if (r.kind == ctnn::op::conv2d) {
      if (r.geometry.groups > 1) k = "conv2d_dw"; else if (r.geometry.kernel.h == 1) k = "conv2d_1x1"; else k = "conv2d_kxk";
    }
    by_kind[k] += m;
    if (std::getenv("PROF_LEAVES")) std::printf("%3d %-12s in %4lldx%3lldx%3lld out %4lld k%lld s%lld  %8.1f us\n", i, k.c_str(), (long long)r.in.c, (long long)r.in.h, (long long)r.in.w, (long long)r.out.c, (long long)r.geometry.kernel.h, (long long)r.geometry.stride.h, m);
  }
  for (auto& [k, v] : by_kind) std::printf("  %-12s %8.2f ms\n", k.c_str(), v / 1000.0);
}
int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 15;
  prof<ctnn::zoo::resnet18>("resnet18", false, reps);
  prof<ctnn::zoo::resnet18>("resnet18", true, reps);
  prof<ctnn::zoo::mobilenet_v2>("mobilenet_v2", false, reps);
  prof<ctnn::zoo::mobilenet_v2>("mobilenet_v2", true, reps);
}
