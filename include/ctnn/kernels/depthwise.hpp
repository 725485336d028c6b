// Depthwise conv2d on the host, float32 and int8: vector lanes (simd.hpp: AVX-512, AVX or SSE2
// widths, GCC/Clang vector extensions) for 3x3 and 5x5 windows, stride 1 and 2, no dilation; the
// direct loop for every other geometry (dilation, other windows, unequal strides, rows wider than
// the row buffers) and, on RISC-V (CTNN_KERNELS_SCALAR), for float (int8 runs scalar.hpp there).
//
// One channel is a 2-D plane, computed two output rows at a time from the K + S input rows their
// windows cover, kept in a ring of padded row buffers (on the stack, 36 KiB at most): each input
// row is copied once per channel, with the padding written as zeros, so the inner loop has no
// bounds checks and a row outside the input is the zero row:
//
//   P[i] = in[iy][i - pl] for 0 <= i - pl < in_w, else 0          (i < len: the lanes' reach)
//   stride 1:  out[oy][ox .. ox+L) = sum_{ky,kx} w[ky][kx] . P_{oy - pt + ky}[ox + kx .. ox + kx + L)
//   stride 2:  P kept de-interleaved, E[j] = P[2j] | O[j] = P[2j + 1]  (each `half` floats), so
//              P[2 ox + kx] = (kx even ? E : O)[ox + kx / 2]: contiguous lanes again
//
//   ring slot iy % (K + S):  | E: P[0] P[2] P[4] ...   | O: P[1] P[3] P[5] ...   |
//                            0                         half                      2 half
//
// A row's last vector is computed whole (the buffers reach past the output) and stored whole too
// while the output buffer reaches that far: its extra lanes fall on later outputs, written after.
// Each window row of each output row is its own chain of multiply-adds (2K chains in flight, every
// loaded vector used by both output rows), the chains summed at the end.
//
// int8 runs the same float lanes on (x - a_zp) and (w - b_zp): each is in [-255, 255], so every
// product and partial sum is an integer below 25 * 255^2 < 2^24, exact in float32 in any order;
// converted to int32, plus the bias (wrapping) and requantized in lanes (scalar::mbqm's steps),
// the output is bit-exact with ref::conv2d_s8.
//
// int8 on AVX-512 VNNI + VBMI hosts stays in bytes instead (depthwise_s8_vpdp, rows wider than
// 16 outputs and every map that the channel lanes do not take): vpermb gathers each output's
// window row, vpdpbusd multiplies it, one 64-bit rounding requantizes (MobileNetV2's 96 x 112 x
// 112 stride-2 layer 0.36 -> 0.17 ms, Intel Xeon).
#pragma once
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/requant_avx2.hpp"
#include "ctnn/kernels/scalar.hpp"
#include "ctnn/kernels/simd.hpp"
#include "ctnn/kernels/status.hpp"
#include "ctnn/kernels/x86.hpp"

// int8 -> float widening of a row in one instruction per vector and AVX2's int32 -> int8
// narrowing by packs (GCC 12 lowers these __builtin_convertvector lane by lane); the portable
// vector extensions otherwise.
#if CTNN_KERNELS_X86
#define CTNN_DW_WIDEN_X86 1
#else
#define CTNN_DW_WIDEN_X86 0
#endif
// int8 with the channels in AVX-512's 16 lanes (depthwise_s8_clanes).
#if CTNN_DW_WIDEN_X86 && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define CTNN_DW_CHANNEL_LANES 1
#else
#define CTNN_DW_CHANNEL_LANES 0
#endif

// int8 in bytes with vpdpbusd, each output's window row gathered by vpermb (depthwise_s8_vpdp).
#if CTNN_DW_CHANNEL_LANES && defined(__AVX512VNNI__) && defined(__AVX512VBMI__)
#define CTNN_DW_VPDP 1
#else
#define CTNN_DW_VPDP 0
#endif

namespace ctnn::kernels {

namespace detail {

/// Range [lo, hi) of outputs whose whole window lies inside [0, in): no bounds checks there.
inline void interior(int64_t out, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int64_t& lo, int64_t& hi) {
  lo = ceil_div(p, s);  // first o with o s - p >= 0
  const int64_t last = in - 1 - (k - 1) * d + p;  // o s <= last
  hi = last < 0 ? 0 : min(out, last / s + 1);
  if (lo > hi) lo = hi;
}

/// @brief Direct depthwise conv2d, float, any geometry: the general path (and the kernel the
/// vector one replaced, kept as the benchmark's baseline).
inline void depthwise_direct_f32(const conv_geometry& g, const float* in, const float* w, const float* bias,
                                 float* out) {
  const int64_t oh = g.out_h(), ow = g.out_w(), mult = g.out_c / g.in_c;
  int64_t y_lo, y_hi, x_lo, x_hi;
  interior(oh, g.in_h, g.kh, g.sh, g.pt, g.dh, y_lo, y_hi);
  interior(ow, g.in_w, g.kw, g.sw, g.pl, g.dw, x_lo, x_hi);
  for (int64_t oc = 0; oc < g.out_c; ++oc) {
    const float* plane = in + (oc / mult) * g.in_h * g.in_w;
    const float* k = w + oc * g.kh * g.kw;
    float* o = out + oc * oh * ow;
    const float b = bias != nullptr ? bias[oc] : 0.0f;
    for (int64_t oy = 0; oy < oh; ++oy) {
      const bool y_in = oy >= y_lo && oy < y_hi;
      for (int64_t ox = 0; ox < ow; ++ox) {
        float acc = 0.0f;
        if (y_in && ox >= x_lo && ox < x_hi) {
          const float* base = plane + (oy * g.sh - g.pt) * g.in_w + (ox * g.sw - g.pl);
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) acc += base[ky * g.dh * g.in_w + kx * g.dw] * k[ky * g.kw + kx];
        } else {
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              const int64_t iy = oy * g.sh - g.pt + ky * g.dh, ix = ox * g.sw - g.pl + kx * g.dw;
              if (iy >= 0 && iy < g.in_h && ix >= 0 && ix < g.in_w) acc += plane[iy * g.in_w + ix] * k[ky * g.kw + kx];
            }
        }
        o[oy * ow + ox] = bias != nullptr ? acc + b : acc;
      }
    }
  }
}

