// Verilator testbench of ctnn_accel. Golden model: the library's reference kernels
// (ctnn::ref::gemm_s8 / gemm_s8_s32 / conv2d_s8). Checks randomized GEMMs bit-exact over the
// whole C region (so stray writes into the stride padding fail too), with aligned and unaligned
// A and C and per-column or per-row parameters; randomized convolutions through the implicit
// im2col (CFG.CONV), a stride-1 set of them (the run gather) and inputs ending at RAM's end, each
// without residual or pool with its DMA reads counted against ctnn::accel::conv_b_items; the
// residual add (CFG.RES_ADD) on a quarter of the int8 GEMMs and a third of the convolutions,
// against ctnn::ref::add_s8_one of the requantized result (golden = the host's conv/GEMM leaf then
// its add leaf); the 2x2 pool (CFG.POOL, max and average) on half of the convolutions, with and
// without the residual add, against ctnn::ref::max_pool2d / avg_pool2d_s8 of the expected C (and
// guard bytes around the pooled tensor); the error cases; the register file against the
// generated register header; and the DMA under bus back-pressure.
//
//   ctnn-accel-tb [random_gemms=10000] [seed=1]
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <tuple>
#include <cstdlib>
#include <string>
#include <vector>

#include "accel_sim.hpp"
#include "ctnn/accel/perf_model.hpp"
#include "ctnn/host/cli.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"

namespace {

namespace a = ctnn::regs::accel;
using ctnn::mmio::read;
using ctnn::mmio::write;
using ctnn::tb::accel_sim;
using ctnn::tb::gemm_job;
using ctnn::tb::sim_bus;

int failures = 0;
using cause = a::err_cause::code;  // ERR_CAUSE's named values, generated from fpga/regs/ctnn.toml

[[gnu::format(printf, 3, 4)]] void tb_check(int line, bool ok, const char* fmt, ...) {
  if (ok) return;
  ++failures;
  std::printf("FAIL accel_tb.cpp:%d: ", line);
  va_list args;
  va_start(args, fmt);
  std::vprintf(fmt, args);
  va_end(args);
  std::printf("\n");
}
// The condition may contain template commas: the macro passes everything through.
#define TB_CHECK(...) tb_check(__LINE__, __VA_ARGS__)

constexpr uint32_t round4(uint32_t v) { return (v + 3u) & ~3u; }
constexpr int block_cols = 8 * CTNN_TB_DIM;     // NbTiles (8) x DIM
constexpr int row_params_max = 2 * block_cols;

struct tensors {
  std::vector<int32_t> bias, mult, shift;
};

/// Lays out a job in RAM (random data, guard bytes in C) and returns the expected C region.
struct prepared {
  gemm_job job;
  std::vector<uint8_t> expect;  // M * ldc bytes at job.c
  ctnn::kernels::conv_geometry geom{};  // CFG.CONV jobs: the convolution
  std::vector<uint8_t> pooled;  // CFG.POOL: guard, the pooled tensor, guard at job.pool_addr - pool_guard
};
constexpr uint32_t pool_guard = 5;

prepared prepare(accel_sim& sim, std::mt19937& rng, gemm_job j) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  uint32_t at = accel_sim::ram_base + 64u * static_cast<uint32_t>(rnd(0, 16));
  auto take = [&](uint32_t bytes) {
    const uint32_t p = at;
    at = round4(at + bytes) + 4u * static_cast<uint32_t>(rnd(0, 3));
    return p;
  };
  const uint32_t esize = j.raw ? 4u : 1u;
  // A may sit at any byte (byte reads); so may an int8 C whose LDC is not a multiple of 4
  const bool a_unaligned = (j.lda & 3u) != 0 || rnd(0, 7) == 0;
  const bool c_unaligned = !j.raw && ((j.ldc & 3u) != 0 || rnd(0, 7) == 0);
  j.a = take(static_cast<uint32_t>(j.M) * j.lda + 4u) + (a_unaligned ? static_cast<uint32_t>(rnd(1, 3)) : 0u);
  j.b = take(static_cast<uint32_t>(j.K) * j.ldb);
  j.c = take(static_cast<uint32_t>(j.M) * j.ldc + 4u) + (c_unaligned ? static_cast<uint32_t>(rnd(1, 3)) : 0u);
  const int nvec = j.row_params ? j.M : j.N;
  j.bias = take(4u * static_cast<uint32_t>(nvec));
  j.mult = take(4u * static_cast<uint32_t>(nvec));
  j.shift = take(4u * static_cast<uint32_t>(nvec));
  if (at - accel_sim::ram_base > sim.ram_size()) throw std::runtime_error("job does not fit in RAM");

  auto* A = reinterpret_cast<int8_t*>(sim.ram(j.a));
  auto* B = reinterpret_cast<int8_t*>(sim.ram(j.b));
  for (uint32_t i = 0; i < static_cast<uint32_t>(j.M) * j.lda; ++i) A[i] = static_cast<int8_t>(rnd(-128, 127));
  for (uint32_t i = 0; i < static_cast<uint32_t>(j.K) * j.ldb; ++i) B[i] = static_cast<int8_t>(rnd(-128, 127));
  std::memset(sim.ram(j.c), 0xA5, static_cast<size_t>(j.M) * j.ldc);
  std::vector<int32_t> bias(static_cast<size_t>(nvec)), mult(static_cast<size_t>(nvec)), shift(static_cast<size_t>(nvec));
  const bool big_bias = rnd(0, 9) == 0;
  for (int n = 0; n < nvec; ++n) {
    bias[static_cast<size_t>(n)] = big_bias ? static_cast<int32_t>(rng()) : rnd(-(1 << 20), 1 << 20);
    mult[static_cast<size_t>(n)] = rnd(1 << 30, 0x7FFFFFFF);
    shift[static_cast<size_t>(n)] = rnd(0, 9) == 0 ? rnd(-31, 30) : rnd(-20, 2);
  }
  std::memcpy(sim.ram(j.bias), bias.data(), 4u * bias.size());
  std::memcpy(sim.ram(j.mult), mult.data(), 4u * mult.size());
  std::memcpy(sim.ram(j.shift), shift.data(), 4u * shift.size());

  prepared p{j, std::vector<uint8_t>(static_cast<size_t>(j.M) * j.ldc, 0xA5), {}, {}};
  const int32_t* b = j.bias_en ? bias.data() : nullptr;
  if (j.row_params) {
    // the reference applies parameters per column: run it row by row with that row's entry
    std::vector<int32_t> row_bias(static_cast<size_t>(j.N));
    for (int m = 0; m < j.M; ++m) {
      const auto um = static_cast<size_t>(m);
      std::fill(row_bias.begin(), row_bias.end(), bias[um]);
      const int8_t* a_row = A + um * j.lda;
      uint8_t* c_row = p.expect.data() + um * j.ldc;
      if (j.raw) {
        ctnn::ref::gemm_s8_s32(1, j.N, j.K, a_row, static_cast<int>(j.lda), B, static_cast<int>(j.ldb),
                               j.bias_en ? row_bias.data() : nullptr, reinterpret_cast<int32_t*>(c_row),
                               static_cast<int>(j.ldc / 4u), j.a_zp, j.b_zp);
      } else {
        const int32_t act_min = j.relu ? std::max(j.act_min, j.out_zp) : j.act_min;
        const ctnn::ref::gemm_s8_params q{j.a_zp, j.b_zp, j.out_zp,
                                          j.per_channel ? &mult[um] : &j.multiplier,
                                          j.per_channel ? &shift[um] : &j.shift_amount, false, act_min, j.act_max};
        ctnn::ref::gemm_s8(1, j.N, j.K, a_row, static_cast<int>(j.lda), B, static_cast<int>(j.ldb),
                           j.bias_en ? row_bias.data() : nullptr, reinterpret_cast<int8_t*>(c_row),
                           static_cast<int>(j.ldc), q);
      }
    }
  } else if (j.raw) {
    ctnn::ref::gemm_s8_s32(j.M, j.N, j.K, A, static_cast<int>(j.lda), B, static_cast<int>(j.ldb), b,
                           reinterpret_cast<int32_t*>(p.expect.data()), static_cast<int>(j.ldc / 4u),
                           j.a_zp, j.b_zp);
  } else {
    const int32_t act_min = j.relu ? std::max(j.act_min, j.out_zp) : j.act_min;
    const ctnn::ref::gemm_s8_params q{j.a_zp, j.b_zp, j.out_zp,
                                      j.per_channel ? mult.data() : &j.multiplier,
                                      j.per_channel ? shift.data() : &j.shift_amount,
                                      j.per_channel, act_min, j.act_max};
    ctnn::ref::gemm_s8(j.M, j.N, j.K, A, static_cast<int>(j.lda), B, static_cast<int>(j.ldb), b,
                       reinterpret_cast<int8_t*>(p.expect.data()), static_cast<int>(j.ldc), q);
  }
  (void)esize;
  return p;
}

