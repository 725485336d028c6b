// Winograd F(4x4, 3x3) for float 3x3 stride-1 convolutions (Lavin & Gray, "Fast Algorithms for
// Convolutional Neural Networks", 2016): each 4x4 block of outputs ("tile") of each output
// channel from a 6x6 block of each input channel in 36 multiplies per input channel instead of
// 144, so the layer's GEMM work is a quarter of im2col's (plus the transforms, linear in the
// input and output sizes).
//
//   U[xi][k][c] = (G g[k][c] G^T)[i][j]      the weights, once (pack_winograd_f32), xi = 6 i + j
//   V[xi][c][t] = (B^T d[c][t] B)[i][j]       each input tile t (6x6, overlapping by 2)
//   M[xi]       = U[xi] . V[xi]              36 GEMMs, [out_c x in_c] . [in_c x tiles]
//   out[k][t]   = A^T M[.][k][t] A + bias[k]  4x4 outputs, the fused activation's clamp
//
// Tiles are taken in blocks (row-major order over the tile grid) so that V and M of a block stay
// in L2; a block's V and M live in a static workspace (as tiled.hpp's GEMM workspace: not
// reentrant). The transforms run on vectors of tiles (one lane per tile of a tile row): the
// AVX-512 build gathers the 6 input columns of 16 tiles from 5 row loads with permutes and
// interleaves the 4 output columns back with shuffles; other builds gather and scatter one float
// at a time around the same vector arithmetic.
//
// Numerics: the transforms' constants (up to 8 in A, 5 in B, 1/24 in G) make the rounding error
// about 10 times the direct sum's: against the exact (double) convolution, 3e-6 to 7e-6 of the
// layer's largest output with 32 to 48 input channels and inputs, weights and bias in [-1, 1],
// where the im2col path has 5e-7 to 7e-7 (tests/unit/test_conv_f32_packed.cpp prints both; it requires
// 2e-5). ctnn-golden's float tolerance is 1e-4 of the largest output.
#pragma once
#include "ctnn/core/utility.hpp"
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/scalar.hpp"
#include "ctnn/kernels/simd.hpp"
#include "ctnn/kernels/status.hpp"
#include "ctnn/kernels/tiled.hpp"
#include "ctnn/kernels/x86.hpp"

