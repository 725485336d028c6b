// Optimized layer kernels, each tested against its reference in ref_layers.hpp (int8 bit-exact):
// conv2d through im2col + tiled GEMM, depthwise in vector lanes (depthwise.hpp), linear as
// matrix-vector products (gemv.hpp), pooling with a bounds-check-free interior, int8 activations,
// BatchNorm and softmax through tables,
// elementwise add / multiply in vector lanes, concat by block copies. On RISC-V
// (CTNN_KERNELS_SCALAR) the int8 conv2d, depthwise, linear and add run the scalar kernels of
// scalar.hpp instead (32-bit indices, register-blocked, no GEMM packing).
//
// conv2d through GEMM, per group g (CHW, OIHW):
//
//   W_g [ocg x K]   .   col_g [K x P]    =   out_g [ocg x P]      K = (in_c/groups) kh kw
//   (weights, A)        (im2col, B)          (output channel = row)   P = out_h out_w
//
//   col row (ic, ky, kx), column (oy, ox) = in[ic][oy sh - pt + ky dh][ox sw - pl + kx dw]
//   (padding: 0, or the input zero point for int8 so it stands for the real value 0)
//
// Row panels: the arena plan gives each convolution `panel_rows` (its scratch request). The
// kernel lowers rows [r0, r0 + R) of the output at a time into a [K x R*out_w] panel and writes
// the GEMM's result at column r0*out_w of out_g (ldc = out_h*out_w):
//
//   out_g  +-------------------+  rows 0..R-1      <- GEMM of panel 0
//          |###################|
//          +-------------------+  rows R..2R-1     <- GEMM of panel 1
//          |                   |  ...
//
// The panel is the arena scratch; its size is conv_scratch_elems (geometry.hpp), the request the
// convolution makes to the planner.
// panel_rows == 0 (no scratch) runs the GEMM with its panel in the workspace where one fits there,
// else the direct kernel. The GEMM's packing workspace is not arena
// scratch: it depends on the tiling only, and is passed as `workspace` (nullptr: the static
// workspace of tiled.hpp, not reentrant).
#pragma once
#include "ctnn/kernels/depthwise.hpp"
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/gemv.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/scalar.hpp"
#include "ctnn/kernels/status.hpp"
#include "ctnn/kernels/tiled.hpp"
#include "ctnn/kernels/winograd.hpp"
#include "ctnn/kernels/x86.hpp"

namespace ctnn::kernels {

namespace detail {

inline size_t align64(size_t n) { return (n + 63u) & ~size_t{63}; }

/// im2col of one group for output rows [r0, r0 + rows): rows (ic, ky, kx), columns (oy - r0, ox);
/// Copies n bytes (short runs: an output row of a 7x7 to 56x56 map) with fixed-size moves that
/// the compiler inlines, overlapping at the end, instead of a call to memcpy per run.
inline void copy_run(void* dst, const void* src, size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (n >= 16) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) __builtin_memcpy(d + i, s + i, 16);
    if (i < n) __builtin_memcpy(d + n - 16, s + n - 16, 16);
  } else if (n >= 8) {
    __builtin_memcpy(d, s, 8);
    __builtin_memcpy(d + n - 8, s + n - 8, 8);
  } else if (n >= 4) {
    __builtin_memcpy(d, s, 4);
    __builtin_memcpy(d + n - 4, s + n - 4, 4);
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  }
}

/// The bytes at even offsets: dst[i] = src[2 i], i < n (src holds 2 n - 1 bytes): an int8 im2col
/// row of a stride-2 tap. AVX2: 64 bytes -> 32 (the even byte of each 16-bit lane, two unsigned
/// saturating packs that cannot saturate, lanes put back in order); then 8 -> 4 bytes in a 64-bit
/// word (little-endian: the even bytes are the words' low halves, folded twice), then one by one.
inline void gather_even_bytes(int8_t* dst, const int8_t* src, int64_t n) {
  int64_t i = 0;
#if CTNN_KERNELS_X86 && defined(__AVX512BW__)
  // 32 at a time, the last ones masked (rows of 28 or 14, a stride-2 layer's: the AVX2 loop below
  // never ran on them; the byte loop took a third of a stride-2 int8 conv): the 2 m - 1
  // bytes up to the last even one loaded (none past it), each 16-bit lane's low byte kept
  for (; i < n; i += 32) {
    const int64_t m = min<int64_t>(32, n - i);
    const __m512i v = _mm512_maskz_loadu_epi8((__mmask64{1} << (2 * m - 1)) - 1, src + 2 * i);
    _mm256_mask_storeu_epi8(dst + i, static_cast<__mmask32>((uint64_t{1} << m) - 1), _mm512_cvtepi16_epi8(v));
  }
  return;
#endif
#if CTNN_KERNELS_X86 && defined(__AVX2__)
  const __m256i lo = _mm256_set1_epi16(0x00FF);
  for (; i + 32 <= n && 2 * i + 64 <= 2 * n - 1; i += 32) {
    const __m256i a = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 2 * i)), lo);
    const __m256i b = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 2 * i + 32)), lo);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
  }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 4 <= n && 2 * i + 8 <= 2 * n - 1; i += 4) {
    uint64_t w;
    __builtin_memcpy(&w, src + 2 * i, 8);
    w &= 0x00FF00FF00FF00FFull;
    w = (w | w >> 8) & 0x0000FFFF0000FFFFull;
    w = (w | w >> 16) & 0x00000000FFFFFFFFull;
    const auto v = static_cast<uint32_t>(w);
    __builtin_memcpy(dst + i, &v, 4);
  }
#endif
  for (; i < n; ++i) dst[i] = src[2 * i];
}

/// out-of-image taps get pad. Split into border and interior per (row, tap) instead of a bounds
/// check per element.
template <class T>
inline void im2col_rows(const conv_geometry& g, const T* in_group, T* col, T pad, int64_t r0, int64_t rows) {
  const int64_t ow = g.out_w(), icg = g.in_c_per_group();
  for (int64_t ic = 0; ic < icg; ++ic) {
    const T* plane = in_group + ic * g.in_h * g.in_w;
    for (int64_t ky = 0; ky < g.kh; ++ky)
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        // border columns (taps in the padding) get pad, the interior [x_lo, x_hi) is a plain
        // copy: contiguous for stride 1, strided otherwise, with no bounds check. The column
        // range depends on kx only: computed once per tap, not per output row.
        const int64_t x0 = kx * g.dw - g.pl;  // input x of ox = 0
        const int64_t x_lo = x0 >= 0 ? 0 : min(ow, ceil_div(-x0, g.sw));
        const int64_t last = g.in_w - 1 - x0;  // ox * sw <= last
        const int64_t x_hi = last < 0 ? x_lo : max(x_lo, min(ow, last / g.sw + 1));
        const auto run_bytes = static_cast<size_t>(x_hi - x_lo) * sizeof(T);
        for (int64_t oy = r0; oy < r0 + rows; ++oy) {
          const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
          if (iy < 0 || iy >= g.in_h) {
            for (int64_t ox = 0; ox < ow; ++ox) col[ox] = pad;
          } else {
            const T* row = plane + iy * g.in_w;
            for (int64_t ox = 0; ox < x_lo; ++ox) col[ox] = pad;
            if (g.sw == 1) {
              if (run_bytes != 0) copy_run(col + x_lo, row + x0 + x_lo, run_bytes);
            } else {
              bool done = false;
              if constexpr (is_same_v<T, int8_t>) {
                if (g.sw == 2) {
                  if (x_hi > x_lo) gather_even_bytes(col + x_lo, row + x0 + x_lo * 2, x_hi - x_lo);
                  done = true;
                }
              }
              if (!done)
                for (int64_t ox = x_lo; ox < x_hi; ++ox) col[ox] = row[x0 + ox * g.sw];
            }
            for (int64_t ox = x_hi; ox < ow; ++ox) col[ox] = pad;
          }
          col += ow;
        }
      }
  }
}

#if CTNN_KERNELS_X86 && defined(__AVX512F__)

/// im2col_rows for float, stride 1 or 2 along the width (AVX-512). Stride 1: the interior of a
/// row in 8-float moves, the last one overlapping (im2col_rows moves 16 bytes at a time).
/// Stride 2: 16 output columns at a time from the 32 input columns they read, masked loads (a
/// tap in the padding loads 0, the float pad; no scalar border loop) and the even lanes kept
/// (vpermt2ps), where im2col_rows copies one float at a time. Measured (Zen 5, one thread) on
/// ResNet-18's 3x3 64->64 56x56 layer: 0.21 -> 0.17 ms of a 1.2 ms convolution; its 7x7/2 stem:
/// 0.45 -> 0.21 ms of 1.5. (16-float stores for stride 1 measured slower: rows of 56 floats put
/// most of them across a cache line.)
inline void im2col_rows_f32_avx512(const conv_geometry& g, const float* in_group, float* col, int64_t r0,
                                   int64_t rows) {
  const int64_t ow = g.out_w(), icg = g.in_c_per_group();
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512 zero = _mm512_setzero_ps();
  for (int64_t ic = 0; ic < icg; ++ic) {
    const float* plane = in_group + ic * g.in_h * g.in_w;
    for (int64_t ky = 0; ky < g.kh; ++ky)
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t x0 = kx * g.dw - g.pl;  // input x of ox = 0
        // stride 1: the columns [x_lo, x_hi) whose tap lies inside the row
        const int64_t x_lo = x0 >= 0 ? 0 : min(ow, -x0);
        const int64_t x_hi = max(x_lo, min(ow, g.in_w - x0));
        for (int64_t oy = r0; oy < r0 + rows; ++oy, col += ow) {
          const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
          if (iy < 0 || iy >= g.in_h) {
            for (int64_t c = 0; c < ow; c += 16)
              _mm512_mask_storeu_ps(col + c, im2col_lanes_f32(0, 16, ow - c), zero);
            continue;
          }
          const float* row = plane + iy * g.in_w;
          if (g.sw == 1) {  // the interior in 8-float moves (the last one overlapping), pads around
            for (int64_t ox = 0; ox < x_lo; ++ox) col[ox] = 0.0f;
            const int64_t n = x_hi - x_lo;
            const float* src = row + x0 + x_lo;
            float* dst = col + x_lo;
            if (n >= 8) {
              int64_t i = 0;
              for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, _mm256_loadu_ps(src + i));
              if (i < n) _mm256_storeu_ps(dst + n - 8, _mm256_loadu_ps(src + n - 8));
            } else {
              for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
            }
            for (int64_t ox = x_hi; ox < ow; ++ox) col[ox] = 0.0f;
            continue;
          }
          for (int64_t c = 0; c < ow; c += 16) {
            const int64_t n = ow - c < 16 ? ow - c : 16;
            const __mmask16 store = im2col_lanes_f32(0, 16, n);
            __m512 v;
            {  // stride 2: output lane l reads input column s + 2l
              const int64_t s = x0 + 2 * c;
              __m512 lo, hi;
              if (s >= 0 && s + 32 <= g.in_w) {
                lo = _mm512_loadu_ps(row + s);
                hi = _mm512_loadu_ps(row + s + 16);
              } else {
                lo = _mm512_maskz_loadu_ps(im2col_lanes_f32(s, g.in_w, 2 * n), im2col_at(row, s));
                hi = _mm512_maskz_loadu_ps(im2col_lanes_f32(s + 16, g.in_w, 2 * n - 16), im2col_at(row, s + 16));
              }
              v = _mm512_permutex2var_ps(lo, even, hi);
            }
            if (n == 16)
              _mm512_storeu_ps(col + c, v);
            else
              _mm512_mask_storeu_ps(col + c, store, v);
          }
        }
      }
  }
}
#endif

/// im2col of float rows: the AVX-512 copy for width strides 1 and 2, im2col_rows otherwise.
inline void im2col_rows_f32(const conv_geometry& g, const float* in_group, float* col, int64_t r0, int64_t rows) {
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  if (g.sw == 1 || g.sw == 2) return im2col_rows_f32_avx512(g, in_group, col, r0, rows);
#endif
  im2col_rows<float>(g, in_group, col, 0.0f, r0, rows);
}

/// Window taps [lo, hi) of one axis that fall inside [0, in) for the window starting at `start`.
inline void tap_range(int64_t start, int64_t k, int64_t d, int64_t in, int64_t& lo, int64_t& hi) {
  lo = start >= 0 ? 0 : ceil_div(-start, d);
  const int64_t last = in - 1 - start;  // k_idx * d <= last
  hi = last < 0 ? 0 : min(k, last / d + 1);
  if (lo > hi) lo = hi;
}

/// Direct convolution without scratch, float or int8. Per output row, chunks of up to 64
/// accumulators for OB output channels at once (on the stack) collect every tap: for each
/// (ic, ky, kx) the OB weights are broadcast over the chunk's valid columns, whose inputs are
/// contiguous for stride 1 and loaded once for the OB channels, so the innermost loop is a
/// vectorizable multiply-add over the input row:
///
///   acc[o][x] += w[oc0 + o][ic][ky][kx] * in[ic][oy*sh - pt + ky*dh][(ox0 + x)*sw - pl + kx*dw]
///
/// Padding taps are skipped (the clipped column range per kx), as the reference does. int8
/// accumulates (x - a_zp) * (w - b_zp) with wrapping adds: bit-exact with ref::conv2d_s8.
template <int OB, class T, class Acc, class Bias, class Finish>
inline void direct_conv_rows(const conv_geometry& g, const T* in, const T* w, const Bias* bias, T* out, int32_t a_zp,
                             int32_t b_zp, Finish& finish, int64_t oc0) {
  constexpr int64_t chunk = 64;
  using Tap = conditional_t<is_same_v<T, float>, float, int32_t>;
  Acc acc[OB][chunk];
  const int64_t oh = g.out_h(), ow = g.out_w(), icg = g.in_c_per_group(), ocg = g.out_c_per_group();
  const int64_t plane = g.in_h * g.in_w, ksz = g.kh * g.kw;
  const T* in_g = in + (oc0 / ocg) * icg * plane;
  const T* w_oc = w + oc0 * icg * ksz;
  const int64_t w_stride = icg * ksz;  // next output channel
  for (int64_t oy = 0; oy < oh; ++oy) {
    const int64_t y0 = oy * g.sh - g.pt;
    int64_t ky_lo, ky_hi;
    tap_range(y0, g.kh, g.dh, g.in_h, ky_lo, ky_hi);
    for (int64_t ox0 = 0; ox0 < ow; ox0 += chunk) {
      const int64_t nx = min(chunk, ow - ox0);
      for (int o = 0; o < OB; ++o) {
        const Acc b0 = bias != nullptr ? static_cast<Acc>(bias[oc0 + o]) : Acc{};
        for (int64_t x = 0; x < nx; ++x) acc[o][x] = b0;
      }
      for (int64_t ic = 0; ic < icg; ++ic) {
        const T* ip = in_g + ic * plane;
        const T* wp = w_oc + ic * ksz;
        for (int64_t ky = ky_lo; ky < ky_hi; ++ky) {
          const T* irow = ip + (y0 + ky * g.dh) * g.in_w;
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            // columns x of the chunk whose tap ix = base + x*sw lies in [0, in_w)
            const int64_t base = ox0 * g.sw - g.pl + kx * g.dw;
            const int64_t x_lo = base >= 0 ? 0 : ceil_div(-base, g.sw);
            const int64_t last = g.in_w - 1 - base;
            const int64_t x_hi = last < 0 ? 0 : min(nx, last / g.sw + 1);
            if (x_lo >= x_hi) continue;
            const T* src = irow + (base + x_lo * g.sw);
            const int64_t n = x_hi - x_lo, step = g.sw;
            Tap wv[OB];
            for (int o = 0; o < OB; ++o) wv[o] = static_cast<Tap>(wp[o * w_stride + ky * g.kw + kx] - static_cast<Tap>(b_zp));
            int64_t x = 0;
            if constexpr (is_same_v<T, float> && !CTNN_KERNELS_SCALAR) {
              // float, stride 1: whole vectors of the row, so that -O2 (GCC's very cheap
              // vectorizer, which does not version a loop for aliasing) runs it as fast as -O3
              if (step == 1) {
                constexpr int64_t lanes = simd::f32_lanes;
                simd::vf32 wb[OB];
                CTNN_UNROLL_VECTOR_LOOP(4)
                for (int o = 0; o < OB; ++o) wb[o] = simd::vf32{} + wv[o];
                for (; x + lanes <= n; x += lanes) {
                  const simd::vf32 v = simd::load<simd::vf32>(src + x);
                  CTNN_UNROLL_VECTOR_LOOP(4)
                  for (int o = 0; o < OB; ++o) {
                    float* a = &acc[o][x_lo + x];
                    simd::store(a, simd::load<simd::vf32>(a) + v * wb[o]);
                  }
                }
              }
            }
            for (; x < n; ++x) {
              const Tap v = static_cast<Tap>(src[x * step]) - static_cast<Tap>(a_zp);
              CTNN_UNROLL_VECTOR_LOOP(4)
              for (int o = 0; o < OB; ++o) acc[o][x_lo + x] += static_cast<Acc>(v * wv[o]);
            }
          }
        }
      }
      for (int o = 0; o < OB; ++o) {
        T* dst = out + ((oc0 + o) * oh + oy) * ow + ox0;
        for (int64_t x = 0; x < nx; ++x) dst[x] = finish(acc[o][x], oc0 + o);
      }
    }
  }
}

/// Direct convolution: blocks of 4 output channels of one group, single channels at the edges.
template <class T, class Acc, class Bias, class Finish>
inline void direct_conv(const conv_geometry& g, const T* in, const T* w, const Bias* bias, T* out, int32_t a_zp,
                        int32_t b_zp, Finish finish) {
  const int64_t ocg = g.out_c_per_group();
  for (int64_t oc = 0; oc < g.out_c;) {
    if (oc + 4 <= g.out_c && oc / ocg == (oc + 3) / ocg) {
      direct_conv_rows<4, T, Acc>(g, in, w, bias, out, a_zp, b_zp, finish, oc);
      oc += 4;
    } else {
      direct_conv_rows<1, T, Acc>(g, in, w, bias, out, a_zp, b_zp, finish, oc);
      oc += 1;
    }
  }
}

}  // namespace detail