gemm_job random_job(std::mt19937& rng, bool big) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  gemm_job j;
  j.M = big ? rnd(1, 80) : rnd(1, 24);
  j.N = big ? rnd(1, 150) : rnd(1, 24);
  j.K = big ? rnd(1, 300) : rnd(1, 40);
  j.raw = rnd(0, 3) == 0;
  j.relu = rnd(0, 1) != 0;
  j.per_channel = rnd(0, 1) != 0;
  j.bias_en = rnd(0, 3) != 0;
  j.row_params = rnd(0, 3) == 0;
  if (j.row_params) j.M = std::min(j.M, row_params_max);
  // a quarter of the jobs read A one byte at a time (LDA not a multiple of 4)
  j.lda = rnd(0, 3) == 0 ? static_cast<uint32_t>(j.K + rnd(0, 5))
                         : round4(static_cast<uint32_t>(j.K)) + 4u * static_cast<uint32_t>(rnd(0, 2));
  j.ldb = round4(static_cast<uint32_t>(j.N)) + 4u * static_cast<uint32_t>(rnd(0, 2));
  j.ldc = j.raw ? 4u * static_cast<uint32_t>(j.N + rnd(0, 2))
                : (rnd(0, 3) == 0 ? static_cast<uint32_t>(j.N + rnd(0, 5))
                                  : round4(static_cast<uint32_t>(j.N)) + 4u * static_cast<uint32_t>(rnd(0, 2)));
  j.a_zp = rnd(-128, 127);
  j.b_zp = rnd(0, 3) == 0 ? rnd(-128, 127) : 0;
  j.out_zp = rnd(-128, 127);
  j.act_min = rnd(-128, 127);
  j.act_max = rnd(j.act_min, 127);
  if (rnd(0, 1)) { j.act_min = -128; j.act_max = 127; }
  // ReLU raises the lower bound to out_zp: keep the clamp range valid for the reference.
  if (j.relu && j.out_zp > j.act_max) j.act_max = rnd(j.out_zp, 127);
  j.multiplier = rnd(1 << 30, 0x7FFFFFFF);
  j.shift_amount = rnd(0, 9) == 0 ? rnd(-31, 30) : rnd(-20, 2);
  return j;
}

/// A random convolution as one CFG.CONV job: A = OIHW weights (M = out channels, any alignment),
/// B = the CHW input (any alignment, channel stride >= H*W), C = the CHW output (any alignment).
/// Expected: ctnn::ref::conv2d_s8 on a dense copy of the input.
/// mv: a linear layer for the matrix-vector unit (channel stride 1, addresses at any offset in a
/// 16-byte line, every row's vectors equal to row 0's so that CFG.ROW_PARAMS may be cleared).
prepared prepare_conv(accel_sim& sim, std::mt19937& rng, bool big, const ctnn::kernels::conv_geometry* fixed = nullptr,
                      bool stride1 = false, bool mv = false) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ctnn::kernels::conv_geometry g;
  if (fixed != nullptr) g = *fixed;
  else do {
    g.in_c = rnd(1, big ? 16 : 6);
    g.in_h = rnd(1, big ? 32 : 14);
    g.in_w = rnd(1, big ? 32 : 14);
    g.out_c = rnd(1, std::min(big ? 40 : 20, row_params_max));
    g.kh = rnd(1, 5); g.kw = rnd(1, 5);
    g.sh = rnd(1, 3); g.sw = stride1 ? 1 : rnd(1, 3);
    g.pt = rnd(0, 2); g.pb = rnd(0, 2); g.pl = rnd(0, 2); g.pr = rnd(0, 2);
  } while (!g.valid() || g.gemm_k() > (1 << CTNN_TB_LOG2_KMAX));
  gemm_job j = random_job(rng, false);
  ctnn::tb::set_conv(j, g, mv ? 1u : static_cast<uint32_t>(g.in_h * g.in_w + rnd(0, 1) * rnd(0, 9)));
  j.a_zp = mv ? rnd(-128, 127) : 0; // symmetric weights (TFLite int8); the unit takes any A_ZP
  j.b_zp = rnd(-128, 127);          // the input's zero point: padding reads it

  uint32_t at = accel_sim::ram_base + 64u * static_cast<uint32_t>(rnd(0, 16));
  auto take = [&](uint32_t bytes) {
    const uint32_t q = at + static_cast<uint32_t>(rnd(0, mv ? 15 : 3));
    at = round4(q + bytes) + 4u * static_cast<uint32_t>(rnd(1, 3));
    return q;
  };
  j.a = take(static_cast<uint32_t>(j.M * j.K));
  j.b = take(j.cstride * static_cast<uint32_t>(g.in_c));
  j.c = take(static_cast<uint32_t>(j.M * j.N));
  j.bias = round4(at); at = j.bias + 4u * static_cast<uint32_t>(j.M) + 4u;
  j.mult = round4(at); at = j.mult + 4u * static_cast<uint32_t>(j.M) + 4u;
  j.shift = round4(at); at = j.shift + 4u * static_cast<uint32_t>(j.M) + 4u;
  if (at - accel_sim::ram_base > sim.ram_size()) throw std::runtime_error("conv job does not fit in RAM");

  auto* W = reinterpret_cast<int8_t*>(sim.ram(j.a));
  for (int i = 0; i < j.M * j.K; ++i) W[i] = static_cast<int8_t>(rnd(-127, 127));
  std::vector<int8_t> x(static_cast<size_t>(g.in_elems()));
  for (int64_t c = 0; c < g.in_c; ++c)
    for (int64_t i = 0; i < g.in_h * g.in_w; ++i) {
      const auto v = static_cast<int8_t>(rnd(-128, 127));
      x[static_cast<size_t>(c * g.in_h * g.in_w + i)] = v;
      *reinterpret_cast<int8_t*>(sim.ram(j.b + static_cast<uint32_t>(c) * j.cstride + static_cast<uint32_t>(i))) = v;
    }
  std::memset(sim.ram(j.c), 0xA5, static_cast<size_t>(j.M * j.N));
  std::vector<int32_t> bias(static_cast<size_t>(j.M)), mult(static_cast<size_t>(j.M)), shift(static_cast<size_t>(j.M));
  for (int m = 0; m < j.M; ++m) {
    bias[static_cast<size_t>(m)] = mv && m > 0 ? bias[0] : rnd(-(1 << 16), 1 << 16);
    mult[static_cast<size_t>(m)] = mv && m > 0 ? mult[0] : rnd(1 << 30, 0x7FFFFFFF);
    shift[static_cast<size_t>(m)] = mv && m > 0 ? shift[0] : rnd(-12, 0);
  }
  j.shift_amount = rnd(-12, 0);
  std::memcpy(sim.ram(j.bias), bias.data(), 4u * bias.size());
  std::memcpy(sim.ram(j.mult), mult.data(), 4u * mult.size());
  std::memcpy(sim.ram(j.shift), shift.data(), 4u * shift.size());

  prepared p{j, std::vector<uint8_t>(static_cast<size_t>(j.M * j.N), 0xA5), g, {}};
  const int32_t act_min = j.relu ? std::max(j.act_min, j.out_zp) : j.act_min;
  const ctnn::ref::gemm_s8_params q{j.b_zp, j.a_zp, j.out_zp,
                                    j.per_channel ? mult.data() : &j.multiplier,
                                    j.per_channel ? shift.data() : &j.shift_amount,
                                    j.per_channel, act_min, j.act_max};
  const auto s = ctnn::ref::conv2d_s8(g, x.data(), W, j.bias_en ? bias.data() : nullptr,
                                      reinterpret_cast<int8_t*>(p.expect.data()), q);
  if (s != ctnn::kernels::status::ok) throw std::runtime_error("reference conv2d_s8 refused the geometry");
  return p;
}

/// A random linear layer (N = 1, a 1x1 kernel over a 1x1 input of K channels): the accelerator
/// runs it on its matrix-vector unit. K up to KMAX, M up to 300 (CFG.ROW_PARAMS only up to its
/// limit), weights, input and output at any offset in a line; half of them without
/// CFG.ROW_PARAMS, their vectors read at entry 0 (rows 1.. of the vectors are then overwritten
/// with other values, which a wrong index would pick up).
prepared prepare_mv(accel_sim& sim, std::mt19937& rng, bool big) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int kmax = 1 << CTNN_TB_LOG2_KMAX;
  const int k = big ? rnd(1, kmax) : rnd(1, rnd(0, 3) == 0 ? 200 : 40);
  const int m = big ? rnd(1, 300) : rnd(1, 40);
  const ctnn::kernels::conv_geometry g{k, 1, 1, m, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1};
  prepared p = prepare_conv(sim, rng, false, &g, false, true);
  p.job.row_params = m <= row_params_max && rnd(0, 1) == 0;
  if (!p.job.row_params)
    for (int r = 1; r < m; ++r) {
      const int32_t other[3] = {rnd(-(1 << 16), 1 << 16), rnd(1 << 30, 0x7FFFFFFF), rnd(-12, 0)};
      std::memcpy(sim.ram(p.job.bias + 4u * static_cast<uint32_t>(r)), &other[0], 4);
      std::memcpy(sim.ram(p.job.mult + 4u * static_cast<uint32_t>(r)), &other[1], 4);
      std::memcpy(sim.ram(p.job.shift + 4u * static_cast<uint32_t>(r)), &other[2], 4);
    }
  return p;
}

