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
}  // namespace ctnn::kernels::x86
#else
#define CTNN_KERNELS_X86 0
#endif
