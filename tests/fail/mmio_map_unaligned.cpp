// expect: region base is not aligned to its size.*region_check<t::dev>|region_check<t::dev>.*region base is not aligned to its size
// A region whose base is not a multiple of its size cannot be decoded by masking: no compile.
#include "ctnn/mmio/address_map.hpp"
namespace t {
#ifndef CTNN_FAIL_CONTROL
inline constexpr ctnn::mmio::region dev{"dev", 0x10000800u, 0x1000u};
#else
inline constexpr ctnn::mmio::region dev{"dev", 0x10001000u, 0x1000u};
#endif
using map = ctnn::mmio::address_map<dev>;
static_assert(map::size == 1);
}
