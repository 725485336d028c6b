// Constexpr bit-field helpers: the course's BIT_MASK / GET_ADDR_BITS macros done as
// range-checked functions. A bad range in a constant expression is a compile error.
//
//   bit index:  31 ........ hi ..... lo ........ 0
//   mask(hi,lo):  0 0 0 0 0 1 1 1 1 1 0 0 0 0 0 0
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn::bits {

namespace detail {
// Called only on a bad range; being non-constexpr it turns the constant evaluation into a
// compile error whose note names this function.
inline void bit_range_out_of_bounds_hi_must_be_ge_lo_and_below_width() {}
}  // namespace detail

/// Width in bits of an unsigned integer type.
template <class U> inline constexpr unsigned width = sizeof(U) * 8u;

/// @brief Mask with bits hi..lo (inclusive) set. Requires lo <= hi < width<U>.
template <class U = uint32_t>
constexpr U mask(unsigned hi, unsigned lo) {
  if (lo > hi || hi >= width<U>) detail::bit_range_out_of_bounds_hi_must_be_ge_lo_and_below_width();
  const U ones = static_cast<U>(~U{0});
  const U upper = static_cast<U>(ones >> (width<U> - 1u - hi));
  const U lower = static_cast<U>(ones << lo);
  return static_cast<U>(upper & lower);
}

/// @brief Bits hi..lo of v, shifted down to bit 0 (GET_ADDR_BITS).
template <class U>
constexpr U extract(U v, unsigned hi, unsigned lo) {
  return static_cast<U>((v & mask<U>(hi, lo)) >> lo);
}

/// @brief v with bits hi..lo replaced by field (field is truncated to the range width).
template <class U>
constexpr U insert(U v, unsigned hi, unsigned lo, U field) {
  const U m = mask<U>(hi, lo);
  return static_cast<U>((v & static_cast<U>(~m)) | (static_cast<U>(field << lo) & m));
}

/// @brief True when `field` fits in a field of bits hi..lo without truncation.
template <class U>
constexpr bool fits(unsigned hi, unsigned lo, U field) {
  return (field & ~(mask<U>(hi, lo) >> lo)) == 0;
}

constexpr bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/// floor(log2(v)) for v > 0.
constexpr unsigned log2_floor(uint64_t v) {
  unsigned r = 0;
  while (v > 1) { v >>= 1; ++r; }
  return r;
}

/// log2 of a power of two; a non power of two in a constant expression does not compile.
constexpr unsigned log2_exact(uint64_t v) {
  if (!is_pow2(v)) detail::bit_range_out_of_bounds_hi_must_be_ge_lo_and_below_width();
  return log2_floor(v);
}

}  // namespace ctnn::bits