/// @brief Direct depthwise conv2d, int8, any geometry (p checked by the caller): the general path
/// and the benchmark's baseline.
inline void depthwise_direct_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias,
                                int8_t* out, const ref::gemm_s8_params& p) {
  const int64_t oh = g.out_h(), ow = g.out_w(), mult = g.out_c / g.in_c;
  int64_t y_lo, y_hi, x_lo, x_hi;
  interior(oh, g.in_h, g.kh, g.sh, g.pt, g.dh, y_lo, y_hi);
  interior(ow, g.in_w, g.kw, g.sw, g.pl, g.dw, x_lo, x_hi);
  int32_t kbuf[64];
  for (int64_t oc = 0; oc < g.out_c; ++oc) {
    const int8_t* plane = in + (oc / mult) * g.in_h * g.in_w;
    const int8_t* k = w + oc * g.kh * g.kw;
    const bool small = g.kh * g.kw <= 64;
    if (small)
      for (int64_t i = 0; i < g.kh * g.kw; ++i) kbuf[i] = k[i] - p.b_zp;
    int8_t* o = out + oc * oh * ow;
    const int32_t b = bias != nullptr ? bias[oc] : 0;
    for (int64_t oy = 0; oy < oh; ++oy) {
      const bool y_in = oy >= y_lo && oy < y_hi;
      for (int64_t ox = 0; ox < ow; ++ox) {
        uint32_t acc = static_cast<uint32_t>(b);
        if (small && y_in && ox >= x_lo && ox < x_hi) {
          const int8_t* base = plane + (oy * g.sh - g.pt) * g.in_w + (ox * g.sw - g.pl);
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx)
              acc += static_cast<uint32_t>((base[ky * g.dh * g.in_w + kx * g.dw] - p.a_zp) * kbuf[ky * g.kw + kx]);
        } else {
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              const int64_t iy = oy * g.sh - g.pt + ky * g.dh, ix = ox * g.sw - g.pl + kx * g.dw;
              if (iy >= 0 && iy < g.in_h && ix >= 0 && ix < g.in_w)
                acc += static_cast<uint32_t>((plane[iy * g.in_w + ix] - p.a_zp) * (k[ky * g.kw + kx] - p.b_zp));
            }
        }
        o[oy * ow + ox] = ref::requantize(static_cast<int32_t>(acc), static_cast<int>(oc), p);
      }
    }
  }
}

namespace dw {

inline constexpr int64_t lanes = simd::f32_lanes;
/// Floats of one padded row buffer (E and O together for stride 2): wider rows run direct.
inline constexpr int64_t row_cap = 1024;

/// Output columns rounded up to whole vectors.
constexpr int64_t padded_out_w(const conv_geometry& g) { return (g.out_w() + lanes - 1) / lanes * lanes; }
/// Stride 2: floats of E (and of O), the reach of the lanes at kx = K - 1.
constexpr int64_t half_len(const conv_geometry& g) { return padded_out_w(g) + (g.kw - 1) / 2; }
/// Floats of one padded row that the lanes read.
constexpr int64_t row_len(const conv_geometry& g) {
  return g.sw == 1 ? padded_out_w(g) + g.kw - 1 : 2 * half_len(g);
}

/// The first sizeof(To) bytes of v as a To (a vector extension's lanes as an intrinsic's register
/// and back; AVX2's 8 narrowed bytes are the low half of narrow8's register).
template <class To, class From>
inline To same_bits(const From& v) {
  static_assert(sizeof(To) <= sizeof(From), "same_bits: To is larger than From");
  To t;
  __builtin_memcpy(&t, &v, sizeof t);
  return t;
}

/// L int8 values from src as int32 lanes: one vpmovsxbd (GCC 12 lowers __builtin_convertvector's
/// widening of 16 bytes to some 70 scalar shifts and inserts, slower than the requantization after
/// it: MobileNetV2's 7x7 and 14x14 int8 BatchNorm took 0.5-0.6 ns an element, 0.2-0.3 with this,
/// AMD Zen 5).
inline simd::vs32 widen_s8(const int8_t* src) {
#if CTNN_DW_WIDEN_X86 && defined(__AVX512F__)
  return same_bits<simd::vs32>(_mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src))));
#elif CTNN_DW_WIDEN_X86
  return same_bits<simd::vs32>(_mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(src))));
#else
  simd::vs8_lanes x;
  __builtin_memcpy(&x, src, sizeof x);
  return __builtin_convertvector(x, simd::vs32);
#endif
}

/// d[i] = src[i] - zp, i < L, as floats.
inline void widen_lanes(float* d, const int8_t* src, int32_t zp) {
#if CTNN_DW_WIDEN_X86 && defined(__AVX512F__)
  static_assert(lanes == 16, "AVX-512: 16 float lanes");
  const __m512i x = same_bits<__m512i>(widen_s8(src));
  _mm512_storeu_ps(d, _mm512_cvtepi32_ps(_mm512_sub_epi32(x, _mm512_set1_epi32(zp))));
#elif CTNN_DW_WIDEN_X86
  static_assert(lanes == 8, "AVX2: 8 float lanes");
  const __m256i x = same_bits<__m256i>(widen_s8(src));
  _mm256_storeu_ps(d, _mm256_cvtepi32_ps(_mm256_sub_epi32(x, _mm256_set1_epi32(zp))));
#else
  for (int64_t i = 0; i < lanes; ++i) d[i] = static_cast<float>(src[i] - zp);
#endif
}

/// P[i], i < len: the row src (in_w values, minus zp for int8) at offset pl, zeros around it.
/// Whole vectors (dst holds row_cap floats, a multiple of L), no library call: rows are short.
template <class T>
inline void fill_padded(float* dst, int64_t len, const T* src, int64_t in_w, int64_t pl, int32_t zp) {
  for (int64_t i = 0; i < len; i += lanes) simd::store(dst + i, simd::vf32{});
  const int64_t n = min(in_w, len - pl);  // inputs the lanes reach
  float* d = dst + pl;
  if constexpr (is_same_v<T, float>) {
    (void)zp;
    int64_t x = 0;
    for (; x + lanes <= n; x += lanes) simd::store(d + x, simd::load<simd::vf32>(src + x));
    for (; x < n; ++x) d[x] = src[x];
  } else {
    int64_t x = 0;
#if CTNN_DW_WIDEN_X86 && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
    if (n > 0 && n < lanes) {  // a row narrower than the lanes (7x7, 14x14 maps): masked, not one by one
      const auto m = static_cast<__mmask16>((1u << n) - 1u);
      const __m512i v = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, src));
      _mm512_mask_storeu_ps(d, m, _mm512_cvtepi32_ps(_mm512_sub_epi32(v, _mm512_set1_epi32(zp))));
      x = n;
    }
#endif
    if (n >= lanes) {
      for (; x + lanes <= n; x += lanes) widen_lanes(d + x, src + x, zp);
      if (x < n) widen_lanes(d + n - lanes, src + n - lanes, zp);  // overlapping: the same values again
      x = n;
    }
    for (; x < n; ++x) d[x] = static_cast<float>(src[x] - zp);
  }
}

/// Lanes 0, 2, 4, ... (Odd = 0) or 1, 3, 5, ... (Odd = 1) of the 2L floats a:b.
template <size_t Odd, size_t... I>
inline simd::vf32 every_other(const simd::vf32& a, const simd::vf32& b, integer_sequence<size_t, I...>) {
  return __builtin_shufflevector(a, b, static_cast<int>(2 * I + Odd)...);
}

/// e[j] = src[2j], o[j] = src[2j + 1] for j < n (src: 2n floats).
inline void deinterleave(float* e, float* o, const float* src, int64_t n) {
  using seq = make_index_sequence<static_cast<size_t>(lanes)>;
  int64_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    const auto a = simd::load<simd::vf32>(src + 2 * j), b = simd::load<simd::vf32>(src + 2 * j + lanes);
    simd::store(e + j, every_other<0>(a, b, seq{}));
    simd::store(o + j, every_other<1>(a, b, seq{}));
  }
  for (; j < n; ++j) {
    e[j] = src[2 * j];
    o[j] = src[2 * j + 1];
  }
}