namespace ctnn::kernels {

namespace detail {

/// Tiles of an output extent: 4 outputs per tile.
constexpr int64_t wino_tiles(int64_t extent) { return (extent + 3) / 4; }
constexpr int64_t wino_tiles(const conv_geometry& g) { return wino_tiles(g.out_h()) * wino_tiles(g.out_w()); }

/// Floats of the static workspace of the transforms: a block's V and M (36 (in_c + out_c)
/// floats per tile) and one vector of slack after M (the last chunk's loads).
inline constexpr int64_t wino_workspace_elems = int64_t{1} << 20;
/// Tiles per block at most: V and M of a block in about 1 MiB (L2; 96K to 640K floats measured
/// within 4 % on ResNet-18's 64x56x56 and 128x28x28 3x3 layers, Intel Xeon).
inline constexpr int64_t wino_block_budget_elems = 256 * 1024;

/// Floats between consecutive matrices of V and of M beyond their size: one cache line, so that
/// the 36 stores of a transformed tile (and the 36 loads of the output transform) fall in 36
/// different L1 sets. Without it a block of C ld floats a multiple of 4 KiB (64 channels, 32
/// tiles) put them all in one set: the input transform of ResNet-18's 64x56x56 layer took 213 us.
inline constexpr int64_t wino_skew = 16;

/// Floats from one matrix of V or M (rows x ld) to the next: the matrix and wino_skew.
constexpr int64_t wino_stride(int64_t rows, int64_t ld) { return rows * ld + wino_skew; }

/// GEMM columns (tiles) are taken in multiples of this: whole column tiles of the micro-kernel.
inline constexpr int64_t wino_col_step = 32;

/// Tiles per block: the fewest blocks of at most wino_block_budget_elems floats (wino_col_step
/// tiles at least), the tiles split evenly over them and rounded up to wino_col_step.
constexpr int64_t wino_block_tiles(const conv_geometry& g) {
  const int64_t per_tile = 36 * (g.in_c + g.out_c), t = wino_tiles(g);
  const int64_t cap = max(wino_col_step, wino_block_budget_elems / per_tile / wino_col_step * wino_col_step);
  const int64_t blocks = ceil_div(t, cap);
  return round_up_to_tile<wino_col_step>(ceil_div(t, blocks));
}

/// Whether the transforms pay on g's sizes (measured on the Intel Xeon of bench/README.md, one
/// thread, against the implicit im2col, warm caches): 32 tiles (a 22x22 output) or more and 32
/// channels in and out (32x56x56 0.40 -> 0.29 ms, 64x28x28 0.44 -> 0.30, 128x28x28 1.55 -> 0.98,
/// 64x56x56 1.60 -> 0.86; 16x32x32 equal: the transforms outweigh a 16-channel GEMM). Not with 16
/// tiles (a 14x14 or 16x16 output: a 32-column GEMM, half of it padding): 128x14x14 0.43 -> 0.48,
/// 64x16x16 equal, and 256x14x14, 1.75 -> 1.51 ms with warm caches, 1.8 -> 2.47 in ResNet-18 (its
/// 9.4 MB of transformed weights read once per call from memory); 64x8x8 (4 tiles) 0.056 -> 0.113.
constexpr bool wino_pays(const conv_geometry& g) { return wino_tiles(g) >= 32 && min(g.in_c, g.out_c) >= 32; }

/// True when conv2d_f32 runs g through Winograd F(4x4, 3x3) (given the packed weights): a dense
/// 3x3 convolution, stride 1, dilation 1, one group, where the transforms pay (wino_pays) and a
/// block fits the workspace; not on RISC-V (CTNN_KERNELS_SCALAR).
constexpr bool winograd_f32_applies(const conv_geometry& g) {
  if (CTNN_KERNELS_SCALAR || !g.valid()) return false;
  if (g.kh != 3 || g.kw != 3 || g.sh != 1 || g.sw != 1 || g.dh != 1 || g.dw != 1 || g.groups != 1) return false;
  return wino_pays(g) && 36 * ((g.in_c + g.out_c) * wino_block_tiles(g) + 2 * wino_skew) + 64 <= wino_workspace_elems;
}

struct static_workspace_wino {
  alignas(64) static inline float buf[wino_workspace_elems];
};

using wino_vec = simd::vf32;
inline constexpr int wino_lanes = simd::f32_lanes;

/// B^T d on 6 values (a row or a column of a tile).
inline void wino_in_1d(const wino_vec d[6], wino_vec v[6]) {
  const wino_vec a = d[4] - 4.0f * d[2], b = d[3] - 4.0f * d[1];
  const wino_vec c = d[4] - d[2], e = 2.0f * (d[3] - d[1]);
  v[0] = 4.0f * d[0] - 5.0f * d[2] + d[4];
  v[1] = a + b;
  v[2] = a - b;
  v[3] = c + e;
  v[4] = c - e;
  v[5] = 4.0f * d[1] - 5.0f * d[3] + d[5];
}

/// A^T m on 6 values.
inline void wino_out_1d(const wino_vec m[6], wino_vec y[4]) {
  const wino_vec p = m[1] + m[2], q = m[1] - m[2], r = m[3] + m[4], s = m[3] - m[4];
  y[0] = m[0] + p + r;
  y[1] = q + 2.0f * s;
  y[2] = p + 4.0f * r;
  y[3] = q + 8.0f * s + m[5];
}

/// The columns of a chunk of tiles in one tile row: d[s][l] reads input column x0 + 4 l + s,
/// the lanes l < n are stored. Computed once per chunk (the loads' and stores' lane masks).
struct wino_window {
  int64_t x0, w;
  int n;
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  __mmask16 load[5];  ///< lanes of the 5 16-float windows from x0 inside [0, w)
  __mmask16 store;    ///< the first n lanes
#endif
};

inline wino_window wino_window_of(int64_t x0, int64_t w, int n) {
  wino_window win{};
  win.x0 = x0, win.w = w, win.n = n;
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  for (int v = 0; v < 5; ++v) win.load[v] = im2col_lanes_f32(x0 + 16 * v, w, 16);
  win.store = im2col_lanes_f32(0, 16, n);
#endif
  return win;
}

/// d[s][l] = row[x0 + 4 l + s] for s < 6 and the lanes l, 0 where the column lies outside [0, w)
/// or the row is null (padding).
inline void wino_gather(const float* row, const wino_window& win, wino_vec d[6]) {
  if (row == nullptr) {
    for (int s = 0; s < 6; ++s) d[s] = wino_vec{};
    return;
  }
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  // five 16-float windows from x0 (66 floats used), masked to [0, w)
  __m512 x[5];
  for (int v = 0; v < 5; ++v) x[v] = _mm512_maskz_loadu_ps(win.load[v], im2col_at(row, win.x0 + 16 * v));
  __m512 ph[4];
  for (int s = 0; s < 4; ++s) {
    // lanes 0..7 of (x[0], x[1]) and of (x[2], x[3]) at s, s + 4, ..., s + 28
    const __m512i idx = _mm512_add_epi32(_mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 28, 24, 20, 16, 12, 8, 4, 0),
                                         _mm512_set1_epi32(s));
    const __m512 lo = _mm512_permutex2var_ps(x[0], idx, x[1]), hi = _mm512_permutex2var_ps(x[2], idx, x[3]);
    ph[s] = _mm512_shuffle_f32x4(lo, hi, 0x44);
  }
  for (int s = 0; s < 4; ++s) d[s] = reinterpret_cast<const wino_vec&>(ph[s]);
  // s = 4, 5: phases 0, 1 one tile on (the last lane from x[4])
  const __m512i x4 = _mm512_castps_si512(x[4]), x4n = _mm512_alignr_epi32(x4, x4, 1);
  const __m512 d4 = _mm512_castsi512_ps(_mm512_alignr_epi32(x4, _mm512_castps_si512(ph[0]), 1));
  const __m512 d5 = _mm512_castsi512_ps(_mm512_alignr_epi32(x4n, _mm512_castps_si512(ph[1]), 1));
  d[4] = reinterpret_cast<const wino_vec&>(d4);
  d[5] = reinterpret_cast<const wino_vec&>(d5);
#else
  alignas(64) float buf[6][wino_lanes];
  for (int s = 0; s < 6; ++s)
    for (int l = 0; l < wino_lanes; ++l) {
      const int64_t x = win.x0 + 4 * l + s;
      buf[s][l] = x >= 0 && x < win.w ? row[x] : 0.0f;
    }
  for (int s = 0; s < 6; ++s) d[s] = simd::load<wino_vec>(buf[s]);
#endif
}

/// The first win.n lanes of v to p.
inline void wino_store_lanes(float* p, const wino_vec& v, const wino_window& win) {
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  _mm512_mask_storeu_ps(p, win.store, reinterpret_cast<const __m512&>(v));
#else
  if (win.n == wino_lanes) return simd::store(p, v);
  alignas(64) float buf[wino_lanes];
  simd::store(buf, v);
  for (int l = 0; l < win.n; ++l) p[l] = buf[l];
#endif
}

/// The output columns of a chunk of tiles: row[4 l + j] = y[j][l] for the first `n` floats
/// (n <= 4 lanes); the AVX-512 build's 4 store masks computed once.
struct wino_out_window {
  int64_t n;
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  __mmask16 store[4];
#endif
};

inline wino_out_window wino_out_window_of(int64_t n) {
  wino_out_window win{};
  win.n = n;
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  for (int v = 0; v < 4; ++v) win.store[v] = im2col_lanes_f32(0, 16, n - 16 * v);
#endif
  return win;
}

inline void wino_scatter(float* row, const wino_vec y[4], const wino_out_window& win) {
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  const __m512 y0 = reinterpret_cast<const __m512&>(y[0]), y1 = reinterpret_cast<const __m512&>(y[1]);
  const __m512 y2 = reinterpret_cast<const __m512&>(y[2]), y3 = reinterpret_cast<const __m512&>(y[3]);
  // per 128-bit chunk c: a = y0[4c] y1[4c] y0[4c+1] y1[4c+1], b = the same for 4c+2, 4c+3
  const __m512 a = _mm512_unpacklo_ps(y0, y1), b = _mm512_unpackhi_ps(y0, y1);
  const __m512 c = _mm512_unpacklo_ps(y2, y3), e = _mm512_unpackhi_ps(y2, y3);
  // r[m] chunk c: the 4 outputs of tile 4c + m
  const __m512 r0 = _mm512_shuffle_ps(a, c, 0x44), r1 = _mm512_shuffle_ps(a, c, 0xEE);
  const __m512 r2 = _mm512_shuffle_ps(b, e, 0x44), r3 = _mm512_shuffle_ps(b, e, 0xEE);
  // 4 x 4 transpose of 128-bit chunks: o[v] = tiles 4v .. 4v + 3
  const __m512 s0 = _mm512_shuffle_f32x4(r0, r1, 0x44), s1 = _mm512_shuffle_f32x4(r2, r3, 0x44);
  const __m512 s2 = _mm512_shuffle_f32x4(r0, r1, 0xEE), s3 = _mm512_shuffle_f32x4(r2, r3, 0xEE);
  _mm512_mask_storeu_ps(row, win.store[0], _mm512_shuffle_f32x4(s0, s1, 0x88));
  _mm512_mask_storeu_ps(row + 16, win.store[1], _mm512_shuffle_f32x4(s0, s1, 0xDD));
  _mm512_mask_storeu_ps(row + 32, win.store[2], _mm512_shuffle_f32x4(s2, s3, 0x88));
  _mm512_mask_storeu_ps(row + 48, win.store[3], _mm512_shuffle_f32x4(s2, s3, 0xDD));
#else
  alignas(64) float buf[4][wino_lanes];
  for (int j = 0; j < 4; ++j) simd::store(buf[j], y[j]);
  for (int64_t x = 0; x < win.n; ++x) row[x] = buf[x % 4][x / 4];
#endif
}

/// A run of at most wino_lanes tiles of one tile row inside a block: its first column in V and
/// M, its tile row, its first tile column, its tile count.
struct wino_chunk {
  int64_t col, ty, tx0;
  int n;
};

/// Chunks per batch of wino_chunks (a fixed array: the transforms take the chunks of a block a
/// batch at a time, every channel over the batch).
inline constexpr int wino_batch = 64;

/// The chunks of block [t0, t0 + nb) from tile `from` on, at most wino_batch of them, into
/// `out`; returns their count and advances `from` past them.
inline int wino_chunks(int64_t tw, int64_t t0, int64_t nb, int64_t& from, wino_chunk* out) {
  int count = 0;
  while (from < t0 + nb && count < wino_batch) {
    const int64_t ty = from / tw, tx0 = from - ty * tw;
    const int64_t n = min(int64_t{wino_lanes}, min(tw - tx0, t0 + nb - from));
    out[count++] = wino_chunk{from - t0, ty, tx0, static_cast<int>(n)};
    from += n;
  }
  return count;
}

/// V of one block: tiles [t0, t0 + nb) of the tile grid (tw tiles a row), their column in V =
/// t - t0; V[xi] is [in_c x ldv]. Channel by channel over a batch of chunks: a channel's rows stay
/// in L1 from one tile row to the next (they overlap by 2), each row of V is written in order.
inline void wino_input_transform(const conv_geometry& g, const float* in, int64_t t0, int64_t nb, float* v,
                                 int64_t ldv) {
  const int64_t tw = wino_tiles(g.out_w()), plane = g.in_h * g.in_w, xi_stride = wino_stride(g.in_c, ldv);
  wino_chunk chunks[wino_batch];
  wino_window wins[wino_batch];
  for (int64_t from = t0; from < t0 + nb;) {
    const int count = wino_chunks(tw, t0, nb, from, chunks);
    for (int q = 0; q < count; ++q) wins[q] = wino_window_of(4 * chunks[q].tx0 - g.pl, g.in_w, chunks[q].n);
    for (int64_t c = 0; c < g.in_c; ++c) {
      const float* ch = in + c * plane;
      for (int q = 0; q < count; ++q) {
        const int64_t y0 = 4 * chunks[q].ty - g.pt;
        wino_vec w[6][6];  // rows of the tile transformed along x: w[r][j]
        for (int r = 0; r < 6; ++r) {
          const int64_t y = y0 + r;
          wino_vec d[6];
          wino_gather(y >= 0 && y < g.in_h ? ch + y * g.in_w : nullptr, wins[q], d);
          wino_in_1d(d, w[r]);
        }
        float* vc = v + c * ldv + chunks[q].col;
        for (int j = 0; j < 6; ++j) {
          const wino_vec colj[6] = {w[0][j], w[1][j], w[2][j], w[3][j], w[4][j], w[5][j]};
          wino_vec o[6];
          wino_in_1d(colj, o);
          for (int i = 0; i < 6; ++i) wino_store_lanes(vc + (6 * i + j) * xi_stride, o[i], wins[q]);
        }
      }
    }
  }
}

/// The outputs of one block from M[xi] ([out_c x ldm]): bias, clamp to [lo, hi] (none when both
/// are infinite), the rows and columns inside the output. Output channel by channel over a batch
/// of chunks (each row of M read in order, each output plane written in order).
inline void wino_output_transform(const conv_geometry& g, const float* m, int64_t t0, int64_t nb, int64_t ldm,
                                  const float* bias, float lo, float hi, float* out) {
  const int64_t oh = g.out_h(), ow = g.out_w(), tw = wino_tiles(ow), xi_stride = wino_stride(g.out_c, ldm);
  const bool clamp = clamps(lo, hi);
  const wino_vec vlo = wino_vec{} + lo, vhi = wino_vec{} + hi;
  wino_chunk chunks[wino_batch];
  wino_out_window wins[wino_batch];
  for (int64_t from = t0; from < t0 + nb;) {
    const int count = wino_chunks(tw, t0, nb, from, chunks);
    for (int q = 0; q < count; ++q) wins[q] = wino_out_window_of(min(int64_t{4} * chunks[q].n, ow - 4 * chunks[q].tx0));
    for (int64_t k = 0; k < g.out_c; ++k) {
      const float b = bias != nullptr ? bias[k] : 0.0f;
      for (int q = 0; q < count; ++q) {
        const float* mk = m + k * ldm + chunks[q].col;
        wino_vec z[4][6];  // columns of M transformed along y: z[i][j]
        for (int j = 0; j < 6; ++j) {
          wino_vec mj[6];
          for (int i = 0; i < 6; ++i) mj[i] = simd::load<wino_vec>(mk + (6 * i + j) * xi_stride);
          wino_vec zj[4];
          wino_out_1d(mj, zj);
          for (int i = 0; i < 4; ++i) z[i][j] = zj[i];
        }
        const int64_t rows = min(int64_t{4}, oh - 4 * chunks[q].ty);
        float* ok = out + (k * oh + 4 * chunks[q].ty) * ow + 4 * chunks[q].tx0;
        for (int64_t i = 0; i < rows; ++i) {
          wino_vec y[4];
          wino_out_1d(z[i], y);
          for (int j = 0; j < 4; ++j) {
            y[j] += b;
            if (clamp) y[j] = simd::clamp(y[j], vlo, vhi);
          }
          wino_scatter(ok + i * ow, y, wins[q]);
        }
      }
    }
  }
}

}  // namespace detail

