// Convolutions with ResNet-50 layer shapes (batch 1, 224x224 input), float32 and int8:
// BM_conv_f32/<layer>/<impl> and BM_conv_s8/<layer>/<ctnn|ctnn_packed> (weights packed in every
// call, or once outside the timing). The OpenBLAS peer runs the same
// im2col followed by cblas_sgemm, so the ratio isolates the GEMM. Depthwise convolutions with
// MobileNetV2's 3x3 shapes and EfficientNet-B0's 5x5 ones: BM_dw_f32 / BM_dw_s8/<layer>/<impl>,
// impl = ctnn (depthwise.hpp's vector lanes) or direct (the scalar loop it replaced).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "ctnn/kernels/layers.hpp"

#if CTNN_BENCH_OPENBLAS
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
#endif

namespace {

using ctnn::kernels::conv_geometry;

struct named_conv {
  const char* name;
  conv_geometry g;
};

// torchvision ResNet-50 v1.5 (stride on the 3x3 conv of each stage's first bottleneck)
const named_conv resnet50_layers[] = {
    {"conv1_7x7s2_3-64_224", {3, 224, 224, 64, 7, 7, 2, 2, 3, 3, 3, 3}},
    {"l1_1x1_64-64_56", {64, 56, 56, 64, 1, 1}},
    {"l1_3x3_64-64_56", {64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1}},
    {"l1_1x1_64-256_56", {64, 56, 56, 256, 1, 1}},
    {"l2_3x3s2_128-128_56", {128, 56, 56, 128, 3, 3, 2, 2, 1, 1, 1, 1}},
    {"l2_3x3_128-128_28", {128, 28, 28, 128, 3, 3, 1, 1, 1, 1, 1, 1}},
    {"l3_3x3_256-256_14", {256, 14, 14, 256, 3, 3, 1, 1, 1, 1, 1, 1}},
    {"l3_1x1_1024-256_14", {1024, 14, 14, 256, 1, 1}},
    {"l4_3x3_512-512_7", {512, 7, 7, 512, 3, 3, 1, 1, 1, 1, 1, 1}},
    {"l4_1x1_512-2048_7", {512, 7, 7, 2048, 1, 1}},
};

void bm_conv_f32_ctnn(benchmark::State& state, conv_geometry g) {
  const auto in = ctnn_bench::random_f32(size_t(g.in_elems()), 1);
  const auto w = ctnn_bench::random_f32(size_t(g.weight_elems()), 2);
  const auto b = ctnn_bench::random_f32(size_t(g.out_c), 3);
  std::vector<float> out(size_t(g.out_elems()));
  // one panel of every output row (the whole im2col matrix, as OpenBLAS's side gets)
  const int64_t rows = g.out_h();
  std::vector<float> scratch(size_t(ctnn::kernels::conv_scratch_elems(g, rows)) + 1);
  for (auto _ : state) {
    ctnn::kernels::conv2d_f32(g, in.data(), w.data(), b.data(), out.data(), rows, scratch.data(),
                              scratch.size() * sizeof(float));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * double(g.macs()));
}

#if CTNN_BENCH_OPENBLAS
void bm_conv_f32_openblas(benchmark::State& state, conv_geometry g) {
  openblas_set_num_threads(1);
  const auto in = ctnn_bench::random_f32(size_t(g.in_elems()), 1);
  const auto w = ctnn_bench::random_f32(size_t(g.weight_elems()), 2);
  std::vector<float> out(size_t(g.out_elems()));
  std::vector<float> col(size_t(ctnn::kernels::conv_scratch_elems(g, g.out_h())) + 1);
  const int M = int(g.out_c), N = int(g.out_h() * g.out_w()), K = int(g.gemm_k());
  const auto run = [&] {
    const float* bm = in.data();
    if (!g.pointwise()) {
      ctnn::kernels::detail::im2col_rows<float>(g, in.data(), col.data(), 0.0f, 0, g.out_h());
      bm = col.data();
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, w.data(), K, bm, N, 0.0f, out.data(), N);
  };
  // a peer that computes garbage fast is no peer: ctnn's conv2d_f32 (no bias) once, compared
  run();
  std::vector<float> want(out.size()), scratch(col.size());
  ctnn::kernels::conv2d_f32(g, in.data(), w.data(), nullptr, want.data(), g.out_h(), scratch.data(),
                            scratch.size() * sizeof(float));
  float scale = 1.0f, diff = 0.0f;
  for (size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, std::fabs(want[i]));
    diff = std::max(diff, std::fabs(out[i] - want[i]));
  }
  if (diff > 1e-4f * scale) {
    state.SkipWithError(("output differs from ctnn's: max |diff| " + std::to_string(diff)).c_str());
    return;
  }
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * double(g.macs()));
}
#endif