/// Largest K (in_c/groups kh kw) of conv2d_f32's implicit-im2col path: its row offsets live on
/// the stack.
inline constexpr int64_t conv_slab_max_k = 8192;

namespace detail {

/// The implicit im2col of a float convolution (conv2d_f32). In padded input coordinates
/// (Y = iy + pt, X = ix + pl), output (oy, ox) of tap (ky, kx) reads Y = sh oy + ky dh,
/// X = sw ox + kx dw. Split the padded input into sh x sw phases, phase (py, px) holding
/// the rows Y = sh y + py and columns X = sw x + px: the tap reads phase
/// ((ky dh) % sh, (kx dw) % sw) at (oy + (ky dh) / sh, ox + (kx dw) / sw), a stride-1 window.
/// For a panel of R output rows each phase needs hq = R + ((kh-1) dh) / sh rows of
/// wq = ow + ((kw-1) dw) / sw columns; copied once (zero where the input is padding) into a
/// slab, im2col's row (ic, ky, kx) is the slab read from one offset on over the output pixels
/// at width wq (p = oy wq + ox):
///
///   slab: [ic][py][px][hq][wq]       B row (ic, ky, kx) = slab + phase base + (ky dh / sh) wq
///   +--+--------------+-+             + (kx dw / sw), N = R wq (the last wq - ow pixels of each
///   |0 | phase row y  |0|             output row are wasted work)
///   +--+--------------+-+
///
/// so the GEMM (gemm_f32_offsets_impl) reads B in place from a slab of a few times the input
/// panel (stride 1: one phase; a 3x3 im2col panel is 9 times it, a 7x7/2 one 12), which stays
/// in cache, and no im2col copy is made. The product (M x N rounded up to NR) is written to
/// scratch, then compacted to the output width with the bias added and the fused activation's
/// clamp applied (no pass of its own over the output). Used when the extra
/// columns stay under a quarter (4 ow >= 3 wq) and the scratch holds a panel of all output rows
/// or of 4 NR-column tiles at least; not for strided 1x1 convolutions (their im2col is a plain subsample, and a slab would hold unused phases).
struct conv_slab {
  int64_t wq = 0, rows = 0;  ///< phase width, output rows per panel (0: not applicable)
};

constexpr int64_t conv_slab_hq(const conv_geometry& g, int64_t rows) { return rows + ((g.kh - 1) * g.dh) / g.sh; }
constexpr int64_t conv_slab_wq(const conv_geometry& g) { return g.out_w() + ((g.kw - 1) * g.dw) / g.sw; }

/// The slab offset of each row of K in order, (channel c < channels, ky, kx): the base of c's
/// phase plane (planes of `plane` elements, sh x sw of them per channel) plus the tap's row and
/// column within that phase.
inline void conv_slab_offsets(const conv_geometry& g, int64_t channels, int64_t plane, int64_t wq, int32_t* boff) {
  const int64_t phases = g.sh * g.sw;
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t ky = 0; ky < g.kh; ++ky)
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t ty = ky * g.dh, tx = kx * g.dw, phase = (ty % g.sh) * g.sw + tx % g.sw;
        *boff++ = static_cast<int32_t>((c * phases + phase) * plane + (ty / g.sh) * wq + tx / g.sw);
      }
}

/// The columns x < wq of a slab's phase px whose input column sw x + px - pl lies in [0, in_w):
/// [lo, hi). Computed once per phase (two 64-bit divisions), not per row.
struct slab_span {
  int64_t lo, hi;
};
constexpr slab_span conv_slab_phase_span(const conv_geometry& g, int64_t px, int64_t wq) {
  const int64_t lo = min(wq, ceil_div(max(int64_t{0}, g.pl - px), g.sw));
  return {lo, max(lo, min(wq, ceil_div(max(int64_t{0}, g.in_w + g.pl - px), g.sw)))};
}

/// One phase row of a slab (column phase px, its span sp): dst[x] = row[sw x + px - pl] for the
/// x in sp, pad elsewhere; row null (an input row outside the image): all pad.
template <class T>
inline void conv_slab_phase_row(const conv_geometry& g, int64_t px, int64_t wq, slab_span sp, const T* row, T pad,
                                T* dst) {
  const int64_t x_lo = row == nullptr ? wq : sp.lo, x_hi = row == nullptr ? wq : sp.hi;
  for (int64_t x = 0; x < x_lo; ++x) dst[x] = pad;
  if (x_hi > x_lo) {
    const T* src = row + px - g.pl;  // + sw x
    // (the int8 slab stages only strides of 3 and more: strides 1 and 2 load its rows directly)
    if (g.sw == 1)
      copy_run(dst + x_lo, src + x_lo, static_cast<size_t>(x_hi - x_lo) * sizeof(T));
    else
      for (int64_t x = x_lo; x < x_hi; ++x) dst[x] = src[x * g.sw];
  }
  for (int64_t x = x_hi; x < wq; ++x) dst[x] = pad;
}

/// Floats of the slab of a panel of `rows` output rows (with the slack the last windows read).
template <int NR>
constexpr int64_t conv_slab_only_elems(const conv_geometry& g, int64_t rows) {
  const int64_t wq = conv_slab_wq(g), hq = rows + ((g.kh - 1) * g.dh) / g.sh;
  const auto np = static_cast<int64_t>(round_up(static_cast<uint64_t>(rows * wq), NR));
  return g.in_c_per_group() * g.sh * g.sw * hq * wq + (np - rows * wq) + ((g.kw - 1) * g.dw) / g.sw;
}

/// Floats of conv2d_f32_slab's scratch for panels of `rows` output rows: slab, then product.
template <int NR>
constexpr uint64_t conv_slab_elems(const conv_geometry& g, int64_t rows) {
  const auto np = round_up(static_cast<uint64_t>(rows * conv_slab_wq(g)), NR);
  return round_up(static_cast<uint64_t>(conv_slab_only_elems<NR>(g, rows)), 16) +
         static_cast<uint64_t>(g.out_c_per_group()) * np;
}

/// True when g runs on the slab path given scratch for one panel row or more.
constexpr bool conv_slab_applies(const conv_geometry& g) {
  if (CTNN_KERNELS_SCALAR || !conv_uses_panels(g) || g.gemm_k() > conv_slab_max_k) return false;
  if (g.kh == 1 && g.kw == 1 && (g.sh != 1 || g.sw != 1)) return false;  // strided 1x1: a subsample
  return 4 * g.out_w() >= 3 * conv_slab_wq(g);
}

template <int NR>
constexpr conv_slab conv_slab_of(const conv_geometry& g, uint64_t scratch_elems) {
  if (!conv_slab_applies(g)) return {};
  const int64_t wq = conv_slab_wq(g), oh = g.out_h();
  int64_t rows = 0;
  while (rows < oh && conv_slab_elems<NR>(g, rows + 1) <= scratch_elems) ++rows;
  // panels of fewer than 4 NR-column tiles (the M x N product crowding a small scratch) lose
  // to im2col's larger ones (DS-CNN's 3x3/2 stem 1->32 on 28x28: 2 rows of 15, 2x slower)
  if (rows < oh && rows * wq < 4 * NR) return {};
  return rows > 0 ? conv_slab{wq, rows} : conv_slab{};
}

template <class Tiling>
inline status conv2d_f32_slab(const conv_geometry& g, conv_slab sl, const float* in, const float* w, const float* bias,
                              float* out, float* scratch, float* ws, float lo, float hi, const uint8_t* packed,
                              size_t packed_group_bytes) {
  constexpr int NR = Tiling::nr;
  const int64_t oh = g.out_h(), ow = g.out_w(), wq = sl.wq, icg = g.in_c_per_group();
  const int64_t phases = g.sh * g.sw;
  const int M = static_cast<int>(g.out_c_per_group()), K = static_cast<int>(g.gemm_k());
  int32_t boff[conv_slab_max_k];
  for (int64_t r0 = 0; r0 < oh; r0 += sl.rows) {
    const int64_t rows = min(sl.rows, oh - r0), hq = conv_slab_hq(g, rows);
    const auto np = static_cast<int64_t>(round_up(static_cast<uint64_t>(rows * wq), NR));
    const int64_t slab_elems = conv_slab_only_elems<NR>(g, rows), plane = hq * wq;
    float* prod = scratch + round_up(static_cast<uint64_t>(slab_elems), 16);
    conv_slab_offsets(g, icg, plane, wq, boff);
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const float* in_g = in + grp * icg * g.in_h * g.in_w;
      for (int64_t ic = 0; ic < icg; ++ic)
        for (int64_t py = 0; py < g.sh; ++py)
          for (int64_t px = 0; px < g.sw; ++px) {
            const slab_span sp = conv_slab_phase_span(g, px, wq);
            for (int64_t y = 0; y < hq; ++y) {
              const int64_t iy = g.sh * (r0 + y) + py - g.pt;
              const float* row = iy < 0 || iy >= g.in_h ? nullptr : in_g + (ic * g.in_h + iy) * g.in_w;
              conv_slab_phase_row(g, px, wq, sp, row, 0.0f, scratch + ((ic * phases + py * g.sw + px) * hq + y) * wq);
            }
          }
      for (int64_t x = icg * phases * plane; x < slab_elems; ++x) scratch[x] = 0.0f;
      const auto* wp = packed != nullptr
                           ? reinterpret_cast<const float*>(packed + static_cast<size_t>(grp) * packed_group_bytes)
                           : nullptr;
      const status s = gemm_f32_offsets_impl<Tiling>(M, static_cast<int>(np), K, w + grp * M * K, K, scratch, boff,
                                                     prod, static_cast<int>(np), ws, wp);
      if (s != status::ok) return s;
      for (int64_t m = 0; m < M; ++m) {
        const float b = bias != nullptr ? bias[grp * M + m] : 0.0f;
        float* orow = out + ((grp * M + m) * oh + r0) * ow;
        const float* prow = prod + m * np;
        for (int64_t y = 0; y < rows; ++y)
          for (int64_t x = 0; x < ow; ++x) {
            const float v = prow[y * wq + x] + b;
            orow[y * ow + x] = v < lo ? lo : (v > hi ? hi : v);
          }
      }
    }
  }
  return status::ok;
}

}  // namespace detail

namespace detail {

/// conv2d_f32 with the output pixels as the GEMM's rows (small outputs of many channels): with
/// the input copied once into a zero-padded channels-last buffer (HWC), pixel p's im2col row in
/// tap-major order (ky, kx, c) is kh kw runs of in_c floats, copied into X [P x K]; the weights
/// packed once in the same order as Wt [K x out_c] (pack_conv2d_f32_weights); the GEMM
/// C^T = X . Wt [P x out_c] takes the bias per column and the fused clamp on each tile, and C^T
/// is transposed into the output. Where the implicit im2col's columns are mostly padding (a 7x7
/// output: 64 GEMM columns for 49 pixels, a 14x14 one 224 for 196), the pixels as rows cost a
/// row tier's padding only (49 pixels: 52 rows).
///
///   hwc  [(in_h + pt + pb) x (in_w + pl + pr) x in_c]
///   X    [P x K]        row p = (oy, ox): hwc[oy sh + ky dh][ox sw + kx dw][0 .. in_c) for each (ky, kx)
///   C^T  [P x out_c]    -> out [out_c x P]
constexpr int64_t conv_rows_hwc_elems(const conv_geometry& g) {
  return (g.in_h + g.pt + g.pb) * (g.in_w + g.pl + g.pr) * g.in_c;
}
/// Floats of the path's workspace: hwc, X and C^T, each at a multiple of 16 floats.
constexpr int64_t conv_rows_elems(const conv_geometry& g) {
  const int64_t p = g.out_h() * g.out_w();
  return round_up_to_tile<16>(conv_rows_hwc_elems(g)) + round_up_to_tile<16>(p * g.gemm_k()) + p * g.out_c;
}

/// Largest output (pixels) of the pixel-row path: 16x16.
inline constexpr int64_t conv_rows_max_pixels = 256;

/// True when conv2d_f32 runs g with the pixels as rows (given its packed weights): one group,
/// a window larger than 1x1 (a strided 1x1's im2col is a subsample: 128x28x28->256 /2 0.15 ms
/// through its panel, 0.17 here; a pointwise one's input is the GEMM operand), not Winograd, at most
/// conv_rows_max_pixels outputs, 64 output channels or more, the workspace within Winograd's
/// static one (which it shares: the two never run at once); not on RISC-V.
constexpr bool conv_rows_applies(const conv_geometry& g) {
  if (CTNN_KERNELS_SCALAR || !g.valid() || g.groups != 1 || g.kh * g.kw == 1 || winograd_f32_applies(g)) return false;
  return g.out_h() * g.out_w() <= conv_rows_max_pixels && g.out_c >= 64 &&
         conv_rows_elems(g) <= wino_workspace_elems;
}

/// How the pixel-row path holds Wt: in the GEMM's B panels (gemm_f32_impl's b_pre, per KC
/// block) where the GEMM runs K in KC blocks; else row-major [K x out_c], read in place over all
/// of K at once (out_c K <= f32_whole_k_max_elems: 64x8x8 0.042 ms a call, 0.067 in panels).
constexpr bool conv_rows_panels(const conv_geometry& g) { return g.out_c * g.gemm_k() > f32_whole_k_max_elems; }

/// The pixel-row path (conv_rows_applies(g)) with Wt packed by pack_conv2d_f32_weights.
template <class Tiling>
inline status conv2d_f32_rows(const conv_geometry& g, const float* in, const float* wt, const float* bias, float* out,
                              float* ws, float lo, float hi) {
  const int64_t hp = g.in_h + g.pt + g.pb, wp = g.in_w + g.pl + g.pr, C = g.in_c;
  const int64_t oh = g.out_h(), ow = g.out_w(), P = oh * ow, K = g.gemm_k(), M = g.out_c;
  float* hwc = static_workspace_wino::buf;
  float* x = hwc + round_up_to_tile<16>(conv_rows_hwc_elems(g));
  float* ct = x + round_up_to_tile<16>(P * K);
  // hwc: zero rows above and below, zero columns left and right, the input transposed between
  for (int64_t y = 0; y < hp; ++y) {
    float* row = hwc + y * wp * C;
    const int64_t iy = y - g.pt;
    if (iy < 0 || iy >= g.in_h) {
      for (int64_t i = 0; i < wp * C; ++i) row[i] = 0.0f;
      continue;
    }
    for (int64_t i = 0; i < g.pl * C; ++i) row[i] = 0.0f;
    for (int64_t i = (g.pl + g.in_w) * C; i < wp * C; ++i) row[i] = 0.0f;
    for (int64_t ix = 0; ix < g.in_w; ++ix) {
      float* dst = row + (ix + g.pl) * C;
      const float* src = in + iy * g.in_w + ix;
      for (int64_t c = 0; c < C; ++c) dst[c] = src[c * g.in_h * g.in_w];
    }
  }
  for (int64_t oy = 0; oy < oh; ++oy)
    for (int64_t ox = 0; ox < ow; ++ox) {
      float* xr = x + (oy * ow + ox) * K;
      for (int64_t ky = 0; ky < g.kh; ++ky)
        for (int64_t kx = 0; kx < g.kw; ++kx, xr += C)
          copy_run(xr, hwc + ((oy * g.sh + ky * g.dh) * wp + ox * g.sw + kx * g.dw) * C,
                   static_cast<size_t>(C) * sizeof(float));
    }
  const float act[2] = {lo, hi};
  const status s = gemm_f32_impl<Tiling, false>(static_cast<int>(P), static_cast<int>(M), static_cast<int>(K), x,
                                                static_cast<int>(K), wt, static_cast<int>(M), bias, ct,
                                                static_cast<int>(M), ws, clamps(lo, hi) ? act : nullptr,
                                                conv_rows_panels(g) ? wt : nullptr);
  if (s != status::ok) return s;
  for (int64_t p = 0; p < P; ++p)
    for (int64_t m = 0; m < M; ++m) out[m * P + p] = ct[p * M + m];
  return status::ok;
}

}  // namespace detail

/// Bytes of one group's float weights packed once, rounded up to 64 (the next group's boundary).
template <class Tiling = default_f32_tiling>
constexpr size_t conv2d_f32_packed_group_bytes(const conv_geometry& g) {
  const auto mp = round_up(static_cast<uint64_t>(g.out_c_per_group()), Tiling::mr);
  return static_cast<size_t>(round_up(mp * static_cast<uint64_t>(g.gemm_k()) * sizeof(float), 64));
}

/// @brief Bytes of a float convolution's weights packed once (pack_conv2d_f32_weights): per
/// group, its M x K weights in the MR-row panels the implicit im2col's GEMM reads (per K block,
/// detail::pack_a_f32_offsets; rows zero-padded), each group at a 64-byte boundary. 0 where conv2d_f32 would not read
/// them (detail::conv_slab_applies false: depthwise, pointwise, strided 1x1, K beyond
/// conv_slab_max_k, more than a quarter of wasted columns, RISC-V), and where the GEMM runs K
/// in KC blocks (M K > f32_whole_k_max_elems: ResNet-18's 256- and 512-channel 3x3 layers):
/// there the packed panels measured 3-5 % slower than the rows read in place (Zen 5, 512x7x7:
/// 1.33 vs 1.27 ms), so those keep packing their short edge panel (4 or 8 rows) per K block.
template <class Tiling = default_f32_tiling>
constexpr size_t conv2d_f32_slab_packed_bytes(const conv_geometry& g) {
  if (!g.valid() || !detail::conv_slab_applies(g)) return 0;
  if (detail::f32_offsets_kc_step<Tiling>(g.out_c_per_group(), g.gemm_k()) != g.gemm_k()) return 0;
  return static_cast<size_t>(g.groups) * conv2d_f32_packed_group_bytes<Tiling>(g);
}

namespace detail {

/// The layout of a float convolution's weights packed once, the one decision that
/// conv2d_f32_packed_bytes, pack_conv2d_f32_weights and conv2d_f32 share: Winograd's transformed
/// weights, the pixel-row GEMM's Wt, the implicit im2col's panels, or none.
enum class f32_packing { none, winograd, rows, slab };

template <class Tiling>
constexpr f32_packing f32_packing_of(const conv_geometry& g) {
  if (winograd_f32_applies(g)) return f32_packing::winograd;
  if (conv_rows_applies(g)) return f32_packing::rows;
  return conv2d_f32_slab_packed_bytes<Tiling>(g) != 0 ? f32_packing::slab : f32_packing::none;
}

}  // namespace detail

