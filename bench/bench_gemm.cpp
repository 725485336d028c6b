// GEMM throughput, single-threaded: BM_sgemm/<impl>/<N> (square, N in 32..1024; ctnn, openblas,
// eigen, onednn), BM_sgemm_conv/<impl>/<M>/<N>/<K> (two convolution-shaped GEMMs),
// BM_sgemv/<impl>/<M>/<K> (a linear layer, y = W x + b), BM_qgemm/<impl>/<N> (8-bit GEMM with
// 8-bit output; ctnn int8, gemmlowp uint8, oneDNN u8s8s32 + requantization, oneDNN s8 matmul).
// Every peer's output is compared with ctnn's once before its timing loop: a peer that disagrees
// stops with SkipWithError ("ERROR OCCURRED" in the output, which the bench.smoke test rejects).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/layers.hpp"
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
#if CTNN_BENCH_ONEDNN
#include <omp.h>

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace {

using ctnn_bench::random_f32;
using ctnn_bench::random_s8;

/// ctnn's float GEMM C (M x N) = A (M x K) B (K x N), row-major: the reference every float peer
/// is held to.
std::vector<float> ctnn_sgemm(int m, int n, int k, const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> c(size_t(m) * size_t(n));
  ctnn::kernels::tiled::gemm_f32(m, n, k, a.data(), k, b.data(), n, nullptr, c.data(), n);
  return c;
}

/// False (and the benchmark skipped with an error) when `got` differs from ctnn's `want` by more
/// than float rounding: relative to the largest |want|, 1e-4 (K <= 4608 terms in [-0.25, 0.25]).
bool agrees(benchmark::State& state, const std::vector<float>& got, const std::vector<float>& want) {
  float scale = 0.0f, diff = 0.0f;
  for (size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, std::fabs(want[i]));
    diff = std::max(diff, std::fabs(got[i] - want[i]));
  }
  if (got.size() == want.size() && diff <= 1e-4f * std::max(scale, 1.0f)) return true;
  state.SkipWithError(("output differs from ctnn's: max |diff| " + std::to_string(diff)).c_str());
  return false;
}

/// As above for 8-bit outputs: at most `tol` apart (0: bit-exact).
bool agrees(benchmark::State& state, const std::vector<int8_t>& got, const std::vector<int8_t>& want, int tol) {
  int diff = 0;
  for (size_t i = 0; i < want.size(); ++i) diff = std::max(diff, std::abs(int(got[i]) - int(want[i])));
  if (got.size() == want.size() && diff <= tol) return true;
  state.SkipWithError(("output differs from ctnn's: max |diff| " + std::to_string(diff)).c_str());
  return false;
}

/// The GEMM of a benchmark: C (m x n) = A (m x k) B (k x n).
struct dims {
  int m, n, k;
  [[nodiscard]] double ops() const { return 2.0 * m * n * k; }
};
using sgemm_fn = void (*)(benchmark::State&, const dims&);

/// Square benchmarks carry N (one argument), the convolution-shaped ones M, N, K.
dims dims_of(const benchmark::State& state, bool square) {
  const int a = static_cast<int>(state.range(0));
  if (square) return {a, a, a};
  return {a, static_cast<int>(state.range(1)), static_cast<int>(state.range(2))};
}

// ---- float GEMM -------------------------------------------------------------------------------

void bm_sgemm_ctnn(benchmark::State& state, const dims& d) {
  const auto a = random_f32(size_t(d.m) * d.k, 1), b = random_f32(size_t(d.k) * d.n, 2);
  std::vector<float> c(size_t(d.m) * d.n);
  for (auto _ : state) {
    ctnn::kernels::tiled::gemm_f32(d.m, d.n, d.k, a.data(), d.k, b.data(), d.n, nullptr, c.data(), d.n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", d.ops());
}

#if CTNN_BENCH_OPENBLAS
void bm_sgemm_openblas(benchmark::State& state, const dims& d) {
  openblas_set_num_threads(1);
  const auto a = random_f32(size_t(d.m) * d.k, 1), b = random_f32(size_t(d.k) * d.n, 2);
  std::vector<float> c(size_t(d.m) * d.n);
  const auto run = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, d.m, d.n, d.k, 1.0f, a.data(), d.k, b.data(), d.n, 0.0f,
                c.data(), d.n);
  };
  run();
  if (!agrees(state, c, ctnn_sgemm(d.m, d.n, d.k, a, b))) return;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", d.ops());
}
#endif