/// The int8 paths of AVX2 without AVX-512 (8 lanes): the stride-2 row split in one step (the even
/// and odd bytes of 16 inputs by one byte shuffle, each half widened to 8 floats; elsewhere the
/// row is widened whole into the ring's tmp, then split in float lanes by deinterleave), and the
/// requantization and narrowing of requant_avx2.hpp.
#if CTNN_DW_WIDEN_X86 && !defined(__AVX512F__)
#define CTNN_DW_AVX2_S8 1
#else
#define CTNN_DW_AVX2_S8 0
#endif

/// e[j0 .. j0 + L) = P[2j] and o[...] = P[2j + 1] from the 2L values at src (all inside the row).
inline void split_lanes(float* e, float* o, const float* src) {
  using seq = make_index_sequence<static_cast<size_t>(lanes)>;
  const auto a = simd::load<simd::vf32>(src), b = simd::load<simd::vf32>(src + lanes);
  simd::store(e, every_other<0>(a, b, seq{}));
  simd::store(o, every_other<1>(a, b, seq{}));
}
#if CTNN_DW_AVX2_S8
inline void split_lanes(float* e, float* o, const int8_t* src, __m256i zp) {
  static_assert(lanes == 8, "AVX2: 8 float lanes");
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
  const __m128i eo = _mm_shuffle_epi8(x, _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
  const __m256i ev = _mm256_sub_epi32(_mm256_cvtepi8_epi32(eo), zp);
  const __m256i od = _mm256_sub_epi32(_mm256_cvtepi8_epi32(_mm_unpackhi_epi64(eo, eo)), zp);
  _mm256_storeu_ps(e, _mm256_cvtepi32_ps(ev));
  _mm256_storeu_ps(o, _mm256_cvtepi32_ps(od));
}
#endif

/// Stride 2's float row: e[j] = P[2j], o[j] = P[2j + 1] for j < n, P the padded row of
/// fill_padded, straight from the input (whole vectors where 2L inputs lie inside the row).
inline void fill_deinterleaved(float* e, float* o, int64_t n, const float* src, int64_t in_w, int64_t pl) {
  auto one = [&](int64_t i) { return i >= 0 && i < in_w ? src[i] : 0.0f; };
  auto split = [&](int64_t j) { split_lanes(e + j, o + j, src + 2 * j - pl); };
  int64_t j = 0;
  for (; j < n && 2 * j < pl; ++j) {
    e[j] = one(2 * j - pl);
    o[j] = one(2 * j + 1 - pl);
  }
  for (; j + lanes <= n && 2 * j - pl + 2 * lanes <= in_w; j += lanes) split(j);
  // the last whole vector inside the row, overlapping the previous one (same values again)
  const int64_t j_last = (in_w + pl) / 2 - lanes;
  if (j < n && 2 * j_last >= pl && j_last + lanes <= n && j_last + lanes > j) {
    split(j_last);
    j = j_last + lanes;
  }
  for (; j < n && 2 * j + 1 - pl < in_w; ++j) {  // both inside the row (2 j >= pl past the head)
    e[j] = src[2 * j - pl];
    o[j] = src[2 * j + 1 - pl];
  }
  for (; j < n; ++j) {  // the right padding and the lanes' reach
    e[j] = one(2 * j - pl);
    o[j] = 0.0f;
  }
}

#if CTNN_DW_AVX2_S8
/// Whether fill_split_s8 may run: its whole vectors of e and o (each n rounded up to L) fit the
/// row buffer (row_cap floats).
constexpr bool split_s8_fits(int64_t n) { return 2 * ((n + lanes - 1) / lanes * lanes) <= row_cap; }

/// int8's stride-2 row in whole vectors, no element loop: the input row is copied into `bytes`
/// (at least 2 n + 2 L) between the input zero point (0 once widened), then each 2 L bytes give
/// L floats of e and of o. The vectors run from the row's end: the last one of e reaches into
/// o's first floats, which the first step writes after it.
inline void fill_split_s8(float* e, float* o, int64_t n, const int8_t* src, int64_t in_w, int64_t pl, int32_t zp,
                          int8_t* bytes) {
  const int64_t end = 2 * ((n + lanes - 1) / lanes * lanes);
  const auto z = static_cast<int8_t>(zp);
  const int64_t copy = min(in_w, end - pl);  // inputs the lanes reach
  for (int64_t i = 0; i < pl; ++i) bytes[i] = z;
  for (int64_t i = 0; i < copy; ++i) bytes[pl + i] = src[i];
  for (int64_t i = pl + copy; i < end; ++i) bytes[i] = z;
  const __m256i zpv = _mm256_set1_epi32(zp);
  for (int64_t j = end / 2 - lanes; j >= 0; j -= lanes) split_lanes(e + j, o + j, bytes + 2 * j, zpv);
}
#endif

/// The ring of K + S padded input rows of one plane (two output rows' windows), the zero row,
/// and int8's stride-2 row before its split (widened into tmp by widen_lanes, then split in lanes;
/// or with CTNN_DW_AVX2_S8 copied into bytes with the zero point around it and split from there).
template <int K, int S>
struct ring {
  alignas(64) float row[K + S][row_cap];
  alignas(64) float zero[row_cap];
  alignas(64) float tmp[S == 2 ? row_cap : 1];
  alignas(64) int8_t bytes[S == 2 ? row_cap + 2 * lanes : 1];  // fill_split_s8's padded input row
  int64_t tag[K + S];  // input row held by each slot, -1: none
};

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/// One output row: each vector of L outputs is the sum of the K x K taps' weight times the row
/// buffers at the tap's offset; finish(acc, x, n) stores outputs [x, x + n) of it.
template <int K, int S, class Finish>
inline void row_lanes(const float* const* rows, int64_t half, const simd::vf32* wv, int64_t ow, Finish& finish) {
  for (int64_t x = 0; x < ow; x += lanes) {
    simd::vf32 part[K];  // one chain of multiply-adds per window row: K in flight, not K * K in a row
    for (int ky = 0; ky < K; ++ky) {
      const float* r = rows[ky] + x;
      part[ky] = simd::vf32{};
      for (int kx = 0; kx < K; ++kx) {
        const float* src = S == 1 ? r + kx : r + (kx & 1) * half + kx / 2;
        part[ky] += wv[ky * K + kx] * simd::load<simd::vf32>(src);
      }
    }
    simd::vf32 acc = part[0];
    for (int ky = 1; ky < K; ++ky) acc += part[ky];
    finish(acc, x, min(lanes, ow - x));
  }
}

/// Two output rows at once: K + S input rows, each vector of a row loaded once for both (rows[i]
/// is tap row i of the first output row and tap row i - S of the second). The vectors are walked
/// from the row's end, so a whole last vector of the first row, which may spill into the second
/// row's first outputs, is stored before them.
template <int K, int S, class Finish>
inline void row2_lanes(const float* const* rows, int64_t half, const simd::vf32* wv, int64_t ow, Finish& finish) {
  for (int64_t x = (ow - 1) / lanes * lanes; x >= 0; x -= lanes) {
    simd::vf32 p0[K], p1[K];
    for (int ky = 0; ky < K; ++ky) p0[ky] = p1[ky] = simd::vf32{};
    for (int i = 0; i < K + S; ++i) {
      const float* r = rows[i] + x;
      for (int kx = 0; kx < K; ++kx) {
        const auto v = simd::load<simd::vf32>(S == 1 ? r + kx : r + (kx & 1) * half + kx / 2);
        if (i < K) p0[i] += wv[i * K + kx] * v;
        if (i >= S && i - S < K) p1[i - S] += wv[(i - S) * K + kx] * v;
      }
    }
    simd::vf32 a0 = p0[0], a1 = p1[0];
    for (int ky = 1; ky < K; ++ky) a0 += p0[ky], a1 += p1[ky];
    const int64_t n = min(lanes, ow - x);
    finish(a0, int64_t{0}, x, n);
    finish(a1, int64_t{1}, x, n);
  }
}

/// One plane (input channel `plane`, one output channel's K x K weights `wk`), two output rows
/// at a time: finish(acc, oy, x, n) receives every output vector.
template <int K, int S, class T, class Finish>
inline void plane_lanes(const conv_geometry& g, ring<K, S>& rg, const T* plane, int32_t zp, const float* wk,
                        Finish& finish) {
  constexpr int R = K + S;  // ring slots: the input rows of two output rows
  const int64_t oh = g.out_h(), ow = g.out_w(), half = half_len(g), len = row_len(g);
  simd::vf32 wv[K * K];
  for (int i = 0; i < K * K; ++i) wv[i] = simd::vf32{} + wk[i];
  for (int k = 0; k < R; ++k) rg.tag[k] = -1;
  const float* rows[R];
  for (int64_t oy = 0; oy < oh; oy += 2) {
    const bool two = oy + 1 < oh;
    for (int i = 0; i < (two ? R : K); ++i) {
      const int64_t iy = oy * S - g.pt + i;
      if (iy < 0 || iy >= g.in_h) {
        rows[i] = rg.zero;
        continue;
      }
      const int64_t slot = iy % R;  // the rows of two windows are R consecutive iy: distinct slots
      float* dst = rg.row[slot];
      if (rg.tag[slot] != iy) {
        const T* src = plane + iy * g.in_w;
        if constexpr (S == 1) {
          fill_padded(dst, len, src, g.in_w, g.pl, zp);
        } else {
          if constexpr (is_same_v<T, float>) {
            fill_deinterleaved(dst, dst + half, half, src, g.in_w, g.pl);
          } else {
#if CTNN_DW_AVX2_S8
            if (split_s8_fits(half)) {
              fill_split_s8(dst, dst + half, half, src, g.in_w, g.pl, zp, rg.bytes);
            } else
#endif
            {
              fill_padded(rg.tmp, len, src, g.in_w, g.pl, zp);
              deinterleave(dst, dst + half, rg.tmp, half);
            }
          }
        }
        rg.tag[slot] = iy;
      }
      rows[i] = dst;
    }
    if (two) {
      auto rows_finish = [&](const simd::vf32& acc, int64_t dy, int64_t x, int64_t n) { finish(acc, oy + dy, x, n); };
      row2_lanes<K, S>(rows, half, wv, ow, rows_finish);
    } else {
      auto row_finish = [&](const simd::vf32& acc, int64_t x, int64_t n) { finish(acc, oy, x, n); };
      row_lanes<K, S>(rows, half, wv, ow, row_finish);
    }
  }
}

/// Stores the first n lanes of v at dst, or all of them when the buffer reaches dst + L
/// (`end`): the lanes beyond n fall on outputs written later (the next row, the next channel),
/// which overwrite them.
template <class V, class T>
inline void store_n(T* dst, const V& v, int64_t n, const T* end) {
  if (n == lanes || end - dst >= lanes) {
    simd::store(dst, v);
  } else {
    T t[lanes];
    simd::store(t, v);
    for (int64_t i = 0; i < n; ++i) dst[i] = t[i];
  }
}

/// One channel's scalar::requant32 in lanes, made once per channel: the output loop then reads
/// vectors instead of broadcasting the fields again for each vector.
struct requant_lanes {
  simd::vs64_lanes mult;
  simd::vs32 half, mask, lo, hi, zp;
#if CTNN_DW_AVX2_S8
  detail::requant8 r8;  // the multiplier and the shifts in AVX2's lanes (requant_avx2.hpp)
#elif CTNN_DW_WIDEN_X86 && defined(__AVX512F__)
  detail::requant16 r16;  // in AVX-512's lanes
#endif
  uint32_t left;
  int32_t right;
};

inline requant_lanes make_requant_lanes(const scalar::requant32& r) {
  requant_lanes q{};
  q.mult = simd::vs64_lanes{} + static_cast<int64_t>(r.mult);
  q.half = simd::vs32{} + r.half;
  q.mask = simd::vs32{} + r.mask;
  q.lo = simd::vs32{} + r.lo;
  q.hi = simd::vs32{} + r.hi;
  q.zp = simd::vs32{} + r.zp;
#if CTNN_DW_AVX2_S8
  q.r8 = detail::make_requant8(_mm256_set1_epi32(r.mult),
                               _mm256_set1_epi32(static_cast<int32_t>(r.left) - static_cast<int32_t>(r.right)));
#elif CTNN_DW_WIDEN_X86 && defined(__AVX512F__)
  q.r16 = detail::make_requant16(_mm512_set1_epi32(r.mult),
                                 _mm512_set1_epi32(static_cast<int32_t>(r.left) - static_cast<int32_t>(r.right)));
#endif
  q.left = r.left;
  q.right = static_cast<int32_t>(r.right);
  return q;
}

/// L lanes of scalar::requantize (ref::requantize's arithmetic, in scalar::mbqm's steps).
inline simd::vs32 requantize_lanes(const simd::vs32& x, const requant_lanes& r) {
  using simd::vs32;
#if CTNN_DW_AVX2_S8
  // AVX2 in intrinsics (requant_avx2.hpp's mbqm8; the vector-extension form below compiles its
  // clamps to compare-and-blend pairs and broadcasts the multiplier again per vector)
  const __m256i q = detail::mbqm8(same_bits<__m256i>(x), r.r8);
  return same_bits<vs32>(_mm256_add_epi32(
      _mm256_min_epi32(_mm256_max_epi32(q, same_bits<__m256i>(r.lo)), same_bits<__m256i>(r.hi)), same_bits<__m256i>(r.zp)));
#elif CTNN_DW_WIDEN_X86 && defined(__AVX512F__)
  // AVX-512 likewise (mbqm16): the vector-extension form's 64-bit products compiled to vpmullq
  // (3 uops on Intel) after sign-extending both halves; _mm512_mul_epi32 takes the even lanes
  const __m512i q = detail::mbqm16(same_bits<__m512i>(x), r.r16);
  return same_bits<vs32>(_mm512_add_epi32(
      _mm512_min_epi32(_mm512_max_epi32(q, same_bits<__m512i>(r.lo)), same_bits<__m512i>(r.hi)), same_bits<__m512i>(r.zp)));
#else
  const simd::vu32 s = __builtin_convertvector(x, simd::vu32) << r.left;  // wraps, as TFLite on hardware
  const simd::vs64_lanes prod = __builtin_convertvector(__builtin_convertvector(s, vs32), simd::vs64_lanes) * r.mult;
  const vs32 v = __builtin_convertvector((prod + (int64_t{1} << 30)) >> 31, vs32);
  const vs32 thr = r.half - (v < 0);                      // (v < 0) is -1 where true
  vs32 q = (v >> r.right) - ((v & r.mask) > thr);         // + 1 above the threshold
  const vs32 below = q < r.lo, above = q > r.hi;
  q = (q & ~below) | (r.lo & below);
  q = (q & ~above) | (r.hi & above);
  return q + r.zp;
#endif
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/// int32 lanes already in [-128, 127] as int8 lanes: AVX2 picks their low bytes (narrow8; GCC 12
/// lowers __builtin_convertvector's narrowing lane by lane without AVX-512's vpmovdb), AVX-512
/// narrows with vpmovdb.
inline simd::vs8_lanes narrow_s8(const simd::vs32& q) {
#if CTNN_DW_AVX2_S8
  return same_bits<simd::vs8_lanes>(detail::narrow8(same_bits<__m256i>(q)));
#elif CTNN_DW_WIDEN_X86 && defined(__AVX512F__)
  // vpmovdb (the lanes of requantize_lanes' intrinsics: GCC 12 narrows them element by element)
  return same_bits<simd::vs8_lanes>(_mm512_cvtepi32_epi8(same_bits<__m512i>(q)));
#else
  return __builtin_convertvector(q, simd::vs8_lanes);
#endif
}

/// Calls fn.template operator()<K, S>() for a geometry of the vector kernel; false otherwise.
template <class Fn>
inline bool with_window(const conv_geometry& g, Fn&& fn) {
  if (g.kh != g.kw || g.sh != g.sw || g.dh != 1 || g.dw != 1 || row_len(g) > row_cap) return false;
  if (g.kh == 3 && g.sh == 1) return fn.template operator()<3, 1>(), true;
  if (g.kh == 3 && g.sh == 2) return fn.template operator()<3, 2>(), true;
  if (g.kh == 5 && g.sh == 1) return fn.template operator()<5, 1>(), true;
  if (g.kh == 5 && g.sh == 2) return fn.template operator()<5, 2>(), true;
  return false;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

#if CTNN_DW_CHANNEL_LANES
/// Pixels of the channel-lane path's input tile (16 floats each, on the stack: 40 KiB; 64 KiB
/// measured 3-10 % slower on the 56- and 28-wide maps, the tile no longer in L1).
inline constexpr int64_t clane_tile_cap = 640;

/// 16 x 16 bytes transposed, t[j] byte i = r[i] byte j: four rounds of unpacking (8-, 16-, 32-
/// and 64-bit), each round pairing the previous one's outputs.
inline void transpose16x16(const __m128i (&r)[16], __m128i (&t)[16]) {
  __m128i b[16], c[16];
  for (int i = 0; i < 8; ++i) {  // b[i]: rows 2i, 2i+1 of columns 0-7; b[i + 8]: of columns 8-15
    b[i] = _mm_unpacklo_epi8(r[2 * i], r[2 * i + 1]);
    b[i + 8] = _mm_unpackhi_epi8(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {  // c[4 g + i]: rows 4i .. 4i+3 of columns 4g .. 4g+3
    c[i] = _mm_unpacklo_epi16(b[2 * i], b[2 * i + 1]);
    c[i + 4] = _mm_unpackhi_epi16(b[2 * i], b[2 * i + 1]);
    c[i + 8] = _mm_unpacklo_epi16(b[2 * i + 8], b[2 * i + 9]);
    c[i + 12] = _mm_unpackhi_epi16(b[2 * i + 8], b[2 * i + 9]);
  }
  for (int g = 0; g < 4; ++g) {  // rows 0-7 then 8-15 of columns 4g, 4g+1 (lo) and 4g+2, 4g+3 (hi)
    const __m128i e0 = _mm_unpacklo_epi32(c[4 * g], c[4 * g + 1]), e1 = _mm_unpackhi_epi32(c[4 * g], c[4 * g + 1]);
    const __m128i e2 = _mm_unpacklo_epi32(c[4 * g + 2], c[4 * g + 3]), e3 = _mm_unpackhi_epi32(c[4 * g + 2], c[4 * g + 3]);
    t[4 * g] = _mm_unpacklo_epi64(e0, e2);
    t[4 * g + 1] = _mm_unpackhi_epi64(e0, e2);
    t[4 * g + 2] = _mm_unpacklo_epi64(e1, e3);
    t[4 * g + 3] = _mm_unpackhi_epi64(e1, e3);
  }
}

/// Whether depthwise_s8 runs g's channels in lanes, 16 at a time (depthwise_s8_clanes): channel
/// multiplier 1, output rows of at most 64, and K padded input rows of the windows' width within
/// clane_tile_cap pixels. Against the plane path (Intel Xeon, AVX-512, MobileNetV2's layers):
/// 7- and 14-wide maps 2-3x faster, 28- and 56-wide 1.1-1.5x, the 112-wide stride-1 layer 15 %
/// slower (hence the width limit).
template <int K, int S>
constexpr bool clanes_fit(const conv_geometry& g) {
  const int64_t wp = (g.out_w() - 1) * S + K;
  return g.out_c == g.in_c && g.in_c >= 16 && g.out_w() <= 64 && K * wp <= clane_tile_cap;
}

// transpose16x16 of 16 floats a lane: x86::transpose16x16 (x86.hpp), shared with tiled.hpp
using x86::transpose16x16;

/// Channels c0 .. c0 + 15 of a depthwise conv (int8 or float) with the channels in the 16 lanes,
/// in bands of output rows whose windows' input fits the tile: the input rows are transposed 16
/// pixels at a time into a pixel-major tile of floats (int8: x - a_zp; 0 in the padding), each
/// output pixel is K x K multiply-adds of whole vectors in the reference's tap order with the
/// taps' weights in lanes (wv), and finish(oy, ox0, n, acc) takes the sums of output pixels
/// ox0 .. ox0 + n of row oy (n <= 16).
template <int K, int S, class T, class Finish>
inline void clanes_bands(const conv_geometry& g, int64_t c0, const T* in, int32_t a_zp, const __m512 (&wv)[K * K],
                         Finish&& finish) {
  const int64_t oh = g.out_h(), ow = g.out_w(), wp = (ow - 1) * S + K;
  const int64_t band = (clane_tile_cap / wp - K) / S + 1;  // output rows per tile
  const int64_t plane = g.in_h * g.in_w;
  alignas(64) float tile[clane_tile_cap * 16];
  for (int64_t oy0 = 0; oy0 < oh; oy0 += band) {
    const int64_t rows = min(band, oh - oy0), hp = (rows - 1) * S + K, y0 = oy0 * S - g.pt;  // input row of tile row 0
    for (int64_t i = 0; i < hp * wp; ++i) _mm512_store_ps(tile + i * 16, _mm512_setzero_ps());
    for (int64_t iy = max<int64_t>(y0, 0); iy < g.in_h && iy < y0 + hp; ++iy)
      for (int64_t x0 = 0; x0 < g.in_w && x0 + g.pl < wp; x0 += 16) {
        const int64_t n = min<int64_t>(16, g.in_w - x0);
        const auto m = static_cast<__mmask16>((1u << n) - 1u);
        const T* src = in + c0 * plane + iy * g.in_w + x0;
        __m512 px[16];  // px[j]: pixel x0 + j's 16 channels
        if constexpr (is_same_v<T, int8_t>) {
          __m128i r[16], t[16];
          for (int l = 0; l < 16; ++l) r[l] = _mm_maskz_loadu_epi8(m, src + l * plane);
          transpose16x16(r, t);
          for (int j = 0; j < 16; ++j)
            px[j] = _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_cvtepi8_epi32(t[j]), _mm512_set1_epi32(a_zp)));
        } else {
          __m512 r[16];
          for (int l = 0; l < 16; ++l) r[l] = _mm512_maskz_loadu_ps(m, src + l * plane);
          transpose16x16(r, px);
        }
        float* row = tile + (iy - y0) * wp * 16;
        for (int64_t j = 0; j < n && x0 + j + g.pl < wp; ++j) _mm512_store_ps(row + (x0 + j + g.pl) * 16, px[j]);
      }
    for (int64_t oy = oy0; oy < oy0 + rows; ++oy)
      for (int64_t ox0 = 0; ox0 < ow; ox0 += 16) {
        const int64_t n = min<int64_t>(16, ow - ox0);
        __m512 acc[16];
        for (int64_t j = 0; j < n; ++j) {
          const float* base = tile + ((oy - oy0) * S * wp + (ox0 + j) * S) * 16;
          acc[j] = _mm512_setzero_ps();
          for (int ky = 0; ky < K; ++ky)
            for (int kx = 0; kx < K; ++kx)
              acc[j] = _mm512_fmadd_ps(_mm512_load_ps(base + (ky * wp + kx) * 16), wv[ky * K + kx], acc[j]);
        }
        finish(oy, ox0, n, acc);
      }
  }
}

/// The taps' weights of channels c0 .. c0 + 15 in lanes, minus zp (int8's weight zero point).
template <int K, class T>
inline void clanes_weights(const T* w, int64_t c0, int32_t zp, __m512 (&wv)[K * K]) {
  for (int k = 0; k < K * K; ++k) {
    alignas(64) float lane[16];
    for (int l = 0; l < 16; ++l) lane[l] = static_cast<float>(w[(c0 + l) * K * K + k]) - static_cast<float>(zp);
    wv[k] = _mm512_load_ps(lane);
  }
}

/// clanes_bands for int8: each sum (an exact integer) to int32 plus the bias (modulo 2^32, the
/// reference's wrap), requantized per lane (mbqm16: each channel's multiplier and shift in its
/// lane) and narrowed; 16 pixels' bytes transposed back to the 16 channels' rows. Exact as the
/// plane path is (integer products and sums below 2^24 in float), bit-exact with ref::conv2d_s8.
template <int K, int S>
inline void depthwise_s8_clanes(const conv_geometry& g, int64_t c0, const int8_t* in, const int8_t* w,
                                const int32_t* bias, int8_t* out, const ref::gemm_s8_params& p) {
  const int64_t oplane = g.out_h() * g.out_w(), ow = g.out_w();
  __m512 wv[K * K];
  clanes_weights<K>(w, c0, p.b_zp, wv);
  const __m512i bv = bias != nullptr ? _mm512_loadu_si512(bias + c0) : _mm512_setzero_si512();
  const requant16 rq = p.per_channel ? make_requant16(_mm512_loadu_si512(p.multiplier + c0), _mm512_loadu_si512(p.shift + c0))
                                     : make_requant16(_mm512_set1_epi32(p.multiplier[0]), _mm512_set1_epi32(p.shift[0]));
  const __m512i lo = _mm512_set1_epi32(p.act_min - p.out_zp), hi = _mm512_set1_epi32(p.act_max - p.out_zp);
  const __m512i ozp = _mm512_set1_epi32(p.out_zp);
  clanes_bands<K, S>(g, c0, in, p.a_zp, wv, [&](int64_t oy, int64_t ox0, int64_t n, const __m512 (&acc)[16]) {
    __m128i r[16], t[16];
    for (int64_t j = 0; j < n; ++j) {  // acc[j] holds a sum for j < n only
      const __m512i q = mbqm16(_mm512_add_epi32(_mm512_cvttps_epi32(acc[j]), bv), rq);
      r[j] = _mm512_cvtepi32_epi8(_mm512_add_epi32(_mm512_min_epi32(_mm512_max_epi32(q, lo), hi), ozp));
    }
    for (int64_t j = n; j < 16; ++j) r[j] = _mm_setzero_si128();
    transpose16x16(r, t);
    const auto om = static_cast<__mmask16>((1u << n) - 1u);
    for (int l = 0; l < 16; ++l) _mm_mask_storeu_epi8(out + (c0 + l) * oplane + oy * ow + ox0, om, t[l]);
  });
}

#if CTNN_DW_VPDP
/// Bytes of depthwise_s8_vpdp's padded plane (on the stack).
inline constexpr int64_t vpdp_plane_cap = 32 * 1024;

/// Output rows per vector of depthwise_s8_vpdp (wp: the padded row's bytes): rows of at most 8
/// outputs share the 16 lanes (a 7-wide map: 2 rows, 14 lanes), as many as 16 lanes hold and one
/// 64-byte load reaches every byte of their windows; 1 otherwise.
template <int K, int S>
constexpr int64_t vpdp_rows(const conv_geometry& g, int64_t wp) {
  const int64_t ow = g.out_w();
  for (int64_t r = 16 / ow; r > 1; --r)
    if ((r - 1) * S * wp + (ow - 1) * S + ((K + 3) / 4) * 4 <= 64) return r;
  return 1;
}

/// Whether depthwise_s8 runs g through depthwise_s8_vpdp: channel multiplier 1, the weights'
/// zero point 0 (the correction is then one constant per channel), and the padded plane (with
/// the slack the last vector reads) within vpdp_plane_cap.
template <int K, int S>
constexpr bool vpdp_fits(const conv_geometry& g, int32_t w_zp) {
  const int64_t wp = g.pl + g.in_w + g.pr, hp = g.pt + g.in_h + g.pb;
  return g.out_c == g.in_c && w_zp == 0 && (hp + S * vpdp_rows<K, S>(g, wp)) * wp + 128 <= vpdp_plane_cap;
}

/// int8 depthwise in bytes, one channel plane at a time: the plane is copied with its padding into
/// P as u8 (x + 128; padding a_zp + 128, the real 0), and 16 outputs (pixels of one row, or of
/// up to 16 / ow rows of a narrow map) are a vector of int32 sums. Per window row ky, one 64-byte
/// load at the vector's first window and a vpermb put each output's 4 window bytes in its lane
/// (lane l: bytes l S + q, q < 4; a 5-wide window takes a second quad from l S + 4), and one
/// vpdpbusd adds them times the row's weights (w[ky][0..3], 0 past K):
///
///   lane l of quad 0 = P[y][x0 + l S + 0..3] . (w[ky][0], w[ky][1], w[ky][2], 0)     (K = 3)
///
/// sum (x - a_zp) w = sum (x + 128) w - (a_zp + 128) sum w, so the zero point is one constant per
/// channel, folded with the bias into make_s8_rq_row's fields (rq16_fused: one rounding, exact),
/// or, for a channel outside its range, added (wrapping) before mbqm16. Bit-exact with
/// ref::conv2d_s8: the sums are the reference's integers, the requantization its arithmetic.
template <int K, int S>
inline void depthwise_s8_vpdp(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias,
                              int8_t* out, const ref::gemm_s8_params& p) {
  constexpr int quads = (K + 3) / 4;
  const int64_t wp = g.pl + g.in_w + g.pr, hp = g.pt + g.in_h + g.pb, oh = g.out_h(), ow = g.out_w();
  const int64_t R = vpdp_rows<K, S>(g, wp), plane = g.in_h * g.in_w;
  const int64_t used = R > 1 ? R * ow : 16;  // lanes of a vector holding outputs
  alignas(64) uint8_t P[vpdp_plane_cap];
  const auto pad = static_cast<uint8_t>(p.a_zp + 128);
  // the rows above and below the input, the left and right padding, and the slack past the plane
  // keep the padding value: written once, the input rows overwrite only their own bytes
  __builtin_memset(P, pad, static_cast<size_t>((hp + S * R) * wp + 128));
  // vpermb's index per quad: lane l = r ow + c reads the bytes r S wp + c S + 4 qd + (0..3)
  __m512i idx[quads];
  for (int qd = 0; qd < quads; ++qd) {
    alignas(64) uint8_t ix[64];
    for (int l = 0; l < 16; ++l)
      for (int q = 0; q < 4; ++q) {
        const int64_t r = R > 1 ? l / ow : 0, c = R > 1 ? l % ow : l;
        const int64_t off = R > 1 && l >= used ? 0 : r * S * wp + c * S + 4 * qd + q;
        ix[4 * l + q] = static_cast<uint8_t>(off);
      }
    idx[qd] = _mm512_load_si512(ix);
  }
  const __m512i lo = _mm512_set1_epi32(p.act_min), hi = _mm512_set1_epi32(p.act_max);
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  for (int64_t c = 0; c < g.out_c; ++c) {
    const int8_t* src = in + c * plane;
    for (int64_t y = 0; y < g.in_h; ++y) {
      uint8_t* row = P + (g.pt + y) * wp + g.pl;
      for (int64_t x = 0; x < g.in_w; x += 64) {
        const int64_t n = min<int64_t>(64, g.in_w - x);
        const auto m = n == 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
        _mm512_mask_storeu_epi8(row + x, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, src + y * g.in_w + x), flip));
      }
    }
    // the window rows' weights, 4 bytes to a quad (0 past K), broadcast
    __m512i wq[K][quads];
    int32_t wsum = 0;
    for (int ky = 0; ky < K; ++ky)
      for (int qd = 0; qd < quads; ++qd) {
        uint32_t v = 0;
        for (int q = 0; q < 4; ++q) {
          const int kx = 4 * qd + q;
          const int8_t wv = kx < K ? w[(c * K + ky) * K + kx] : int8_t{0};
          wsum += wv;
          v |= static_cast<uint32_t>(static_cast<uint8_t>(wv)) << (8 * q);
        }
        wq[ky][qd] = _mm512_set1_epi32(static_cast<int32_t>(v));
      }
    const int32_t b = bias != nullptr ? bias[c] : 0;
    const int q = p.per_channel ? static_cast<int>(c) : 0;
    s8_rq_row rq{};
    const bool fast = make_s8_rq_row(wsum, b, p.a_zp + 128, 4 * quads * K, p.multiplier[q], p.shift[q], p.out_zp, rq);
    const __m512i rt = _mm512_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(b) -
                                                              static_cast<uint32_t>(p.a_zp + 128) *
                                                                  static_cast<uint32_t>(wsum)));
    const requant16 slow = make_requant16(_mm512_set1_epi32(p.multiplier[q]), _mm512_set1_epi32(p.shift[q]));
    const __m512i ozp = _mm512_set1_epi32(p.out_zp);
    int8_t* o = out + c * oh * ow;
    for (int64_t oy = 0; oy < oh; oy += R) {
      const int64_t rows = min(R, oh - oy);
      for (int64_t ox = 0; ox < ow; ox += 16) {
        const int64_t n = R > 1 ? rows * ow : min<int64_t>(16, ow - ox);
        const uint8_t* base = P + oy * S * wp + ox * S;
        __m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 5
        for (int ky = 0; ky < K; ++ky) {
          const __m512i v = _mm512_loadu_si512(base + ky * wp);
#pragma GCC unroll 2
          for (int qd = 0; qd < quads; ++qd)
            acc = _mm512_dpbusd_epi32(acc, _mm512_permutexvar_epi8(idx[qd], v), wq[ky][qd]);
        }
        __m512i v = fast ? rq16_fused(acc, rq) : _mm512_add_epi32(mbqm16(_mm512_add_epi32(acc, rt), slow), ozp);
        v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
        _mm512_mask_cvtsepi32_storeu_epi8(o + oy * ow + ox, static_cast<__mmask16>((1u << n) - 1u), v);
      }
    }
  }
}
#endif

