// Whole-network runs through the executor: LeNet-5, one ResNet-18 BasicBlock (64x56x56 ->
// 128x28x28, projection shortcut) and MobileNetV2 (224x224), float32 and int8, optimized and
// reference backends.
#include <cstdint>
#include <vector>

#include "bench_common.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"
#include "ctnn/zoo/mobilenet_v2.hpp"
#include "ctnn/zoo/resnet.hpp"

namespace {

namespace rt = ctnn::runtime;
using resnet18_block = ctnn::network<"ResNet18Block", ctnn::shape{64, 56, 56}, ctnn::zoo::basic_block<64, 128, 2>>;

uint8_t* aligned16(std::vector<uint8_t>& v) {
  return v.data() + (16 - reinterpret_cast<uintptr_t>(v.data()) % 16) % 16;
}

template <class Net, class T>
void bm_run(benchmark::State& state, rt::backend be) {
  constexpr auto dt = ctnn::dtype_of<T>;
  constexpr auto& plan = ctnn::memory::plan_of<Net, dt>;
  constexpr auto& layout = rt::param_layout_of<Net, dt>;
  std::vector<uint8_t> arena_v(plan.arena_bytes + 16), params_v(layout.total_bytes + 16);
  uint8_t* arena = aligned16(arena_v);
  uint8_t* params = aligned16(params_v);
  if (!rt::fill_params<Net, dt>(params, layout.total_bytes, 1)) state.SkipWithError("fill_params failed");
  for (auto _ : state) {
    state.PauseTiming();  // the input is overwritten by in-place layers: place it again
    rt::fill_input<T>(reinterpret_cast<T*>(arena + plan.offset_of(0)), Net::input_shape.elems(), 2,
                      rt::default_tensor_quant<Net>(0));
    state.ResumeTiming();
    const rt::run_status s = rt::run<Net, T>(arena, plan.arena_bytes, params, layout.total_bytes, be);
    if (!s.ok()) state.SkipWithError("run failed");
    benchmark::ClobberMemory();
  }
  state.counters["MMAC"] = double(Net::macs) / 1e6;
  ctnn_bench::set_rate(state, dt == ctnn::dtype::int8 ? "GOP/s" : "GFLOP/s", 2.0 * double(Net::macs));
}

template <class Net, class T>
void add(const char* name, const char* dtype) {
  for (auto be : {rt::backend::optimized, rt::backend::reference}) {
    const std::string n = std::string("BM_run/") + name + "/" + dtype + (be == rt::backend::optimized ? "/optimized" : "/reference");
    benchmark::RegisterBenchmark(n.c_str(), [be](benchmark::State& s) { bm_run<Net, T>(s, be); })
        ->Unit(benchmark::kMillisecond);
  }
}

const int registered = [] {
  add<ctnn::zoo::lenet5, float>("lenet5", "float32");
  add<ctnn::zoo::lenet5, int8_t>("lenet5", "int8");
  add<resnet18_block, float>("resnet18_block", "float32");
  add<resnet18_block, int8_t>("resnet18_block", "int8");
  add<ctnn::zoo::mobilenet_v2, float>("mobilenet_v2", "float32");
  add<ctnn::zoo::mobilenet_v2, int8_t>("mobilenet_v2", "int8");
  return 0;
}();

}  // namespace