#if CTNN_BENCH_ONEDNN
// oneDNN's BLAS-like sgemm (row-major since oneDNN 1.0), on one OpenMP thread (see register_all).
void bm_sgemm_onednn(benchmark::State& state, const dims& d) {
  const auto a = random_f32(size_t(d.m) * d.k, 1), b = random_f32(size_t(d.k) * d.n, 2);
  std::vector<float> c(size_t(d.m) * d.n);
  const auto run = [&] {
    return dnnl_sgemm('N', 'N', d.m, d.n, d.k, 1.0f, a.data(), d.k, b.data(), d.n, 0.0f, c.data(), d.n);
  };
  if (run() != dnnl_success) {
    state.SkipWithError("dnnl_sgemm failed");
    return;
  }
  if (!agrees(state, c, ctnn_sgemm(d.m, d.n, d.k, a, b))) return;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", d.ops());
}
#endif

#if CTNN_BENCH_EIGEN
void bm_sgemm_eigen(benchmark::State& state, const dims& d) {
  using mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto a = random_f32(size_t(d.m) * d.k, 1), b = random_f32(size_t(d.k) * d.n, 2);
  const Eigen::Map<const mat> ma(a.data(), d.m, d.k), mb(b.data(), d.k, d.n);
  mat mc(d.m, d.n);
  mc.noalias() = ma * mb;
  if (!agrees(state, std::vector<float>(mc.data(), mc.data() + mc.size()), ctnn_sgemm(d.m, d.n, d.k, a, b))) return;
  for (auto _ : state) {
    mc.noalias() = ma * mb;
    benchmark::DoNotOptimize(mc.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", d.ops());
}
#endif

void bm_sgemm_ctnn_ref(benchmark::State& state, const dims& d) {
  const auto a = random_f32(size_t(d.m) * d.k, 1), b = random_f32(size_t(d.k) * d.n, 2);
  std::vector<float> c(size_t(d.m) * d.n);
  for (auto _ : state) {
    ctnn::ref::gemm_f32(d.m, d.n, d.k, a.data(), d.k, b.data(), d.n, nullptr, c.data(), d.n);
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", d.ops());
}

// ---- matrix-vector: a linear layer, y (M) = W (M x K) x (K) + b --------------------------------

/// ctnn's linear float32 as the executor runs it (nn/linear.hpp, optimized backend).
void bm_sgemv_ctnn(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1));
  const auto w = random_f32(size_t(m) * k, 1), x = random_f32(size_t(k), 2), bias = random_f32(size_t(m), 3);
  std::vector<float> y(static_cast<size_t>(m));
  for (auto _ : state) {
    ctnn::kernels::linear_f32(1, k, m, x.data(), w.data(), bias.data(), y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * m * k);
}

/// ctnn's linear output, the reference of the matrix-vector peers.
std::vector<float> ctnn_gemv(int m, int k, const std::vector<float>& w, const std::vector<float>& x,
                             const std::vector<float>& bias) {
  std::vector<float> y(static_cast<size_t>(m));
  ctnn::ref::linear_f32(1, k, m, x.data(), w.data(), bias.data(), y.data());
  return y;
}

#if CTNN_BENCH_OPENBLAS
void bm_sgemv_openblas(benchmark::State& state) {
  openblas_set_num_threads(1);
  const int m = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1));
  const auto w = random_f32(size_t(m) * k, 1), x = random_f32(size_t(k), 2), bias = random_f32(size_t(m), 3);
  std::vector<float> y(static_cast<size_t>(m));
  const auto run = [&] {  // the bias first, then y += W x
    std::copy(bias.begin(), bias.end(), y.begin());
    cblas_sgemv(CblasRowMajor, CblasNoTrans, m, k, 1.0f, w.data(), k, x.data(), 1, 1.0f, y.data(), 1);
  };
  run();
  if (!agrees(state, y, ctnn_gemv(m, k, w, x, bias))) return;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * m * k);
}
#endif