/// A random depthwise convolution as one CFG.DW job: A = the C x KH x KW weights (any alignment,
/// LDA >= K), B = the CHW input (any alignment, channel stride >= H*W), C = the CHW output (any
/// alignment, LDC >= N), per-channel bias and requantization or per tensor, a clamp, padding on
/// every side. Expected: ctnn::ref::conv2d_s8 with groups = channels on a dense copy of the input.
prepared prepare_dw(accel_sim& sim, std::mt19937& rng, bool big, const ctnn::kernels::conv_geometry* fixed = nullptr) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ctnn::kernels::conv_geometry g;
  if (fixed != nullptr) g = *fixed;
  else do {
    g.in_c = rnd(1, big ? 160 : 12);
    g.in_h = rnd(1, big ? 40 : 12);
    g.in_w = rnd(1, rnd(0, 15) == 0 ? 256 : (big ? 40 : 14));
    const int k = rnd(0, 3) == 0 ? rnd(1, 5) : (rnd(0, 1) != 0 ? 3 : 5);
    g.kh = k; g.kw = rnd(0, 4) == 0 ? rnd(1, 5) : k;
    g.sh = rnd(1, 2); g.sw = rnd(0, 5) == 0 ? rnd(1, 3) : g.sh;
    g.pt = rnd(0, static_cast<int>(g.kh) - 1); g.pl = rnd(0, static_cast<int>(g.kw) - 1);
    g.pb = rnd(0, static_cast<int>(g.kh) - 1); g.pr = rnd(0, static_cast<int>(g.kw) - 1);
  } while (!g.valid() || g.in_h * g.in_w > (big ? 1600 : 400) * (g.in_w > 100 ? 4 : 1));
  g.out_c = g.in_c;
  g.groups = g.in_c;
  gemm_job j = random_job(rng, false);
  ctnn::tb::set_conv(j, g, static_cast<uint32_t>(g.in_h * g.in_w + rnd(0, 1) * rnd(0, 9)));
  j.dw = true;
  j.row_params = false;
  j.raw = false;
  j.K = static_cast<int>(g.kh * g.kw);
  j.lda = static_cast<uint32_t>(j.K + rnd(0, 1) * rnd(0, 5));
  j.ldc = static_cast<uint32_t>(j.N + rnd(0, 1) * rnd(0, 7));
  j.a_zp = rnd(0, 3) == 0 ? rnd(-128, 127) : 0;
  j.b_zp = rnd(-128, 127);

  uint32_t at = accel_sim::ram_base + 64u * static_cast<uint32_t>(rnd(0, 16));
  auto take = [&](uint32_t bytes) {
    const uint32_t q = at + static_cast<uint32_t>(rnd(0, 3));
    at = round4(q + bytes) + 4u * static_cast<uint32_t>(rnd(1, 3));
    return q;
  };
  const auto M = static_cast<uint32_t>(j.M), N = static_cast<uint32_t>(j.N);
  j.a = take(M * j.lda);
  j.b = take(j.cstride * M);
  j.c = take((M - 1) * j.ldc + N);
  j.bias = round4(at); at = j.bias + 4u * M + 4u;
  j.mult = round4(at); at = j.mult + 4u * M + 4u;
  j.shift = round4(at); at = j.shift + 4u * M + 4u;
  if (at - accel_sim::ram_base > sim.ram_size()) throw std::runtime_error("dw job does not fit in RAM");

  std::vector<int8_t> W(static_cast<size_t>(g.weight_elems())), x(static_cast<size_t>(g.in_elems()));
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t i = 0; i < j.lda; ++i) {
      const auto v = static_cast<int8_t>(rnd(-128, 127));
      *reinterpret_cast<int8_t*>(sim.ram(j.a + m * j.lda + i)) = v;
      if (i < static_cast<uint32_t>(j.K)) W[m * static_cast<uint32_t>(j.K) + i] = v;
    }
  for (uint32_t c = 0; c < M; ++c)
    for (uint32_t i = 0; i < j.cstride; ++i) {
      const auto v = static_cast<int8_t>(rnd(-128, 127));
      *reinterpret_cast<int8_t*>(sim.ram(j.b + c * j.cstride + i)) = v;
      if (i < j.h * j.w) x[c * j.h * j.w + i] = v;
    }
  std::memset(sim.ram(j.c), 0xA5, (M - 1) * j.ldc + N);
  std::vector<int32_t> bias(M), mult(M), shift(M);
  for (uint32_t m = 0; m < M; ++m) {
    bias[m] = rnd(-(1 << 14), 1 << 14);
    mult[m] = rnd(1 << 30, 0x7FFFFFFF);
    shift[m] = rnd(-10, 1);
  }
  j.shift_amount = rnd(-10, 0);
  std::memcpy(sim.ram(j.bias), bias.data(), 4u * M);
  std::memcpy(sim.ram(j.mult), mult.data(), 4u * M);
  std::memcpy(sim.ram(j.shift), shift.data(), 4u * M);

  const int32_t act_min = j.relu ? std::max(j.act_min, j.out_zp) : j.act_min;
  const ctnn::ref::gemm_s8_params q{j.b_zp, j.a_zp, j.out_zp,
                                    j.per_channel ? mult.data() : &j.multiplier,
                                    j.per_channel ? shift.data() : &j.shift_amount,
                                    j.per_channel, act_min, j.act_max};
  std::vector<int8_t> y(static_cast<size_t>(M * N));
  const auto s = ctnn::ref::conv2d_s8(g, x.data(), W.data(), j.bias_en ? bias.data() : nullptr, y.data(), q);
  if (s != ctnn::kernels::status::ok) throw std::runtime_error("reference conv2d_s8 refused the depthwise geometry");
  prepared p{j, std::vector<uint8_t>((M - 1) * j.ldc + N, 0xA5), g, {}};
  for (uint32_t m = 0; m < M; ++m) std::memcpy(p.expect.data() + m * j.ldc, y.data() + m * N, N);
  return p;
}

/// CFG.RES_ADD on a prepared int8 job: a random residual R laid out as C (same LDC, at an
/// address with C's alignment rules: any byte when C is written by bytes, else a word) and random
/// add parameters; the expected C becomes ctnn::ref::add_s8_one(y, R) on every element of C
/// (y = the requantized result the job computed before), the stride padding stays untouched.
/// The residual lives in the upper half of the RAM, clear of the jobs' buffers.
void add_residual(accel_sim& sim, std::mt19937& rng, prepared& p) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  gemm_job& j = p.job;
  if (j.raw) throw std::runtime_error("add_residual: int32 C");
  const bool c_byte = (j.c & 3u) != 0 || (j.ldc & 3u) != 0 || CTNN_TB_DIM % 4 != 0;
  j.res = true;
  j.res_addr = accel_sim::ram_base + sim.ram_size() / 2u + 64u * static_cast<uint32_t>(rnd(0, 16)) +
               (c_byte ? static_cast<uint32_t>(rnd(0, 3)) : 0u);
  const size_t bytes = p.expect.size();
  if (j.res_addr - accel_sim::ram_base + bytes > sim.ram_size()) throw std::runtime_error("residual does not fit");
  auto* R = reinterpret_cast<int8_t*>(sim.ram(j.res_addr));
  for (size_t i = 0; i < bytes; ++i) R[i] = static_cast<int8_t>(rnd(-128, 127));
  ctnn::ref::add_s8_params q{};
  if (rnd(0, 1) == 0) {
    // as a converter makes them: real scales, TFLite's left shift 20
    auto scale = [&] { return std::ldexp(1.0 + rnd(0, 999) / 1000.0, rnd(-9, -3)); };
    const int32_t amin = rnd(0, 3) == 0 ? rnd(-128, 0) : -128;
    if (ctnn::ref::make_add_s8_params(q, scale(), j.out_zp, scale(), rnd(-128, 127), scale(), rnd(-128, 127), amin,
                                      rnd(amin, 127)) != ctnn::kernels::status::ok)
      throw std::runtime_error("make_add_s8_params refused");
    if (rnd(0, 3) == 0) q.a_zp = rnd(-128, 127);  // y's zero point need not be OUT_ZP
  } else {
    // any parameters the reference accepts: every shift and left shift of their ranges
    q.a_zp = rnd(-128, 127); q.b_zp = rnd(-128, 127); q.out_zp = rnd(-128, 127);
    q.left_shift = rnd(0, 22);
    q.a = {rnd(0, 15) == 0 ? 0 : rnd(1 << 30, 0x7FFFFFFF), rnd(-31, 0)};
    q.b = {rnd(1 << 30, 0x7FFFFFFF), rnd(-31, 0)};
    q.out = {rnd(1 << 30, 0x7FFFFFFF), rnd(-31, 30)};
    q.act_min = rnd(-128, 127); q.act_max = rnd(q.act_min, 127);
    if (rnd(0, 1)) { q.act_min = -128; q.act_max = 127; }
  }
  if (!ctnn::ref::valid(q)) throw std::runtime_error("add_residual: invalid add parameters");
  j.res_y_zp = q.a_zp; j.res_r_zp = q.b_zp; j.res_out_zp = q.out_zp; j.res_left = q.left_shift;
  j.res_min = q.act_min; j.res_max = q.act_max;
  j.res_mult_y = q.a.multiplier; j.res_shift_y = q.a.shift;
  j.res_mult_r = q.b.multiplier; j.res_shift_r = q.b.shift;
  j.res_mult_out = q.out.multiplier; j.res_shift_out = q.out.shift;
  for (int m = 0; m < j.M; ++m)
    for (int n = 0; n < j.N; ++n) {
      const size_t i = static_cast<size_t>(m) * j.ldc + static_cast<size_t>(n);
      p.expect[i] = static_cast<uint8_t>(ctnn::ref::add_s8_one(static_cast<int8_t>(p.expect[i]), R[i], q));
    }
}

