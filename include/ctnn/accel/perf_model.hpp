// Compile-time performance model of the ctnn GEMM accelerator (fpga/rtl/ctnn_accel.v):
// predicted cycles from start to done for C[MxN] = A[MxK].B[KxN] on an accelerator with a
// DIM x DIM array, a B scratchpad block of nb columns, K up to kmax and a bus of bus_bytes.
//
// It follows the hardware's schedule (ctnn_accel_load / _feed / _store):
//
//   start ..[ A panel 0, A panel 1, block-0 parameters, B block 0 ]..  first tile issues
//         ..[ tiles: each Kp = max(K, 2*DIM/tile + DIM) cycles ]....  compute
//           [ the rest of the loads and the C writes overlap it: one bus word per cycle ]
//         ..[ last drain + requant pipeline + last tile's writes ].  done
//
//   cycles = startup + max(compute, remaining bus words) + tail
//
// Bus items are words, except: an A that is not word aligned is read one byte per request, the
// implicit im2col B of a convolution (CFG.CONV) and every B of an array whose DIM is not a
// multiple of 4 are read one byte per request, and an int8 C that is not word aligned (or on
// such an array) is written one byte per column. A residual add (CFG.RES_ADD) reads one residual
// word per C item on a fourth stream before the item is written: as many words again as C on
// the bus, and a longer tail (the read's round trip and the add's six pipeline stages, then the
// last tile's reads and writes). predict_conv() maps a convolution (or a linear
// layer as a 1x1 one) to the one job the driver starts for it.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn::accel {

/// @brief An accelerator instance (the RTL parameters of ctnn_accel).
struct config {
  int dim = 8;          ///< PE array side (Dim)
  int tile_dim = 1;     ///< PEs per combinational tile side (TileDim)
  int nb = 64;          ///< B block columns held in one scratchpad slot (NbTiles * Dim)
  int kmax = 8192;      ///< largest K (2^Log2KMax)
  int bus_bytes = 4;    ///< bytes per bus word
};

/// @brief One GEMM job.
struct gemm {
  int m = 0, n = 0, k = 0;
  bool raw = false;          ///< int32 output (else requantized int8)
  bool bias = true;
  bool per_channel = true;
  bool conv = false;         ///< B is the implicit im2col (one bus request per element)
  bool a_bytes = false;      ///< A read one byte per request (A_ADDR or LDA not a multiple of 4)
  bool c_bytes = false;      ///< int8 C written one byte per column (C_ADDR or LDC unaligned)
  bool row_params = false;   ///< bias/multiplier/shift per row of C, loaded once (M entries)
  bool residual = false;     ///< CFG.RES_ADD: one residual read per C item (int8 C)
};

/// @brief A convolution as the accelerator runs it in one CFG.CONV job: A = OIHW weights,
/// B = the CHW input, C = the CHW output (one group; a grouped convolution is one job per group).
struct conv {
  int in_c = 1, in_h = 1, in_w = 1, out_c = 1;
  int kh = 1, kw = 1, sh = 1, sw = 1;
  int pt = 0, pb = 0, pl = 0, pr = 0;
  bool bias = true;
  bool per_channel = true;
  bool residual = false;     ///< CFG.RES_ADD: the conv's output added to a residual (ResNet's shortcut)
  int pool = 0;              ///< CFG.POOL: 0 none, 1 max, 2 average (2x2, stride 2, after C is written)
  [[nodiscard]] constexpr int out_h() const { return (in_h + pt + pb - kh) / sh + 1; }
  [[nodiscard]] constexpr int out_w() const { return (in_w + pl + pr - kw) / sw + 1; }
};

/// @brief The model's answer; all counts in cycles or bus words.
struct prediction {
  uint64_t cycles = 0;        ///< predicted start-to-done cycles
  uint64_t compute = 0;       ///< cycles the array is fed (tiles x Kp)
  uint64_t bus_words = 0;     ///< DMA words (loads and stores)
  uint64_t startup = 0;       ///< words loaded before the first tile can start
  uint64_t tail = 0;          ///< cycles after the last tile's last k
  uint64_t macs = 0;          ///< useful MACs, M*N*K
  bool fits = true;           ///< K <= kmax
};

namespace detail {
constexpr uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
}  // namespace detail

/// Cycles a C item spends in ctnn_accel_resadd beyond the plain store path: its residual read
/// (grant, bus, response: 3) and the add's pipeline (6 stages), plus one to enter the queue.
inline constexpr uint64_t residual_latency = 10;

/// Cycles of the CFG.POOL pass beyond its bus words: it starts once the DMA is idle after C's last
/// write, and its first pooled byte waits for four read round trips.
inline constexpr uint64_t pool_latency = 8;

