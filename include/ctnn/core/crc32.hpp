// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's crc32), freestanding and
// usable in constant expressions: per-layer output hashes of the golden harness and firmware.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn {

namespace detail {
struct crc32_table {
  uint32_t v[256];
};
constexpr crc32_table make_crc32_table() {
  crc32_table t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t.v[i] = c;
  }
  return t;
}
inline constexpr crc32_table crc32_lut = make_crc32_table();
}  // namespace detail

/// @brief Continues a CRC-32: crc32_update(crc32_update(0, a), b) == CRC-32 of a followed by b.
constexpr uint32_t crc32_update(uint32_t crc, const uint8_t* data, size_t n) {
  uint32_t c = ~crc;
  for (size_t i = 0; i < n; ++i) c = detail::crc32_lut.v[(c ^ data[i]) & 0xFFu] ^ (c >> 8);
  return ~c;
}

/// @brief CRC-32 of n bytes (zlib's crc32(0, data, n)); crc32 of "123456789" is 0xCBF43926.
constexpr uint32_t crc32(const uint8_t* data, size_t n) { return crc32_update(0, data, n); }

/// @brief CRC-32 of a string literal's characters (without the terminator), for constant checks.
template <size_t N>
constexpr uint32_t crc32(const char (&s)[N]) {
  uint8_t b[N > 1 ? N - 1 : 1] = {};
  for (size_t i = 0; i + 1 < N; ++i) b[i] = static_cast<uint8_t>(s[i]);
  return crc32(b, N - 1);
}
static_assert(crc32("123456789") == 0xCBF43926u, "ctnn: crc32 check value");

}  // namespace ctnn
