// The TFLite requantization in 8 int32 lanes with AVX2, shared by the int8 GEMM's
// epilogue and the int8 add and multiply (tiled.hpp, layers.hpp) and the depthwise kernel
// (depthwise.hpp): quant::multiply_by_quantized_multiplier bit-exact, and the narrowing of
// lanes already in [-128, 127] to bytes. Defined only where the target has AVX2 (x86.hpp);
// elsewhere this header declares nothing.
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
/// (quant::valid), as tiled.hpp's mbqm16 (AVX-512). AVX2 has no 64-bit arithmetic shift, but only bits 31..62 of
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

}  // namespace ctnn::kernels::detail
#endif
