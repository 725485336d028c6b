// Square GEMM throughput: BM_sgemm/<impl>/<N> (ctnn, openblas, eigen) and BM_qgemm/<impl>/<N>
// (ctnn int8, gemmlowp uint8), single-threaded, N in 64..1024.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "bench_common.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/tiled.hpp"

#if CTNN_BENCH_OPENBLAS
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
#endif
#if CTNN_BENCH_EIGEN
#include <Eigen/Core>
#endif
#if CTNN_BENCH_GEMMLOWP
#include <public/gemmlowp.h>
#endif

namespace {

using ctnn_bench::random_f32;
using ctnn_bench::random_s8;

void bm_sgemm_ctnn(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto a = random_f32(size_t(n) * n, 1), b = random_f32(size_t(n) * n, 2);
  std::vector<float> c(size_t(n) * n);
  for (auto _ : state) {
    ctnn::kernels::tiled::gemm_f32(n, n, n, a.data(), n, b.data(), n, nullptr, c.data(), n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * n * n * n);
}

#if CTNN_BENCH_OPENBLAS
void bm_sgemm_openblas(benchmark::State& state) {
  openblas_set_num_threads(1);
  const int n = static_cast<int>(state.range(0));
  const auto a = random_f32(size_t(n) * n, 1), b = random_f32(size_t(n) * n, 2);
  std::vector<float> c(size_t(n) * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * n * n * n);
}
#endif

#if CTNN_BENCH_EIGEN
void bm_sgemm_eigen(benchmark::State& state) {
  using mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int n = static_cast<int>(state.range(0));
  const auto a = random_f32(size_t(n) * n, 1), b = random_f32(size_t(n) * n, 2);
  const Eigen::Map<const mat> ma(a.data(), n, n), mb(b.data(), n, n);
  mat mc(n, n);
  for (auto _ : state) {
    mc.noalias() = ma * mb;
    benchmark::DoNotOptimize(mc.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * n * n * n);
}
#endif

void bm_qgemm_ctnn(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto a = random_s8(size_t(n) * n, 1), b = random_s8(size_t(n) * n, 2);
  std::vector<int8_t> c(size_t(n) * n);
  const auto rq = ctnn::quant::quantize_multiplier(1.0 / (64.0 * n));
  const ctnn::ref::gemm_s8_params p{3, 0, -5, &rq.multiplier, &rq.shift, false, -128, 127};
  for (auto _ : state) {
    ctnn::kernels::tiled::gemm_s8(n, n, n, a.data(), n, b.data(), n, nullptr, c.data(), n, p);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GOP/s", 2.0 * n * n * n);
}

#if CTNN_BENCH_GEMMLOWP
// gemmlowp's own fast layout: lhs row-major, rhs and result column-major, uint8 operands with
// offsets, quantize-down by fixed-point multiplier then saturating cast to uint8 (the same
// output work as ctnn's requantization).
void bm_qgemm_gemmlowp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto a8 = random_s8(size_t(n) * n, 1), b8 = random_s8(size_t(n) * n, 2);
  std::vector<uint8_t> a(a8.size()), b(b8.size()), c(size_t(n) * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(a8[i] + 128);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(b8[i] + 128);
  gemmlowp::GemmContext ctx;
  ctx.set_max_num_threads(1);
  const gemmlowp::MatrixMap<const uint8_t, gemmlowp::MapOrder::RowMajor> lhs(a.data(), n, n);
  const gemmlowp::MatrixMap<const uint8_t, gemmlowp::MapOrder::ColMajor> rhs(b.data(), n, n);
  gemmlowp::MatrixMap<uint8_t, gemmlowp::MapOrder::ColMajor> res(c.data(), n, n);
  const auto rq = ctnn::quant::quantize_multiplier(1.0 / (64.0 * n));
  gemmlowp::OutputStageQuantizeDownInt32ByFixedPoint down;
  down.result_fixedpoint_multiplier = rq.multiplier;
  down.result_shift = -rq.shift;
  down.result_offset_after_shift = 123;
  const auto pipeline = std::make_tuple(down, gemmlowp::OutputStageSaturatingCastToUint8());
  for (auto _ : state) {
    gemmlowp::GemmWithOutputPipeline<uint8_t, uint8_t, gemmlowp::DefaultL8R8BitDepthParams>(&ctx, lhs, rhs, &res, -131,
                                                                                          -128, pipeline);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GOP/s", 2.0 * n * n * n);
}
#endif

void bm_sgemm_ctnn_ref(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto a = random_f32(size_t(n) * n, 1), b = random_f32(size_t(n) * n, 2);
  std::vector<float> c(size_t(n) * n);
  for (auto _ : state) {
    ctnn::ref::gemm_f32(n, n, n, a.data(), n, b.data(), n, nullptr, c.data(), n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * n * n * n);
}

void register_all() {
  const auto sizes = [](benchmark::internal::Benchmark* b) {
    for (int n : {64, 128, 256, 512, 1024}) b->Arg(n);
    b->Unit(benchmark::kMicrosecond);
  };
  benchmark::RegisterBenchmark("BM_sgemm/ctnn", bm_sgemm_ctnn)->Apply(sizes);
#if CTNN_BENCH_OPENBLAS
  benchmark::RegisterBenchmark("BM_sgemm/openblas", bm_sgemm_openblas)->Apply(sizes);
#endif
#if CTNN_BENCH_EIGEN
  benchmark::RegisterBenchmark("BM_sgemm/eigen", bm_sgemm_eigen)->Apply(sizes);
#endif
  benchmark::RegisterBenchmark("BM_sgemm/ctnn_reference", bm_sgemm_ctnn_ref)->Arg(64)->Arg(128)->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_qgemm/ctnn", bm_qgemm_ctnn)->Apply(sizes);
#if CTNN_BENCH_GEMMLOWP
  benchmark::RegisterBenchmark("BM_qgemm/gemmlowp", bm_qgemm_gemmlowp)->Apply(sizes);
#endif
}

const int registered = (register_all(), 0);

}  // namespace