/// @brief Bytes of a float convolution's weights packed once (pack_conv2d_f32_weights), by
/// detail::f32_packing_of: Winograd's transformed weights (winograd_f32_packed_bytes), the
/// pixel-row GEMM's Wt (K x out_c; in the GEMM's B panels out_c rounded up to NR), the implicit
/// im2col's panels (conv2d_f32_slab_packed_bytes), 0 where none applies.
template <class Tiling = default_f32_tiling>
constexpr size_t conv2d_f32_packed_bytes(const conv_geometry& g) {
  switch (detail::f32_packing_of<Tiling>(g)) {
    case detail::f32_packing::winograd:
      return winograd_f32_packed_bytes(g);
    case detail::f32_packing::rows: {
      const uint64_t cols = detail::conv_rows_panels(g) ? round_up(static_cast<uint64_t>(g.out_c), Tiling::nr)
                                                        : static_cast<uint64_t>(g.out_c);
      return static_cast<size_t>(round_up(static_cast<uint64_t>(g.gemm_k()) * cols * sizeof(float), 64));
    }
    case detail::f32_packing::slab:
      return conv2d_f32_slab_packed_bytes<Tiling>(g);
    case detail::f32_packing::none:
      break;
  }
  return 0;
}

/// @brief Packs a float convolution's weights (OIHW) once into `dst` (conv2d_f32_packed_bytes(g)
/// bytes, 64-byte aligned for speed, 4 at least): what conv2d_f32 reads through `packed_w`.
template <class Tiling = default_f32_tiling>
inline status pack_conv2d_f32_weights(const conv_geometry& g, const float* w, void* dst, size_t dst_bytes) {
  const detail::f32_packing kind = detail::f32_packing_of<Tiling>(g);
  if (kind == detail::f32_packing::winograd) return pack_winograd_f32(g, w, dst, dst_bytes);
  if (kind == detail::f32_packing::rows) {
    // Wt [K x out_c], K in tap-major order (ky, kx, c): row-major, or as the GEMM's B packed
    // once (detail::conv_rows_panels: gemm_f32_impl's b_pre layout, per KC block NR-column
    // panels, zero past out_c)
    if (w == nullptr || dst == nullptr) return status::null_pointer;
    const size_t need = conv2d_f32_packed_bytes<Tiling>(g);
    if (dst_bytes < need || !detail::aligned4(dst)) return status::scratch_too_small;
    constexpr int64_t NR = Tiling::nr, KC = Tiling::kc;
    auto* wt = static_cast<float*>(dst);
    for (size_t i = 0; i < need / sizeof(float); ++i) wt[i] = 0.0f;
    const int64_t taps = g.kh * g.kw, M = g.out_c, K = g.gemm_k(), np = static_cast<int64_t>(round_up(static_cast<uint64_t>(M), NR));
    const bool panels = detail::conv_rows_panels(g);
    for (int64_t t = 0; t < taps; ++t)
      for (int64_t c = 0; c < g.in_c; ++c) {
        const int64_t k = t * g.in_c + c;
        const float* wk = w + c * taps + t;  // w[m][c][t] at wk[m in_c taps]
        if (!panels) {
          for (int64_t m = 0; m < M; ++m) wt[k * M + m] = wk[m * g.in_c * taps];
          continue;
        }
        const int64_t pc = k / KC * KC, kc = min(KC, K - pc);
        float* row = wt + pc * np + (k - pc) * NR;
        for (int64_t m = 0; m < M; ++m) row[(m / NR) * kc * NR + m % NR] = wk[m * g.in_c * taps];
      }
    return status::ok;
  }
  const size_t need = conv2d_f32_slab_packed_bytes<Tiling>(g);
  if (need == 0) return status::ok;
  if (w == nullptr || dst == nullptr) return status::null_pointer;
  if (dst_bytes < need || !detail::aligned4(dst)) return status::scratch_too_small;
  const int M = static_cast<int>(g.out_c_per_group()), K = static_cast<int>(g.gemm_k());
  const size_t stride = conv2d_f32_packed_group_bytes<Tiling>(g);
  for (int64_t grp = 0; grp < g.groups; ++grp)
    detail::pack_a_f32_offsets<Tiling>(
        M, K, w + grp * M * K, K, reinterpret_cast<float*>(static_cast<uint8_t*>(dst) + static_cast<size_t>(grp) * stride));
  return status::ok;
}

/// @brief conv2d float. Depthwise runs direct; a 1x1/s1/p0 single-group convolution is one GEMM
/// on the input; otherwise panel_rows > 0 gives `scratch` (at least conv_scratch_elems(g,
/// panel_rows) floats): where the implicit im2col applies (detail::conv_slab_of, x86/SSE/NEON
/// builds) it holds input slabs and their products, else `panel_rows` output rows at a time are
/// lowered into it and multiplied with the tiled GEMM; panel_rows == 0 runs the implicit im2col
/// in the workspace where it applies and a panel row fits there, else the direct kernel.
/// workspace: Tiling::workspace_elems floats, or nullptr for tiled.hpp's static workspace.
/// act_lo, act_hi: a fused activation's clamp of the output (runtime::apply_fused's), applied
/// as the GEMM paths (implicit im2col, pointwise, im2col panels) and depthwise store, in a pass
/// after the direct kernel; none when both are infinite.
/// packed_w: the weights packed once (pack_conv2d_f32_weights, packed_bytes bytes) or null.
template <class Tiling = default_f32_tiling>
inline status conv2d_f32(const conv_geometry& g, const float* in, const float* w, const float* bias, float* out,
                         int64_t panel_rows, void* scratch, size_t scratch_bytes, float* workspace = nullptr,
                         float act_lo = -__builtin_huge_valf(), float act_hi = __builtin_huge_valf(),
                         const void* packed_w = nullptr, size_t packed_bytes = 0) {
  if (!g.valid()) return status::bad_geometry;
  if (panel_rows < 0) return status::bad_size;
  if (g.depthwise()) return depthwise_conv2d_f32(g, in, w, bias, out, act_lo, act_hi);
  if (in == nullptr || w == nullptr || out == nullptr) return status::null_pointer;
  float* ws = workspace != nullptr ? workspace : detail::static_workspace_f32<Tiling>::buf;
  const int64_t oh = g.out_h(), ow = g.out_w();
  const int M = static_cast<int>(g.out_c_per_group()), K = static_cast<int>(g.gemm_k());
  const int NT = static_cast<int>(oh * ow);
  if (!conv_uses_panels(g))  // pointwise: the input is the GEMM's B; the clamp on each finished tile
    return tiled::gemm_f32_row_bias_clamp<Tiling>(M, NT, K, w, K, in, NT, bias, out, NT, ws, act_lo, act_hi);
  // the weights packed once (their layout: f32_packing_of), else read in place
  const detail::f32_packing packing = detail::f32_packing_of<Tiling>(g);
  const bool packed = packed_w != nullptr && packed_bytes >= conv2d_f32_packed_bytes<Tiling>(g);
#if !CTNN_KERNELS_SCALAR  // (host paths: their static workspace is not compiled into RISC-V images)
  // 3x3 stride 1 with its Winograd weights packed: no scratch from the plan needed
  if (packed && packing == detail::f32_packing::winograd)
    return conv2d_f32_winograd<Tiling>(g, in, packed_w, packed_bytes, bias, out, ws, act_lo, act_hi);
  // small outputs of many channels with their weights packed: the pixels as the GEMM's rows
  if (packed && packing == detail::f32_packing::rows)
    return detail::conv2d_f32_rows<Tiling>(g, in, static_cast<const float*>(packed_w), bias, out, ws, act_lo, act_hi);
#endif
  // the implicit im2col in `slab_elems` floats at `slab` (x86/SSE/NEON builds): false where it
  // does not apply or a panel row does not fit
  const auto run_slab = [&](float* slab, uint64_t slab_elems, status& s) {
#if !CTNN_KERNELS_SCALAR  // (RISC-V images do not compile the slab path: no vector registers to gain from)
    const detail::conv_slab sl = detail::conv_slab_of<Tiling::nr>(g, slab_elems);
    if (sl.rows == 0) return false;
    // the panels packed once where this geometry packs them (and packed_w holds them), else in place
    const bool pk = packed && packing == detail::f32_packing::slab;
    s = detail::conv2d_f32_slab<Tiling>(g, sl, in, w, bias, out, slab, ws, act_lo, act_hi,
                                        pk ? static_cast<const uint8_t*>(packed_w) : nullptr,
                                        conv2d_f32_packed_group_bytes<Tiling>(g));
    return true;
#else
    (void)slab, (void)slab_elems, (void)s, (void)packed, (void)packing;
    return false;
#endif
  };
  status st = status::ok;
  if (panel_rows == 0) {
    // No scratch from the plan (a residual block's convolutions: no hole in the arena beside
    // their input and output): the slab and its product go into the workspace past the part the
    // slab's GEMM uses (the edge panel of A, MR x K floats), as int8's im2col panel does. The
    // direct kernel ran about 4x slower (fmnist ResNet-8's 16x32x32 3x3: 0.173 ms a call, 0.045
    // here; Intel Xeon).
    const uint64_t used = round_up(static_cast<uint64_t>(Tiling::mr) * static_cast<uint64_t>(K), 16);
    if (Tiling::workspace_elems > used && run_slab(ws + used, Tiling::workspace_elems - used, st)) return st;
    detail::direct_conv<float, float>(g, in, w, bias, out, 0, 0, [](float acc, int64_t) { return acc; });
    detail::clamp_f32(out, g.out_elems(), act_lo, act_hi);
    return status::ok;
  }
  if (scratch == nullptr) return status::null_pointer;
  if (scratch_bytes < conv_scratch_elems(g, panel_rows) * sizeof(float)) return status::scratch_too_small;
  auto* col = static_cast<float*>(scratch);
  if (run_slab(col, scratch_bytes / sizeof(float), st)) return st;
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    const float* in_g = in + grp * g.in_c_per_group() * g.in_h * g.in_w;
    for (int64_t r0 = 0; r0 < oh; r0 += panel_rows) {
      const int64_t rows = min(panel_rows, oh - r0);
      const int N = static_cast<int>(rows * ow);
      detail::im2col_rows_f32(g, in_g, col, r0, rows);
      const status s = tiled::gemm_f32_row_bias_clamp<Tiling>(M, N, K, w + grp * M * K, K, col, N,
                                                              bias != nullptr ? bias + grp * M : nullptr,
                                                              out + grp * M * NT + r0 * ow, NT, ws, act_lo, act_hi);
      if (s != status::ok) return s;
    }
  }
  return status::ok;
}

namespace detail {

/// The int8 slab (conv2d_s8 with weights packed once, AVX-512 VNNI builds): the float slab's
/// phases (conv_slab) with 4 input channels in each cell, as u8 (x + 128; padding zp + 128):
///
///   slab: [c4][py][px][hq][wq] cells of 4 bytes, channels 4 c4 .. 4 c4 + 3 (past in_c: zp + 128)
///
/// K runs in 4-value groups g = (c4, ky, kx), the 4 channels of one tap, so B's group of output
/// pixel p = oy wq + ox is the cell at boff[g] + p: the micro-kernel loads 16 of them per vector
/// straight from the slab (tiled's gemm_s8_offsets_impl), no im2col, no packing. The weights are
/// packed once in that k order (s8, 0 past in_c). The zero-point correction is then per output
/// channel only, -(zp + 128) sum w, which needs the weights' zero point to be 0 (TFLite's
/// symmetric int8 weights); a convolution with another runs the im2col path, its weights packed
/// per call. Used where the float slab is (conv_slab_applies), when rounding in_c up to 4 adds
/// at most a third (in_c 3, 4, 6, 7, 8, ...: yes; 1, 2, 5: no) and 4 kg <= Tiling::kmax.
/// p for group grp of a grouped convolution with M output channels a group: per-channel
/// multipliers and shifts from the group's first channel on.
inline ref::gemm_s8_params group_params(const ref::gemm_s8_params& p, int64_t grp, int64_t M) {
  ref::gemm_s8_params pg = p;
  if (p.per_channel) {
    pg.multiplier = p.multiplier + grp * M;
    pg.shift = p.shift + grp * M;
  }
  return pg;
}

constexpr int64_t conv_s8_slab_c4(const conv_geometry& g) { return ceil_div(g.in_c_per_group(), 4); }
constexpr int64_t conv_s8_slab_kg(const conv_geometry& g) { return conv_s8_slab_c4(g) * g.kh * g.kw; }

/// A 1x1 convolution without padding (pointwise, or strided: ResNet's downsampling) takes the
/// same layout with one tap: its slab is the input itself (strided: its sampled pixels), 4
/// channels to a cell (conv2d_s8_cells).
constexpr bool conv_s8_cells_applies(const conv_geometry& g) {
  return g.kh == 1 && g.kw == 1 && g.pt == 0 && g.pb == 0 && g.pl == 0 && g.pr == 0;
}

template <class Tiling>
constexpr bool conv_s8_slab_applies(const conv_geometry& g) {
  if (!CTNN_KERNELS_VNNI || CTNN_KERNELS_SCALAR || Tiling::nr % 16 != 0) return false;
  if (!g.valid() || g.depthwise() || !(conv_slab_applies(g) || conv_s8_cells_applies(g))) return false;
  return 3 * conv_s8_slab_c4(g) <= g.in_c_per_group() && 4 * conv_s8_slab_kg(g) <= Tiling::kmax;
}

/// Bytes of the int8 slab of `rows` output rows: its cells, the slack the last windows read
/// (as conv_slab_only_elems) and 32 cells the last row's interleave writes past its end.
template <int NR>
constexpr uint64_t conv_s8_slab_bytes(const conv_geometry& g, int64_t rows) {
  const int64_t wq = conv_slab_wq(g);
  const auto np = static_cast<int64_t>(round_up(static_cast<uint64_t>(rows * wq), NR));
  const int64_t cells = conv_s8_slab_c4(g) * g.sh * g.sw * conv_slab_hq(g, rows) * wq + (np - rows * wq) +
                        ((g.kw - 1) * g.dw) / g.sw + 32;
  return round_up(static_cast<uint64_t>(4 * cells), 64);
}

/// Bytes of one staging row of the slab's construction (a phase row of one channel).
constexpr uint64_t conv_s8_slab_row_bytes(const conv_geometry& g) {
  return round_up(static_cast<uint64_t>(conv_slab_wq(g)), 32) + 32;
}

/// Workspace bytes of the slab path for `rows` output rows: slab, 4 staging rows, the M x Np
/// int8 product (compacted to the output width afterwards).
template <int NR>
constexpr uint64_t conv_s8_slab_workspace_bytes(const conv_geometry& g, int64_t rows) {
  const auto np = round_up(static_cast<uint64_t>(rows * conv_slab_wq(g)), NR);
  return conv_s8_slab_bytes<NR>(g, rows) + 4 * conv_s8_slab_row_bytes(g) +
         static_cast<uint64_t>(g.out_c_per_group()) * np;
}

/// Output rows per slab panel in a workspace of `bytes`: as many as fit, 0 (the im2col path)
/// when none fits or a partial panel is under 4 NR-column tiles (as conv_slab_of).
template <int NR>
constexpr int64_t conv_s8_slab_rows(const conv_geometry& g, uint64_t bytes) {
  const int64_t oh = g.out_h();
  int64_t rows = 0;
  while (rows < oh && conv_s8_slab_workspace_bytes<NR>(g, rows + 1) <= bytes) ++rows;
  if (rows < oh && rows * conv_slab_wq(g) < 4 * NR) return 0;
  return rows;
}

/// Bytes of one group's weights packed for the slab path: rowsum[Mp], then MR-row panels of
/// kg groups of 4 s8 values; rounded up to 64.
template <class Tiling>
constexpr size_t conv_s8_slab_group_bytes(const conv_geometry& g) {
  const auto mp = round_up(static_cast<uint64_t>(g.out_c_per_group()), Tiling::mr);
  return static_cast<size_t>(round_up(4 * mp + mp * 4 * static_cast<uint64_t>(conv_s8_slab_kg(g)), 64));
}

/// Packs one group's OIHW weights (M x K) for the slab path (layout above); rowsum[m] = sum of
/// row m's weights.
template <class Tiling>
inline void pack_conv_s8_slab_weights(const conv_geometry& g, const int8_t* w, uint8_t* dst) {
  constexpr int MR = Tiling::mr;
  const int64_t M = g.out_c_per_group(), K = g.gemm_k(), icg = g.in_c_per_group(), taps = g.kh * g.kw;
  const int64_t c4n = conv_s8_slab_c4(g), kg = conv_s8_slab_kg(g);
  const auto mp = static_cast<int64_t>(round_up(static_cast<uint64_t>(M), MR));
  auto* rowsum = reinterpret_cast<int32_t*>(dst);
  auto* panels = reinterpret_cast<int8_t*>(rowsum + mp);
  for (int64_t m = 0; m < mp; ++m) {
    int32_t sum = 0;
    int8_t* row = panels + (m / MR) * kg * MR * 4 + (m % MR) * 4;
    for (int64_t c4 = 0; c4 < c4n; ++c4)
      for (int64_t t = 0; t < taps; ++t)
        for (int64_t q = 0; q < 4; ++q) {
          const int64_t ic = 4 * c4 + q;
          const int8_t v = (m < M && ic < icg) ? w[m * K + ic * taps + t] : int8_t{0};
          row[(c4 * taps + t) * MR * 4 + q] = v;
          sum += v;
        }
    rowsum[m] = sum;
  }
}

/// The pixel-row GEMM of the slab and cells paths (gemm_s8_px, AVX-512 VNNI): output pixels as
/// the tile's rows and output channels in the lanes, for maps of at most this many pixels, where
/// channels as rows and pixels in the lanes compute whole 32-pixel tiles (7 x 7: 64 columns for
/// 49 pixels; a 3x3 slab's rows are wq = ow + 2 wide besides: 63 for 49). 14 x 14 maps (196
/// pixels, 224 computed) gained nothing: 256 x 14 x 14 3x3 0.93-1.02 of the time, 96 -> 576
/// pointwise 1.2-1.4 (AMD Zen 4).
inline constexpr int64_t s8_px_max_pixels = 64;
/// ... and at least this many 4-value groups of K: each tile's transposed store (a byte per
/// channel and pixel) costs about the tile's share of 24 groups (160 -> 960 pointwise on 7 x 7,
/// K = 160: 0.95-1.15 of the time; 960 -> 160: 0.83-0.94).
inline constexpr int64_t s8_px_min_groups = 64;
/// Output channels of one block of the pixel-row GEMM's packed weights (4 vectors), and of the
/// last block where a group's channels leave 32.
inline constexpr int s8_px_block = 64;

/// True when conv2d_s8's slab path runs its GEMM on pixel rows (gemm_s8_px): a map of at most
/// s8_px_max_pixels pixels, at least s8_px_min_groups groups of K, output channels a group a
/// multiple of 32, a window of more than one tap. 1x1 convolutions (the cells path) stay on the
/// channel rows: in whole networks, where their weights and outputs are cold, the pixel rows took
/// as long or longer (AMD Zen 5, tv_mobilenet_v2 int8: 576 -> 160 on 7 x 7 0.026-0.038 ms
/// against 0.021-0.024, 320 -> 1280 0.09-0.12 against 0.09-0.11; ResNet-18's 256 -> 512 stride 2
/// equal), where ResNet-18's 3x3 layers on 7 x 7 gained 14 % (3 x 512 x 7 x 7: 1.01-1.07 ms
/// against 1.18-1.26).
template <class Tiling>
constexpr bool conv_s8_px_applies(const conv_geometry& g) {
  return conv_s8_slab_applies<Tiling>(g) && !conv_s8_cells_applies(g) && g.out_c_per_group() % 32 == 0 &&
         g.out_h() * g.out_w() <= s8_px_max_pixels && conv_s8_slab_kg(g) >= s8_px_min_groups;
}

/// Bytes of one group's weights packed for the pixel-row GEMM: colsum[M] (int32), then blocks of
/// 64 output channels (the last of 32 where M leaves them), each kg groups of [channel][4] s8:
/// a group's 4 values of every channel of the block in one run (s8_px_block x 4 bytes: 4 vectors).
constexpr size_t conv_s8_px_group_bytes(const conv_geometry& g) {
  const auto m = static_cast<uint64_t>(g.out_c_per_group());
  return static_cast<size_t>(round_up(4 * m + m * 4 * static_cast<uint64_t>(conv_s8_slab_kg(g)), 64));
}

/// Packs one group's OIHW weights (M x K) for the pixel-row GEMM (layout above), k in the slab's
/// order (c4, ky, kx) with 4 channels a group, 0 past in_c.
inline void pack_conv_s8_px_weights(const conv_geometry& g, const int8_t* w, uint8_t* dst) {
  const int64_t M = g.out_c_per_group(), K = g.gemm_k(), icg = g.in_c_per_group(), taps = g.kh * g.kw;
  const int64_t c4n = conv_s8_slab_c4(g), kg = conv_s8_slab_kg(g);
  auto* colsum = reinterpret_cast<int32_t*>(dst);
  auto* blocks = reinterpret_cast<int8_t*>(colsum + M);
  for (int64_t m = 0; m < M; ++m) {
    const int64_t b0 = m / s8_px_block * s8_px_block, bw = min<int64_t>(s8_px_block, M - b0);
    int8_t* col = blocks + b0 * kg * 4 + (m - b0) * 4;
    int32_t sum = 0;
    for (int64_t c4 = 0; c4 < c4n; ++c4)
      for (int64_t t = 0; t < taps; ++t)
        for (int64_t q = 0; q < 4; ++q) {
          const int64_t ic = 4 * c4 + q;
          const int8_t v = ic < icg ? w[m * K + ic * taps + t] : int8_t{0};
          col[(c4 * taps + t) * bw * 4 + q] = v;
          sum += v;
        }
    colsum[m] = sum;
  }
}

}  // namespace detail