/// The operands of an int8 convolution case: seeded input and weights, bias, per-channel
/// requantization to about the int8 range, zero points and a ReLU-like clamp.
struct conv_s8_case {
  std::vector<int8_t> in, w;
  std::vector<int32_t> bias, mult, shift;
  ctnn::ref::gemm_s8_params p{};
  explicit conv_s8_case(const conv_geometry& g)
      : in(ctnn_bench::random_s8(size_t(g.in_elems()), 1)), w(ctnn_bench::random_s8(size_t(g.weight_elems()), 2)),
        bias(size_t(g.out_c), 100), mult(size_t(g.out_c)), shift(size_t(g.out_c)) {
    for (size_t i = 0; i < mult.size(); ++i) {
      const auto q = ctnn::quant::quantize_multiplier(1.0 / (128.0 * double(g.gemm_k()) + double(i)));
      mult[i] = q.multiplier;
      shift[i] = q.shift;
    }
    p = ctnn::ref::gemm_s8_params{-3, 0, 2, mult.data(), shift.data(), true, 2, 127};
  }
  conv_s8_case(const conv_s8_case&) = delete;  // p points into mult and shift
  conv_s8_case& operator=(const conv_s8_case&) = delete;
};

void bm_conv_s8_ctnn(benchmark::State& state, conv_geometry g) {
  const conv_s8_case cs(g);
  const auto& [in, w, bias, mult, shift, p] = cs;
  std::vector<int8_t> out(size_t(g.out_elems()));
  std::vector<int32_t> scratch(ctnn::kernels::conv2d_s8_scratch_bytes(g) / 4 + 16);
  for (auto _ : state) {
    ctnn::kernels::conv2d_s8(g, in.data(), w.data(), bias.data(), out.data(), p, scratch.data(), scratch.size() * 4);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GOP/s", 2.0 * double(g.macs()));
}

/// As bm_conv_s8_ctnn with the weights packed once, outside the timing (pack_conv2d_s8_weights:
/// what the executor's packed_weights region holds), as a network's weights are.
void bm_conv_s8_ctnn_packed(benchmark::State& state, conv_geometry g) {
  const conv_s8_case cs(g);
  const auto& [in, w, bias, mult, shift, p] = cs;
  std::vector<int8_t> out(size_t(g.out_elems())), want(out.size());
  const int64_t rows = g.out_h();
  std::vector<int8_t> panel(size_t(ctnn::kernels::conv_scratch_elems(g, rows)) + 1);
  std::vector<int64_t> packed(ctnn::kernels::conv2d_s8_packed_bytes(g) / 8 + 8);
  void* pk = packed.data() + (8 - reinterpret_cast<uintptr_t>(packed.data()) % 64 / 8) % 8;  // 64-byte aligned
  if (ctnn::kernels::pack_conv2d_s8_weights(g, w.data(), pk, (packed.size() - 8) * 8) != ctnn::kernels::status::ok) {
    state.SkipWithError("pack_conv2d_s8_weights failed");
    return;
  }
  const auto run = [&](int8_t* o, const void* packed_w) {
    return ctnn::kernels::conv2d_s8(g, in.data(), w.data(), bias.data(), o, p, rows, panel.data(), panel.size(),
                                    nullptr, 0, packed_w);
  };
  // the same output as the per-call packing
  if (run(out.data(), pk) != ctnn::kernels::status::ok || run(want.data(), nullptr) != ctnn::kernels::status::ok ||
      out != want) {
    state.SkipWithError("packed output differs from the unpacked one");
    return;
  }
  for (auto _ : state) {
    run(out.data(), pk);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GOP/s", 2.0 * double(g.macs()));
}

/// The scratch-free direct kernel (panel_rows == 0: what a plan without slack for a panel runs).
void bm_conv_f32_direct(benchmark::State& state, conv_geometry g) {
  const auto in = ctnn_bench::random_f32(size_t(g.in_elems()), 1);
  const auto w = ctnn_bench::random_f32(size_t(g.weight_elems()), 2);
  std::vector<float> out(size_t(g.out_elems()));
  for (auto _ : state) {
    ctnn::kernels::conv2d_f32(g, in.data(), w.data(), nullptr, out.data(), 0, nullptr, 0);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * double(g.macs()));
}

void register_all() {
  for (const auto& l : resnet50_layers) {
    benchmark::RegisterBenchmark((std::string("BM_conv_f32/") + l.name + "/ctnn").c_str(), bm_conv_f32_ctnn, l.g)
        ->Unit(benchmark::kMicrosecond);
#if CTNN_BENCH_OPENBLAS
    benchmark::RegisterBenchmark((std::string("BM_conv_f32/") + l.name + "/openblas").c_str(), bm_conv_f32_openblas,
                                 l.g)
        ->Unit(benchmark::kMicrosecond);
#endif
    benchmark::RegisterBenchmark((std::string("BM_conv_s8/") + l.name + "/ctnn").c_str(), bm_conv_s8_ctnn, l.g)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((std::string("BM_conv_s8/") + l.name + "/ctnn_packed").c_str(),
                                 bm_conv_s8_ctnn_packed, l.g)
        ->Unit(benchmark::kMicrosecond);
  }
}

void register_direct() {
  for (const auto& l : resnet50_layers)
    if (ctnn::kernels::conv_uses_panels(l.g))
      benchmark::RegisterBenchmark((std::string("BM_conv_f32/") + l.name + "/ctnn_direct").c_str(), bm_conv_f32_direct,
                                   l.g)->Unit(benchmark::kMillisecond);
}

// MobileNetV2 (torchvision, 224x224) depthwise 3x3 layers, padding 1, and EfficientNet-B0's 5x5
// ones, padding 2: <channels>_<input size>
const named_conv depthwise_layers[] = {
    {"3x3_32_112", {32, 112, 112, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 32}},
    {"3x3s2_96_112", {96, 112, 112, 96, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 96}},
    {"3x3_144_56", {144, 56, 56, 144, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 144}},
    {"3x3s2_144_56", {144, 56, 56, 144, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 144}},
    {"3x3_192_28", {192, 28, 28, 192, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 192}},
    {"3x3_384_14", {384, 14, 14, 384, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 384}},
    {"3x3_576_14", {576, 14, 14, 576, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 576}},
    {"3x3_960_7", {960, 7, 7, 960, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 960}},
    {"5x5s2_144_56", {144, 56, 56, 144, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 144}},
    {"5x5_240_28", {240, 28, 28, 240, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 240}},
};

void bm_dw_f32(benchmark::State& state, conv_geometry g, bool direct) {
  const auto in = ctnn_bench::random_f32(size_t(g.in_elems()), 1);
  const auto w = ctnn_bench::random_f32(size_t(g.weight_elems()), 2);
  const auto b = ctnn_bench::random_f32(size_t(g.out_c), 3);
  std::vector<float> out(size_t(g.out_elems()));
  for (auto _ : state) {
    if (direct)
      ctnn::kernels::detail::depthwise_direct_f32(g, in.data(), w.data(), b.data(), out.data());
    else
      ctnn::kernels::depthwise_conv2d_f32(g, in.data(), w.data(), b.data(), out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * double(g.macs()));
}

void bm_dw_s8(benchmark::State& state, conv_geometry g, bool direct) {
  const conv_s8_case cs(g);
  const auto& [in, w, bias, mult, shift, p] = cs;
  std::vector<int8_t> out(size_t(g.out_elems()));
  for (auto _ : state) {
    if (direct)
      ctnn::kernels::detail::depthwise_direct_s8(g, in.data(), w.data(), bias.data(), out.data(), p);
    else
      ctnn::kernels::depthwise_conv2d_s8(g, in.data(), w.data(), bias.data(), out.data(), p);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GOP/s", 2.0 * double(g.macs()));
}

void register_depthwise() {
  for (const auto& l : depthwise_layers)
    for (bool direct : {false, true}) {
      const std::string impl = direct ? "/direct" : "/ctnn";
      benchmark::RegisterBenchmark((std::string("BM_dw_f32/") + l.name + impl).c_str(), bm_dw_f32, l.g, direct)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark((std::string("BM_dw_s8/") + l.name + impl).c_str(), bm_dw_s8, l.g, direct)
          ->Unit(benchmark::kMicrosecond);
    }
}

const int registered = (register_all(), register_direct(), register_depthwise(), 0);

}  // namespace
