// <immintrin.h> for the x86 paths of the kernels (tiled.hpp, gemv.hpp, depthwise.hpp), included
// once, when the target has AVX2 or AVX-512 and CTNN_PORTABLE_KERNELS is not set. GCC 12's
// AVX-512 intrinsics trip -Wmaybe-uninitialized on their own _mm512_undefined_* (GCC bug
// 105593); the diagnostic is located in the intrinsic header, so it is silenced there.
// Elsewhere (SSE2 builds, RISC-V) this header includes nothing.
#pragma once

#if (defined(__AVX2__) || defined(__AVX512F__)) && !defined(CTNN_PORTABLE_KERNELS)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#define CTNN_KERNELS_X86 1

namespace ctnn::kernels::x86 {
/// True on an AMD processor (cpuid leaf 0: "AuthenticAMD"), read once. The float GEMM takes a
/// few of its blocking choices by vendor where they measured opposite on an Intel Xeon and an AMD
/// Zen 5 core (tiled.hpp: f32_intel_blocking_host).
inline bool vendor_amd() {
  static const bool amd = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0u), "c"(0u));
    return b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u;  // "Auth" "enti" "cAMD"
  }();
  return amd;
}

#if defined(__AVX512F__)
/// 16 x 16 32-bit lanes transposed, t[j] lane i = r[i] lane j: pairs (unpack ps), quads (unpack
/// pd), then the 128-bit quarters (two rounds of shuffle_f32x4). Shuffles only: integer lanes go
/// through the casts bit for bit (depthwise.hpp's channel lanes, tiled.hpp's pack_a_s8).
inline void transpose16x16(const __m512 (&r)[16], __m512 (&t)[16]) {
  __m512 a[16], b[16];
  for (int i = 0; i < 8; ++i) {  // per quarter L: rows 2i, 2i+1 of columns 4L, 4L+1 | 4L+2, 4L+3
    a[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    a[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {  // b[4i + q], quarter L: rows 4i .. 4i+3 of column 4L + q
    const __m512d a0 = _mm512_castps_pd(a[4 * i]), a1 = _mm512_castps_pd(a[4 * i + 1]);
    const __m512d a2 = _mm512_castps_pd(a[4 * i + 2]), a3 = _mm512_castps_pd(a[4 * i + 3]);
    b[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
    b[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
    b[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
    b[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
  }
  for (int q = 0; q < 4; ++q) {  // column 4L + q: quarter L of b[q], b[4 + q], b[8 + q], b[12 + q]
    const __m512 c0 = _mm512_shuffle_f32x4(b[q], b[4 + q], 0x88), c1 = _mm512_shuffle_f32x4(b[q], b[4 + q], 0xDD);
    const __m512 c2 = _mm512_shuffle_f32x4(b[8 + q], b[12 + q], 0x88);
    const __m512 c3 = _mm512_shuffle_f32x4(b[8 + q], b[12 + q], 0xDD);
    t[q] = _mm512_shuffle_f32x4(c0, c2, 0x88);
    t[8 + q] = _mm512_shuffle_f32x4(c0, c2, 0xDD);
    t[4 + q] = _mm512_shuffle_f32x4(c1, c3, 0x88);
    t[12 + q] = _mm512_shuffle_f32x4(c1, c3, 0xDD);
  }
}
#endif
}  // namespace ctnn::kernels::x86
#else
#define CTNN_KERNELS_X86 0
#endif