/// Bytes of one group's packed weights, rounded up to 64 (the next group's boundary): the slab
/// path's layout where it applies (the pixel-row GEMM's on small maps), else tiled::pack_a_s8_once's.
template <class Tiling = default_s8_tiling>
constexpr size_t conv2d_s8_packed_group_bytes(const conv_geometry& g) {
  if (detail::conv_s8_px_applies<Tiling>(g)) return detail::conv_s8_px_group_bytes(g);
  if (detail::conv_s8_slab_applies<Tiling>(g)) return detail::conv_s8_slab_group_bytes<Tiling>(g);
  return (tiled::packed_a_s8_bytes<Tiling>(g.out_c_per_group(), g.gemm_k()) + 63u) & ~size_t{63};
}

/// @brief Bytes of a convolution's int8 weights packed once (pack_conv2d_s8_weights) for the
/// tiled GEMM: per group, its M x K weights as tiled::pack_a_s8_once writes them, each group at a
/// 64-byte boundary. 0 when conv2d_s8 would not read them: depthwise (direct kernel), K beyond
/// the static workspace (Tiling::kmax, direct kernel), and RISC-V (CTNN_KERNELS_SCALAR: no GEMM).
template <class Tiling = default_s8_tiling>
constexpr size_t conv2d_s8_packed_bytes(const conv_geometry& g) {
  if (CTNN_KERNELS_SCALAR || !g.valid() || g.depthwise() || g.gemm_k() > Tiling::kmax) return 0;
  return static_cast<size_t>(g.groups) * conv2d_s8_packed_group_bytes<Tiling>(g);
}

/// @brief Packs a convolution's int8 weights (OIHW) once into `dst` (conv2d_s8_packed_bytes(g)
/// bytes, 64-byte aligned for speed, 4 at least), the layout conv2d_s8 reads through `packed_w`.
template <class Tiling = default_s8_tiling>
inline status pack_conv2d_s8_weights(const conv_geometry& g, const int8_t* w, void* dst, size_t dst_bytes) {
  const size_t need = conv2d_s8_packed_bytes<Tiling>(g);
  if (need == 0) return status::ok;
  if (w == nullptr || dst == nullptr) return status::null_pointer;
  if (dst_bytes < need) return status::scratch_too_small;
  const int M = static_cast<int>(g.out_c_per_group()), K = static_cast<int>(g.gemm_k());
  const size_t stride = conv2d_s8_packed_group_bytes<Tiling>(g);
  if (detail::conv_s8_slab_applies<Tiling>(g)) {
    if (!detail::aligned4(dst)) return status::bad_size;
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      uint8_t* d = static_cast<uint8_t*>(dst) + static_cast<size_t>(grp) * stride;
      if (detail::conv_s8_px_applies<Tiling>(g)) detail::pack_conv_s8_px_weights(g, w + grp * M * K, d);
      else detail::pack_conv_s8_slab_weights<Tiling>(g, w + grp * M * K, d);
    }
    return status::ok;
  }
  for (int64_t grp = 0; grp < g.groups; ++grp)
    if (const status s = tiled::pack_a_s8_once<Tiling>(M, K, w + grp * M * K, K,
                                                      static_cast<uint8_t*>(dst) + static_cast<size_t>(grp) * stride,
                                                      stride);
        s != status::ok)
      return s;
  return status::ok;
}

namespace detail {

/// One im2col row of an int8 convolution (tap k = (ic, ky, kx) of one group) for output rows
/// [r0, r0 + rows): dst[(oy - r0) * ow + ox], padding taps = pad. The row im2col_rows writes at k.
inline void im2col_tap_s8(const conv_geometry& g, const int8_t* in_group, int64_t k, int8_t* dst, int8_t pad,
                          int64_t r0, int64_t rows) {
  const int64_t ow = g.out_w(), kx = k % g.kw, ky = k / g.kw % g.kh, ic = k / (g.kw * g.kh);
  const int8_t* plane = in_group + ic * g.in_h * g.in_w;
  const int64_t x0 = kx * g.dw - g.pl;  // input x of ox = 0
  const int64_t x_lo = x0 >= 0 ? 0 : min(ow, ceil_div(-x0, g.sw));
  const int64_t last = g.in_w - 1 - x0;  // ox * sw <= last
  const int64_t x_hi = last < 0 ? x_lo : max(x_lo, min(ow, last / g.sw + 1));
  for (int64_t oy = r0; oy < r0 + rows; ++oy, dst += ow) {
    const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
    if (iy < 0 || iy >= g.in_h) {
      for (int64_t ox = 0; ox < ow; ++ox) dst[ox] = pad;
      continue;
    }
    const int8_t* row = plane + iy * g.in_w;
    for (int64_t ox = 0; ox < x_lo; ++ox) dst[ox] = pad;
    if (x_hi > x_lo) {
      if (g.sw == 1)
        copy_run(dst + x_lo, row + x0 + x_lo, static_cast<size_t>(x_hi - x_lo));
      else if (g.sw == 2)
        gather_even_bytes(dst + x_lo, row + x0 + x_lo * 2, x_hi - x_lo);
      else
        for (int64_t ox = x_lo; ox < x_hi; ++ox) dst[ox] = row[x0 + ox * g.sw];
    }
    for (int64_t ox = x_hi; ox < ow; ++ox) dst[ox] = pad;
  }
}

#if CTNN_KERNELS_X86 && defined(__AVX2__)
/// im2col of output rows [r0, r0 + rows) (N = rows * ow <= NC columns) written straight in the
/// packed B layout of tiled::pack_b_s8_once (colsum[Np], then NR = 32-column panels of 4-k
/// groups) instead of a K x N panel the GEMM packs again: four taps at a time go to a 4 x Np
/// block that stays in L1 (columns past N and taps past K are 0), then each 32 columns of it
/// to their panel. Bit-exact with im2col_rows + pack_b_s8 (the same bytes, the same sums).
template <int NC>
inline void im2col_packed_s8(const conv_geometry& g, const int8_t* in_group, int8_t pad, int64_t r0, int64_t rows,
                             int32_t* colsum, int8_t* panels) {
  constexpr int NR = 32, slack = 16, slot_bytes = 4096;
  const int K = static_cast<int>(g.gemm_k()), N = static_cast<int>(rows * g.out_w());
  const int np = static_cast<int>(round_up_to_tile<NR>(N)), kq = static_cast<int>(round_up_to_tile<4>(K));
  const int64_t ow = g.out_w();
  // Stride-1 taps read a padded copy of the input rows the panel needs (pad in the border), one
  // per channel in two slots: each output row of a tap is then 16-byte moves with no bounds
  // logic (the per-row border split cost a 7x7 map's tap about its GEMM share). The moves run up
  // to 15 bytes past a row: the next row overwrites them, the columns past N are zeroed again.
  const int64_t prow = (rows - 1) * g.sh + (g.kh - 1) * g.dh + 1, pw = ow + (g.kw - 1) * g.dw;
  const bool padded = g.sw == 1 && prow * pw + slack <= slot_bytes;
  alignas(64) int8_t quad[4][NC + slack];
  alignas(64) int8_t slot[2][slot_bytes];
  int64_t slot_ic[2] = {-1, -1}, ic = 0, ky = 0, kx = 0;  // tap k = (ic, ky, kx) when padded
  for (int q = 0; q < 4; ++q)
    for (int j = N; j < np; ++j) quad[q][j] = 0;
  for (int j = 0; j < np; ++j) colsum[j] = 0;
  for (int k4 = 0; k4 < kq; k4 += 4) {
    for (int q = 0; q < 4; ++q) {
      const int k = k4 + q;
      if (k >= K) {
        for (int j = 0; j < N; ++j) quad[q][j] = 0;
      } else if (!padded) {
        im2col_tap_s8(g, in_group, k, quad[q], pad, r0, rows);
      } else {
        int8_t* pl = slot[ic & 1];
        if (slot_ic[ic & 1] != ic) {  // rows y0 .. y0 + prow of channel ic, columns -pl .. pw - pl
          slot_ic[ic & 1] = ic;
          const int8_t* plane = in_group + ic * g.in_h * g.in_w;
          const int64_t y0 = r0 * g.sh - g.pt;
          for (int64_t y = 0; y < prow; ++y) {
            int8_t* d = pl + y * pw;
            const int64_t iy = y0 + y;
            const int64_t xa = (iy < 0 || iy >= g.in_h) ? pw : min(pw, g.pl);
            const int64_t xb = (iy < 0 || iy >= g.in_h) ? pw : max(xa, min(pw, g.pl + g.in_w));
            for (int64_t x = 0; x < xa; ++x) d[x] = pad;
            if (xb > xa) copy_run(d + xa, plane + iy * g.in_w + (xa - g.pl), static_cast<size_t>(xb - xa));
            for (int64_t x = xb; x < pw; ++x) d[x] = pad;
          }
        }
        int8_t* dst = quad[q];
        for (int64_t oy = 0; oy < rows; ++oy, dst += ow) {
          const int8_t* src = pl + (oy * g.sh + ky * g.dh) * pw + kx * g.dw;
          for (int64_t x = 0; x < ow; x += 16) __builtin_memcpy(dst + x, src + x, 16);
        }
        for (int j = N; j < min(np, N + slack); ++j) quad[q][j] = 0;
        if (++kx == g.kw) {  // the next tap (ic, ky, kx), without a division per tap
          kx = 0;
          if (++ky == g.kh) {
            ky = 0;
            ++ic;
          }
        }
      }
    }
    for (int p = 0; p < np; p += NR)
      pack_b_s8_panel32(4, &quad[0][p], NC + slack,
                        panels + static_cast<ptrdiff_t>(p) * kq + static_cast<ptrdiff_t>(k4) * NR, colsum + p);
  }
}
#endif

#if CTNN_KERNELS_VNNI
/// Input row iy of channels 4 c4 .. 4 c4 + 3 of a group's input, null where the row or the
/// channel (past in_c: padding) is outside the input.
inline void quad_rows(const conv_geometry& g, const int8_t* in_g, int64_t c4, int64_t iy, const int8_t* (&rows)[4]) {
  for (int64_t q = 0; q < 4; ++q) {
    const int64_t ic = 4 * c4 + q;
    rows[q] = ic >= g.in_c_per_group() || iy < 0 || iy >= g.in_h ? nullptr : in_g + (ic * g.in_h + iy) * g.in_w;
  }
}

/// Raw int32 sums of R pixels (the tile's rows) x NV x 16 output channels (its lanes), stored to
/// out[i][16 j ..] (64-byte aligned): init's (null: 0) plus the sum over kg groups g of the 4 u8
/// values at px + 4 (boff[g] + col[i]) (pixel i's cell, broadcast) times the 4 s8 values of each
/// channel in w's group g (NV vectors of 16 channels a group), wrapping. The accumulators are
/// locals (through a reference to the caller's array GCC kept them on the stack).
template <int R, int NV>
inline void micro_s8_px(int kg, const int8_t* w, const uint8_t* px, const int32_t* boff, const int32_t* col,
                        const int32_t* init, int32_t* out, const int8_t* pf, int pf_lines) {
  __m512i acc[R][NV];
#pragma GCC unroll 8
  for (int i = 0; i < R; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j)
      acc[i][j] = init == nullptr ? _mm512_setzero_si512() : _mm512_load_si512(init + (i * NV + j) * 16);
  const uint8_t* cell[R];
#pragma GCC unroll 8
  for (int i = 0; i < R; ++i) cell[i] = px + static_cast<ptrdiff_t>(col[i]) * 4;
  for (int g = 0; g < kg; ++g, w += NV * 64) {
    const ptrdiff_t o = static_cast<ptrdiff_t>(boff[g]) * 4;
    if (g < pf_lines) _mm_prefetch(reinterpret_cast<const char*>(pf + g * 64), _MM_HINT_T0);
    __m512i wv[NV];
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) wv[j] = _mm512_loadu_si512(w + j * 64);
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i) {
      int32_t a4;
      __builtin_memcpy(&a4, cell[i] + o, 4);
      const __m512i a = _mm512_set1_epi32(a4);
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_dpbusd_epi32(acc[i][j], a, wv[j]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < R; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) _mm512_store_si512(out + (i * NV + j) * 16, acc[i][j]);
}

/// make_s8_rq_row's fields of 16 channels in lanes: the 64-bit products of the even lanes (0, 2,
/// ...) and of the odd ones apart, as rq16_fused forms them.
struct s8_rq_lanes {
  __m512i mult[2], add[2], thr[2], sh[2];
};

/// 16 lanes of raw sums requantized each through its own channel's fields (rq16_fused per lane).
inline __m512i rq16_lanes(__m512i raw, const s8_rq_lanes& r) {
  const __m512i corr = _mm512_set1_epi64(int64_t{1} << 31);
  const __m512i pe = _mm512_mul_epi32(raw, r.mult[0]);
  const __m512i po = _mm512_mul_epi32(_mm512_shuffle_epi32(raw, _MM_PERM_DDBB), r.mult[1]);
  __m512i te = _mm512_add_epi64(pe, r.add[0]), to = _mm512_add_epi64(po, r.add[1]);
  te = _mm512_mask_sub_epi64(te, _mm512_cmplt_epi64_mask(pe, r.thr[0]), te, corr);
  to = _mm512_mask_sub_epi64(to, _mm512_cmplt_epi64_mask(po, r.thr[1]), to, corr);
  te = _mm512_srav_epi64(te, r.sh[0]);
  to = _mm512_srav_epi64(to, r.sh[1]);
  return _mm512_mask_shuffle_epi32(te, 0xAAAA, to, _MM_PERM_CCAA);
}

/// What gemm_s8_px's tiles of one channel block share.
struct px_block {
  const int8_t* w;            ///< the block's packed weights (all kg groups)
  const uint8_t* px;          ///< the slab
  const int32_t* boff;        ///< its group offsets
  const s8_rq_lanes* rq;      ///< per vector of 16 channels: the fused requantization in lanes
  const requant16* gen;       ///< ... or TFLite's steps in lanes (mbqm16)
  const __m512i* rt;          ///< ... with bias - b_zp_u colsum added first (wrapping)
  unsigned fast;              ///< bit j: every channel of vector j has its fused fields
  const ref::gemm_s8_params* p;
  int8_t* C;                  ///< the block's first channel's output row
  ptrdiff_t ldc;
};

/// Groups [g0, g0 + gn) of one pixel-row tile: R pixels (cells at slab columns col[0..R),
/// outputs at C + t[i]) by NV x 16 channels. The sums carry over in `part` between group chunks;
/// the last chunk requantizes them per channel in lanes (a vector's fused fields where it has
/// them, else TFLite's steps, mbqm16) and stores them, transposed, to the channels' output rows.
template <int R, int NV>
inline void px_tile(const px_block& b, int g0, int gn, bool last, const int32_t* col, const int32_t* t,
                    int32_t* part, const int8_t* pf, int pf_lines) {
  const int8_t* w = b.w + static_cast<ptrdiff_t>(g0) * NV * 64;
  if (!last) {
    micro_s8_px<R, NV>(gn, w, b.px, b.boff + g0, col, g0 == 0 ? nullptr : part, part, pf, pf_lines);
    return;
  }
  alignas(64) int32_t sums[R][NV * 16];
  micro_s8_px<R, NV>(gn, w, b.px, b.boff + g0, col, g0 == 0 ? nullptr : part, &sums[0][0], pf, pf_lines);
  const ref::gemm_s8_params& p = *b.p;
  alignas(64) int8_t res[R][NV * 16];
  const __m512i lo = _mm512_set1_epi32(p.act_min), hi = _mm512_set1_epi32(p.act_max);
  // the general steps clamp before adding the zero point (mbqm16 may leave any int32)
  const __m512i glo = _mm512_set1_epi32(p.act_min - p.out_zp), ghi = _mm512_set1_epi32(p.act_max - p.out_zp);
  const __m512i ozp = _mm512_set1_epi32(p.out_zp);
#pragma GCC unroll 8
  for (int i = 0; i < R; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      const __m512i raw = _mm512_load_si512(&sums[i][j * 16]);
      const __m512i v =
          (b.fast >> j & 1u) != 0
              ? _mm512_min_epi32(_mm512_max_epi32(rq16_lanes(raw, b.rq[j]), lo), hi)
              : _mm512_add_epi32(
                    _mm512_min_epi32(_mm512_max_epi32(mbqm16(_mm512_add_epi32(raw, b.rt[j]), b.gen[j]), glo), ghi), ozp);
      _mm_store_si128(reinterpret_cast<__m128i*>(&res[i][j * 16]), _mm512_cvtsepi32_epi8(v));
    }
  for (int c = 0; c < NV * 16; ++c) {
    int8_t* dst = b.C + static_cast<ptrdiff_t>(c) * b.ldc;
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i) dst[t[i]] = res[i][c];
  }
}