/// CFG.POOL on a prepared convolution (after add_residual when both): the pooled tensor of the
/// expected C (ctnn::ref::max_pool2d or avg_pool2d_s8 with C's zero point, 2x2 stride 2, no padding)
/// at any byte of the upper quarter of RAM, guard bytes on both sides that must stay.
void add_pool(accel_sim& sim, std::mt19937& rng, prepared& p, uint32_t mode) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  gemm_job& j = p.job;
  if (!j.conv || j.raw) throw std::runtime_error("add_pool: not an int8 convolution");
  j.pool = mode;
  ctnn::kernels::pool_geometry g;
  g.c = j.M; g.in_h = j.N / static_cast<int>(j.ow); g.in_w = j.ow;
  g.kh = g.kw = g.sh = g.sw = 2;
  const int64_t elems = g.in_h >= 2 && g.in_w >= 2 ? g.out_elems() : 0;
  j.pool_addr = accel_sim::ram_base + sim.ram_size() / 4u * 3u + 64u * static_cast<uint32_t>(rnd(0, 16)) +
                static_cast<uint32_t>(rnd(0, 3)) + pool_guard;
  p.pooled.assign(static_cast<size_t>(elems) + 2u * pool_guard, 0x5A);
  std::memset(sim.ram(j.pool_addr - pool_guard), 0x5A, p.pooled.size());
  if (elems == 0) return;
  const auto* in = reinterpret_cast<const int8_t*>(p.expect.data());  // LDC = N: dense CHW
  auto* out = reinterpret_cast<int8_t*>(p.pooled.data() + pool_guard);
  const auto s = mode == a::cfg::pool::avg ? ctnn::ref::avg_pool2d_s8(g, in, out, j.out_zp)
                                           : ctnn::ref::max_pool2d<int8_t>(g, in, out);
  if (s != ctnn::kernels::status::ok) throw std::runtime_error("reference pool refused the geometry");
}

bool run_and_compare(accel_sim& sim, const prepared& p, const char* what) {
  const auto& j = p.job;
  ctnn::tb::program(j);
  uint32_t status = 0;
  try {
    status = ctnn::tb::run_to_irq(sim, 50'000'000);
  } catch (const std::exception& e) {
    std::printf("FAIL %s: %s (M=%d N=%d K=%d raw=%d rows=%d conv=%d a=0x%x lda=%u c=0x%x ldc=%u h=%u w=%u k=%ux%u s=%ux%u "
                "ow=%u p=%u,%u)\n",
                what, e.what(), j.M, j.N, j.K, j.raw, j.row_params, j.conv, j.a, j.lda, j.c, j.ldc, j.h, j.w, j.kh,
                j.kw, j.sh, j.sw, j.ow, j.pt, j.pl);
    std::fflush(stdout);
    throw;
  }
  bool ok = true;
  if (a::status::error::get(status) != 0 || a::status::done::get(status) != 1) {
    TB_CHECK(false, "%s: status 0x%x cause %u (M=%d N=%d K=%d)", what, status,
             read<sim_bus, a::err_cause::code>(), j.M, j.N, j.K);
    return false;
  }
  const uint8_t* c = sim.ram(j.c);
  for (size_t i = 0; i < p.expect.size(); ++i) {
    if (c[i] != p.expect[i]) {
      TB_CHECK(false, "%s: C byte %zu (row %zu) is 0x%02x, expected 0x%02x (M=%d N=%d K=%d raw=%d relu=%d pc=%d "
               "bias=%d rows=%d conv=%d a=0x%x lda=%u c=0x%x ldc=%u res=%d r=0x%x)",
               what, i, i / j.ldc, c[i], p.expect[i], j.M, j.N, j.K, j.raw, j.relu, j.per_channel, j.bias_en,
               j.row_params, j.conv, j.a, j.lda, j.c, j.ldc, j.res, j.res_addr);
      ok = false;
      break;
    }
  }
  if (j.pool != a::cfg::pool::none) {
    const uint8_t* q = sim.ram(j.pool_addr - pool_guard);
    for (size_t i = 0; i < p.pooled.size(); ++i) {
      if (q[i] != p.pooled[i]) {
        TB_CHECK(false, "%s: pooled byte %zd is 0x%02x, expected 0x%02x (pool=%u M=%d N=%d ow=%u res=%d p=0x%x)",
                 what, static_cast<ptrdiff_t>(i) - static_cast<ptrdiff_t>(pool_guard), q[i], p.pooled[i], j.pool,
                 j.M, j.N, j.ow, j.res, j.pool_addr);
        ok = false;
        break;
      }
    }
  }
  const uint32_t macs = read<sim_bus, a::macs>();
  TB_CHECK(macs == static_cast<uint32_t>(j.M * j.N * j.K), "%s: MACS %u", what, macs);
  return ok;
}

/// The job's convolution for ctnn::accel's model (and its POOL_ADDR).
ctnn::accel::conv accel_conv_of(const prepared& p) {
  const ctnn::kernels::conv_geometry& g = p.geom;
  ctnn::accel::conv v{static_cast<int>(g.in_c), static_cast<int>(g.in_h), static_cast<int>(g.in_w),
                      static_cast<int>(g.out_c), static_cast<int>(g.kh), static_cast<int>(g.kw),
                      static_cast<int>(g.sh), static_cast<int>(g.sw), static_cast<int>(g.pt),
                      static_cast<int>(g.pb), static_cast<int>(g.pl), static_cast<int>(g.pr)};
  v.bias = p.job.bias_en;
  v.per_channel = p.job.per_channel;
  v.residual = p.job.res;
  v.pool = static_cast<int>(p.job.pool);
  v.pool_addr = p.job.pool_addr;
  return v;
}

/// The DMA reads of a CFG.CONV job without a residual: A panels (16-byte lines,
/// ctnn::accel::a_row_lines per row, once per block), the row parameters once, and B as ctnn::accel::conv_b_items counts the stride-1
/// runs (one byte per request otherwise, or on a DIM not a multiple of 4). The runs' count is
/// exact: a gather that fell back to bytes, or read a word twice, fails here.
uint64_t expected_conv_reads(const prepared& p) {
  const gemm_job& j = p.job;
  const ctnn::kernels::conv_geometry& g = p.geom;
  const uint64_t M = static_cast<uint64_t>(j.M), N = static_cast<uint64_t>(j.N), K = static_cast<uint64_t>(j.K);
  const uint64_t nblk = (N + block_cols - 1) / block_cols;
  if (j.ldc == 1 && j.cstride == 1 && !j.raw && ctnn::accel::runs_on_mv(accel_conv_of(p)))
    return ctnn::accel::mv_reads(accel_conv_of(p), j.a, j.lda, j.b);   // the matrix-vector unit
  uint64_t reads = 0;
  for (uint64_t i = 0; i < M; ++i) reads += nblk * ctnn::accel::a_row_lines(j.a + i * j.lda, K);
  reads += M * ((j.bias_en ? 1u : 0u) + (j.per_channel ? 2u : 0u));
  if (g.sw != 1 || CTNN_TB_DIM % 4 != 0) return reads + K * N;
  const ctnn::accel::conv v = accel_conv_of(p);
  ctnn::accel::gather_hold hold;
  for (uint64_t blk = 0; blk < nblk; ++blk)
    reads += ctnn::accel::conv_b_items(v, j.cstride, blk * block_cols, std::min<uint64_t>(block_cols, N - blk * block_cols),
                                       j.b, hold);
  return reads;
}

