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
// panel by panel (panel = an M tile of an N block): A panel f loads into slot f % 2 once the
// array has finished panel f - 2, B block b into slot b % 2 once block b - 2 is finished, the
// array runs a panel once both are loaded, and the bus is a fluid of one word per cycle served
// by priority (C writes, then A, then B), so an A panel that waits for its slot, or a B block
// that waits behind A, shows up where a compute-or-bus bound would miss it:
//
//   cycles = end of the last panel + 4 (DMA and full-flag latency) + tail
//
// Bus items are words, except: A panels are read as 16-byte lines (line_bytes; a_row_lines), the
// implicit im2col B of a convolution (CFG.CONV) is gathered one byte per request unless its
// horizontal stride is 1 (then as runs of up to 16 columns from lines, see conv_b_items), every B of an array whose DIM is not
// a multiple of 4 is read one byte per request, and an int8 C that is not word aligned (or on
// such an array) is written one byte per column. A residual add (CFG.RES_ADD) reads one residual
// word per C item on a fourth stream before the item is written: as many words again as C on
// the bus, and a longer tail (the read's round trip and the add's six pipeline stages, then the
// last tile's reads and writes). predict_conv() maps a convolution (or a linear
// layer as a 1x1 one) to the one job the driver starts for it; predict_dw() models a depthwise
// convolution on the depthwise unit (CFG.DW), which does not use the array.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn::accel {

/// @brief An accelerator instance (the RTL parameters of ctnn_accel).
struct config {
  int dim = 8;          ///< PE array side (Dim)
  int tile_dim = 1;     ///< PEs per combinational tile side (TileDim)
  int nb = 64;          ///< B block columns held in one scratchpad slot (NbTiles * Dim)
  int kmax = 8192;      ///< largest K (2^Log2KMax)
  int bus_bytes = 4;    ///< bytes per bus word (the streams that move words)
  int dw_kmax = 5;      ///< depthwise unit: largest kernel side (DWCFG.KMAX)
  int dw_line = 256;    ///< depthwise unit: largest input width (DWCFG.LINE)
  int dw_smax = 3;      ///< depthwise unit: largest horizontal stride (DWCFG.SMAX)
};