/// @brief Bytes of a float convolution's Winograd weights (pack_winograd_f32): 36 out_c in_c
/// floats, 0 where detail::winograd_f32_applies is false.
constexpr size_t winograd_f32_packed_bytes(const conv_geometry& g) {
  if (!detail::winograd_f32_applies(g)) return 0;
  return static_cast<size_t>(round_up(static_cast<uint64_t>(36 * g.out_c * g.in_c) * sizeof(float), 64));
}

/// @brief U = G g G^T of every (output, input) channel pair of OIHW weights w, as 36 matrices
/// [out_c x in_c] (U[xi][k][c], xi = 6 i + j), computed in double and rounded once.
inline status pack_winograd_f32(const conv_geometry& g, const float* w, void* dst, size_t dst_bytes) {
  const size_t need = winograd_f32_packed_bytes(g);
  if (need == 0) return status::bad_geometry;
  if (w == nullptr || dst == nullptr) return status::null_pointer;
  if (dst_bytes < need || !detail::aligned4(dst)) return status::scratch_too_small;
  static constexpr double gm[6][3] = {{1.0 / 4, 0, 0},
                                      {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                      {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                      {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                      {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                      {0, 0, 1.0}};
  auto* u = static_cast<float*>(dst);
  const int64_t kc = g.out_c * g.in_c;
  for (int64_t k = 0; k < g.out_c; ++k)
    for (int64_t c = 0; c < g.in_c; ++c) {
      const float* f = w + (k * g.in_c + c) * 9;
      double t[6][3];  // G f
      for (int i = 0; i < 6; ++i)
        for (int x = 0; x < 3; ++x)
          t[i][x] = gm[i][0] * f[x] + gm[i][1] * f[3 + x] + gm[i][2] * f[6 + x];
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
          u[(6 * i + j) * kc + k * g.in_c + c] =
              static_cast<float>(t[i][0] * gm[j][0] + t[i][1] * gm[j][1] + t[i][2] * gm[j][2]);
    }
  return status::ok;
}

/// @brief conv2d float through Winograd F(4x4, 3x3) (detail::winograd_f32_applies(g)) with the
/// weights packed by pack_winograd_f32: the output with bias and the clamp to [act_lo, act_hi]
/// (none when both are infinite). workspace: the GEMM's (Tiling::workspace_elems floats, nullptr:
/// tiled.hpp's static one); the transforms use detail::static_workspace_wino.
template <class Tiling = default_f32_tiling>
inline status conv2d_f32_winograd(const conv_geometry& g, const float* in, const void* packed, size_t packed_bytes,
                                  const float* bias, float* out, float* workspace = nullptr,
                                  float act_lo = -__builtin_huge_valf(), float act_hi = __builtin_huge_valf()) {
  if (!detail::winograd_f32_applies(g)) return status::bad_geometry;
  if (in == nullptr || packed == nullptr || out == nullptr) return status::null_pointer;
  if (packed_bytes < winograd_f32_packed_bytes(g)) return status::scratch_too_small;
  float* ws = workspace != nullptr ? workspace : detail::static_workspace_f32<Tiling>::buf;
  const auto* u = static_cast<const float*>(packed);
  const int64_t t = detail::wino_tiles(g), tb = detail::wino_block_tiles(g);
  const int K = static_cast<int>(g.out_c), C = static_cast<int>(g.in_c);
  float* v = detail::static_workspace_wino::buf;
  for (int64_t t0 = 0; t0 < t; t0 += tb) {
    const int64_t nb = min(tb, t - t0), ld = detail::round_up_to_tile<detail::wino_col_step>(nb);
    // V[xi] at v + xi vs, M[xi] at m + xi ms
    const int64_t vs = detail::wino_stride(C, ld), ms = detail::wino_stride(K, ld);
    float* m = v + 36 * vs;
    if (ld > nb)  // the padding columns of V: zero (their products are not read)
      for (int64_t xi = 0; xi < 36; ++xi)
        for (int64_t r = 0; r < C; ++r)
          for (int64_t x = nb; x < ld; ++x) v[xi * vs + r * ld + x] = 0.0f;
    detail::wino_input_transform(g, in, t0, nb, v, ld);
    for (int xi = 0; xi < 36; ++xi) {
      const status s = tiled::gemm_f32<Tiling>(K, static_cast<int>(ld), C, u + static_cast<int64_t>(xi) * K * C, C,
                                               v + xi * vs, static_cast<int>(ld), nullptr, m + xi * ms,
                                               static_cast<int>(ld), ws);
      if (s != status::ok) return s;
    }
    detail::wino_output_transform(g, m, t0, nb, ld, bias, act_lo, act_hi, out);
  }
  return status::ok;
}

}  // namespace ctnn::kernels