/// Whether depthwise_f32 runs g in channel lanes: as clanes_fit, narrower. Against its plane path
/// (Intel Xeon, AVX-512, MobileNetV2's and EfficientNet's layers): 7- and 14-wide maps 2.3-3.1x
/// faster, 28-wide 1.6x (3x3 stride 1) and 1.2-1.7x (5x5), but 3x3 stride 2 to 28 wide 9 %
/// slower, 56 wide 3-15 %.
template <int K, int S>
constexpr bool clanes_fit_f32(const conv_geometry& g) {
  return clanes_fit<K, S>(g) && (g.out_w() <= 16 || (g.out_w() <= 32 && (S == 1 || K == 5)));
}

/// clanes_bands for float: the bias added last, as the reference adds it, then the clamp (act:
/// null or {lo, hi}; simd::clamp, NaN lanes kept as clamp_f32 keeps them); 16 pixels transposed
/// back to the 16 channels' rows.
template <int K, int S>
inline void depthwise_f32_clanes(const conv_geometry& g, int64_t c0, const float* in, const float* w,
                                 const float* bias, float* out, const float* act) {
  const int64_t oplane = g.out_h() * g.out_w(), ow = g.out_w();
  __m512 wv[K * K];
  clanes_weights<K>(w, c0, 0, wv);
  const __m512 bv = bias != nullptr ? _mm512_loadu_ps(bias + c0) : _mm512_setzero_ps();
  const simd::vf32 lo = simd::vf32{} + (act != nullptr ? act[0] : 0.0f), hi = simd::vf32{} + (act != nullptr ? act[1] : 0.0f);
  clanes_bands<K, S>(g, c0, in, 0, wv, [&](int64_t oy, int64_t ox0, int64_t n, const __m512 (&acc)[16]) {
    __m512 r[16], t[16];
    for (int64_t j = 0; j < 16; ++j) {
      r[j] = j < n ? _mm512_add_ps(acc[j], bv) : _mm512_setzero_ps();
      if (act != nullptr) r[j] = (__m512)simd::clamp((simd::vf32)r[j], lo, hi);
    }
    transpose16x16(r, t);
    const auto om = static_cast<__mmask16>((1u << n) - 1u);
    for (int l = 0; l < 16; ++l) _mm512_mask_storeu_ps(out + (c0 + l) * oplane + oy * ow + ox0, om, t[l]);
  });
}
#endif