/// @brief One GEMM job.
struct gemm {
  int m = 0, n = 0, k = 0;
  bool raw = false;          ///< int32 output (else requantized int8)
  bool bias = true;
  bool per_channel = true;
  bool conv = false;         ///< B is the implicit im2col (here one bus request per element;
                             ///< predict_conv() counts the stride-1 runs of the real gather)
  bool c_bytes = false;      ///< int8 C written one byte per column (C_ADDR or LDC unaligned)
  bool row_params = false;   ///< bias/multiplier/shift per row of C, loaded once (M entries)
  bool residual = false;     ///< CFG.RES_ADD: one residual read per C item (int8 C)
  uint64_t a_addr = 0;       ///< A_ADDR (only its offset in a line matters)
  uint64_t lda = 0;          ///< LDA (0: K)
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
  uint64_t pool_addr = 0;    ///< POOL_ADDR (only its offset in a line matters)
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

/// Bytes per beat of the DMA's line port (fpga/rtl/BUS.md): the streams that move lines.
inline constexpr uint64_t line_bytes = 16;

/// @brief Line reads of one A row of k bytes at byte address addr (ctnn_accel_load): its
/// ceil(k / 16) 16-byte pieces, plus one when the row does not start on a line (the first line
/// only fills the funnel's hold).
constexpr uint64_t a_row_lines(uint64_t addr, uint64_t k) {
  return k == 0 ? 0 : detail::cdiv(k, line_bytes) + (addr % line_bytes != 0 ? 1u : 0u);
}

/// Cycles a C item spends in ctnn_accel_resadd beyond the plain store path: its residual read
/// (grant, bus, response: 3) and the add's pipeline (6 stages), plus one to enter the queue.
inline constexpr uint64_t residual_latency = 10;

/// Cycles of the CFG.POOL pass beyond its bus words: it starts once the DMA is idle after C's last
/// write, its first chunk waits for four line reads, and the last line's write for its chunk.
inline constexpr uint64_t pool_latency = 8;

/// @brief B bus items of one N block of a stride-1 convolution's implicit im2col, as
/// ctnn_accel_load issues them: each group of 16 columns of the block (four scratchpad banks)
/// is cut into runs that stay in one output row and are all padding or all inside the input; a
/// run is one 16-byte line request, plus a prefetch when its bytes cross a line and the previous
/// real line read (the hold) is not the low one. The input sits at byte address `base` with
/// channels at `cstride` bytes; rows k = (c, ky, kx) in order. `hold` carries the line held from
/// row to row and from block to block, like the hardware's (a job starts with none).
struct gather_hold {
  bool valid = false;
  int64_t word = 0;
};
constexpr uint64_t conv_b_items(const conv& v, uint64_t cstride, uint64_t col0, uint64_t cols,
                                uint64_t base, gather_hold& hold) {
  const int64_t ow = v.out_w(), H = v.in_h, Wd = v.in_w;
  uint64_t items = 0;
  for (int64_t c = 0; c < v.in_c; ++c)
    for (int64_t ky = 0; ky < v.kh; ++ky)
      for (int64_t kx = 0; kx < v.kw; ++kx) {
        uint64_t j = 0;
        while (j < cols) {
          const int64_t n = static_cast<int64_t>(col0 + j);
          const int64_t oy = n / ow, ox = n % ow;
          const int64_t iy = oy * v.sh - v.pt + ky, ix = ox - v.pl + kx;
          const bool rows_in = iy >= 0 && iy < H;
          const bool real = rows_in && ix >= 0 && ix < Wd;
          const int64_t pix = !rows_in || ix >= Wd ? 16 : (ix < 0 ? -ix : Wd - ix);
          int64_t len = 16 - static_cast<int64_t>(j % 16);
          len = ctnn::min<int64_t>(len, static_cast<int64_t>(cols - j));
          len = ctnn::min<int64_t>(len, ow - ox);
          len = ctnn::min<int64_t>(len, pix);
          if (real) {
            const int64_t a = static_cast<int64_t>(base) + c * static_cast<int64_t>(cstride) + iy * Wd + ix;
            const int64_t w = a / 16;
            const bool two = a % 16 + len > 16;
            if (two && !(hold.valid && hold.word == w)) ++items;   // prefetch of the low word
            hold.valid = true;
            hold.word = two ? w + 1 : w;
          }
          ++items;
          j += static_cast<uint64_t>(len);
        }
      }
  return items;
}

/// @brief Line reads of a CFG.POOL pass (ctnn_accel_pool): per channel and row pair, NC + 1 line
/// reads of each of the two rows at any alignment (NC = ceil(PW / 8) chunks of 8 pooled bytes; the
/// first line only fills the funnel, a line past the row's end repeats its last).
constexpr uint64_t pool_line_reads(const conv& v) {
  const uint64_t ph = static_cast<uint64_t>(v.out_h()) / 2, pw = static_cast<uint64_t>(v.out_w()) / 2;
  return ph == 0 || pw == 0 ? 0 : static_cast<uint64_t>(v.out_c) * ph * 2 * (detail::cdiv(pw, 8) + 1);
}
/// @brief Line writes of a CFG.POOL pass: each line of the dense pooled tensor at POOL_ADDR, once.
constexpr uint64_t pool_line_writes(const conv& v) {
  const uint64_t ph = static_cast<uint64_t>(v.out_h()) / 2, pw = static_cast<uint64_t>(v.out_w()) / 2;
  const uint64_t bytes = static_cast<uint64_t>(v.out_c) * ph * pw;
  return bytes == 0 ? 0 : detail::cdiv(v.pool_addr % line_bytes + bytes, line_bytes);
}

/// @brief Whether the accelerator runs a packed CFG.CONV job (CONV_CSTRIDE = H x W, LDC = N) on
/// its matrix-vector unit (ctnn_accel_mv) instead of the array: a linear layer, one output pixel
/// of a 1x1 kernel over a 1x1 input, int8 C, no residual add, no pool.
constexpr bool runs_on_mv(const conv& v) {
  return v.in_h == 1 && v.in_w == 1 && v.kh == 1 && v.kw == 1 && v.pt == 0 && v.pb == 0 && v.pl == 0 &&
         v.pr == 0 && !v.residual && v.pool == 0;
}

/// @brief Bus reads of a matrix-vector job: the K input bytes at b_addr as lines, then per row
/// its vector words (bias, multiplier and shift as used) and its K weights at a_addr + m x lda as
/// lines (a_row_lines).
constexpr uint64_t mv_reads(const conv& v, uint64_t a_addr, uint64_t lda, uint64_t b_addr) {
  const uint64_t K = static_cast<uint64_t>(v.in_c);
  const uint64_t vec = (v.bias ? 1u : 0u) + (v.per_channel ? 2u : 0u);
  uint64_t n = a_row_lines(b_addr, K);
  for (uint64_t m = 0; m < static_cast<uint64_t>(v.out_c); ++m) n += vec + a_row_lines(a_addr + m * lda, K);
  return n;
}

/// Cycles of a matrix-vector job beyond its bus beats: the checks and first request, the last
/// response, the MAC and requantization stages, the last line's write.
inline constexpr uint64_t mv_latency = 12;

namespace detail {
/// The schedule of predict(); b_block(blk, cols) gives the B bus items of block blk.
template <class BBlock>
constexpr prediction predict_with(const config& c, const gemm& g, BBlock b_block) {
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
  const uint64_t lda = g.lda != 0 ? g.lda : K;
  const uint64_t params = (g.bias ? 1u : 0u) + (g.per_channel ? 2u : 0u);

  // Per N block: its columns, tiles, C words per output row.
  auto cols_of = [&](uint64_t blk) { return ctnn::min<uint64_t>(NB, N - blk * NB); };
  auto c_row_of = [&](uint64_t blk) {
    uint64_t w = 0;
    const uint64_t cols = cols_of(blk);
    for (uint64_t t = 0; t < cdiv(cols, D); ++t) {
      const uint64_t tc = ctnn::min<uint64_t>(D, cols - t * D);
      w += (g.raw || c_bytes) ? tc : cdiv(tc, W);
    }
    return w;
  };
  const bool res = g.residual && !g.raw;
  auto rows_of = [&](uint64_t m) { return ctnn::min<uint64_t>(D, M - m * D); };
  auto panel_lines = [&](uint64_t m) {   // A panel m's line reads
    uint64_t n = 0;
    for (uint64_t i = 0; i < rows_of(m); ++i) n += a_row_lines(g.a_addr + (m * D + i) * lda, K);
    return n;
  };

  // The schedule, panel by panel (panel f = (block f / mt, M tile f % mt)), the bus shared as a
  // fluid of one word per cycle by priority: C writes, then A panels, then B blocks.
  //   A panel f loads into slot f % 2 once the feeder has finished panel f - 2;
  //   B block b (its parameters, then its rows) into slot b % 2 once block b - 2 is finished;
  //   the feeder runs panel f (its block's tiles x Kp) once both are loaded; its C words join
  //   the bus when it ends (the last tile's are the tail's).
  const uint64_t P = nblk * mt;
  uint64_t t = 0, a_next = 0, a_done = 0, b_next = 0, b_done = 0, f_next = 0;
  uint64_t a_rem = 0, b_rem = 0, f_rem = 0, c_rem = 0, a_words = 0, b_words = 0, p_words = 0, c_words = 0;
  bool a_on = false, b_on = false, f_on = false, first = true;
  while (f_next < P || f_on) {
    if (!a_on && a_next < P && a_next <= f_next + 1) {   // f_next = panels finished
      a_on = true;
      a_rem = panel_lines(a_next % mt);
      a_words += a_rem;
    }
    if (!b_on && b_next < nblk && (b_next < 2 || f_next >= (b_next - 1) * mt)) {
      const uint64_t cols = cols_of(b_next);
      const uint64_t pw = g.row_params ? (b_next == 0 ? params * M : 0) : params * cols;
      b_rem = pw + b_block(b_next, cols, b_bytes);
      b_words += b_rem - pw;
      p_words += pw;
      b_on = true;
    }
    if (!f_on && f_next < P && a_done > f_next && b_done > f_next / mt) {
      f_on = true;
      f_rem = cdiv(cols_of(f_next / mt), D) * kp;
      p.compute += f_rem;
      if (first) { p.startup = t + 4; first = false; }   // + DMA and full-flag latency
    }
    const int server = c_rem > 0 ? 0 : (a_on ? 1 : (b_on ? 2 : 3));
    const uint64_t srv = server == 0 ? c_rem : (server == 1 ? a_rem : (server == 2 ? b_rem : 0));
    uint64_t dt = 0;
    if (server != 3) dt = srv;
    if (f_on && (dt == 0 || f_rem < dt)) dt = f_rem;
    if (dt == 0) break;   // nothing can move (cannot happen for a valid job)
    t += dt;
    if (server == 0) c_rem -= dt;
    if (server == 1) a_rem -= dt;
    if (server == 2) b_rem -= dt;
    if (f_on) f_rem -= dt;
    if (a_on && a_rem == 0) { a_on = false; ++a_next; ++a_done; }
    if (b_on && b_rem == 0) { b_on = false; ++b_next; ++b_done; }
    if (f_on && f_rem == 0) {
      f_on = false;
      const uint64_t cw = rows_of(f_next % mt) * c_row_of(f_next / mt) * (res ? 2u : 1u);
      c_words += rows_of(f_next % mt) * c_row_of(f_next / mt);
      ++f_next;
      if (f_next < P) c_rem += cw;
    }
  }
  p.bus_words = a_words + b_words + p_words + c_words * (res ? 2u : 1u);

  // Tail: flush, drain (2*tiles_side + DIM), requant pipeline (5), then the last tile's rows.
  const uint64_t last_cols = N - (nblk - 1) * NB - (cdiv(N - (nblk - 1) * NB, D) - 1) * D;
  const uint64_t last_rows = M - (mt - 1) * D;
  const uint64_t last_words = last_rows * ((g.raw || c_bytes) ? last_cols : cdiv(last_cols, W));
  p.tail = 2 * tiles_side + D + 5 + last_words;
  if (res) p.tail += residual_latency + last_words;   // read round trip + add pipeline, then the reads
  p.cycles = t + 4 + p.tail;
  return p;
}
}  // namespace detail

/// @brief Predicted cycles of one GEMM (see the schedule above).
constexpr prediction predict(const config& c, const gemm& g) {
  const uint64_t K = static_cast<uint64_t>(g.k), W = static_cast<uint64_t>(c.bus_bytes);
  return detail::predict_with(c, g, [&](uint64_t, uint64_t cols, bool bytes) {
    return K * (bytes ? cols : detail::cdiv(cols, W));
  });
}

/// @brief Predicted cycles of a convolution run as one CFG.CONV job with per-row parameters
/// (M = out_c, N = out_h x out_w, K = in_c x kh x kw), the weights, input and output packed
/// (LDA = K, LDC = N), the weights at a line-aligned address, input and output word aligned.
constexpr prediction predict_conv(const config& c, const conv& v) {
  if (runs_on_mv(v)) {
    // the matrix-vector unit: one bus beat per cycle (its reads, C's line writes), 16 MACs a beat
    prediction p;
    const uint64_t M = static_cast<uint64_t>(v.out_c), K = static_cast<uint64_t>(v.in_c);
    p.macs = M * K;
    p.fits = v.in_c <= c.kmax;
    p.compute = M * detail::cdiv(K, line_bytes);
    p.bus_words = mv_reads(v, 0, K, 0) + detail::cdiv(M, line_bytes);
    p.tail = mv_latency;
    p.cycles = p.bus_words + p.tail;
    return p;
  }
  gemm g;
  g.m = v.out_c;
  g.n = v.out_h() * v.out_w();
  g.k = v.in_c * v.kh * v.kw;
  g.bias = v.bias;
  g.per_channel = v.per_channel;
  g.conv = true;
  g.row_params = true;
  g.c_bytes = g.n % 4 != 0;    // rows at a stride of N bytes
  g.residual = v.residual;
  prediction p;
  if (v.sw != 1 || c.dim % 4 != 0) {
    p = predict(c, g);   // gathered one byte per request
  } else {
    const uint64_t NB = static_cast<uint64_t>(c.nb);
    const uint64_t cstride = static_cast<uint64_t>(v.in_h) * static_cast<uint64_t>(v.in_w);
    gather_hold hold;
    p = detail::predict_with(c, g, [&](uint64_t blk, uint64_t cols, bool) {
      return conv_b_items(v, cstride, blk * NB, cols, 0, hold);
    });
  }
  if (v.pool != 0 && p.fits) {
    const uint64_t words = pool_line_reads(v) + pool_line_writes(v);
    p.bus_words += words;
    p.tail += (words != 0 ? pool_latency : 1) + words;
    p.cycles += (words != 0 ? pool_latency : 1) + words;
  }
  return p;
}

/// @brief A depthwise convolution as one CFG.DW job (ctnn_accel_dw): channels x KH x KW weights,
/// CHW input and output, packed (LDA = KH x KW, channel stride H x W, LDC = N) from word-aligned
/// bases.
struct depthwise {
  int channels = 1, in_h = 1, in_w = 1;
  int kh = 3, kw = 3, sh = 1, sw = 1;
  int pt = 0, pb = 0, pl = 0, pr = 0;
  bool bias = true;
  bool per_channel = true;
  [[nodiscard]] constexpr int out_h() const { return (in_h + pt + pb - kh) / sh + 1; }
  [[nodiscard]] constexpr int out_w() const { return (in_w + pl + pr - kw) / sw + 1; }
};

/// Lanes of the depthwise unit: output pixels per cycle (one C word), each KH x KW MACs.
inline constexpr uint64_t dw_lanes = 4;
/// Cycles of a CFG.DW job beyond its bus words: the job's checks and the first request, the
/// first response, the requantization pipeline and the last write, the done detection.
inline constexpr uint64_t dw_latency = 13;

/// @brief Cycles the window adds at the end of a CFG.DW job. The window's reader reads one word
/// of each input row per cycle: a row of G groups takes a priming read and (G - 1) x SW + Need
/// chunk reads (Need = ceil((3 x SW + KW) / 4), the chunks of one group), and a chunk reaches the
/// products two cycles after its read. While input rows still arrive this hides under the bus;
/// the output rows that wait for the job's last input row run after it, so each adds its reads
/// beyond its G issue cycles, plus the two cycles of the first chunk.
constexpr uint64_t dw_window_tail(const depthwise& v) {
  const int64_t oh = v.out_h(), ow = v.out_w(), n = oh * ow, ch = v.channels - 1;
  const int64_t need = (3 * v.sw + v.kw + 3) / 4;
  int64_t extra = 2;
  for (int64_t oy = 0; oy < oh; ++oy) {
    if (oy * v.sh - v.pt + v.kh - 1 < v.in_h - 1) continue;   // its rows are all in before the last
    const int64_t a = ch * n + oy * ow;                          // C byte of the row's first output
    const int64_t groups = (a + ow - 1) / 4 - a / 4 + 1;
    extra += 1 + (groups - 1) * v.sw + need - groups;
  }
  return static_cast<uint64_t>(extra);
}

/// @brief Predicted cycles of a CFG.DW job. Its three streams share the bus, one word per cycle:
/// per channel the weight words and the bias, multiplier and shift; every input row once (its
/// words, any alignment); one C word per group of 4 output pixels of a row (a group per word
/// of C, so a row that does not start on a word has a partial first group). The compute issues
/// a group per cycle (stride 1; SW cycles with stride SW: the window's reads) and writes it
/// three cycles later with the writes first on the bus, and the fetcher runs up to 8 rows ahead
/// of the rows in use, so the bus never waits: the job takes its bus words plus a latency, the
/// window's tail included (dw_window_tail). compute = groups issued (cycles the MAC lanes work).
constexpr prediction predict_dw(const config& c, const depthwise& v) {
  using detail::cdiv;
  prediction p;
  const uint64_t W = static_cast<uint64_t>(c.bus_bytes);
  auto words = [W](uint64_t addr, uint64_t bytes) { return bytes == 0 ? 0 : (addr + bytes - 1) / W - addr / W + 1; };
  const uint64_t C = static_cast<uint64_t>(v.channels), H = static_cast<uint64_t>(v.in_h),
                 Wd = static_cast<uint64_t>(v.in_w), K = static_cast<uint64_t>(v.kh) * static_cast<uint64_t>(v.kw),
                 OH = static_cast<uint64_t>(v.out_h()), OW = static_cast<uint64_t>(v.out_w()), N = OH * OW;
  p.macs = C * N * K;
  p.fits = v.kh <= c.dw_kmax && v.kw <= c.dw_kmax && v.sw <= c.dw_smax && v.in_w <= c.dw_line;
  if (C == 0 || N == 0) return p;
  uint64_t params = 0, rows = 0, groups = 0;
  const uint64_t vec = (v.bias ? 1u : 0u) + (v.per_channel ? 2u : 0u);
  for (uint64_t ch = 0; ch < C; ++ch) {
    params += words(ch * K, K) + vec;
    for (uint64_t y = 0; y < H; ++y) rows += words(ch * H * Wd + y * Wd, Wd);
    for (uint64_t oy = 0; oy < OH; ++oy) groups += words(ch * N + oy * OW, OW);
  }
  p.bus_words = params + rows + groups;
  p.compute = groups;
  p.startup = words(0, K) + vec + (static_cast<uint64_t>(v.kh - v.pt) < H ? static_cast<uint64_t>(v.kh - v.pt) : H) * cdiv(Wd, W);
  p.tail = dw_latency + dw_window_tail(v);
  p.cycles = p.bus_words + p.tail;
  return p;
}

/// @brief The DMA bound of a depthwise job: the cycles to move its bytes (weights, vectors,
/// input, output) at bus_bytes per cycle, as if every bus word were full.
constexpr uint64_t dw_dma_bound(const config& c, const depthwise& v) {
  const uint64_t C = static_cast<uint64_t>(v.channels);
  const uint64_t bytes = C * (static_cast<uint64_t>(v.kh) * static_cast<uint64_t>(v.kw) +
                              4u * ((v.bias ? 1u : 0u) + (v.per_channel ? 2u : 0u)) +
                              static_cast<uint64_t>(v.in_h) * static_cast<uint64_t>(v.in_w) +
                              static_cast<uint64_t>(v.out_h()) * static_cast<uint64_t>(v.out_w()));
  return detail::cdiv(bytes, static_cast<uint64_t>(c.bus_bytes));
}

/// @brief MACs / (DIM^2 x cycles), in parts per million (freestanding: no floating point).
constexpr uint64_t utilization_ppm(const config& c, uint64_t macs, uint64_t cycles) {
  const uint64_t peak = static_cast<uint64_t>(c.dim) * static_cast<uint64_t>(c.dim) * cycles;
  return peak == 0 ? 0 : macs * 1'000'000u / peak;
}

}  // namespace ctnn::accel