/// Groups of one chunk of gemm_s8_px: a 64-channel block's weights for them (16 KiB) stay in L1
/// while every pixel tile passes over them.
inline constexpr int s8_px_chunk_groups = 64;

/// The pixel-row GEMM (conv_s8_px_applies): C[m][t] = requantize(sum_g A_g[m] . B_g(t) - b_zp_u
/// colsum[m] + bias[m]) for the T output pixels t = 0 .. T of `ow` a row, pixel t's cells at slab
/// column (t / ow) wq + t % ow (the padding columns of a slab's rows are skipped, not computed),
/// its output at C + t (channel stride ldc). a_packed: pack_conv_s8_px_weights' layout. Tiles of
/// at most 6 pixels by 64 channels (6 x 4 accumulators; a last block of 32 channels: 6 x 2), the
/// pixels split evenly (49 = 4 x 6 + 5 x 5: no row computed for nothing), the groups in chunks
/// of s8_px_chunk_groups with the tiles' sums kept in between.
inline void gemm_s8_px(int M, int T, int ow, int wq, int kg, const uint8_t* a_packed, const uint8_t* b,
                       const int32_t* boff, const int32_t* bias, int32_t b_zp_u, const ref::gemm_s8_params& p,
                       int8_t* C, int ldc) {
  constexpr int max_tiles = (s8_px_max_pixels + 5) / 6;
  alignas(64) int32_t part[max_tiles][6 * s8_px_block];
  const auto* colsum = reinterpret_cast<const int32_t*>(a_packed);
  const auto* blocks = reinterpret_cast<const int8_t*>(colsum + M);
  // tiles of at most 6 pixels, as even as can be: the first T % tiles one pixel larger
  const int tiles = (T + 5) / 6, base = T / tiles, extra = T % tiles;
  {  // the first chunk's weights on their way while the lanes' requantization is made
    const int first = min(s8_px_chunk_groups, kg) * (min(s8_px_block, M) / 16);
    for (int l = 0; l < first; ++l) _mm_prefetch(reinterpret_cast<const char*>(blocks + l * 64), _MM_HINT_T0);
  }
  for (int m0 = 0; m0 < M; m0 += s8_px_block) {
    const int bw = min(s8_px_block, M - m0), nv = bw / 16;
    // the block's requantization in lanes: per vector of 16 channels the fused fields where every
    // channel has them, else TFLite's steps (a layer whose scale exceeds 1: one such channel
    // once sent the whole block through ref::requantize, element by element)
    s8_rq_lanes rq[s8_px_block / 16];
    requant16 gen[s8_px_block / 16];
    __m512i rt[s8_px_block / 16];
    unsigned fast = 0;
    for (int v = 0; v < nv; ++v) {
      alignas(64) int64_t f[4][2][8];
      alignas(64) int32_t t32[16], mult[16], shift[16];
      bool all = true;
      for (int l = 0; l < 16; ++l) {
        const int m = m0 + 16 * v + l, q = p.per_channel ? m : 0;
        s8_rq_row r{};
        all = make_s8_rq_row(colsum[m], bias != nullptr ? bias[m] : 0, b_zp_u, int64_t{kg} * 4, p.multiplier[q],
                             p.shift[q], p.out_zp, r) &&
              all;
        f[0][l & 1][l / 2] = r.mult;
        f[1][l & 1][l / 2] = r.add;
        f[2][l & 1][l / 2] = r.thr;
        f[3][l & 1][l / 2] = r.sh;
        // raw - b_zp_u colsum + bias = sum (x - a_zp) w + bias, wrapping as the reference's int32
        t32[l] = static_cast<int32_t>(static_cast<uint32_t>(bias != nullptr ? bias[m] : 0) -
                                      static_cast<uint32_t>(b_zp_u) * static_cast<uint32_t>(colsum[m]));
        mult[l] = p.multiplier[q];
        shift[l] = p.shift[q];
      }
      fast |= all ? 1u << v : 0u;
      for (int e = 0; e < 2; ++e) {
        rq[v].mult[e] = _mm512_load_si512(f[0][e]);
        rq[v].add[e] = _mm512_load_si512(f[1][e]);
        rq[v].thr[e] = _mm512_load_si512(f[2][e]);
        rq[v].sh[e] = _mm512_load_si512(f[3][e]);
      }
      gen[v] = make_requant16(_mm512_load_si512(mult), _mm512_load_si512(shift));
      rt[v] = _mm512_load_si512(t32);
    }
    const px_block blk{blocks + static_cast<ptrdiff_t>(m0) * kg * 4, b, boff, rq, gen, rt, fast, &p,
                       C + static_cast<ptrdiff_t>(m0) * ldc, ldc};
    for (int g0 = 0; g0 < kg; g0 += s8_px_chunk_groups) {
      const int gn = min(s8_px_chunk_groups, kg - g0);
      const bool last = g0 + gn == kg;
      // the next chunk's weights (the packed layout is in this loop's order: they follow this
      // chunk's, or start the next block) prefetched a share per tile, a line per group: cold
      // weights (a network's, evicted by the layers between two runs) otherwise reached the
      // first tile at a line per miss
      const bool final_chunk = last && m0 + bw >= M;  // nothing follows it
      const int8_t* next = final_chunk ? blk.w : blk.w + static_cast<ptrdiff_t>(g0 + gn) * nv * 64;
      const int lines = final_chunk ? 0 : gn * nv, share = min(gn, (lines + tiles - 1) / tiles);
      int32_t col[6], t[6];
      for (int k = 0, t0 = 0; k < tiles; ++k) {
        const int r = base + (k < extra ? 1 : 0);
        for (int i = 0; i < r; ++i) {
          t[i] = t0 + i;
          col[i] = (t[i] / ow) * wq + t[i] % ow;
        }
        const int pf0 = min(lines, k * share), pfn = min(lines - pf0, share);
        const auto run = [&]<int R>() {
          if (nv == 4) px_tile<R, 4>(blk, g0, gn, last, col, t, part[k], next + pf0 * 64, pfn);
          else px_tile<R, 2>(blk, g0, gn, last, col, t, part[k], next + pf0 * 64, pfn);
        };
        switch (r) {
          case 6: run.template operator()<6>(); break;
          case 5: run.template operator()<5>(); break;
          case 4: run.template operator()<4>(); break;
          case 3: run.template operator()<3>(); break;
          case 2: run.template operator()<2>(); break;
          default: run.template operator()<1>(); break;
        }
        t0 += r;
      }
    }
  }
}

/// conv2d_s8's slab path (conv_s8_slab_applies): per panel of `panel_rows` output rows and per
/// group, the slab is built in the workspace (each phase row's 4 channels loaded from the input
/// rows with the padding masked, strides 1 and 2, or staged as bytes with their padding, other
/// strides; then interleaved into cells, + 128 on the way), multiplied by
/// gemm_s8_offsets_impl into an M x Np int8 product past it, which is compacted to the output
/// width (the wq - ow extra columns of each row dropped).
template <class Tiling>
inline status conv2d_s8_slab(const conv_geometry& g, int64_t panel_rows, const int8_t* in, const int32_t* bias,
                             int8_t* out, const ref::gemm_s8_params& p, const uint8_t* packed, size_t packed_stride,
                             void* workspace) {
  constexpr int NR = Tiling::nr;
  const int64_t oh = g.out_h(), ow = g.out_w(), wq = conv_slab_wq(g), icg = g.in_c_per_group();
  const int64_t c4n = conv_s8_slab_c4(g), phases = g.sh * g.sw;
  const int M = static_cast<int>(g.out_c_per_group()), kg = static_cast<int>(conv_s8_slab_kg(g));
  const auto pad = static_cast<int8_t>(p.a_zp);
  const auto row_bytes = static_cast<int64_t>(conv_s8_slab_row_bytes(g));
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
  int32_t boff[Tiling::kmax / 4];
  for (int64_t r0 = 0; r0 < oh; r0 += panel_rows) {
    const int64_t rows = min(panel_rows, oh - r0), hq = conv_slab_hq(g, rows), plane = hq * wq;
    const auto np = static_cast<int64_t>(round_up(static_cast<uint64_t>(rows * wq), NR));
    const auto slab_bytes = static_cast<int64_t>(conv_s8_slab_bytes<NR>(g, rows));
    auto* slab = static_cast<uint8_t*>(workspace);
    int8_t* stage = reinterpret_cast<int8_t*>(slab + slab_bytes);
    int8_t* prod = stage + 4 * row_bytes;
    conv_slab_offsets(g, c4n, plane, wq, boff);
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const int8_t* in_g = in + grp * icg * g.in_h * g.in_w;
      for (int64_t c4 = 0; c4 < c4n; ++c4)
        for (int64_t py = 0; py < g.sh; ++py)
          for (int64_t px = 0; px < g.sw; ++px) {
            const slab_span sp = conv_slab_phase_span(g, px, wq);
            for (int64_t y = 0; y < hq; ++y) {
              const int64_t iy = g.sh * (r0 + y) + py - g.pt;
              if (g.sw == 1) {
                // one phase: each cell's 4 channel bytes loaded straight from the input rows, the
                // padding columns masked to the pad value (no staging row: 64x56x56 3x3 spent a
                // tenth of its time building the slab)
                const __m256i padv = _mm256_set1_epi8(static_cast<char>(pad));
                const int8_t* src[4];
                quad_rows(g, in_g, c4, iy, src);
                uint8_t* cells = slab + (((c4 * phases + py) * hq + y) * wq) * 4;
                for (int64_t x = 0; x < wq; x += 32) {
                  const int64_t c0 = x - g.pl;  // the input column of lane 0 (may lie before the row)
                  const auto m = static_cast<__mmask32>(window_lanes<32>(c0, g.in_w, 32));
                  __m256i r[4], o[4];
                  for (int q = 0; q < 4; ++q)
                    r[q] = _mm256_xor_si256(
                        src[q] == nullptr ? padv : _mm256_mask_loadu_epi8(padv, m, im2col_at(src[q], c0)), flip);
                  interleave4x32(r[0], r[1], r[2], r[3], cells + 4 * x, o);
                }
                continue;
              }
              if (g.sw == 2) {
                // two phases: 32 cells' bytes of a channel are the even bytes of the 63 input
                // columns from 2 x + px - pl on (one masked load, padding columns masked to the
                // pad value, each 16-bit lane's low byte kept); the staging rows' masked stores
                // and reloads stalled on store forwarding (64x56x56 -> 128 3x3/2: 0.24 -> 0.21 ms)
                const __m512i padv = _mm512_set1_epi8(static_cast<char>(pad));
                const int8_t* src[4];
                quad_rows(g, in_g, c4, iy, src);
                uint8_t* cells = slab + (((c4 * phases + py * g.sw + px) * hq + y) * wq) * 4;
                for (int64_t x = 0; x < wq; x += 32) {
                  const int64_t c0 = 2 * x + px - g.pl;  // the input column of lane 0
                  const auto m = static_cast<__mmask64>(window_lanes<63>(c0, g.in_w, 63));
                  __m256i r[4], o[4];
                  for (int q = 0; q < 4; ++q)
                    r[q] = _mm256_xor_si256(
                        src[q] == nullptr
                            ? _mm512_castsi512_si256(padv)
                            : _mm512_cvtepi16_epi8(_mm512_mask_loadu_epi8(padv, m, im2col_at(src[q], c0))),
                        flip);
                  interleave4x32(r[0], r[1], r[2], r[3], cells + 4 * x, o);
                }
                continue;
              }
              const int8_t* src[4];
              quad_rows(g, in_g, c4, iy, src);
              for (int64_t q = 0; q < 4; ++q) conv_slab_phase_row(g, px, wq, sp, src[q], pad, stage + q * row_bytes);
              // 32 cells at a time; the last step's extra cells land in the next row, written later
              uint8_t* cells = slab + (((c4 * phases + py * g.sw + px) * hq + y) * wq) * 4;
              for (int64_t x = 0; x < wq; x += 32) {
                __m256i r[4], o[4];
                for (int q = 0; q < 4; ++q)
                  r[q] = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(stage + q * row_bytes + x)),
                                          flip);
                interleave4x32(r[0], r[1], r[2], r[3], cells + 4 * x, o);
              }
            }
          }
      // the slack the last windows read (columns past the panel's pixels: results dropped)
      const int64_t used = c4n * phases * plane * 4;
      __builtin_memset(slab + used, 0, static_cast<size_t>(slab_bytes - used));
      const ref::gemm_s8_params pg = group_params(p, grp, M);
      if (conv_s8_px_applies<Tiling>(g)) {  // pixel rows: the output written in place, no product
        gemm_s8_px(M, static_cast<int>(rows * ow), static_cast<int>(ow), static_cast<int>(wq), kg,
                   packed + static_cast<size_t>(grp) * packed_stride, slab, boff,
                   bias != nullptr ? bias + grp * M : nullptr, p.a_zp + 128, pg, out + (grp * M * oh + r0) * ow,
                   static_cast<int>(oh * ow));
        continue;
      }
      gemm_s8_offsets_impl<Tiling>(M, static_cast<int>(np), kg, packed + static_cast<size_t>(grp) * packed_stride, slab,
                                   boff, bias != nullptr ? bias + grp * M : nullptr, p.a_zp + 128, pg, prod,
                                   static_cast<int>(np));
      for (int64_t m = 0; m < M; ++m)
        for (int64_t y = 0; y < rows; ++y)
          copy_run(out + ((grp * M + m) * oh + r0 + y) * ow, prod + m * np + y * wq, static_cast<size_t>(ow));
    }
  }
  return status::ok;
}
#endif

/// Pixels per chunk of conv2d_s8_cells: cells of about 256 KiB (they stay in L2 while every row
/// panel of the weights passes over them), a multiple of 32 and of NR, at most the workspace's
/// and the output plane's (rounded up); 0 when not even NR pixels fit. A strided convolution's
/// chunk has 4 staging rows besides (its pixels gathered before the interleave).
template <int NR>
constexpr int64_t conv_s8_cells_chunk(const conv_geometry& g, uint64_t workspace_bytes) {
  constexpr int64_t step = NR % 32 == 0 ? NR : 32 * NR;
  const bool strided = g.sh != 1 || g.sw != 1;
  const int64_t per = 4 * conv_s8_slab_c4(g) + (strided ? 4 : 0), plane = g.out_h() * g.out_w();
  const int64_t skew = 64 * conv_s8_slab_c4(g) + (strided ? 4 * 32 : 0);
  if (workspace_bytes < static_cast<uint64_t>(skew)) return 0;
  workspace_bytes -= static_cast<uint64_t>(skew);
  int64_t n = max(step, (256 * 1024 / per) / step * step);
  n = min(n, static_cast<int64_t>(workspace_bytes / static_cast<uint64_t>(per)) / step * step);
  return min(n, ceil_div(plane, step) * step);
}