/// act: null, or {lo, hi}: each output clamped as it is stored (a fused activation).
template <int K, int S>
inline void depthwise_f32(const conv_geometry& g, const float* in, const float* w, const float* bias, float* out,
                          const float* act) {
  int64_t oc0 = 0;  // the channels before it ran in lanes
#if CTNN_DW_CHANNEL_LANES
  if (clanes_fit_f32<K, S>(g)) {
    for (; oc0 + 16 <= g.out_c; oc0 += 16) depthwise_f32_clanes<K, S>(g, oc0, in, w, bias, out, act);
    if (oc0 == g.out_c) return;
  }
#endif
  ring<K, S> rg;
  for (int64_t i = 0; i < row_cap; ++i) rg.zero[i] = 0.0f;
  const int64_t oh = g.out_h(), ow = g.out_w(), mult = g.out_c / g.in_c, plane = g.in_h * g.in_w;
  const float* end = out + g.out_elems();
  for (int64_t oc = oc0; oc < g.out_c; ++oc) {
    float* o = out + oc * oh * ow;
    const bool has_bias = bias != nullptr;
    const float b = has_bias ? bias[oc] : 0.0f;
    const simd::vf32 lo = simd::vf32{} + (act != nullptr ? act[0] : 0.0f);
    const simd::vf32 hi = simd::vf32{} + (act != nullptr ? act[1] : 0.0f);
    auto finish = [&](const simd::vf32& acc, int64_t oy, int64_t x, int64_t n) {
      // the bias last, as the reference adds it, then the clamp
      const simd::vf32 v = has_bias ? acc + b : acc;
      store_n(o + oy * ow + x, act != nullptr ? simd::clamp(v, lo, hi) : v, n, end);
    };
    plane_lanes<K, S>(g, rg, in + (oc / mult) * plane, 0, w + oc * K * K, finish);
  }
}

