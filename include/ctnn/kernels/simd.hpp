// Portable SIMD vocabulary for the kernels: GCC/Clang vector extensions sized to the host's
// widest vector unit (scalar-lowered on rv32im), unaligned load/store, and tile index helpers
// that become shifts and masks when the tile size is a power of two.
#pragma once
#include "ctnn/core/bits.hpp"
#include "ctnn/core/utility.hpp"
#include "ctnn/kernels/x86.hpp"

namespace ctnn::kernels::simd {

#if defined(__AVX512F__)
inline constexpr int vector_bytes = 64;
#elif defined(__AVX__)
inline constexpr int vector_bytes = 32;
#else
inline constexpr int vector_bytes = 16;
#endif

/// Float lanes in one vector.
inline constexpr int f32_lanes = vector_bytes / 4;

typedef float vf32 __attribute__((vector_size(vector_bytes)));
typedef int32_t vs32 __attribute__((vector_size(vector_bytes)));
typedef uint32_t vu32 __attribute__((vector_size(vector_bytes)));
/// As many int64 (two vectors' worth) and int8 (a quarter vector) lanes as vf32 has: widening
/// multiplies and narrowing stores of int32 lanes (__builtin_convertvector).
typedef int64_t vs64_lanes __attribute__((vector_size(2 * vector_bytes)));
typedef int8_t vs8_lanes __attribute__((vector_size(vector_bytes / 4)));

/// Unaligned vector load/store through memcpy (one instruction after optimization, no aliasing UB).
/// V may be wider than the target's registers (see -Wpsabi note in tiled.hpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
template <class V, class T>
inline V load(const T* p) {
  V v;
  __builtin_memcpy(&v, p, sizeof(V));
  return v;
}
template <class V, class T>
inline void store(T* p, const V& v) {
  __builtin_memcpy(p, &v, sizeof(V));
}

/// v clamped to [lo, hi] lane by lane as detail::clamp_f32 clamps one float (v < lo ? lo :
/// v > hi ? hi : v; a NaN lane stays NaN), no libm. x86: max(lo, v) then min(hi, .), whose
/// "a > b ? a : b" / "a < b ? a : b" lane rule (the second operand when either is NaN, or when
/// they are equal) is exactly that; elsewhere two compares and bit selects.
inline vf32 clamp(vf32 v, vf32 lo, vf32 hi) {
#if CTNN_KERNELS_X86 && defined(__AVX512F__)
  // the all-lanes masked forms: GCC 12's _mm512_max_ps passes _mm512_undefined_ps(), which
  // -Wuninitialized reports where it is inlined (GCC bug 105593)
  const __m512 a = _mm512_mask_max_ps((__m512)lo, __mmask16(0xFFFF), (__m512)lo, (__m512)v);
  return (vf32)_mm512_mask_min_ps(a, __mmask16(0xFFFF), (__m512)hi, a);
#elif CTNN_KERNELS_X86
  return (vf32)_mm256_min_ps((__m256)hi, _mm256_max_ps((__m256)lo, (__m256)v));
#else
  const vs32 below = v < lo, above = v > hi;
  const vs32 bits = ((vs32)lo & below) | ((vs32)hi & above) | ((vs32)v & ~(below | above));
  return (vf32)bits;
#endif
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace ctnn::kernels::simd

namespace ctnn::kernels::detail {

#if CTNN_KERNELS_X86 && defined(__AVX512F__)
/// The lanes l of a window of Lanes (<= 63) values starting at input column `start` whose column
/// start + l lies in [0, in_w), within the first `n` lanes, as a bit mask (the masked loads and
/// stores of im2col_rows_f32, of the Winograd transforms and of the int8 slab's rows).
template <int Lanes>
inline uint64_t window_lanes(int64_t start, int64_t in_w, int64_t n) {
  static_assert(Lanes > 0 && Lanes < 64, "window_lanes: a mask of at most 63 lanes");
  const int64_t lo = start >= 0 ? 0 : (-start < Lanes ? -start : Lanes);
  const int64_t room = in_w - start, hi0 = room <= 0 ? 0 : (room < Lanes ? room : Lanes), hi = hi0 < n ? hi0 : n;
  if (hi <= lo) return 0;
  return ((uint64_t{1} << hi) - 1u) & ~((uint64_t{1} << lo) - 1u);
}

/// window_lanes of a 16-float window.
inline __mmask16 im2col_lanes_f32(int64_t start, int64_t in_w, int64_t n) {
  return static_cast<__mmask16>(window_lanes<16>(start, in_w, n));
}

/// A value at input column x of `row`, as an address only (masked loads read no lane outside
/// the row, but the window's first address may lie before it).
template <class T>
inline const T* im2col_at(const T* row, int64_t x) {
  return reinterpret_cast<const T*>(reinterpret_cast<uintptr_t>(row) + static_cast<uintptr_t>(x) * sizeof(T));
}
#endif

/// A fused activation's clamp of one float to [lo, hi] (NaN stays NaN, as runtime::apply_fused).
constexpr float clamp_f32(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
/// Whether [lo, hi] clamps anything: a fused activation's bounds, none when both are infinite.
constexpr bool clamps(float lo, float hi) { return lo > -__builtin_huge_valf() || hi < __builtin_huge_valf(); }
/// clamp_f32 on n floats; nothing when both bounds are infinite.
inline void clamp_f32(float* y, int64_t n, float lo, float hi) {
  if (!clamps(lo, hi)) return;
  for (int64_t i = 0; i < n; ++i) y[i] = clamp_f32(y[i], lo, hi);
}

/// @brief i / T; a shift when T is a power of two.
template <int64_t T>
constexpr int64_t tile_of(int64_t i) {
  static_assert(T > 0, "tile size must be positive");
  if constexpr (bits::is_pow2(static_cast<uint64_t>(T)))
    return i >> bits::log2_exact(static_cast<uint64_t>(T));
  else
    return i / T;
}

/// @brief i % T (i >= 0); a bit-field extract when T is a power of two.
template <int64_t T>
constexpr int64_t offset_in_tile(int64_t i) {
  static_assert(T > 0, "tile size must be positive");
  if constexpr (T == 1) {
    return 0;
  } else if constexpr (bits::is_pow2(static_cast<uint64_t>(T))) {
    constexpr unsigned hi = bits::log2_exact(static_cast<uint64_t>(T)) - 1u;
    return static_cast<int64_t>(bits::extract<uint64_t>(static_cast<uint64_t>(i), hi, 0u));
  } else {
    return i % T;
  }
}

/// @brief ceil(n / T) * T.
template <int64_t T>
constexpr int64_t round_up_to_tile(int64_t n) {
  return tile_of<T>(n + T - 1) * T;
}

}  // namespace ctnn::kernels::detail
