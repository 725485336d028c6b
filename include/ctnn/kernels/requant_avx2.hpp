// The TFLite requantization in 8 int32 lanes with AVX2 and 16 with AVX-512F, shared by the
// int8 GEMM's epilogue and the int8 add and multiply (tiled.hpp, layers.hpp) and the depthwise
// kernel (depthwise.hpp): quant::multiply_by_quantized_multiplier bit-exact, and AVX2's
// narrowing of lanes already in [-128, 127] to bytes. Defined only where the target has AVX2
// (x86.hpp), the 16 lanes where it has AVX-512F; elsewhere this header declares nothing.
#pragma once
#include <stdint.h>

#include "ctnn/kernels/x86.hpp"

#if CTNN_KERNELS_X86 && defined(__AVX2__)
namespace ctnn::kernels::detail {

/// The fields of 8 lanes of multipliers and shifts that mbqm8 needs, made once where a row's
/// multiplier is one value (per-tensor, or per-channel with channels on rows).
struct requant8 {
  __m256i mult, mult_odd, left, right, mask, half;
};

inline requant8 make_requant8(__m256i mult, __m256i shift) {
  const __m256i zero = _mm256_setzero_si256();
  requant8 r;
  r.mult = mult;
  r.mult_odd = _mm256_srli_epi64(mult, 32);
  r.left = _mm256_max_epi32(shift, zero);
  r.right = _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero);
  r.mask = _mm256_sub_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), r.right), _mm256_set1_epi32(1));
  r.half = _mm256_srli_epi32(r.mask, 1);
  return r;
}

/// 8 lanes of quant::multiply_by_quantized_multiplier (AVX2), bit-exact for multipliers >= 0
/// (quant::valid), as mbqm16 (AVX-512). AVX2 has no 64-bit arithmetic shift, but only bits 31..62 of
/// (p + 2^30) are kept, and a logical shift gives the same low 32 bits (the odd lanes' bits
/// 31..62 are the high half of the sum shifted left by one).
inline __m256i mbqm8(__m256i x, const requant8& r) {
  const __m256i zero = _mm256_setzero_si256();
  x = _mm256_sllv_epi32(x, r.left);
  const __m256i nudge = _mm256_set1_epi64x(int64_t{1} << 30);
  const __m256i even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(x, r.mult), nudge), 31);
  const __m256i odd = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32), r.mult_odd), nudge);
  const __m256i high = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 1), 0xAA);
  // rounding divide by 2^right, ties away from zero: q + (rem > (mask >> 1) + (high < 0))
  const __m256i rem = _mm256_and_si256(high, r.mask);
  const __m256i thr = _mm256_sub_epi32(r.half, _mm256_cmpgt_epi32(zero, high));
  const __m256i q = _mm256_srav_epi32(high, r.right);
  return _mm256_sub_epi32(q, _mm256_cmpgt_epi32(rem, thr));
}

inline __m256i mbqm8(__m256i x, __m256i mult, __m256i shift) { return mbqm8(x, make_requant8(mult, shift)); }

/// The low byte of each of 8 int32 lanes (values already in [-128, 127]) as 8 bytes.
inline __m128i narrow8(__m256i v) {
  const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                                        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i b = _mm256_shuffle_epi8(v, pick);
  return _mm_unpacklo_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
}

#if defined(__AVX512F__)
// GCC 12.2's AVX-512 headers build unmasked results from _mm512_undefined_epi32(), which
// -Wuninitialized flags once inlined at -O3 (GCC bug 105593, fixed in 12.3 and 13): a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
/// requant8's fields in 16 lanes (AVX-512F), for mbqm16.
struct requant16 {
  __m512i mult, mult_odd, left, right, mask, half;
};

inline requant16 make_requant16(__m512i mult, __m512i shift) {
  const __m512i zero = _mm512_setzero_si512();
  requant16 r;
  r.mult = mult;
  r.mult_odd = _mm512_srli_epi64(mult, 32);
  r.left = _mm512_max_epi32(shift, zero);
  r.right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
  r.mask = _mm512_sub_epi32(_mm512_sllv_epi32(_mm512_set1_epi32(1), r.right), _mm512_set1_epi32(1));
  r.half = _mm512_srli_epi32(r.mask, 1);
  return r;
}

/// 16 lanes of quant::multiply_by_quantized_multiplier (AVX-512F), bit-exact for multipliers
/// >= 0 (quant::valid), where the a == b == INT32_MIN saturation cannot occur.
inline __m512i mbqm16(__m512i x, const requant16& r) {
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  x = _mm512_sllv_epi32(x, r.left);
  // doubling high multiply on even and odd lanes as 64-bit products p. The nudge (2^30, or
  // 1 - 2^30 when p < 0) and the division truncating toward zero equal one floor:
  // (p + 2^30) >> 31, an arithmetic shift (for p < 0 both are -floor((2^30 - 1 - p) / 2^31)).
  const __m512i nudge = _mm512_set1_epi64(int64_t{1} << 30);
  const __m512i even = _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(x, r.mult), nudge), 31);
  const __m512i odd =
      _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), r.mult_odd), nudge), 31);
  const __m512i high = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  // rounding divide by 2^right, ties away from zero: q + (rem > (mask >> 1) + (high < 0))
  const __m512i rem = _mm512_and_si512(high, r.mask);
  const __m512i thr = _mm512_mask_add_epi32(r.half, _mm512_cmplt_epi32_mask(high, zero), r.half, one);
  const __m512i q = _mm512_srav_epi32(high, r.right);
  return _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(rem, thr), q, one);
}
inline __m512i mbqm16(__m512i x, __m512i mult, __m512i shift) { return mbqm16(x, make_requant16(mult, shift)); }