/// run_and_compare, then (no residual) the job's DMA reads against expected_conv_reads, plus the
/// pool pass's line reads (ctnn::accel::pool_line_reads) with CFG.POOL.
bool run_conv_and_count(accel_sim& sim, const prepared& p, const char* what) {
  const uint64_t before = sim.bus_reads();
  const bool ok = run_and_compare(sim, p, what);
  if (ok && !p.job.res) {   // the residual's reads are not counted
    const uint64_t reads = sim.bus_reads() - before,
                   expect = expected_conv_reads(p) + (p.job.pool != 0 ? ctnn::accel::pool_line_reads(accel_conv_of(p)) : 0);
    TB_CHECK(reads == expect, "%s: %llu DMA reads, expected %llu (N=%d K=%d w=%u s=%ux%u b=0x%x cstride=%u)", what,
             static_cast<unsigned long long>(reads), static_cast<unsigned long long>(expect), p.job.N, p.job.K,
             p.job.w, p.job.sh, p.job.sw, p.job.b, p.job.cstride);
    return reads == expect;
  }
  return ok;
}

/// CFG.DW DMA reads: each channel's weight words (+ bias, multiplier, shift), each input row's
/// words, once.
uint64_t expected_dw_reads(const gemm_job& j) {
  auto words = [](uint32_t addr, uint32_t bytes) { return uint64_t{((addr + bytes - 1u) >> 2) - (addr >> 2) + 1u}; };
  uint64_t n = 0;
  for (uint32_t m = 0; m < static_cast<uint32_t>(j.M); ++m) {
    n += words(j.a + m * j.lda, static_cast<uint32_t>(j.K)) + (j.bias_en ? 1u : 0u) + (j.per_channel ? 2u : 0u);
    for (uint32_t y = 0; y < j.h; ++y) n += words(j.b + m * j.cstride + y * j.w, j.w);
  }
  return n;
}

bool run_dw_and_count(accel_sim& sim, const prepared& p, const char* what) {
  const uint64_t before = sim.bus_reads();
  const bool ok = run_and_compare(sim, p, what);
  const uint64_t reads = sim.bus_reads() - before, expect = expected_dw_reads(p.job);
  TB_CHECK(reads == expect, "%s: %llu DMA reads, expected %llu", what, static_cast<unsigned long long>(reads),
           static_cast<unsigned long long>(expect));
  const uint32_t macs = read<sim_bus, a::macs::value>();
  TB_CHECK(macs == static_cast<uint32_t>(p.job.M * p.job.N * p.job.K), "%s: MACS %u, expected %d", what, macs,
           p.job.M * p.job.N * p.job.K);
  return ok && reads == expect;
}

// ---- register file against the generated header -------------------------------------------
// Every register of the generated list (a::registers, all of fpga/regs/ctnn.toml): its reset value,
// its access rights field by field, and the error response of a register without writable field.
void test_register_list(accel_sim& sim) {
  // HWCFG reports this instance's parameters instead of the map's defaults
  const uint32_t hwcfg = a::hwcfg::dim{CTNN_TB_DIM}.in_place() | a::hwcfg::log2_kmax{CTNN_TB_LOG2_KMAX}.in_place() |
                         a::hwcfg::bus_bytes{a::hwcfg::bus_bytes::reset}.in_place() |
                         a::hwcfg::block_cols{static_cast<uint32_t>(block_cols)}.in_place();
  for (const ctnn::mmio::reg_info& r : a::registers) {
    const uint32_t expect_reset = r.address == a::hwcfg::address ? hwcfg : r.reset & ~r.wo;
    const auto at_reset = sim.mmio(r.address, false, 0);
    TB_CHECK(!at_reset.err && at_reset.data == expect_reset, "%s: reads 0x%08x after reset, expected 0x%08x", r.name,
             at_reset.data, expect_reset);
    const uint32_t writable = r.rw | r.wo | r.w1c;
    // write ones to the rw fields only (a 1 to a wo or w1c field would start or clear something)
    const auto wr = sim.mmio(r.address, true, r.rw);
    TB_CHECK(wr.err == (writable == 0u), "%s: a write answers %s", r.name, wr.err ? "rsp_err" : "ok");
    const auto back = sim.mmio(r.address, false, 0);
    const uint32_t expect_back = (expect_reset & ~r.rw) | r.rw;
    TB_CHECK(!back.err && back.data == expect_back, "%s: reads 0x%08x after writing its rw fields, expected 0x%08x",
             r.name, back.data, expect_back);
    if (writable != 0u) sim.mmio(r.address, true, r.reset & r.rw);  // back to the reset value
    TB_CHECK(sim.mmio(r.address, false, 0).data == expect_reset, "%s: not restored", r.name);
  }
  std::printf("registers: %u checked against the generated list\n", a::register_count);
}

void test_registers(accel_sim& sim) {
  test_register_list(sim);
  TB_CHECK(read<sim_bus, a::id::magic>() == a::id::magic::reset, "ID.MAGIC");
  TB_CHECK(read<sim_bus, a::hwcfg::dim>() == CTNN_TB_DIM, "HWCFG.DIM");
  TB_CHECK(read<sim_bus, a::hwcfg::block_cols>() == static_cast<uint32_t>(block_cols), "HWCFG.BLOCK_COLS");
  // merged field writes land where the generated header says
  write<sim_bus>(a::zp::a_zp{0x12}, a::zp::b_zp{0x34}, a::zp::out_zp{0x56});
  TB_CHECK(read<sim_bus, a::zp>() == 0x563412u, "ZP");
  write<sim_bus>(a::zp::b_zp{-0x67});  // read-modify-write keeps the others; -0x67 is 0x99 in 8 bits
  TB_CHECK(read<sim_bus, a::zp>() == 0x569912u, "ZP rmw");
  // bus errors: unknown offset, partial write, write to a read-only register; nothing changes
  TB_CHECK(sim.mmio(a::base + 0x100u, false, 0).err, "unknown offset must answer rsp_err");
  TB_CHECK(sim.mmio(a::zp::address, true, 0, 0x3).err, "partial write must answer rsp_err");
  TB_CHECK(read<sim_bus, a::zp>() == 0x569912u, "ZP unchanged by the faulting write");
  TB_CHECK(sim.mmio(a::id::address, true, 0).err, "write to ID must answer rsp_err");
  TB_CHECK(!sim.mmio(a::ctrl::address, false, 0).err, "CTRL reads (as 0)");
}

// ---- error cases ---------------------------------------------------------------------------
void expect_error(accel_sim& sim, const gemm_job& j, uint32_t expected, const char* what,
                  bool check_c_untouched = true) {
  std::vector<uint8_t> before;
  if (check_c_untouched) before.assign(sim.ram(j.c), sim.ram(j.c) + 64);
  ctnn::tb::program(j);
  uint32_t status = 0;
  try {
    status = ctnn::tb::run_to_irq(sim, 1'000'000);
  } catch (const std::exception& e) {
    std::printf("FAIL %s: %s\n", what, e.what());
    std::fflush(stdout);
    throw;
  }
  TB_CHECK(a::status::error::get(status) == 1 && a::status::done::get(status) == 0,
           "%s: status 0x%x", what, status);
  const uint32_t got = read<sim_bus, a::err_cause::code>();
  TB_CHECK(got == expected, "%s: cause %s (%u), expected %s", what, cause::name_of(got), got, cause::name_of(expected));
  TB_CHECK(read<sim_bus, a::status::busy>() == 0, "%s: still busy", what);
  if (check_c_untouched)
    TB_CHECK(std::memcmp(before.data(), sim.ram(j.c), before.size()) == 0, "%s: C written", what);
}