#if CTNN_KERNELS_VNNI
/// conv2d_s8's 1x1 path (conv_s8_cells_applies, weights' zero point 0): per group and chunk of
/// output pixels, the input's channels are interleaved 4 to a cell as u8 (x + 128) in the
/// workspace (channels past in_c: any value, their weights are 0), and gemm_s8_offsets_impl
/// writes the chunk's columns of every output channel in place: no packing of B, no column sums,
/// no copy. A strided one first gathers each channel's sampled pixels of the chunk into a
/// staging row (stride 2 by gather_even_bytes).
template <class Tiling>
inline status conv2d_s8_cells(const conv_geometry& g, const int8_t* in, const int32_t* bias, int8_t* out,
                              const ref::gemm_s8_params& p, const uint8_t* packed, size_t packed_stride,
                              void* workspace, int64_t chunk) {
  const int64_t in_plane = g.in_h * g.in_w, icg = g.in_c_per_group(), c4n = conv_s8_slab_c4(g);
  const int64_t ow = g.out_w(), plane = g.out_h() * ow;
  const bool strided = g.sh != 1 || g.sw != 1;
  const int M = static_cast<int>(g.out_c_per_group());
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80));
  auto* cells = static_cast<uint8_t*>(workspace);
  // strided: channel q's pixels of the chunk at stage + q (chunk + 32)
  int8_t* stage = reinterpret_cast<int8_t*>(cells + 4 * c4n * (chunk + 16));
  const auto gather = [&](const int8_t* ch, int64_t n0, int64_t n, int8_t* dst) {
    for (int64_t j = n0; j < n0 + n;) {  // one output row's run at a time
      const int64_t oy = j / ow, ox = j - oy * ow, len = min(ow - ox, n0 + n - j);
      const int8_t* src = ch + oy * g.sh * g.in_w + ox * g.sw;
      if (g.sw == 1)
        copy_run(dst + (j - n0), src, static_cast<size_t>(len));
      else if (g.sw == 2)
        gather_even_bytes(dst + (j - n0), src, len);
      else
        for (int64_t x = 0; x < len; ++x) dst[j - n0 + x] = src[x * g.sw];
      j += len;
    }
  };
  int32_t boff[Tiling::kmax / 4];
  // a channel quad's cells start a cache line past a multiple of the chunk: at a pitch of an even
  // number of lines, the groups a tile reads fell into a quarter of L1's sets (144 x 56 x 56 -> 24:
  // 1792 pixels, 112 lines)
  const int64_t pitch = chunk + 16;
  for (int64_t c4 = 0; c4 < c4n; ++c4) boff[c4] = static_cast<int32_t>(c4 * pitch);
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    const int8_t* in_g = in + grp * icg * in_plane;
    const ref::gemm_s8_params pg = group_params(p, grp, M);
    for (int64_t n0 = 0; n0 < plane; n0 += chunk) {
      const int64_t n = min(chunk, plane - n0);
      for (int64_t c4 = 0; c4 < c4n; ++c4) {
        uint8_t* dst = cells + c4 * pitch * 4;
        const int8_t* rows[4];  // channel q's pixels n0 .. n0 + n in order (null: past in_c)
        for (int q = 0; q < 4; ++q) {
          const int64_t ic = 4 * c4 + q;
          rows[q] = ic >= icg ? nullptr : in_g + ic * in_plane + n0;
          if (strided && ic < icg) {
            int8_t* st = stage + q * (chunk + 32);
            gather(in_g + ic * in_plane, n0, n, st);
            rows[q] = st;
          }
        }
        for (int64_t x = 0; x < n; x += 32) {
          const auto mask = static_cast<__mmask32>(n - x >= 32 ? ~0u : (1u << (n - x)) - 1u);
          __m256i r[4], o[4];
          for (int q = 0; q < 4; ++q)
            r[q] = rows[q] != nullptr ? _mm256_xor_si256(_mm256_maskz_loadu_epi8(mask, rows[q] + x), flip)
                                      : _mm256_setzero_si256();
          interleave4x32(r[0], r[1], r[2], r[3], dst + 4 * x, o);
        }
      }
      gemm_s8_offsets_impl<Tiling>(M, static_cast<int>(n), static_cast<int>(c4n),
                                   packed + static_cast<size_t>(grp) * packed_stride, cells, boff,
                                   bias != nullptr ? bias + grp * M : nullptr, p.a_zp + 128, pg,
                                   out + grp * M * plane + n0, static_cast<int>(plane));
    }
  }
  return status::ok;
}
#endif

}  // namespace detail

/// Output rows per int8 im2col panel: at most the caller's, and about one B block of the GEMM
/// (Tiling::nc columns), so that the panel is still in L2 when the GEMM packs it (ResNet-18's
/// 56x56 3x3: a 1.8 MB panel of all rows, 290 KB of 8); a count whose columns fill whole NR-panels
/// when there is one (56 wide: 8 rows, 448 = 14 x 32), so no panel but the last has an edge.
template <class Tiling>
constexpr int64_t s8_panel_rows(int64_t ow, int64_t panel_rows) {
  const int64_t cap = max(int64_t{1}, Tiling::nc / ow);
  if (panel_rows <= cap) return panel_rows;
  for (int64_t r = cap; r >= 1; --r)
    if (r * ow % Tiling::nr == 0) return r;
  return cap;
}

/// @brief conv2d int8 (p as in ref::conv2d_s8), bit-exact with it: the same paths as conv2d_f32
/// (depthwise direct, pointwise GEMM, im2col panels of panel_rows rows, direct when 0); padding
/// taps hold the input zero point. workspace: Tiling::workspace_bytes(K) bytes, 4-byte aligned,
/// or nullptr for tiled.hpp's static workspace (K <= Tiling::kmax). packed_w: the weights packed
/// once by pack_conv2d_s8_weights (w is still read by the direct kernel), or null to pack them in
/// every GEMM call. panel_rows 0 with a workspace that holds the GEMM's part and an output row of
/// the panel besides lowers the panel there (the direct kernel runs otherwise). With CTNN_KERNELS_SCALAR
/// (RISC-V) every non-depthwise convolution whose larger buffer (panel or workspace) holds two
/// patches runs scalar::conv2d_s8 on it instead, whatever panel_rows says. With packed weights on
/// AVX2 / AVX-512 hosts, a workspace for K and output rows of at most Tiling::nc, the im2col goes
/// straight into the workspace in the GEMM's packed layout (im2col_packed_s8): no panel is read,
/// whatever panel_rows says. On AVX-512 VNNI with packed weights whose zero point is 0, the
/// implicit im2col (conv2d_s8_slab) and, for 1x1 convolutions without padding (pointwise or
/// strided), the input as 4-channel cells (conv2d_s8_cells) run instead, both requantizing
/// through gemm_s8_offsets_impl.
template <class Tiling = default_s8_tiling>
inline status conv2d_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias, int8_t* out,
                        const ref::gemm_s8_params& p, int64_t panel_rows, void* scratch, size_t scratch_bytes,
                        void* workspace = nullptr, size_t workspace_bytes = 0, const void* packed_w = nullptr) {
  if (!g.valid()) return status::bad_geometry;
  if (panel_rows < 0) return status::bad_size;
  if (g.depthwise()) return depthwise_conv2d_s8(g, in, w, bias, out, p);
  if (in == nullptr || w == nullptr || out == nullptr) return status::null_pointer;
  if (const status s = ref::check_params(p, static_cast<int>(g.out_c)); s != status::ok) return s;
  if (workspace == nullptr) {
    workspace = detail::static_workspace_s8<Tiling>::buf;
    workspace_bytes = sizeof(detail::static_workspace_s8<Tiling>::buf);
  }
#if CTNN_KERNELS_SCALAR
  {
    // Blocks of pixels lowered into the larger of the plan's panel and the GEMM workspace, so
    // the plan's no-scratch choice runs the same kernel; a buffer too small for 2 patches (K
    // beyond half of both) leaves the direct kernel. The tiled GEMM is not used (nor linked).
    const size_t panel = panel_rows > 0 && scratch != nullptr ? scratch_bytes : 0;
    void* buf = panel >= workspace_bytes ? scratch : workspace;
    const size_t buf_bytes = panel >= workspace_bytes ? panel : workspace_bytes;
    if (scalar::conv_block_pixels(g, buf_bytes) > 0) return scalar::conv2d_s8(g, in, w, bias, out, p, buf, buf_bytes);
    detail::direct_conv<int8_t, uint32_t>(g, in, w, bias, out, p.a_zp, p.b_zp, [&p](uint32_t acc, int64_t oc) {
      return ref::requantize(static_cast<int32_t>(acc), static_cast<int>(oc), p);
    });
    return status::ok;
  }
#endif
  const int64_t oh = g.out_h(), ow = g.out_w();
  const int M = static_cast<int>(g.out_c_per_group()), K = static_cast<int>(g.gemm_k());
  const int NT = static_cast<int>(oh * ow);
  // pointwise: the input is the GEMM's B; A = weights (zero point b_zp). With panel_rows == 0 and
  // a workspace too small for K, the direct kernel runs instead (it needs no workspace).
  const bool ws_fits = workspace_bytes >= Tiling::workspace_bytes(K);
  // packed weights exist only where the GEMM runs (conv2d_s8_packed_bytes > 0)
  const auto* packed = conv2d_s8_packed_bytes<Tiling>(g) != 0 ? static_cast<const uint8_t*>(packed_w) : nullptr;
  const size_t packed_stride = conv2d_s8_packed_group_bytes<Tiling>(g);
#if CTNN_KERNELS_VNNI
  if (packed != nullptr && detail::conv_s8_slab_applies<Tiling>(g)) {
    // the weights are in the slab path's order: it runs when the weights' zero point is 0 and a
    // panel (pointwise: a chunk of NR pixels) fits the workspace; otherwise the im2col or
    // pointwise GEMM below packs w per call
    if (detail::conv_s8_cells_applies(g)) {
      const int64_t chunk = p.b_zp == 0 ? detail::conv_s8_cells_chunk<Tiling::nr>(g, workspace_bytes) : 0;
      if (chunk > 0) return detail::conv2d_s8_cells<Tiling>(g, in, bias, out, p, packed, packed_stride, workspace, chunk);
    } else {
      const int64_t rows = p.b_zp == 0 ? detail::conv_s8_slab_rows<Tiling::nr>(g, workspace_bytes) : 0;
      if (rows > 0) return detail::conv2d_s8_slab<Tiling>(g, rows, in, bias, out, p, packed, packed_stride, workspace);
    }
    packed = nullptr;
  }
#endif
  if (!conv_uses_panels(g) && (ws_fits || panel_rows > 0) && packed != nullptr)
    return tiled::gemm_s8_row_channels_prepacked<Tiling>(M, NT, K, packed, in, NT, bias, out, NT, p.b_zp, p.a_zp, p,
                                                         workspace, workspace_bytes);
  if (!conv_uses_panels(g) && (ws_fits || panel_rows > 0))
    return tiled::gemm_s8_row_channels<Tiling>(M, NT, K, w, K, in, NT, bias, out, NT, p.b_zp, p.a_zp, p, workspace,
                                               workspace_bytes);
#if CTNN_KERNELS_X86 && defined(__AVX2__)
  if constexpr (Tiling::nr == 32) {
    // Packed weights: the im2col panel is written straight in the GEMM's packed B layout, in the
    // workspace (the GEMM packs nothing then), up to Tiling::nc columns at a time; the plan's
    // panel is not needed. The K x N panel and its packing by the GEMM took a third of
    // ResNet-18's 56x56 3x3 convolution (64x3136x576: im2col 108 us + packing 58 us of 466).
    if (conv_uses_panels(g) && packed != nullptr && ws_fits && ow <= Tiling::nc) {
      const int64_t rows_per = s8_panel_rows<Tiling>(ow, oh);
      auto* colsum = static_cast<int32_t*>(workspace);
      for (int64_t grp = 0; grp < g.groups; ++grp) {
        const int8_t* in_g = in + grp * g.in_c_per_group() * g.in_h * g.in_w;
        const ref::gemm_s8_params pg = detail::group_params(p, grp, M);
        const int32_t* bias_g = bias != nullptr ? bias + grp * M : nullptr;
        const auto* a_g = packed + static_cast<size_t>(grp) * packed_stride;
        for (int64_t r0 = 0; r0 < oh; r0 += rows_per) {
          const int64_t rows = min(rows_per, oh - r0);
          const int N = static_cast<int>(rows * ow);
          const auto np = static_cast<ptrdiff_t>(detail::round_up_to_tile<Tiling::nr>(N));
          detail::im2col_packed_s8<Tiling::nc>(g, in_g, static_cast<int8_t>(p.a_zp), r0, rows, colsum,
                                               reinterpret_cast<int8_t*>(colsum + np));
          const status s = detail::gemm_s8_impl<Tiling, int8_t, true>(
              M, N, K, nullptr, K, nullptr, N, bias_g, out + grp * M * NT + r0 * ow, NT, p.b_zp, p.a_zp, &pg,
              workspace, workspace_bytes, tiled::s8_prepacked{a_g, reinterpret_cast<const uint8_t*>(colsum)});
          if (s != status::ok) return s;
        }
      }
      return status::ok;
    }
  }
#endif
  if (panel_rows == 0 && conv_uses_panels(g) && ws_fits) {
    // No panel from the plan (LeNet-5's conv1: no hole in the arena beside its input and output):
    // the panel goes into the workspace past the GEMM's part when an output row fits there (the
    // static workspace is sized for K = kmax), as the RISC-V path does; the direct kernel ran
    // 5x slower on LeNet-5's conv1.
    const size_t used = detail::align64(Tiling::workspace_bytes(K));
    const uint64_t row_bytes = conv_panel_row_elems(g);
    if (workspace_bytes > used && (workspace_bytes - used) / row_bytes >= 1) {
      scratch = static_cast<uint8_t*>(workspace) + used;
      scratch_bytes = workspace_bytes - used;
      workspace_bytes = used;
      panel_rows = min(oh, static_cast<int64_t>(scratch_bytes / row_bytes));
    }
  }
  if (panel_rows == 0 || !conv_uses_panels(g)) {
    detail::direct_conv<int8_t, uint32_t>(g, in, w, bias, out, p.a_zp, p.b_zp, [&p](uint32_t acc, int64_t oc) {
      return ref::requantize(static_cast<int32_t>(acc), static_cast<int>(oc), p);
    });
    return status::ok;
  }
  if (scratch == nullptr) return status::null_pointer;
  if (scratch_bytes < conv_scratch_elems(g, panel_rows)) return status::scratch_too_small;
  panel_rows = s8_panel_rows<Tiling>(ow, panel_rows);
  auto* col = static_cast<int8_t*>(scratch);
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    const int8_t* in_g = in + grp * g.in_c_per_group() * g.in_h * g.in_w;
    const ref::gemm_s8_params pg = detail::group_params(p, grp, M);
    for (int64_t r0 = 0; r0 < oh; r0 += panel_rows) {
      const int64_t rows = min(panel_rows, oh - r0);
      const int N = static_cast<int>(rows * ow);
      detail::im2col_rows<int8_t>(g, in_g, col, static_cast<int8_t>(p.a_zp), r0, rows);
      // A = weights (zero point b_zp), B = activations (zero point a_zp)
      const int32_t* bias_g = bias != nullptr ? bias + grp * M : nullptr;
      int8_t* out_g = out + grp * M * NT + r0 * ow;
      const status s =
          packed != nullptr
              ? tiled::gemm_s8_row_channels_prepacked<Tiling>(M, N, K, packed + static_cast<size_t>(grp) * packed_stride,
                                                              col, N, bias_g, out_g, NT, p.b_zp, p.a_zp, pg, workspace,
                                                              workspace_bytes)
              : tiled::gemm_s8_row_channels<Tiling>(M, N, K, w + grp * M * K, K, col, N, bias_g, out_g, NT, p.b_zp,
                                                    p.a_zp, pg, workspace, workspace_bytes);
      if (s != status::ok) return s;
    }
  }
  return status::ok;
}

/// @brief Scratch bytes of conv2d_s8_whole: the packing workspace, then one panel of every output
/// row (conv_scratch_elems(g, out_h)). For callers without an arena plan (the firmware twin).
template <class Tiling = default_s8_tiling>
constexpr size_t conv2d_s8_scratch_bytes(const conv_geometry& g) {
  if (!g.valid() || g.depthwise()) return 0;
  const size_t ws = (Tiling::workspace_bytes(g.gemm_k()) + 63u) & ~size_t{63};
  return ws + static_cast<size_t>(conv_scratch_elems(g, g.out_h()));
}

/// @brief conv2d_s8 with one caller buffer holding [ workspace | panel of all out_h rows ]
/// (conv2d_s8_scratch_bytes(g) bytes, 4-byte aligned): the plan-free convenience form.
template <class Tiling = default_s8_tiling>
inline status conv2d_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias, int8_t* out,
                        const ref::gemm_s8_params& p, void* scratch, size_t scratch_bytes) {
  if (!g.valid()) return status::bad_geometry;
  if (g.depthwise()) return depthwise_conv2d_s8(g, in, w, bias, out, p);
  if (scratch == nullptr) return status::null_pointer;
  if (scratch_bytes < conv2d_s8_scratch_bytes<Tiling>(g)) return status::scratch_too_small;
  const size_t ws = (Tiling::workspace_bytes(g.gemm_k()) + 63u) & ~size_t{63};
  return conv2d_s8<Tiling>(g, in, w, bias, out, p, g.out_h(), static_cast<uint8_t*>(scratch) + ws,
                           scratch_bytes - ws, scratch, ws);
}

/// @brief linear float: one matrix-vector product per batch row (gemv.hpp: W read in place, four
/// rows at a time), y = W x + b. Needs no workspace.
inline status linear_f32(int batch, int in_f, int out_f, const float* x, const float* w, const float* bias, float* y) {
  if (batch < 0 || in_f < 0 || out_f < 0) return status::bad_size;
  for (int b = 0; b < batch; ++b) {
    const status s = gemv_f32(out_f, in_f, w, x != nullptr ? x + b * in_f : nullptr, bias,
                              y != nullptr ? y + b * out_f : nullptr);
    if (s != status::ok) return s;
  }
  return status::ok;
}

/// @brief Workspace bytes of linear_s8: the input row widened to int16 (both the host's gemv_s8
/// and the RISC-V scalar kernel).
constexpr size_t linear_s8_workspace_bytes(int in_f) {
#if CTNN_KERNELS_SCALAR
  return scalar::linear_workspace_bytes(in_f);
#else
  return gemv_s8_workspace_bytes(in_f);
#endif
}