template <int K, int S>
inline void depthwise_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias, int8_t* out,
                         const ref::gemm_s8_params& p) {
  int64_t oc0 = 0;  // the channels before it ran in lanes
#if CTNN_DW_VPDP
  // maps of at most 16 outputs a row stay in channel lanes where those fit (as fast or faster:
  // 384 x 14 x 14 0.055 vs 0.08 ms, 960 x 7 x 7 0.047 vs 0.05)
  if (vpdp_fits<K, S>(g, p.b_zp) && (g.out_w() > 16 || !clanes_fit<K, S>(g)))
    return depthwise_s8_vpdp<K, S>(g, in, w, bias, out, p);
#endif
#if CTNN_DW_CHANNEL_LANES
  if (clanes_fit<K, S>(g)) {
    for (; oc0 + 16 <= g.out_c; oc0 += 16) depthwise_s8_clanes<K, S>(g, oc0, in, w, bias, out, p);
    if (oc0 == g.out_c) return;
  }
#endif
  ring<K, S> rg;
  for (int64_t i = 0; i < row_cap; ++i) rg.zero[i] = 0.0f;
  const int64_t oh = g.out_h(), ow = g.out_w(), mult = g.out_c / g.in_c, plane = g.in_h * g.in_w;
  const int8_t* end = out + g.out_elems();
  for (int64_t oc = oc0; oc < g.out_c; ++oc) {
    float wk[K * K];
    for (int i = 0; i < K * K; ++i) wk[i] = static_cast<float>(w[oc * K * K + i] - p.b_zp);
    const requant_lanes rq = make_requant_lanes(scalar::channel_requant(p, static_cast<int32_t>(oc)));
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
    int8_t* o = out + oc * oh * ow;
    auto finish = [&](const simd::vf32& acc, int64_t oy, int64_t x, int64_t n) {
      // the sum is an exact integer: to int32, plus the bias modulo 2^32 (the reference's wrap)
      const simd::vu32 sum = __builtin_convertvector(__builtin_convertvector(acc, simd::vs32), simd::vu32) + b;
      const simd::vs32 q = requantize_lanes(__builtin_convertvector(sum, simd::vs32), rq);
      store_n(o + oy * ow + x, narrow_s8(q), n, end);
    };
    plane_lanes<K, S>(g, rg, in + (oc / mult) * plane, p.a_zp, wk, finish);
  }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace dw

}  // namespace detail