/// One output row's (or channel's) requantization folded into 64-bit constants (the epilogue of
/// tiled's gemm_s8_offsets_impl, of the int8 depthwise kernel and of the int8 add). With
/// T = raw + rt the exact value to requantize, m the multiplier and r = -shift >= 0 the right
/// shift, TFLite's two roundings
///   h = floor((T m + 2^30) / 2^31)                        (the doubling high multiply)
///   q = floor((h + 2^(r-1) - [h < 0]) / 2^r)              (the divide by 2^r, ties away from 0)
/// are one floor, since floor((floor(a / b) + c) / d) = floor((a + c b) / (b d)) for integers:
///   q + zp = (raw m + add - [raw m < thr] 2^31) >> (31 + r),   h < 0  <=>  T m < -2^30,
///   add = rt m + 2^30 + 2^(30 + r) + zp 2^(31 + r),   thr = -2^30 - rt m
/// (r = 0: q = h, add = rt m + 2^30 + zp 2^31 and no correction), two 32 x 32 -> 64-bit
/// products per pair of lanes, no 32-bit high multiply and no second rounding step. Exact where
/// T never wraps in int32 (|raw| <= raw_bound), the shift is not a left shift and at most a right
/// shift of 23 (every sum stays below 2^63), the multiplier is non-negative (quant::valid) and,
/// for r = 0, q + zp stays in int32; make_rq_fused says whether they hold.
struct s8_rq_row {
  int64_t add, thr, sh, mult;
};

inline bool make_rq_fused(int64_t rt, int64_t raw_bound, int32_t mult, int32_t shift, int32_t out_zp, s8_rq_row& r) {
  const int64_t top = shift == 0 ? int64_t{INT32_MAX} - 128 : int64_t{INT32_MAX};
  if (shift > 0 || shift < -23 || mult < 0 || rt - raw_bound < -top - 1 || rt + raw_bound > top) return false;
  const int rs = -shift;
  r.mult = mult;
  r.sh = 31 + rs;
  r.add = rt * mult + (int64_t{1} << 30) + (rs > 0 ? int64_t{1} << (30 + rs) : 0) +
          int64_t{out_zp} * (int64_t{1} << (31 + rs));
  r.thr = rs > 0 ? -(int64_t{1} << 30) - rt * mult : INT64_MIN;
  return true;
}

/// make_rq_fused for a row of an int8 GEMM over k values (a multiple of 4): rt = bias - b_zp_u
/// rowsum, |raw| <= 128 * 255 k (u8 x s8 products).
inline bool make_s8_rq_row(int32_t rowsum, int32_t bias, int32_t b_zp_u, int64_t k, int32_t mult, int32_t shift,
                           int32_t out_zp, s8_rq_row& r) {
  return make_rq_fused(int64_t{bias} - int64_t{b_zp_u} * rowsum, 128 * 255 * k, mult, shift, out_zp, r);
}

/// 16 lanes of raw accumulators requantized through row r's fields (+ the output zero point).
inline __m512i rq16_fused(__m512i raw, const s8_rq_row& r) {
  const __m512i m = _mm512_set1_epi64(r.mult), add = _mm512_set1_epi64(r.add), thr = _mm512_set1_epi64(r.thr);
  const __m512i sh = _mm512_set1_epi64(r.sh), corr = _mm512_set1_epi64(int64_t{1} << 31);
  const __m512i pe = _mm512_mul_epi32(raw, m);                                      // lanes 0, 2, ...
  const __m512i po = _mm512_mul_epi32(_mm512_shuffle_epi32(raw, _MM_PERM_DDBB), m);  // lanes 1, 3, ...
  __m512i te = _mm512_add_epi64(pe, add), to = _mm512_add_epi64(po, add);
  te = _mm512_mask_sub_epi64(te, _mm512_cmplt_epi64_mask(pe, thr), te, corr);
  to = _mm512_mask_sub_epi64(to, _mm512_cmplt_epi64_mask(po, thr), to, corr);
  te = _mm512_srav_epi64(te, sh);
  to = _mm512_srav_epi64(to, sh);
  return _mm512_mask_shuffle_epi32(te, 0xAAAA, to, _MM_PERM_CCAA);  // odd lanes from to's low halves
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

}  // namespace ctnn::kernels::detail
#endif