/// @brief linear int8, bit-exact with ref::linear_s8: one matrix-vector product per batch row
/// (gemv_s8; on RISC-V scalar::linear_s8). workspace: at least linear_s8_workspace_bytes(in_f)
/// bytes, 2-byte aligned (Tiling::workspace_bytes(in_f), what the GEMM-based form took, is
/// always enough).
template <class Tiling = default_s8_tiling>
inline status linear_s8(int batch, int in_f, int out_f, const int8_t* x, const int8_t* w, const int32_t* bias,
                        int8_t* y, const ref::gemm_s8_params& p, void* workspace, size_t workspace_bytes) {
  if (batch < 0 || in_f < 0 || out_f < 0) return status::bad_size;
#if CTNN_KERNELS_SCALAR
  return scalar::linear_s8(batch, in_f, out_f, x, w, bias, y, p, workspace, workspace_bytes);
#else
  for (int b = 0; b < batch; ++b) {
    const status s = gemv_s8(out_f, in_f, w, x != nullptr ? x + b * in_f : nullptr, bias,
                             y != nullptr ? y + b * out_f : nullptr, p, workspace, workspace_bytes);
    if (s != status::ok) return s;
  }
  return status::ok;
#endif
}

namespace detail {

/// The padding of a max-pool row: below every value (never wins; -inf for float, -128 for int8).
template <class T>
constexpr T pool_lowest() {
  if constexpr (is_same_v<T, float>) return -__builtin_inff();
  else return T{-128};
}

/// best[i] = x[i] > best[i] ? x[i] : best[i]: x86's max instruction is this expression (its
/// second operand unless the first is greater), so the loop compiles to one vmaxps / vpmaxsb per
/// vector on AVX-512 and AVX2 and to SSE's maxps / a compare-select on the portable build.
template <class T>
inline void max_into(T* __restrict best, const T* __restrict x, int64_t n) {
#if CTNN_KERNELS_X86 && defined(__AVX512BW__)
  // whole vectors and one masked tail: with n known only at run time (a network's rows, not a
  // test's constants) GCC's vector loop left up to 63 bytes to a scalar compare-and-move loop
  if constexpr (is_same_v<T, int8_t> || is_same_v<T, float>) {
    constexpr int64_t L = is_same_v<T, int8_t> ? 64 : 16;
    for (int64_t i = 0; i < n; i += L) {
      const int64_t m = min(L, n - i);
      if constexpr (is_same_v<T, int8_t>) {
        const auto k = static_cast<__mmask64>(m == 64 ? ~uint64_t{0} : (uint64_t{1} << m) - 1);
        const __m512i v = _mm512_max_epi8(_mm512_maskz_loadu_epi8(k, x + i), _mm512_maskz_loadu_epi8(k, best + i));
        _mm512_mask_storeu_epi8(best + i, k, v);
      } else {
        const auto k = static_cast<__mmask16>((1u << m) - 1);
        // vmaxps(a, b) is a > b ? a : b, the expression below
        const __m512 v = _mm512_max_ps(_mm512_maskz_loadu_ps(k, x + i), _mm512_maskz_loadu_ps(k, best + i));
        _mm512_mask_storeu_ps(best + i, k, v);
      }
    }
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) best[i] = x[i] > best[i] ? x[i] : best[i];
}

/// out[i] = max over k < kw of t[i * SW + k], for i < n (SW 1 and 2 fixed at compile time, so the
/// strided loads vectorize: AVX-512 / AVX2 permutes for stride 2; SW 0: the stride is sw).
template <int SW, class T>
inline void max_across(T* __restrict out, const T* __restrict t, int64_t n, int64_t kw, int64_t sw) {
  const int64_t s = SW > 0 ? SW : sw;
  for (int64_t i = 0; i < n; ++i) out[i] = t[i * s];
  for (int64_t k = 1; k < kw; ++k)
    for (int64_t i = 0; i < n; ++i) {
      const T v = t[i * s + k];
      out[i] = v > out[i] ? v : out[i];
    }
}

#if CTNN_KERNELS_X86 && defined(__AVX512BW__)
/// int8 max pool 3 wide at stride 2 (ResNet's; any height and vertical stride), in registers:
/// per output row and 32 outputs, the window rows' 64 + 2 input columns from 2 ox0 - pl are maxed
/// as two masked loads a row (columns outside the input masked to -128, which never wins: a
/// window holds at least one input column), then out[i] = max(even, odd, next even) in 16-bit
/// lanes (even bytes sign-extended by a shift pair, odd ones by one shift). The row buffer of
/// max_pool2d went through masked stores and reloads that do not forward (and scalar tails):
/// 64x112x112 at 2.2x the time of this kernel.
inline void max_pool_3s2_s8(const pool_geometry& g, const int8_t* in, int8_t* out) {
  const int64_t oh = g.out_h(), ow = g.out_w();
  const __m512i lowest = _mm512_set1_epi8(-128);
  const auto lanes = [&](int64_t c0) {  // lanes j < 64 with 0 <= c0 + j < in_w
    const int64_t lo = c0 >= 0 ? 0 : min<int64_t>(-c0, 64), hi = max<int64_t>(0, min<int64_t>(64, g.in_w - c0));
    if (hi <= lo) return static_cast<__mmask64>(0);
    const uint64_t upto = hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
    return static_cast<__mmask64>(upto & ~((uint64_t{1} << lo) - 1));
  };
  for (int64_t c = 0; c < g.c; ++c) {
    const int8_t* plane = in + c * g.in_h * g.in_w;
    int8_t* o = out + c * oh * ow;
    for (int64_t oy = 0; oy < oh; ++oy) {
      const int64_t y0 = oy * g.sh - g.pt;
      const int64_t ya = max<int64_t>(y0, 0), yb = min(y0 + g.kh, g.in_h);  // non-empty: g.valid()
      for (int64_t ox0 = 0; ox0 < ow; ox0 += 32) {
        const int64_t n = min<int64_t>(32, ow - ox0), c0 = 2 * ox0 - g.pl;
        const __mmask64 m0 = lanes(c0), m2 = lanes(c0 + 2);
        __m512i v0 = lowest, v2 = lowest;
        for (int64_t y = ya; y < yb; ++y) {
          const int8_t* row = plane + y * g.in_w;
          v0 = _mm512_max_epi8(v0, _mm512_mask_loadu_epi8(lowest, m0, im2col_at(row, c0)));
          v2 = _mm512_max_epi8(v2, _mm512_mask_loadu_epi8(lowest, m2, im2col_at(row, c0 + 2)));
        }
        const __m512i even = _mm512_srai_epi16(_mm512_slli_epi16(v0, 8), 8), odd = _mm512_srai_epi16(v0, 8);
        const __m512i next = _mm512_srai_epi16(_mm512_slli_epi16(v2, 8), 8);
        _mm256_mask_storeu_epi8(o + oy * ow + ox0, static_cast<__mmask32>((uint64_t{1} << n) - 1),
                                _mm512_cvtepi16_epi8(_mm512_max_epi16(_mm512_max_epi16(even, odd), next)));
      }
    }
  }
}
#endif

/// The window-by-window max pool (bounds-check-free interior): windows wider than the row
/// kernel's buffer take it.
template <class T>
inline void max_pool2d_windows(const pool_geometry& g, const T* in, T* out) {
  const int64_t oh = g.out_h(), ow = g.out_w();
  int64_t y_lo, y_hi, x_lo, x_hi;
  detail::interior(oh, g.in_h, g.kh, g.sh, g.pt, 1, y_lo, y_hi);
  detail::interior(ow, g.in_w, g.kw, g.sw, g.pl, 1, x_lo, x_hi);
  for (int64_t c = 0; c < g.c; ++c) {
    const T* plane = in + c * g.in_h * g.in_w;
    T* o = out + c * oh * ow;
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        const int64_t y0 = oy * g.sh - g.pt, x0 = ox * g.sw - g.pl;
        if (oy >= y_lo && oy < y_hi && ox >= x_lo && ox < x_hi) {
          const T* base = plane + y0 * g.in_w + x0;
          T best = base[0];
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) best = base[ky * g.in_w + kx] > best ? base[ky * g.in_w + kx] : best;
          o[oy * ow + ox] = best;
        } else {
          const int64_t ya = max<int64_t>(y0, 0), yb = min(y0 + g.kh, g.in_h);
          const int64_t xa = max<int64_t>(x0, 0), xb = min(x0 + g.kw, g.in_w);
          T best = plane[ya * g.in_w + xa];
          for (int64_t y = ya; y < yb; ++y)
            for (int64_t x = xa; x < xb; ++x) best = plane[y * g.in_w + x] > best ? plane[y * g.in_w + x] : best;
          o[oy * ow + ox] = best;
        }
      }
  }
}

}  // namespace detail

/// @brief max pool, T float or int8_t, separable and vectorized: per output row and chunk of up
/// to 256 outputs, the window rows inside the input are maxed column by column into
/// a row buffer whose columns outside the input hold detail::pool_lowest (so a window touching
/// the padding needs no test), then each output takes the max of its kw buffer columns:
///
///   rows oy*sh - pt + [0, kh) clipped     buffer t[j] = max over those rows of in[y][x0 + j]
///   in ---------------------------->     (t[j] = lowest where x0 + j is padding)
///                                         out[ox] = max over kx of t[(ox - ox0) * sw + kx]
///
/// int8 equals ref::max_pool2d exactly; float gives the same values (max is order-free on
/// numbers) but takes the window in another order than the reference, so with a NaN, or -0.0
/// and +0.0 in one window, the element it returns may differ.
template <class T>
inline status max_pool2d(const pool_geometry& g, const T* in, T* out) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  constexpr int64_t buffer = 1024;  // row buffer elements (on the stack: 4 KiB of float)
  const int64_t oh = g.out_h(), ow = g.out_w();
  const int64_t chunk = min<int64_t>(256, g.kw <= buffer ? (buffer - g.kw) / g.sw + 1 : 0);
  if (chunk < 1) {
    detail::max_pool2d_windows(g, in, out);
    return status::ok;
  }
#if CTNN_KERNELS_X86 && defined(__AVX512BW__)
  if constexpr (is_same_v<T, int8_t>)
    if (g.kw == 3 && g.sw == 2) {  // ResNet's: in registers
      detail::max_pool_3s2_s8(g, in, out);
      return status::ok;
    }
#endif
  T t[buffer];
  for (int64_t c = 0; c < g.c; ++c) {
    const T* plane = in + c * g.in_h * g.in_w;
    T* o = out + c * oh * ow;
    for (int64_t oy = 0; oy < oh; ++oy) {
      const int64_t y0 = oy * g.sh - g.pt;
      const int64_t ya = max<int64_t>(y0, 0), yb = min(y0 + g.kh, g.in_h);  // non-empty: g.valid()
      for (int64_t ox0 = 0; ox0 < ow; ox0 += chunk) {
        const int64_t n = min(chunk, ow - ox0);
        const int64_t x0 = ox0 * g.sw - g.pl, span = (n - 1) * g.sw + g.kw;
        const int64_t xa = max<int64_t>(x0, 0), xb = min(x0 + span, g.in_w);  // columns in the input
        for (int64_t j = 0; j < xa - x0; ++j) t[j] = detail::pool_lowest<T>();
        for (int64_t j = xb - x0; j < span; ++j) t[j] = detail::pool_lowest<T>();
        T* tv = t + (xa - x0);
        const T* first = plane + ya * g.in_w + xa;
        __builtin_memcpy(tv, first, static_cast<size_t>(xb - xa) * sizeof(T));
        for (int64_t y = ya + 1; y < yb; ++y) detail::max_into(tv, plane + y * g.in_w + xa, xb - xa);
        T* dst = o + oy * ow + ox0;
        if (g.sw == 1) detail::max_across<1>(dst, t, n, g.kw, 1);
        else if (g.sw == 2) detail::max_across<2>(dst, t, n, g.kw, 2);
        else detail::max_across<0>(dst, t, n, g.kw, g.sw);
      }
    }
  }
  return status::ok;
}

/// @brief global average pool (adaptive to 1 x 1), T float or int8_t: each channel's h*w values
/// summed in `lanes` interleaved partial sums (independent adds, which the compiler turns into
/// vector adds on AVX-512, AVX2 and SSE2), then the partial sums added. int8 sums in int32 and
/// rounds as ref::adaptive_avg_pool2d (exact: no int8 channel of up to 2^24 values overflows);
/// float adds in another order than the reference: within a few ulp of the sum's magnitude.
template <class T>
inline status global_avg_pool2d(int64_t c, int64_t h, int64_t w, const T* in, T* out) {
  if (c <= 0 || h <= 0 || w <= 0) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  constexpr int lanes = 16;
  using acc_t = conditional_t<is_same_v<T, float>, float, int32_t>;
  const int64_t n = h * w;
  if constexpr (!is_same_v<T, float>)
    if (n > (int64_t{1} << 24)) return ref::adaptive_avg_pool2d<T>(c, h, w, 1, 1, in, out);
#if CTNN_KERNELS_SCALAR
  if constexpr (is_same_v<T, int8_t>)
    if (c * n <= (int64_t{1} << 31)) {  // four values per word (scalar::sum_s8); 32-bit offsets
      scalar::global_avg_pool2d_s8(static_cast<uint32_t>(c), static_cast<uint32_t>(n), in, out);
      return status::ok;
    }
#endif
  for (int64_t ch = 0; ch < c; ++ch) {
    const T* x = in + ch * n;
    acc_t acc[lanes] = {};
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes)
      for (int l = 0; l < lanes; ++l) acc[l] += static_cast<acc_t>(x[i + l]);
    for (int l = 0; i < n; ++i, ++l) acc[l] += static_cast<acc_t>(x[i]);
    acc_t sum = 0;
    for (int l = 0; l < lanes; ++l) sum += acc[l];
    if constexpr (is_same_v<T, float>) out[ch] = sum / static_cast<float>(n);
    else out[ch] = static_cast<T>(quant::clamp(ref::rounded_average(sum, n), -128, 127));
  }
  return status::ok;
}

/// @brief average pool, int8 (same scale and zero point in and out), clipped windows computed
/// once per output row/column instead of per tap.
inline status avg_pool2d_s8(const pool_geometry& g, const int8_t* in, int8_t* out, int32_t zero_point) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || out == nullptr) return status::null_pointer;
  if (zero_point < -128 || zero_point > 127) return status::bad_quant_param;
  const int64_t oh = g.out_h(), ow = g.out_w();
  for (int64_t c = 0; c < g.c; ++c) {
    const int8_t* plane = in + c * g.in_h * g.in_w;
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        const ref::avg_window win = ref::avg_pool_window(g, oy, ox);
        int32_t sum = static_cast<int32_t>((win.divisor - (win.y1 - win.y0) * (win.x1 - win.x0)) * zero_point);
        for (int64_t y = win.y0; y < win.y1; ++y) {
          const int8_t* row = plane + y * g.in_w;
          for (int64_t x = win.x0; x < win.x1; ++x) sum += row[x];
        }
        out[(c * oh + oy) * ow + ox] =
            static_cast<int8_t>(quant::clamp(ref::rounded_average(sum, win.divisor), -128, 127));
      }
  }
  return status::ok;
}

/// @brief The 256-entry table of an int8 activation: table[x + 128] = ref::activation_s8_one(x).
struct activation_table {
  int8_t v[256];
};

/// @brief The table of any elementwise function f: table[x + 128] = ref::unary_s8_one(f, x).
template <class F>
constexpr activation_table make_unary_table(F f, const ref::act_s8_params& p) {
  activation_table t{};
  for (int x = -128; x < 128; ++x) t.v[x + 128] = ref::unary_s8_one(f, static_cast<int8_t>(x), p);
  return t;
}
constexpr activation_table make_activation_table(ref::activation a, const ref::act_s8_params& p) {
  return make_unary_table([a](float v) { return ref::apply(a, v); }, p);
}

/// 1 where detail::lookup_s8 looks bytes up 64 at a time (AVX-512 VBMI), 0 where one by one.
#if defined(__AVX512VBMI__) && defined(__AVX512BW__) && !defined(CTNN_PORTABLE_KERNELS)
#define CTNN_LOOKUP_S8_VBMI 1
#else
#define CTNN_LOOKUP_S8_VBMI 0
#endif

namespace detail {

/// y[i] = table[x[i] + 128] for i < n (in place allowed). With AVX-512 VBMI, 64 bytes a step:
/// the index x + 128 is x ^ 0x80; two vpermi2b look up the 128-byte halves by its low seven
/// bits and its top bit picks the half, and a tail of under 64 bytes is the last 64 again.
/// Elsewhere one load per byte.
inline void lookup_s8(const int8_t* table, int64_t n, const int8_t* x, int8_t* y) {
  int64_t i = 0;
#if CTNN_LOOKUP_S8_VBMI
  if (n >= 64) {
    const __m512i t0 = _mm512_loadu_si512(table), t1 = _mm512_loadu_si512(table + 64);
    const __m512i t2 = _mm512_loadu_si512(table + 128), t3 = _mm512_loadu_si512(table + 192);
    const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
    const auto look = [&](__m512i v) {
      const __m512i u = _mm512_xor_si512(v, flip);
      const __m512i lo = _mm512_permutex2var_epi8(t0, u, t1), hi = _mm512_permutex2var_epi8(t2, u, t3);
      return _mm512_mask_blend_epi8(_mm512_movepi8_mask(u), lo, hi);
    };
    // a tail is the last 64 bytes as one step, read before any store (in place, the steps
    // before it overwrite part of them); the bytes it shares with them are stored twice, equal
    const __m512i last = _mm512_loadu_si512(x + n - 64);
    for (; i + 64 <= n; i += 64) _mm512_storeu_si512(y + i, look(_mm512_loadu_si512(x + i)));
    if (i < n) _mm512_storeu_si512(y + n - 64, look(last));
    return;
  }
#endif
  for (; i < n; ++i) y[i] = table[x[i] + 128];
}

}  // namespace detail

/// @brief int8 activation through a table (bit-exact with ref::activation_s8 by construction).
inline status activation_s8(const activation_table& t, int64_t n, const int8_t* x, int8_t* y) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (x == nullptr || y == nullptr)) return status::null_pointer;
  detail::lookup_s8(t.v, n, x, y);
  return status::ok;
}