#if CTNN_BENCH_ONEDNN
/// oneDNN's sgemm with N = 1 (its GEMV path), the bias copied in first and beta = 1.
void bm_sgemv_onednn(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1));
  const auto w = random_f32(size_t(m) * k, 1), x = random_f32(size_t(k), 2), bias = random_f32(size_t(m), 3);
  std::vector<float> y(static_cast<size_t>(m));
  const auto run = [&] {
    std::copy(bias.begin(), bias.end(), y.begin());
    return dnnl_sgemm('N', 'N', m, 1, k, 1.0f, w.data(), k, x.data(), 1, 1.0f, y.data(), 1);
  };
  if (run() != dnnl_success) {
    state.SkipWithError("dnnl_sgemm failed");
    return;
  }
  if (!agrees(state, y, ctnn_gemv(m, k, w, x, bias))) return;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * m * k);
}

/// oneDNN's inner product primitive (what PyTorch's frozen graphs run for a linear layer), f32,
/// batch 1, the weights in the layout the primitive prefers (reordered once, outside the timing).
void bm_sgemv_onednn_ip(benchmark::State& state) {
  using namespace dnnl;
  const int m = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1));
  const auto w = random_f32(size_t(m) * k, 1), x = random_f32(size_t(k), 2), bias = random_f32(size_t(m), 3);
  std::vector<float> y(static_cast<size_t>(m));
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  const memory::desc src_md({1, k}, memory::data_type::f32, memory::format_tag::nc);
  const memory::desc w_any({m, k}, memory::data_type::f32, memory::format_tag::any);
  const memory::desc b_md({m}, memory::data_type::f32, memory::format_tag::x);
  const memory::desc dst_md({1, m}, memory::data_type::f32, memory::format_tag::nc);
  const inner_product_forward::primitive_desc pd(
      inner_product_forward::desc(prop_kind::forward_inference, src_md, w_any, b_md, dst_md), eng);
  memory src_m(src_md, eng, const_cast<float*>(x.data())), b_m(b_md, eng, const_cast<float*>(bias.data()));
  memory dst_m(dst_md, eng, y.data());
  memory w_user({{m, k}, memory::data_type::f32, memory::format_tag::oi}, eng, const_cast<float*>(w.data()));
  memory w_m(pd.weights_desc(), eng);
  reorder(w_user, w_m).execute(s, w_user, w_m);
  const inner_product_forward ip(pd);
  const auto run = [&] {
    ip.execute(s, {{DNNL_ARG_SRC, src_m}, {DNNL_ARG_WEIGHTS, w_m}, {DNNL_ARG_BIAS, b_m}, {DNNL_ARG_DST, dst_m}});
    s.wait();
  };
  run();
  if (!agrees(state, y, ctnn_gemv(m, k, w, x, bias))) return;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GFLOP/s", 2.0 * m * k);
}
#endif

// ---- 8-bit GEMM with 8-bit output -------------------------------------------------------------

/// The quantization of every 8-bit GEMM here: A zero point 3, B zero point 0, output zero point
/// -5, one multiplier 1 / (64 N), no clamp beyond int8. ctnn: int8 A, B, C.
struct qgemm_setup {
  int n;
  std::vector<int8_t> a, b;
  decltype(ctnn::quant::quantize_multiplier(1.0)) rq;
  ctnn::ref::gemm_s8_params p;
  explicit qgemm_setup(int n_)
      : n(n_),
        a(random_s8(size_t(n) * n, 1)),
        b(random_s8(size_t(n) * n, 2)),
        rq(ctnn::quant::quantize_multiplier(1.0 / (64.0 * n))),
        p{3, 0, -5, &rq.multiplier, &rq.shift, false, -128, 127} {}
  [[nodiscard]] std::vector<int8_t> ctnn_out() const {
    std::vector<int8_t> c(size_t(n) * n);
    ctnn::kernels::tiled::gemm_s8(n, n, n, a.data(), n, b.data(), n, nullptr, c.data(), n, p);
    return c;
  }
};

