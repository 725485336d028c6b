// The SoC address map as a type: regions checked at compile time (size a power of two, base
// aligned to the size, no two regions overlapping) and a decoder that compares only the
// address bits above each region's size (the course's GET_ADDR_BITS decode):
//
//   addr:  31 .............. log2(size) | log2(size)-1 ...... 0
//          [ must equal base's bits    ] [ offset in region   ]
#pragma once
#include "ctnn/core/bits.hpp"
#include "ctnn/core/utility.hpp"

namespace ctnn::mmio {

/// @brief One region of the address map.
struct region {
  const char* name;
  uint32_t base;
  uint32_t size;

  [[nodiscard]] constexpr unsigned addr_bits() const { return bits::log2_floor(size); }
  /// GET_ADDR_BITS(addr, 31, log2(size)) == GET_ADDR_BITS(base, 31, log2(size))
  [[nodiscard]] constexpr bool contains(uint32_t addr) const {
    if (addr_bits() >= 32) return true;
    return bits::extract<uint32_t>(addr, 31, addr_bits()) ==
           bits::extract<uint32_t>(base, 31, addr_bits());
  }
  [[nodiscard]] constexpr uint32_t offset(uint32_t addr) const { return addr - base; }
  [[nodiscard]] constexpr uint64_t end() const { return uint64_t{base} + size; }
};

constexpr bool overlap(const region& a, const region& b) {
  return a.base < b.end() && b.base < a.end();
}

namespace detail {

// One instantiation per region and per pair: a failing static_assert's "required from" line
// names the offending region variables.
template <const region& R>
struct region_check {
  static_assert(bits::is_pow2(R.size), "ctnn::mmio::address_map: region size is not a power of two");
  static_assert(R.base % R.size == 0, "ctnn::mmio::address_map: region base is not aligned to its size");
  static_assert(R.end() <= (uint64_t{1} << 32), "ctnn::mmio::address_map: region ends above 4 GiB");
  static constexpr bool ok = true;
};

template <const region& A, const region& B>
struct pair_check {
  static_assert(!overlap(A, B), "ctnn::mmio::address_map: two regions overlap");
  static constexpr bool ok = true;
};

template <const region& A, const region&... Rest>
constexpr bool pairs_ok() {
  if constexpr (sizeof...(Rest) == 0) {
    return true;
  } else {
    return (pair_check<A, Rest>::ok && ...) && pairs_ok<Rest...>();
  }
}

}  // namespace detail

/// @brief A checked address map. decode(addr) is the index of the region holding addr, or -1.
template <const region&... Rs>
struct address_map {
  static_assert(sizeof...(Rs) > 0, "ctnn::mmio::address_map: no region");
  static_assert((detail::region_check<Rs>::ok && ...));
  static_assert(detail::pairs_ok<Rs...>());

  static constexpr size_t size = sizeof...(Rs);
  static constexpr array<region, sizeof...(Rs)> regions{{Rs...}};

  [[nodiscard]] static constexpr int decode(uint32_t addr) {
    for (size_t i = 0; i < size; ++i)
      if (regions[i].contains(addr)) return static_cast<int>(i);
    return -1;
  }
  /// True when the whole byte range [addr, addr + bytes) lies in region r.
  [[nodiscard]] static constexpr bool within(const region& r, uint32_t addr, uint64_t bytes) {
    return addr >= r.base && uint64_t{addr} + bytes <= r.end();
  }
};

}  // namespace ctnn::mmio