/// @brief batchnorm2d float (inference, in place allowed): per channel s = gamma / sqrt(var +
/// eps) and t = beta - mean s once, then y = x s + t, one multiply-add per element in the
/// compiler's vector lanes (AVX-512, AVX2, SSE alike), where ref::batchnorm2d_f32 subtracts,
/// divides, multiplies and adds per element. Equal to the reference within float rounding of
/// |x s| + |mean s| + |beta| (the folding moves the subtraction of the mean after the scale).
inline status batchnorm2d_f32(int64_t c, int64_t hw, const float* x, const float* mean, const float* var,
                              const float* gamma, const float* beta, float eps, float* y) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || mean == nullptr || var == nullptr || gamma == nullptr || beta == nullptr || y == nullptr)
    return status::null_pointer;
  for (int64_t ch = 0; ch < c; ++ch) {
    const float s = gamma[ch] / math::sqrt(var[ch] + eps), t = beta[ch] - mean[ch] * s;
    const float* xc = x + ch * hw;
    float* yc = y + ch * hw;
    for (int64_t i = 0; i < hw; ++i) yc[i] = xc[i] * s + t;
  }
  return status::ok;
}

/// @brief batchnorm2d int8, bit-exact with ref::batchnorm2d_s8 (in place allowed): each
/// channel's output depends on the input byte alone. On x86 the arithmetic runs in vector lanes
/// (the depthwise kernels' requantize_lanes); a channel of at least 256 elements is then mapped
/// through its 256-entry table, itself computed in lanes, where AVX-512 VBMI looks bytes up 64 at
/// a time (detail::lookup_s8); elsewhere the reference's arithmetic per byte value or element.
/// Bytes are widened by detail::dw::widen_s8, and a channel's tail is its last L elements again.
/// (MobileNetV2 with BatchNorm as int8 layers of their own: 6.2 ms of 8.9 when each table took
/// 256 scalar requantizations and channels under 256 elements ran scalar, AMD Zen 5.)
inline status batchnorm2d_s8(int64_t c, int64_t hw, const int8_t* x, const int8_t* scale_q, const int32_t* bias,
                             int8_t* y, const ref::gemm_s8_params& p) {
  if (c <= 0 || hw <= 0) return status::bad_size;
  if (x == nullptr || scale_q == nullptr || y == nullptr) return status::null_pointer;
  if (const status s = ref::check_params(p, static_cast<int>(c)); s != status::ok) return s;
  int8_t table[256];
#if CTNN_KERNELS_X86
  using simd::vs32;
  using simd::vs8_lanes;
  constexpr int L = static_cast<int>(sizeof(vs32) / sizeof(int32_t));
  vs32 iota{};
  for (int l = 0; l < L; ++l) iota[l] = l;
  // a table pays where it is looked up 64 bytes a step; elsewhere the lanes run every element
  constexpr bool tables = CTNN_LOOKUP_S8_VBMI;
#else
  constexpr bool tables = true;
#endif
  for (int64_t ch = 0; ch < c; ++ch) {
    const int8_t* xc = x + ch * hw;
    int8_t* yc = y + ch * hw;
#if CTNN_KERNELS_X86
    const detail::dw::requant_lanes r = detail::dw::make_requant_lanes(scalar::channel_requant(p, static_cast<int32_t>(ch)));
    const int32_t w = scale_q[ch] - p.b_zp, b = bias != nullptr ? bias[ch] : 0;
    const auto out = [&](const vs32& v) { return detail::dw::narrow_s8(detail::dw::requantize_lanes((v - p.a_zp) * w + b, r)); };
#endif
    if (tables && hw >= 256) {
#if CTNN_KERNELS_X86
      for (int v = 0; v < 256; v += L) {
        const vs8_lanes q = out(iota + (v - 128));
        __builtin_memcpy(table + v, &q, sizeof q);
      }
#else
      for (int32_t v = -128; v < 128; ++v)
        table[v + 128] = ref::batchnorm2d_s8_one(static_cast<int8_t>(v), ch, scale_q, bias, p);
#endif
      detail::lookup_s8(table, hw, xc, yc);
      continue;
    }
    int64_t i = 0;
#if CTNN_KERNELS_X86
    if (hw >= L) {
      // a tail is the last L elements as one step, read before any store (in place, the steps
      // before it overwrite part of them); the elements it shares with them are stored twice, equal
      const vs32 last = detail::dw::widen_s8(xc + hw - L);
      for (; i + L <= hw; i += L) {
        const vs8_lanes q = out(detail::dw::widen_s8(xc + i));
        __builtin_memcpy(yc + i, &q, sizeof q);
      }
      if (i < hw) {
        const vs8_lanes q = out(last);
        __builtin_memcpy(yc + hw - L, &q, sizeof q);
        i = hw;
      }
    }
#endif
    for (; i < hw; ++i) yc[i] = ref::batchnorm2d_s8_one(xc[i], ch, scale_q, bias, p);
  }
  return status::ok;
}

/// @brief ref::make_softmax_s8_params in integer arithmetic, from the float's fields: a normal
/// float's 24-bit significand is the Q0.31 multiplier's top bits exactly (quantize_multiplier
/// rounds nothing), so no floating point runs (on rv32im it was soft-float, about 10^3
/// instructions a call). Same result and the same faults (tests/unit/test_kernels_scalar.cpp).
inline status softmax_s8_params_of(ref::softmax_s8_params& out, float in_scale) {
  const auto bits = __builtin_bit_cast(uint32_t, in_scale);
  const auto biased = static_cast<int32_t>((bits >> 23) & 0xFFu);
  const uint32_t frac = bits & 0x7FFFFFu;
  // sign, zero, subnormal (all below 2^-26), infinity, NaN; then the range (2^-26, 16)
  if ((bits >> 31) != 0 || biased == 0 || biased == 0xFF) return status::bad_quant_param;
  const int32_t e2 = biased - 127;  // in_scale = 1.frac * 2^e2
  if (e2 < -26 || (e2 == -26 && frac == 0) || e2 >= 4) return status::bad_quant_param;
  // in_scale * 2^26 = (1.frac / 2) * 2^(e2 + 27): multiplier (1.frac) * 2^30, shift e2 + 27
  const int32_t shift = e2 + 27;
  out.multiplier = static_cast<int32_t>((frac | 0x800000u) << 7);
  out.left_shift = shift;
  out.diff_min = -((int32_t{31} << 26) >> shift);
  return status::ok;
}

/// @brief int8 softmax with the 256 exps of the differences from the row's maximum in a table;
/// bit-exact with ref::softmax_s8 (TFLite's fixed point: the same integer operations).
inline status softmax_s8(int64_t rows, int64_t cols, const int8_t* x, int8_t* y, float in_scale, int32_t in_zp) {
  if (rows < 0 || cols <= 0) return status::bad_size;
  if (rows > 0 && (x == nullptr || y == nullptr)) return status::null_pointer;
  ref::softmax_s8_params p{};
  if (in_zp < -128 || in_zp > 127 || softmax_s8_params_of(p, in_scale) != status::ok) return status::bad_quant_param;
  if (rows * cols < 256) {  // fewer values than the table: each exp computed once, kept for the output pass
    for (int64_t r = 0; r < rows; ++r) {
      const int8_t* xr = x + r * cols;
      int8_t* yr = y + r * cols;
      if (cols > 64) {
        ref::detail::softmax_s8_vector(cols, 1, xr, yr, p);
        continue;
      }
      const auto n = static_cast<int32_t>(cols);
      int32_t e[64];
      int32_t mx = -128;
      for (int32_t i = 0; i < n; ++i) mx = xr[i] > mx ? xr[i] : mx;
      uint32_t sum = 0;  // Q12.19, wrapping as the reference's
      for (int32_t i = 0; i < n; ++i) {
        const int32_t diff = xr[i] - mx;
        e[i] = diff >= p.diff_min ? ref::detail::softmax_exp(diff, p) : 0;
        if (diff >= p.diff_min) sum += static_cast<uint32_t>(quant::fixed::rescale<12, 0>(e[i]));
      }
      int bits_over_unit = 0;
      const int32_t shifted_scale = quant::fixed::reciprocal(static_cast<int32_t>(sum), 12, bits_over_unit);
      const int exponent = bits_over_unit + 31 - 8;
      for (int32_t i = 0; i < n; ++i)
        yr[i] = xr[i] - mx >= p.diff_min ? ref::detail::softmax_out(e[i], shifted_scale, exponent) : int8_t{-128};
    }
    return status::ok;
  }
  int32_t table[256];  // exp of -d, d = max - x; 0 below diff_min (such values are skipped)
  for (int d = 0; d < 256; ++d) table[d] = -d >= p.diff_min ? ref::detail::softmax_exp(-d, p) : 0;
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t* xr = x + r * cols;
    int32_t mx = -128;
    for (int64_t i = 0; i < cols; ++i) mx = xr[i] > mx ? xr[i] : mx;
    int32_t sum = 0;
    for (int64_t i = 0; i < cols; ++i)
      if (xr[i] - mx >= p.diff_min)
        sum = static_cast<int32_t>(static_cast<uint32_t>(sum) + static_cast<uint32_t>(quant::fixed::rescale<12, 0>(table[mx - xr[i]])));
    int bits_over_unit = 0;
    const int32_t shifted_scale = quant::fixed::reciprocal(sum, 12, bits_over_unit);
    const int exponent = bits_over_unit + 31 - 8;
    for (int64_t i = 0; i < cols; ++i)
      y[r * cols + i] = xr[i] - mx >= p.diff_min ? ref::detail::softmax_out(table[mx - xr[i]], shifted_scale, exponent)
                                                 : int8_t{-128};
  }
  return status::ok;
}

/// @brief Elementwise float add, vectorized with the portable vector type.
inline status add_f32(int64_t n, const float* a, const float* b, float* y) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (a == nullptr || b == nullptr || y == nullptr)) return status::null_pointer;
  constexpr int64_t lanes = simd::f32_lanes;
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes)
    simd::store(y + i, simd::load<simd::vf32>(a + i) + simd::load<simd::vf32>(b + i));
  for (; i < n; ++i) y[i] = a[i] + b[i];
  return status::ok;
}

/// @brief int8 add (TFLite arithmetic, see ref::add_s8): 16 lanes at a time with AVX-512, 8 with
/// AVX2, element by element otherwise; bit-exact with the reference either way.
inline status add_s8(int64_t n, const int8_t* a, const int8_t* b, int8_t* y, const ref::add_s8_params& p) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (a == nullptr || b == nullptr || y == nullptr)) return status::null_pointer;
  if (!ref::valid(p)) return status::bad_quant_param;
#if CTNN_KERNELS_SCALAR
  scalar::add_s8(n, a, b, y, p);
  return status::ok;
#endif
  int64_t i = 0;
#if CTNN_KERNELS_VNNI
  {
    // each of the three requantizations as one 64-bit rounding (detail::make_rq_fused) where exact:
    // an input's (x - zp) 2^left as x 2^left + rt, the output's zero point folded in
    const int64_t in_bound = int64_t{128} << p.left_shift, sum_bound = 2 * ((int64_t{255} << p.left_shift) + 1);
    detail::s8_rq_row fa{}, fb{}, fo{};
    if (detail::make_rq_fused(-(int64_t{p.a_zp} << p.left_shift), in_bound, p.a.multiplier, p.a.shift, 0, fa) &&
        detail::make_rq_fused(-(int64_t{p.b_zp} << p.left_shift), in_bound, p.b.multiplier, p.b.shift, 0, fb) &&
        detail::make_rq_fused(0, sum_bound, p.out.multiplier, p.out.shift, p.out_zp, fo)) {
      const __m512i lo = _mm512_set1_epi32(p.act_min), hi = _mm512_set1_epi32(p.act_max);
      const __m128i left = _mm_cvtsi32_si128(p.left_shift);
      for (; i + 16 <= n; i += 16) {
        const __m512i va = _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
        const __m512i vb = _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
        const __m512i sa = detail::rq16_fused(_mm512_sll_epi32(va, left), fa);
        const __m512i sb = detail::rq16_fused(_mm512_sll_epi32(vb, left), fb);
        const __m512i v = detail::rq16_fused(_mm512_add_epi32(sa, sb), fo);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi32_epi8(_mm512_min_epi32(_mm512_max_epi32(v, lo), hi)));
      }
      for (; i < n; ++i) y[i] = ref::add_s8_one(a[i], b[i], p);
      return status::ok;
    }
  }
  const __m512i a_zp = _mm512_set1_epi32(p.a_zp), b_zp = _mm512_set1_epi32(p.b_zp);
  const detail::requant16 ra = detail::make_requant16(_mm512_set1_epi32(p.a.multiplier), _mm512_set1_epi32(p.a.shift));
  const detail::requant16 rb = detail::make_requant16(_mm512_set1_epi32(p.b.multiplier), _mm512_set1_epi32(p.b.shift));
  const detail::requant16 ro =
      detail::make_requant16(_mm512_set1_epi32(p.out.multiplier), _mm512_set1_epi32(p.out.shift));
  const __m512i ozp = _mm512_set1_epi32(p.out_zp), lo = _mm512_set1_epi32(p.act_min), hi = _mm512_set1_epi32(p.act_max);
  const __m128i left = _mm_cvtsi32_si128(p.left_shift);
  for (; i + 16 <= n; i += 16) {
    const __m512i va = _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
    const __m512i vb = _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    const __m512i sa = detail::mbqm16(_mm512_sll_epi32(_mm512_sub_epi32(va, a_zp), left), ra);
    const __m512i sb = detail::mbqm16(_mm512_sll_epi32(_mm512_sub_epi32(vb, b_zp), left), rb);
    __m512i v = _mm512_add_epi32(detail::mbqm16(_mm512_add_epi32(sa, sb), ro), ozp);
    v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi32_epi8(v));
  }
#elif CTNN_KERNELS_AVX2_S8
  const __m256i a_zp = _mm256_set1_epi32(p.a_zp), b_zp = _mm256_set1_epi32(p.b_zp);
  const detail::requant8 ra = detail::make_requant8(_mm256_set1_epi32(p.a.multiplier), _mm256_set1_epi32(p.a.shift));
  const detail::requant8 rb = detail::make_requant8(_mm256_set1_epi32(p.b.multiplier), _mm256_set1_epi32(p.b.shift));
  const detail::requant8 ro =
      detail::make_requant8(_mm256_set1_epi32(p.out.multiplier), _mm256_set1_epi32(p.out.shift));
  const __m256i ozp = _mm256_set1_epi32(p.out_zp), lo = _mm256_set1_epi32(p.act_min), hi = _mm256_set1_epi32(p.act_max);
  const __m128i left = _mm_cvtsi32_si128(p.left_shift);
  for (; i + 8 <= n; i += 8) {
    const __m256i va = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a + i)));
    const __m256i vb = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + i)));
    const __m256i sa = detail::mbqm8(_mm256_sll_epi32(_mm256_sub_epi32(va, a_zp), left), ra);
    const __m256i sb = detail::mbqm8(_mm256_sll_epi32(_mm256_sub_epi32(vb, b_zp), left), rb);
    __m256i v = _mm256_add_epi32(detail::mbqm8(_mm256_add_epi32(sa, sb), ro), ozp);
    v = _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), detail::narrow8(v));
  }
#endif
  for (; i < n; ++i) y[i] = ref::add_s8_one(a[i], b[i], p);
  return status::ok;
}

/// @brief int8 multiply (TFLite arithmetic, see ref::mul_s8), AVX-512 or AVX2 lanes when available.
inline status mul_s8(int64_t n, const int8_t* a, const int8_t* b, int8_t* y, const ref::mul_s8_params& p) {
  if (n < 0) return status::bad_size;
  if (n > 0 && (a == nullptr || b == nullptr || y == nullptr)) return status::null_pointer;
  if (!ref::valid(p)) return status::bad_quant_param;
  int64_t i = 0;
#if CTNN_KERNELS_VNNI
  const __m512i a_zp = _mm512_set1_epi32(p.a_zp), b_zp = _mm512_set1_epi32(p.b_zp);
  const detail::requant16 ro =
      detail::make_requant16(_mm512_set1_epi32(p.out.multiplier), _mm512_set1_epi32(p.out.shift));
  const __m512i ozp = _mm512_set1_epi32(p.out_zp), lo = _mm512_set1_epi32(p.act_min), hi = _mm512_set1_epi32(p.act_max);
  for (; i + 16 <= n; i += 16) {
    const __m512i va = _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
    const __m512i vb = _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
    const __m512i prod = _mm512_mullo_epi32(_mm512_sub_epi32(va, a_zp), _mm512_sub_epi32(vb, b_zp));
    __m512i v = _mm512_add_epi32(detail::mbqm16(prod, ro), ozp);
    v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi32_epi8(v));
  }
#elif CTNN_KERNELS_AVX2_S8
  const __m256i a_zp = _mm256_set1_epi32(p.a_zp), b_zp = _mm256_set1_epi32(p.b_zp);
  const detail::requant8 ro =
      detail::make_requant8(_mm256_set1_epi32(p.out.multiplier), _mm256_set1_epi32(p.out.shift));
  const __m256i ozp = _mm256_set1_epi32(p.out_zp), lo = _mm256_set1_epi32(p.act_min), hi = _mm256_set1_epi32(p.act_max);
  for (; i + 8 <= n; i += 8) {
    const __m256i va = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a + i)));
    const __m256i vb = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + i)));
    const __m256i prod = _mm256_mullo_epi32(_mm256_sub_epi32(va, a_zp), _mm256_sub_epi32(vb, b_zp));
    __m256i v = _mm256_add_epi32(detail::mbqm8(prod, ro), ozp);
    v = _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), detail::narrow8(v));
  }
#endif
  for (; i < n; ++i) y[i] = ref::mul_s8_one(a[i], b[i], p);
  return status::ok;
}

/// @brief Concatenation along channels by block copies (see ref::concat_channels).
template <class T>
inline status concat_channels(int n_inputs, const T* const* inputs, const int64_t* channels, int64_t hw, T* out) {
  if (n_inputs <= 0 || hw <= 0) return status::bad_size;
  if (inputs == nullptr || channels == nullptr || out == nullptr) return status::null_pointer;
  for (int k = 0; k < n_inputs; ++k) {
    if (inputs[k] == nullptr) return status::null_pointer;
    if (channels[k] <= 0) return status::bad_size;
    const auto bytes = static_cast<size_t>(channels[k] * hw) * sizeof(T);
    __builtin_memcpy(out, inputs[k], bytes);
    out += channels[k] * hw;
  }
  return status::ok;
}

}  // namespace ctnn::kernels