/// @brief Predicted cycles of one GEMM (see the schedule above).
constexpr prediction predict(const config& c, const gemm& g) {
  using detail::cdiv;
  prediction p;
  const uint64_t M = static_cast<uint64_t>(g.m), N = static_cast<uint64_t>(g.n),
                 K = static_cast<uint64_t>(g.k), D = static_cast<uint64_t>(c.dim),
                 NB = static_cast<uint64_t>(c.nb), W = static_cast<uint64_t>(c.bus_bytes);
  p.macs = M * N * K;
  p.fits = g.k <= c.kmax;
  if (M == 0 || N == 0 || K == 0) return p;
  const uint64_t tiles_side = D / static_cast<uint64_t>(c.tile_dim);
  const uint64_t kp = ctnn::max<uint64_t>(K, 2 * tiles_side + D);
  const uint64_t mt = cdiv(M, D);
  const uint64_t nblk = cdiv(N, NB);
  const bool b_bytes = g.conv || c.dim % 4 != 0;
  const bool c_bytes = !g.raw && (g.c_bytes || c.dim % 4 != 0);
  const uint64_t row_words = g.a_bytes ? K : cdiv(K, W);   // one A row
  const uint64_t params = (g.bias ? 1u : 0u) + (g.per_channel ? 2u : 0u);

  // Per N block: tiles, B words, parameter words, C words per output row.
  uint64_t tiles = 0, b_words = 0, p_words = 0, c_row_words = 0, b0 = 0, p0 = 0;
  for (uint64_t blk = 0; blk < nblk; ++blk) {
    const uint64_t cols = ctnn::min<uint64_t>(NB, N - blk * NB);
    tiles += mt * cdiv(cols, D);
    const uint64_t b_row = b_bytes ? cols : cdiv(cols, W);
    b_words += K * b_row;
    p_words += g.row_params ? (blk == 0 ? params * M : 0) : params * cols;
    for (uint64_t t = 0; t < cdiv(cols, D); ++t) {
      const uint64_t tc = ctnn::min<uint64_t>(D, cols - t * D);
      c_row_words += (g.raw || c_bytes) ? tc : cdiv(tc, W);
    }
    if (blk == 0) { b0 = K * b_row; p0 = params * (g.row_params ? M : cols); }
  }
  const uint64_t a_words = nblk * M * row_words;
  const uint64_t c_words = M * c_row_words;
  const bool res = g.residual && !g.raw;
  p.compute = tiles * kp;
  p.bus_words = a_words + b_words + p_words + c_words * (res ? 2u : 1u);

  // Startup: the A stream has priority, so panels 0 and 1 come before block 0's B data.
  const uint64_t a0 = ctnn::min<uint64_t>(D, M) * row_words;
  const uint64_t a1 = mt * nblk > 1 ? ctnn::min<uint64_t>(D, M > D ? M - D : M) * row_words : 0;
  p.startup = a0 + a1 + p0 + b0 + 4;              // + DMA and full-flag latency

  // Tail: flush, drain (2*tiles_side + DIM), requant pipeline (5), then the last tile's rows.
  const uint64_t last_cols = N - (nblk - 1) * NB - (cdiv(N - (nblk - 1) * NB, D) - 1) * D;
  const uint64_t last_rows = M - (mt - 1) * D;
  const uint64_t last_words = last_rows * ((g.raw || c_bytes) ? last_cols : cdiv(last_cols, W));
  p.tail = 2 * tiles_side + D + 5 + last_words;
  if (res) p.tail += residual_latency + last_words;   // read round trip + add pipeline, then the reads

  const uint64_t rest = p.bus_words - (p.startup - 4);
  p.cycles = p.startup + ctnn::max<uint64_t>(p.compute, rest) + p.tail;
  return p;
}

/// @brief Predicted cycles of a convolution run as one CFG.CONV job with per-row parameters
/// (M = out_c, N = out_h x out_w, K = in_c x kh x kw), the weights, input and output packed
/// (LDA = K, LDC = N) at word-aligned addresses.
constexpr prediction predict_conv(const config& c, const conv& v) {
  gemm g;
  g.m = v.out_c;
  g.n = v.out_h() * v.out_w();
  g.k = v.in_c * v.kh * v.kw;
  g.bias = v.bias;
  g.per_channel = v.per_channel;
  g.conv = true;
  g.row_params = true;
  g.a_bytes = g.k % 4 != 0;    // rows at a stride of K bytes
  g.c_bytes = g.n % 4 != 0;    // rows at a stride of N bytes
  g.residual = v.residual;
  prediction p = predict(c, g);
  if (v.pool != 0 && p.fits) {
    // the pass reads C back and writes the pooled bytes: per pooled pixel 4 reads + 1 write, one
    // bus word each, after the job's last write
    const uint64_t pixels = static_cast<uint64_t>(v.out_c) * static_cast<uint64_t>(v.out_h() / 2) *
                            static_cast<uint64_t>(v.out_w() / 2);
    p.bus_words += 5 * pixels;
    p.tail += (pixels != 0 ? pool_latency : 1) + 5 * pixels;
    p.cycles += (pixels != 0 ? pool_latency : 1) + 5 * pixels;
  }
  return p;
}

/// @brief MACs / (DIM^2 x cycles), in parts per million (freestanding: no floating point).
constexpr uint64_t utilization_ppm(const config& c, uint64_t macs, uint64_t cycles) {
  const uint64_t peak = static_cast<uint64_t>(c.dim) * static_cast<uint64_t>(c.dim) * cycles;
  return peak == 0 ? 0 : macs * 1'000'000u / peak;
}

}  // namespace ctnn::accel