/// The timing loop of an N^3 8-bit GEMM benchmark: `run` (one call, its status ignored), its
/// output at `out`, rated in GOP/s.
template <class Run>
void time_qgemm(benchmark::State& state, const Run& run, const void* out, int n) {
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  ctnn_bench::set_rate(state, "GOP/s", 2.0 * n * n * n);
}

void bm_qgemm_ctnn(benchmark::State& state) {
  const qgemm_setup q(static_cast<int>(state.range(0)));
  const int n = q.n;
  std::vector<int8_t> c(size_t(n) * n);
  time_qgemm(
      state, [&] { ctnn::kernels::tiled::gemm_s8(n, n, n, q.a.data(), n, q.b.data(), n, nullptr, c.data(), n, q.p); },
      c.data(), n);
}

/// ctnn with B (the weights' role, as in the oneDNN matmul peer) packed once outside the timing
/// (tiled::pack_b_s8_once); A packed in every call.
void bm_qgemm_ctnn_packed(benchmark::State& state) {
  const qgemm_setup q(static_cast<int>(state.range(0)));
  const int n = q.n;
  std::vector<int8_t> c(size_t(n) * n);
  std::vector<int64_t> packed(ctnn::kernels::tiled::packed_b_s8_bytes(n, n) / 8 + 8);
  auto* pb = reinterpret_cast<uint8_t*>(packed.data() + (8 - reinterpret_cast<uintptr_t>(packed.data()) % 64 / 8) % 8);
  if (ctnn::kernels::tiled::pack_b_s8_once(n, n, q.b.data(), n, pb, (packed.size() - 8) * 8) !=
      ctnn::kernels::status::ok) {
    state.SkipWithError("pack_b_s8_once failed");
    return;
  }
  const ctnn::kernels::tiled::s8_prepacked pre{nullptr, pb};
  ctnn::kernels::tiled::gemm_s8_prepacked(n, n, n, q.a.data(), n, nullptr, n, pre, nullptr, c.data(), n, q.p);
  if (c != q.ctnn_out()) {
    state.SkipWithError("packed output differs from the unpacked one");
    return;
  }
  time_qgemm(
      state,
      [&] { ctnn::kernels::tiled::gemm_s8_prepacked(n, n, n, q.a.data(), n, nullptr, n, pre, nullptr, c.data(), n, q.p); },
      c.data(), n);
}

/// ctnn's int8 GEMM with int32 output (no requantization): the like-for-like row for oneDNN's
/// int8 BLAS call, which has no 8-bit output (BM_qgemm_s32/onednn_u8s8s32).
void bm_qgemm_s32_ctnn(benchmark::State& state) {
  const qgemm_setup q(static_cast<int>(state.range(0)));
  const int n = q.n;
  std::vector<int32_t> c(size_t(n) * n);
  time_qgemm(
      state,
      [&] {
        ctnn::kernels::tiled::gemm_s8_s32(n, n, n, q.a.data(), n, q.b.data(), n, nullptr, c.data(), n, q.p.a_zp,
                                          q.p.b_zp);
      },
      c.data(), n);
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
  time_qgemm(
      state,
      [&] {
        gemmlowp::GemmWithOutputPipeline<uint8_t, uint8_t, gemmlowp::DefaultL8R8BitDepthParams>(&ctx, lhs, rhs, &res,
                                                                                              -131, -128, pipeline);
      },
      c.data(), n);
}
#endif