void test_errors(accel_sim& sim, std::mt19937& rng) {
  gemm_job base = random_job(rng, false);
  base.M = 9; base.N = 10; base.K = 11; base.raw = false;
  base.lda = 12; base.ldb = 12; base.ldc = 12;
  prepared p = prepare(sim, rng, base);
  const gemm_job& g = p.job;

  { gemm_job j = g; j.M = 0; expect_error(sim, j, cause::zero_size, "zero M"); }
  { gemm_job j = g; j.K = 0; expect_error(sim, j, cause::zero_size, "zero K"); }
  { gemm_job j = g; j.ldb = 13; expect_error(sim, j, cause::align, "unaligned B stride"); }
  { gemm_job j = g; j.b = g.b + 2; expect_error(sim, j, cause::align, "unaligned B address"); }
  { gemm_job j = g; j.raw = true; j.ldc = 4u * 10u + 2u; expect_error(sim, j, cause::align, "unaligned int32 C stride"); }
  { gemm_job j = g; j.lda = 10; expect_error(sim, j, cause::align, "A stride shorter than a row"); }
  { gemm_job j = g; j.row_params = true; j.M = row_params_max + 1; j.lda = 12;
    expect_error(sim, j, cause::rows, "row parameters for more rows than 2 x BLOCK_COLS"); }
  { gemm_job j = g; j.ldc = 8; expect_error(sim, j, cause::align, "C stride shorter than a row"); }
  { gemm_job j = g; j.a = accel_sim::ram_base + sim.ram_size() - 64; expect_error(sim, j, cause::addr_range, "A beyond RAM"); }
  { gemm_job j = g; j.c = accel_sim::ram_base - 4096; expect_error(sim, j, cause::addr_range, "C below RAM", false); }
  { gemm_job j = g; j.bias_en = true; j.bias = ctnn::regs::soc::uart.base; expect_error(sim, j, cause::addr_range, "bias outside RAM"); }
  { gemm_job j = g; j.K = (1 << CTNN_TB_LOG2_KMAX) + 1; j.lda = round4(static_cast<uint32_t>(j.K)); expect_error(sim, j, cause::k_too_big, "K too big"); }
  { gemm_job j = g; j.per_channel = false; j.shift_amount = 31; expect_error(sim, j, cause::bad_shift, "per-tensor shift 31"); }
  {
    gemm_job j = g; j.per_channel = true;
    const int32_t bad = -32;
    std::memcpy(sim.ram(j.shift + 4u * 3u), &bad, 4);
    expect_error(sim, j, cause::bad_shift, "per-channel shift -32 in RAM", false);
    std::memset(sim.ram(j.shift), 0, 4u * static_cast<uint32_t>(j.N));
  }
  {
    sim.poison(g.b + 4u * 2u);
    expect_error(sim, g, cause::bus_err, "bus error response", false);
    sim.poison(0);
  }
  {
    // start while busy: a long job, then a second START
    gemm_job big = random_job(rng, false);
    big.M = 64; big.N = 64; big.K = 256; big.lda = 256; big.ldb = 64; big.ldc = 64; big.raw = false;
    prepared q = prepare(sim, rng, big);
    ctnn::tb::program(q.job);
    write<sim_bus>(a::ctrl::start{1});
    for (int i = 0; i < 300; ++i) sim.tick();
    TB_CHECK(read<sim_bus, a::status::busy>() == 1, "busy during a job");
    write<sim_bus>(a::ctrl::start{1});
    uint64_t guard = 0;
    while (!sim.irq() && guard++ < 100000) sim.tick();
    const uint32_t status = read<sim_bus, a::status>();
    TB_CHECK(a::status::error::get(status) == 1 && a::status::busy::get(status) == 0,
             "start while busy: status 0x%x", status);
    TB_CHECK(read<sim_bus, a::err_cause::code>() == cause::start_busy, "start while busy: cause");
    write<sim_bus>(a::status::done{0}, a::status::error{0});  // writing 0 does not clear (w1c)
    TB_CHECK(read<sim_bus, a::status::error>() == 1, "w1c: writing 0 must not clear");
    write<sim_bus>(a::status::done{1}, a::status::error{1});
    TB_CHECK(read<sim_bus, a::status::error>() == 0 && !sim.irq(), "w1c clears ERROR and the irq");
    // and it recovers: the same job now completes bit-exact
    run_and_compare(sim, q, "job after abort");
  }
  {
    // CFG.CONV: a zero in the geometry; B_ADDR outside RAM; a gathered address beyond RAM
    for (int sw = 1; sw <= 2; ++sw) {  // (before c: prepare_conv reuses the same RAM)
      // the second channel lies beyond the end of RAM, through the stride-1 runs and the bytes
      ctnn::kernels::conv_geometry cg{2, 6, 9, 4, 3, 3, 1, sw, 1, 1, 1, 1, 1, 1, 1};
      gemm_job j = prepare_conv(sim, rng, false, &cg).job;
      j.b = accel_sim::ram_base + sim.ram_size() - j.h * j.w + 1;
      j.cstride = j.h * j.w;
      const uint64_t errors = sim.bus_errors();
      expect_error(sim, j, cause::addr_range, "conv: gathered address beyond RAM (stride 1 or 2)", false);
      TB_CHECK(sim.bus_errors() == errors, "conv: the out-of-RAM gather reached the bus (sw %d)", sw);
    }
    prepared c = prepare_conv(sim, rng, false);
    { gemm_job j = c.job; j.kw = 0; expect_error(sim, j, cause::conv_geom, "conv: zero kernel width"); }
    { gemm_job j = c.job; j.sh = 0; expect_error(sim, j, cause::conv_geom, "conv: zero stride"); }
    { gemm_job j = c.job; j.ow = 0; expect_error(sim, j, cause::conv_geom, "conv: zero output width"); }
    { gemm_job j = c.job; j.b = ctnn::regs::soc::uart.base; expect_error(sim, j, cause::addr_range, "conv: B outside RAM"); }
    {
      // the second channel lies beyond the end of RAM: stopped before the request, not a bus error
      gemm_job j = c.job;
      j.b = accel_sim::ram_base + sim.ram_size() - j.h * j.w;
      j.cstride = j.h * j.w;
      j.K = static_cast<int>(2u * j.kh * j.kw);
      j.lda = static_cast<uint32_t>(j.K);
      const uint64_t errors = sim.bus_errors();
      expect_error(sim, j, cause::addr_range, "conv: gathered address beyond RAM", false);
      TB_CHECK(sim.bus_errors() == errors, "conv: the out-of-RAM gather reached the bus");
    }
    run_and_compare(sim, c, "conv after conv errors");
    // CFG.POOL: an int32 C, a GEMM (no CFG.CONV), the reserved mode 3; a pooled tensor beyond RAM
    // (each write is checked: stopped before the bus)
    prepared pc = prepare_conv(sim, rng, false);
    add_pool(sim, rng, pc, a::cfg::pool::max);
    { gemm_job j = pc.job; j.raw = true; j.c &= ~3u; j.ldc = 4u * static_cast<uint32_t>(j.N);
      expect_error(sim, j, cause::pool, "pool with int32 C"); }
    { gemm_job j = g; j.pool = a::cfg::pool::avg; j.pool_addr = pc.job.pool_addr;
      expect_error(sim, j, cause::pool, "pool without CFG.CONV"); }
    { gemm_job j = pc.job; j.pool = 3; expect_error(sim, j, cause::pool, "pool mode 3"); }
    run_and_compare(sim, pc, "pool after pool errors");
    {
      ctnn::kernels::conv_geometry cg{1, 6, 6, 2, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1};
      prepared e = prepare_conv(sim, rng, false, &cg);
      add_pool(sim, rng, e, a::cfg::pool::max);
      gemm_job j = e.job;
      j.pool_addr = accel_sim::ram_base + sim.ram_size() - 5;  // 18 pooled bytes, 5 in RAM
      const uint64_t errors = sim.bus_errors();
      expect_error(sim, j, cause::addr_range, "pool: pooled tensor beyond RAM", false);
      TB_CHECK(sim.bus_errors() == errors, "pool: the out-of-RAM write reached the bus");
      run_and_compare(sim, e, "pool after the pooled tensor beyond RAM");
    }
  }
  {
    // CFG.RES_ADD: int32 C; a word-written C with an unaligned residual; residual beyond RAM;
    // bad shifts; a bus error on a residual read
    prepared r = prepare(sim, rng, base);
    add_residual(sim, rng, r);
    const bool c_byte = (r.job.c & 3u) != 0 || (r.job.ldc & 3u) != 0 || CTNN_TB_DIM % 4 != 0;
    { gemm_job j = r.job; j.raw = true; j.ldc = 4u * 10u; j.c &= ~3u;
      expect_error(sim, j, cause::res_raw, "residual add with int32 C"); }
    if (!c_byte) { gemm_job j = r.job; j.res_addr += 1; expect_error(sim, j, cause::align, "residual unaligned"); }
    { gemm_job j = r.job; j.res_addr = accel_sim::ram_base + sim.ram_size() - 16;
      expect_error(sim, j, cause::addr_range, "residual beyond RAM"); }
    { gemm_job j = r.job; j.res_shift_y = -32; expect_error(sim, j, cause::bad_shift, "residual shift -32"); }
    { gemm_job j = r.job; j.res_shift_out = 31; expect_error(sim, j, cause::bad_shift, "residual out shift 31"); }
    { gemm_job j = r.job; j.res_shift_r = 1; expect_error(sim, j, cause::bad_shift, "residual input shift 1 (ref: <= 0)"); }
    { gemm_job j = r.job; j.res_left = 23; expect_error(sim, j, cause::bad_shift, "residual left shift 23"); }
    {
      sim.poison((r.job.res_addr & ~3u) + 4u);
      expect_error(sim, r.job, cause::bus_err, "bus error on a residual read", false);
      sim.poison(0);
    }
    run_and_compare(sim, r, "residual after residual errors");
  }
  {
    // CFG.DW: jobs it cannot run (cause DW), a bad shift in the vector, an input plane beyond
    // RAM (never requested), a bus error on an input read
    ctnn::kernels::conv_geometry dg{4, 6, 9, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4};
    const gemm_job d = prepare_dw(sim, rng, false, &dg).job;
    { gemm_job j = d; j.conv = false; expect_error(sim, j, cause::dw, "dw without CFG.CONV"); }
    { gemm_job j = d; j.raw = true; j.ldc = 4u * static_cast<uint32_t>(j.N); expect_error(sim, j, cause::dw, "dw with an int32 C"); }
    { gemm_job j = d; j.row_params = true; expect_error(sim, j, cause::dw, "dw with ROW_PARAMS"); }
    { gemm_job j = d; j.pool = a::cfg::pool::max; expect_error(sim, j, cause::dw, "dw with a pool"); }
    { gemm_job j = d; j.K = 8; expect_error(sim, j, cause::dw, "dw with K not KH x KW"); }
    { gemm_job j = d; j.kh = 7; j.K = 21; j.lda = 21; expect_error(sim, j, cause::dw, "dw with a 7-row kernel"); }
    { gemm_job j = d; j.w = 257; j.cstride = 6u * 257u; expect_error(sim, j, cause::dw, "dw with W above the line buffer"); }
    { gemm_job j = d; j.sw = 4; j.ow = 3; j.N = 18; expect_error(sim, j, cause::dw, "dw with SW above DWCFG.SMAX"); }
    {
      gemm_job j = d; j.per_channel = true;
      const int32_t bad = 31;
      int32_t good = 0;
      std::memcpy(&good, sim.ram(j.shift + 8u), 4);
      std::memcpy(sim.ram(j.shift + 8u), &bad, 4);
      expect_error(sim, j, cause::bad_shift, "dw: per-channel shift 31 in the vector", false);
      std::memcpy(sim.ram(j.shift + 8u), &good, 4);
    }
    {
      gemm_job j = d;
      j.b = accel_sim::ram_base + sim.ram_size() - 2u * j.cstride + 3u;   // the last plane passes the end
      const uint64_t errors = sim.bus_errors();
      expect_error(sim, j, cause::addr_range, "dw: input beyond RAM", false);
      TB_CHECK(sim.bus_errors() == errors, "dw: the out-of-RAM input read reached the bus");
    }
    {
      prepared q = prepare_dw(sim, rng, false, &dg);
      sim.poison((q.job.b & ~3u) + 8u);
      expect_error(sim, q.job, cause::bus_err, "dw: bus error on an input read", false);
      sim.poison(0);
      run_and_compare(sim, prepare_dw(sim, rng, false, &dg), "dw after dw errors");
    }
  }
  {
    // the matrix-vector unit: a bad shift in the vector, an input beyond RAM (never requested), a
    // bus error on an input read and on a weight read
    ctnn::kernels::conv_geometry lg{70, 1, 1, 9, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1};
    const gemm_job l = prepare_conv(sim, rng, false, &lg, false, true).job;
    {
      gemm_job j = l; j.per_channel = true;
      const int32_t bad = -32;
      int32_t good = 0;
      std::memcpy(&good, sim.ram(j.shift + 12u), 4);
      std::memcpy(sim.ram(j.shift + 12u), &bad, 4);
      expect_error(sim, j, cause::bad_shift, "linear: per-row shift -32 in the vector", false);
      std::memcpy(sim.ram(j.shift + 12u), &good, 4);
    }
    {
      gemm_job j = l;
      j.b = accel_sim::ram_base + sim.ram_size() - 40u + 5u;   // the input passes the end of RAM
      const uint64_t errors = sim.bus_errors();
      expect_error(sim, j, cause::addr_range, "linear: input beyond RAM", false);
      TB_CHECK(sim.bus_errors() == errors, "linear: the out-of-RAM input read reached the bus");
    }
    {
      sim.poison(l.b + 40u);
      expect_error(sim, l, cause::bus_err, "linear: bus error on an input read", false);
      sim.poison(l.a + 3u * l.lda + 20u);
      expect_error(sim, l, cause::bus_err, "linear: bus error on a weight read", false);
      sim.poison(0);
      run_and_compare(sim, prepare_conv(sim, rng, false, &lg, false, true), "linear after linear errors");
    }
  }
  // the accelerator still works after all the errors (fresh data: the jobs above reused RAM)
  run_and_compare(sim, prepare(sim, rng, base), "job after errors");
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t count_arg = 10000, seed_arg = 1;
  std::string why = argc > 3 ? "unexpected argument '" + std::string(argv[3]) + "'" : std::string();
  if (why.empty() && argc > 1) why = ctnn::cli::number_option("random_gemms", argv[1], 0, 10'000'000, count_arg);
  if (why.empty() && argc > 2) why = ctnn::cli::number_option("seed", argv[2], 0, UINT32_MAX, seed_arg);
  if (!why.empty()) {
    std::fprintf(stderr, "ctnn-accel-tb: %s (usage: ctnn-accel-tb [random_gemms=10000] [seed=1])\n", why.c_str());
    return 2;
  }
  const int count = static_cast<int>(count_arg);
  const auto seed = static_cast<uint32_t>(seed_arg);
  std::mt19937 rng(seed);
  std::mt19937 res_rng(seed ^ 0x5EEDu);  // residual choices: the other jobs stay the ones of before
  accel_sim sim(CTNN_TB_RAM_BYTES, seed);
  sim_bus::sim = &sim;

  test_registers(sim);
  test_errors(sim, rng);
  const int before_errors = failures;

  // convolutions through the implicit im2col: fixed shapes (LeNet-5's, 1x1, strided, padded)
  {
    using geom = ctnn::kernels::conv_geometry;
    const geom fixed[] = {
        geom{1, 32, 32, 6, 5, 5, 1, 1, 0, 0, 0, 0, 1, 1, 1},   // LeNet-5 conv1
        geom{6, 14, 14, 16, 5, 5, 1, 1, 0, 0, 0, 0, 1, 1, 1},  // LeNet-5 conv2
        geom{400, 1, 1, 120, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1}, // LeNet-5 fc1 as a 1x1 conv
        geom{1, 10, 14, 10, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1},  // K = 1, three blocks, top padding
        geom{3, 32, 32, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},   // CIFAR stem
        geom{8, 16, 16, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},  // strided
    };
    for (geom g : fixed) {
      g.out_c = std::min<int64_t>(g.out_c, row_params_max);  // a driver splits bigger M into jobs
      run_conv_and_count(sim, prepare_conv(sim, rng, false, &g), "conv fixed");
    }
    // LeNet-5's conv + 2x2 pools (28x28 -> 14x14, 10x10 -> 5x5) and the CIFAR stem's, max and average
    std::mt19937 pool_rng(seed ^ 0x9001u);
    for (const geom& g : {fixed[0], fixed[1], fixed[4]})
      for (uint32_t mode : {uint32_t{a::cfg::pool::max}, uint32_t{a::cfg::pool::avg}}) {
        prepared p = prepare_conv(sim, pool_rng, false, &g);
        add_pool(sim, pool_rng, p, mode);
        run_and_compare(sim, p, "conv fixed+pool");
      }
    // K at the scratchpad's limit (2^LOG2_KMAX rows) through the stride-1 runs and the bytes
    const int64_t kmax_c = (int64_t{1} << CTNN_TB_LOG2_KMAX) / 16;
    for (int64_t sw : {1, 2}) {
      geom g{kmax_c, 6, 7, 5, 4, 4, 1, sw, 1, 0, 2, 1, 1, 1, 1};
      run_conv_and_count(sim, prepare_conv(sim, rng, false, &g), "conv K = KMAX");
    }
  }
  // stride-1 convolutions (the run gather): every input alignment and channel stride, widths
  // that are not multiples of 4, padding on all sides, SH 1..3, one in 10 under back-pressure;
  // DMA reads counted exactly against conv_b_items
  int s1_passed = 0;
  const int s1_count = std::max(count / 10, 20);
  for (int i = 0; i < s1_count; ++i) {
    sim.set_stall_probability(i % 10 == 5 ? 0.3 : 0.0);
    if (run_conv_and_count(sim, prepare_conv(sim, rng, i % 10 == 9, nullptr, true), "conv stride 1")) ++s1_passed;
    if (failures > before_errors + 10) break;
  }
  sim.set_stall_probability(0.0);
  {
    // the input's last channel ends at the last byte of RAM (any alignment): a run must read
    // only the words its bytes are in, never the word past the end
    for (int sw : {1, 2})
      for (uint32_t tail : {0u, 1u, 2u, 3u}) {
        ctnn::kernels::conv_geometry g{3, 9, 11 - static_cast<int64_t>(tail), 8, 3, 3, 1, sw, 1, 1, 1, 1, 1, 1, 1};
        prepared p = prepare_conv(sim, rng, false, &g);
        const uint32_t bytes = p.job.cstride * static_cast<uint32_t>(g.in_c - 1) + p.job.h * p.job.w;
        const uint32_t end_b = accel_sim::ram_base + sim.ram_size() - bytes;
        std::memmove(sim.ram(end_b), sim.ram(p.job.b), bytes);
        p.job.b = end_b;
        const uint64_t errors = sim.bus_errors();
        run_conv_and_count(sim, p, "conv input ending at the end of RAM");
        TB_CHECK(sim.bus_errors() == errors, "conv input at the end of RAM: a read went past RAM");
      }
  }
  // convolutions through the implicit im2col: one per 10 GEMMs, every 10th under back-pressure;
  // the odd ones pooled (i = 1 mod 4 max, 3 mod 4 average), so are all the back-pressured ones
  int conv_passed = 0, conv_res_passed = 0, conv_res_count = 0, conv_res_bp = 0;
  int pool_passed = 0, pool_count = 0, pool_res = 0, pool_bp = 0, pool_avg = 0;
  std::mt19937 pool_rng(seed ^ 0x9007u);
  const int conv_count = std::max(count / 10, 20);
  for (int i = 0; i < conv_count; ++i) {
    sim.set_stall_probability(i % 10 == 7 ? 0.3 : 0.0);
    prepared p = prepare_conv(sim, rng, i % 10 == 9);
    const bool res = i % 3 == 1;
    if (res) add_residual(sim, res_rng, p);
    const bool pool = i % 2 == 1;
    if (pool) add_pool(sim, pool_rng, p, i % 4 == 1 ? uint32_t{a::cfg::pool::max} : uint32_t{a::cfg::pool::avg});
    const bool ok = run_conv_and_count(sim, p, pool ? (res ? "conv+residual+pool" : "conv+pool")
                                                    : (res ? "conv+residual" : "conv"));
    if (ok) {
      ++conv_passed;
      if (res) ++conv_res_passed;
      if (pool) ++pool_passed;
    }
    pool_count += pool ? 1 : 0;
    pool_res += pool && res ? 1 : 0;
    pool_bp += pool && i % 10 == 7 ? 1 : 0;
    pool_avg += pool && i % 4 == 3 ? 1 : 0;
    conv_res_count += res ? 1 : 0;
    conv_res_bp += res && i % 10 == 7 ? 1 : 0;
    if (failures > before_errors + 10) break;
  }

  // depthwise (CFG.DW): MobileNet/DS-CNN shapes, then random jobs, every 10th under back-pressure
  int dw_passed = 0, dw_bp = 0;
  const int dw_count = std::max(count / 25, 40);
  {
    using geom = ctnn::kernels::conv_geometry;
    const geom fixed[] = {
        geom{64, 7, 7, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 64},    // fmnist_dscnn's 7x7 depthwise layers
        geom{32, 14, 14, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 32},  // and its stride-2 one
        geom{32, 28, 28, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 32},  // MobileNetV2 stride 1, scaled down
        geom{24, 28, 28, 24, 3, 3, 2, 2, 0, 1, 0, 1, 1, 1, 24},  // stride 2, TF "same" padding
        geom{16, 14, 14, 16, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 16},  // 5x5
        geom{16, 15, 17, 16, 5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 16},  // 5x5 stride 2, odd sizes
        geom{3, 4, 256, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3},     // the widest row
    };
    for (const geom& g : fixed) dw_passed += run_dw_and_count(sim, prepare_dw(sim, rng, false, &g), "dw fixed") ? 1 : 0;
  }
  for (int i = 0; i < dw_count; ++i) {
    sim.set_stall_probability(i % 10 == 4 ? 0.3 : 0.0);
    dw_bp += i % 10 == 4 ? 1 : 0;
    if (run_dw_and_count(sim, prepare_dw(sim, rng, i % 20 == 19), "dw")) ++dw_passed;
    if (failures > before_errors + 10) break;
  }
  sim.set_stall_probability(0.0);

  // linear layers on the matrix-vector unit: LeNet-5's three, then random ones (every 10th under
  // back-pressure, every 20th up to K = KMAX and M = 300); bit-exact, reads and MACS counted
  int mv_passed = 0, mv_bp = 0, mv_norow = 0;
  const int mv_count = std::max(count / 20, 50);
  auto run_mv = [&](const prepared& p, const char* what) {
    const bool ok = run_conv_and_count(sim, p, what);
    const uint32_t macs = read<sim_bus, a::macs::value>();
    TB_CHECK(macs == static_cast<uint32_t>(p.job.M * p.job.K), "%s: MACS %u, expected %d", what, macs, p.job.M * p.job.K);
    mv_norow += p.job.row_params ? 0 : 1;
    return ok && macs == static_cast<uint32_t>(p.job.M * p.job.K);
  };
  for (auto [k, m] : {std::pair{400, 120}, std::pair{120, 84}, std::pair{84, 10}}) {
    const ctnn::kernels::conv_geometry g{k, 1, 1, m, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1};
    prepared p = prepare_conv(sim, rng, false, &g, false, true);
    p.job.row_params = m <= row_params_max;   // else entry 0 (every row's vectors are equal)
    mv_passed += run_mv(p, "linear fixed") ? 1 : 0;
  }
  for (int i = 0; i < mv_count; ++i) {
    sim.set_stall_probability(i % 10 == 6 ? 0.3 : 0.0);
    mv_bp += i % 10 == 6 ? 1 : 0;
    if (run_mv(prepare_mv(sim, rng, i % 20 == 19), "linear")) ++mv_passed;
    if (failures > before_errors + 10) break;
  }
  sim.set_stall_probability(0.0);

  int passed = 0, res_passed = 0, res_count = 0, res_bp = 0;
  for (int i = 0; i < count; ++i) {
    const bool big = i % 100 == 99;
    sim.set_stall_probability(i % 10 == 3 ? 0.3 : 0.0);  // every 10th job under back-pressure
    prepared p = prepare(sim, rng, random_job(rng, big));
    // every 4th job with an int8 C adds a residual (i = 3 mod 20 of them under back-pressure)
    const bool res = !p.job.raw && i % 4 == 3;
    if (res) add_residual(sim, res_rng, p);
    if (run_and_compare(sim, p, res ? "random+residual" : "random")) {
      ++passed;
      if (res) ++res_passed;
    }
    res_count += res ? 1 : 0;
    res_bp += res && i % 10 == 3 ? 1 : 0;
    if (failures > before_errors + 10) break;
  }
  sim.set_stall_probability(0);
  // shapes that are multiples of DIM and larger ones, bit-exact; short panels over several blocks
  // (a refill of an A slot the feeder had not used yet hung the array before slot ownership)
  for (auto [m, n, k] : {std::tuple{64, 64, 64}, std::tuple{100, 130, 300}, std::tuple{8, 200, 1000}, std::tuple{9, 65, 1}, std::tuple{10, 154, 2}, std::tuple{3, 200, 1}}) {
    gemm_job j = random_job(rng, false);
    j.M = m; j.N = n; j.K = k;
    j.row_params = j.row_params && m <= row_params_max;
    j.lda = round4(static_cast<uint32_t>(k)); j.ldb = round4(static_cast<uint32_t>(n));
    j.ldc = j.raw ? 4u * static_cast<uint32_t>(n) : round4(static_cast<uint32_t>(n));
    prepared p = prepare(sim, rng, j);
    run_and_compare(sim, p, "large");
    if (!p.job.raw) {  // the same shape again with a residual
      prepared q = prepare(sim, rng, j);
      add_residual(sim, res_rng, q);
      run_and_compare(sim, q, "large+residual");
    }
  }
  std::printf("accel tb: %d/%d random GEMMs (%d/%d with a residual add, %d of them under back-pressure) and %d/%d "
              "random convolutions (%d/%d with a residual add, %d under back-pressure; %d/%d pooled, %d average, "
              "%d with the residual add, %d under back-pressure) and %d/%d stride-1 convolutions bit-exact, DMA reads "
              "counted; %d/%d depthwise jobs (%d under back-pressure) and %d/%d linear layers on the matrix-vector "
              "unit (%d under back-pressure, %d without CFG.ROW_PARAMS) bit-exact, DMA reads and MACS counted; %llu "
              "cycles, %d failures\n",
              passed, count, res_passed, res_count, res_bp, conv_passed, conv_count, conv_res_passed, conv_res_count,
              conv_res_bp, pool_passed, pool_count, pool_avg, pool_res, pool_bp, s1_passed, s1_count,
              dw_passed, dw_count + 7, dw_bp, mv_passed, mv_count + 3, mv_bp, mv_norow,
              static_cast<unsigned long long>(sim.cycle()), failures);
  return failures == 0 ? 0 : 1;
}