/// @brief True when depthwise_conv2d_f32 / _s8 run g in vector lanes (3x3 or 5x5, equal strides
/// 1 or 2, no dilation, output rows up to about detail::dw::row_cap wide; not on RISC-V).
constexpr bool depthwise_vectorized(const conv_geometry& g) {
  if (CTNN_KERNELS_SCALAR || !g.valid() || !g.depthwise()) return false;
  return g.kh == g.kw && (g.kh == 3 || g.kh == 5) && g.sh == g.sw && (g.sh == 1 || g.sh == 2) && g.dh == 1 &&
         g.dw == 1 && detail::dw::row_len(g) <= detail::dw::row_cap;
}

/// @brief Depthwise conv2d, float (groups == in_c, out_c = in_c * multiplier): vector lanes for
/// the geometries of depthwise_vectorized, the direct loop otherwise. Within float rounding of
/// ref::conv2d_f32 (the taps summed per window row, then the rows, possibly with fused
/// multiply-adds; the bias last, as there). Writes only the output buffer, but may write a lane of
/// it before its final value. act_lo, act_hi: a fused activation's clamp, applied as the vector
/// paths store (after the direct loop, in a pass); none when both are infinite.
inline status depthwise_conv2d_f32(const conv_geometry& g, const float* in, const float* w, const float* bias,
                                   float* out, float act_lo = -__builtin_huge_valf(),
                                   float act_hi = __builtin_huge_valf()) {
  if (!g.valid() || !g.depthwise()) return status::bad_geometry;
  if (in == nullptr || w == nullptr || out == nullptr) return status::null_pointer;
#if !CTNN_KERNELS_SCALAR  // RISC-V: not even instantiated (the ring's stack frame, the code size)
  const float bounds[2] = {act_lo, act_hi};
  const float* act = detail::clamps(act_lo, act_hi) ? bounds : nullptr;
  if (depthwise_vectorized(g) &&
      detail::dw::with_window(g, [&]<int K, int S>() { detail::dw::depthwise_f32<K, S>(g, in, w, bias, out, act); }))
    return status::ok;
#endif
  detail::depthwise_direct_f32(g, in, w, bias, out);
  detail::clamp_f32(out, g.out_elems(), act_lo, act_hi);
  return status::ok;
}

/// @brief Depthwise conv2d, int8 (p as in ref::conv2d_s8), bit-exact with ref::conv2d_s8: vector
/// lanes for the geometries of depthwise_vectorized, the direct loop otherwise; on RISC-V
/// (CTNN_KERNELS_SCALAR) scalar::depthwise_conv2d_s8.
inline status depthwise_conv2d_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias,
                                  int8_t* out, const ref::gemm_s8_params& p) {
  if (!g.valid() || !g.depthwise()) return status::bad_geometry;
  if (in == nullptr || w == nullptr || out == nullptr) return status::null_pointer;
  if (const status s = ref::check_params(p, static_cast<int>(g.out_c)); s != status::ok) return s;
#if CTNN_KERNELS_SCALAR
  return scalar::depthwise_conv2d_s8(g, in, w, bias, out, p);
#else
  if (depthwise_vectorized(g) &&
      detail::dw::with_window(g, [&]<int K, int S>() { detail::dw::depthwise_s8<K, S>(g, in, w, bias, out, p); }))
    return status::ok;
  detail::depthwise_direct_s8(g, in, w, bias, out, p);
  return status::ok;
#endif
}

}  // namespace ctnn::kernels