#if CTNN_BENCH_ONEDNN
/// oneDNN's int8 GEMM is exact where the CPU has VNNI (vpdpbusd); elsewhere (AVX2 hosts such as
/// Zen 3) its kernels add u8 x s8 products in pairs with vpmaddubsw, whose 16-bit sums saturate
/// (255 * 128 * 2 > 32767): measured 2026-11-27 on a Zen 3, N = 64 ... 1024 gave outputs up to
/// 12 steps from the exact ones (ctnn's and the reference's).
bool host_has_vnni() {
  __builtin_cpu_init();
#if defined(__clang__)
  return __builtin_cpu_supports("avx512vnni");
#else
  return __builtin_cpu_supports("avx512vnni") || __builtin_cpu_supports("avxvnni");
#endif
}

/// The counter exact (1 when max |diff| is 0) and, when it is not, the label of a u8s8s32 row on
/// a CPU without VNNI (gemm_table.py never takes such a row as the best peer).
void mark_exactness(benchmark::State& state, int64_t diff) {
  state.counters["exact"] = diff == 0 ? 1 : 0;
  if (diff != 0) state.SetLabel("inexact: no VNNI, saturating 16-bit pair sums");
}

/// oneDNN's int8 BLAS call as it is, uint8 A x int8 B -> int32 C (A = ctnn's int8 A + 128, offset
/// ao = 131), nothing after it: the same int32 sums as ctnn's gemm_s8_s32, held to them bit for
/// bit before the timing (on a CPU without VNNI the row is timed and marked inexact, as below).
void bm_qgemm_s32_onednn(benchmark::State& state) {
  const qgemm_setup q(static_cast<int>(state.range(0)));
  const int n = q.n;
  std::vector<uint8_t> a(q.a.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(q.a[i] + 128);
  std::vector<int32_t> c(size_t(n) * n), want(c.size());
  const int32_t co = 0;
  const auto run = [&] {
    return dnnl_gemm_u8s8s32('N', 'N', 'F', n, n, n, 1.0f, a.data(), n, static_cast<uint8_t>(q.p.a_zp + 128), q.b.data(),
                             n, 0, 0.0f, c.data(), n, &co);
  };
  if (run() != dnnl_success) {
    state.SkipWithError("dnnl_gemm_u8s8s32 failed");
    return;
  }
  ctnn::kernels::tiled::gemm_s8_s32(n, n, n, q.a.data(), n, q.b.data(), n, nullptr, want.data(), n, q.p.a_zp, q.p.b_zp);
  int64_t diff = 0;
  for (size_t i = 0; i < c.size(); ++i) diff = std::max<int64_t>(diff, std::abs(int64_t(c[i]) - int64_t(want[i])));
  if (host_has_vnni() && diff != 0) {
    state.SkipWithError(("int32 output differs from ctnn's: max |diff| " + std::to_string(diff)).c_str());
    return;
  }
  mark_exactness(state, diff);
  time_qgemm(state, run, c.data(), n);
}

/// oneDNN's int8 BLAS call, uint8 A x int8 B -> int32 C (A = ctnn's int8 A + 128, its offset
/// ao = 131 = 128 + ctnn's zero point 3, so the int32 sums equal ctnn's), then the same TFLite
/// requantization to int8 as ctnn's (ref::requantize) in a second pass over C: oneDNN's gemm API
/// has no 8-bit output, so this row pays for writing and reading the int32 matrix.
void bm_qgemm_onednn_u8s8s32(benchmark::State& state) {
  const qgemm_setup q(static_cast<int>(state.range(0)));
  const int n = q.n;
  std::vector<uint8_t> a(q.a.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(q.a[i] + 128);
  std::vector<int32_t> acc(size_t(n) * n);
  std::vector<int8_t> c(size_t(n) * n);
  const int32_t co = 0;
  const auto run = [&] {
    const dnnl_status_t s = dnnl_gemm_u8s8s32('N', 'N', 'F', n, n, n, 1.0f, a.data(), n, 131, q.b.data(), n, 0, 0.0f,
                                              acc.data(), n, &co);
    for (size_t i = 0; i < acc.size(); ++i) c[i] = ctnn::ref::requantize(acc[i], 0, q.p);
    return s;
  };
  if (run() != dnnl_success) {
    state.SkipWithError("dnnl_gemm_u8s8s32 failed");
    return;
  }
  if (host_has_vnni()) {
    if (!agrees(state, c, q.ctnn_out(), 0)) return;
  } else {
    // Without VNNI the row is timed but marked (counter exact = 0, a label): gemm_table.py shows
    // it apart and never takes it as the best peer. Beyond the saturation's few steps it is garbage.
    if (!agrees(state, c, q.ctnn_out(), 32)) return;
    const std::vector<int8_t>& want = q.ctnn_out();
    int diff = 0;
    for (size_t i = 0; i < want.size(); ++i) diff = std::max(diff, std::abs(int(c[i]) - int(want[i])));
    mark_exactness(state, diff);
    state.counters["max_diff"] = diff;
  }
  time_qgemm(state, run, c.data(), n);
}

/// oneDNN's matmul primitive with ctnn's operands and output type: int8 A (zero point 3) x int8 B
/// -> int8 C (zero point -5), the requantization fused, but as oneDNN does it: one float output
/// scale (the same 1 / (64 N)) and round-to-nearest-even, where ctnn multiplies by a 31-bit fixed
/// point and rounds half away from zero; outputs may differ by 1. B in the layout the primitive
/// prefers (reordered once, outside the timing), as a network's weights would be.
void bm_qgemm_onednn_matmul(benchmark::State& state) {
  using namespace dnnl;
  const qgemm_setup q(static_cast<int>(state.range(0)));
  const int n = q.n;
  std::vector<int8_t> c(size_t(n) * n);
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  const memory::dims dim{n, n};
  const memory::desc a_md(dim, memory::data_type::s8, memory::format_tag::ab);
  const memory::desc b_any(dim, memory::data_type::s8, memory::format_tag::any);
  const memory::desc c_md(dim, memory::data_type::s8, memory::format_tag::ab);
  primitive_attr attr;
  attr.set_output_scales(0, {static_cast<float>(1.0 / (64.0 * n))});
  attr.set_zero_points(DNNL_ARG_SRC, 0, {3});
  attr.set_zero_points(DNNL_ARG_DST, 0, {-5});
  const matmul::primitive_desc pd(matmul::desc(a_md, b_any, c_md), attr, eng);
  memory a_m(a_md, eng, const_cast<int8_t*>(q.a.data())), c_m(c_md, eng, c.data());
  memory b_user(memory::desc(dim, memory::data_type::s8, memory::format_tag::ab), eng,
                const_cast<int8_t*>(q.b.data()));
  memory b_m(pd.weights_desc(), eng);
  reorder(b_user, b_m).execute(s, b_user, b_m);
  const matmul mm(pd);
  const auto run = [&] {
    mm.execute(s, {{DNNL_ARG_SRC, a_m}, {DNNL_ARG_WEIGHTS, b_m}, {DNNL_ARG_DST, c_m}});
    s.wait();
  };
  run();
  if (!agrees(state, c, q.ctnn_out(), 1)) return;
  time_qgemm(state, run, c.data(), n);
}
#endif

void register_all() {
#if CTNN_BENCH_ONEDNN
  // Debian's oneDNN runs on OpenMP: one thread for every oneDNN call of this (main) thread,
  // whatever OMP_NUM_THREADS says.
  omp_set_num_threads(1);
  const dnnl_version_t* v = dnnl_version();
  benchmark::AddCustomContext("onednn", std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                                            std::to_string(v->patch) + (v->cpu_runtime == DNNL_RUNTIME_OMP ? ", OpenMP" : ", not OpenMP"));
  benchmark::AddCustomContext("onednn_threads", std::to_string(omp_get_max_threads()));
#endif
  // square N; ResNet-style convolutions as GEMMs (M = output channels, N = pixels, K = in * 3 * 3:
  // 3x3 64->64 on 56x56, 3x3 512->512 on 7x7); a linear layer 512 -> 1000
  const auto sizes = +[](benchmark::internal::Benchmark* b) {
    for (int n : {32, 64, 128, 256, 512, 1024}) b->Arg(n);
    b->Unit(benchmark::kMicrosecond);
  };
  const auto qsizes = +[](benchmark::internal::Benchmark* b) {
    for (int n : {64, 128, 256, 512, 1024}) b->Arg(n);
    b->Unit(benchmark::kMicrosecond);
  };
  const auto conv_shapes = +[](benchmark::internal::Benchmark* b) {
    b->ArgNames({"M", "N", "K"})->Args({64, 3136, 576})->Args({512, 49, 4608})->Unit(benchmark::kMicrosecond);
  };
  const auto gemv = +[](benchmark::internal::Benchmark* b) {
    b->ArgNames({"M", "K"})->Args({1000, 512})->Unit(benchmark::kMicrosecond);
  };
  const auto add_sgemm = [&](const std::string& impl, sgemm_fn f, bool conv) {
    benchmark::RegisterBenchmark(("BM_sgemm/" + impl).c_str(), [f](benchmark::State& s) { f(s, dims_of(s, true)); })
        ->Apply(sizes);
    if (conv)
      benchmark::RegisterBenchmark(("BM_sgemm_conv/" + impl).c_str(),
                                   [f](benchmark::State& s) { f(s, dims_of(s, false)); })
          ->Apply(conv_shapes);
  };
  add_sgemm("ctnn", bm_sgemm_ctnn, true);
  benchmark::RegisterBenchmark("BM_sgemv/ctnn", bm_sgemv_ctnn)->Apply(gemv);
#if CTNN_BENCH_OPENBLAS
  add_sgemm("openblas", bm_sgemm_openblas, true);
  benchmark::RegisterBenchmark("BM_sgemv/openblas", bm_sgemv_openblas)->Apply(gemv);
#endif
#if CTNN_BENCH_ONEDNN
  add_sgemm("onednn", bm_sgemm_onednn, true);
  benchmark::RegisterBenchmark("BM_sgemv/onednn", bm_sgemv_onednn)->Apply(gemv);
  benchmark::RegisterBenchmark("BM_sgemv/onednn_ip", bm_sgemv_onednn_ip)->Apply(gemv);
#endif
#if CTNN_BENCH_EIGEN
  add_sgemm("eigen", bm_sgemm_eigen, false);
#endif
  benchmark::RegisterBenchmark("BM_sgemm/ctnn_reference", [](benchmark::State& s) { bm_sgemm_ctnn_ref(s, dims_of(s, true)); })
      ->Arg(64)
      ->Arg(128)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_qgemm/ctnn", bm_qgemm_ctnn)->Apply(qsizes);
  benchmark::RegisterBenchmark("BM_qgemm/ctnn_packed", bm_qgemm_ctnn_packed)->Apply(qsizes);
#if CTNN_BENCH_GEMMLOWP
  benchmark::RegisterBenchmark("BM_qgemm/gemmlowp", bm_qgemm_gemmlowp)->Apply(qsizes);
#endif
#if CTNN_BENCH_ONEDNN
  benchmark::RegisterBenchmark("BM_qgemm/onednn_u8s8s32", bm_qgemm_onednn_u8s8s32)->Apply(qsizes);
  benchmark::RegisterBenchmark("BM_qgemm/onednn_matmul", bm_qgemm_onednn_matmul)->Apply(qsizes);
#endif
  benchmark::RegisterBenchmark("BM_qgemm_s32/ctnn", bm_qgemm_s32_ctnn)->Apply(qsizes);
#if CTNN_BENCH_ONEDNN
  benchmark::RegisterBenchmark("BM_qgemm_s32/onednn_u8s8s32", bm_qgemm_s32_onednn)->Apply(qsizes);
#endif
}

const int registered = (register_all(), 0);

}  // namespace
