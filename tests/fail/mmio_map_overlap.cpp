// expect: two regions overlap.*pair_check<t::uart, t::ram2>|pair_check<t::uart, t::ram2>.*two regions overlap
// Overlapping regions in an address map do not compile; the diagnostic names both.
#include "ctnn/mmio/address_map.hpp"
namespace t {
inline constexpr ctnn::mmio::region uart{"uart", 0x10000000u, 0x100u};
#ifndef CTNN_FAIL_CONTROL
inline constexpr ctnn::mmio::region ram2{"ram2", 0x10000000u, 0x10000u};
#else
inline constexpr ctnn::mmio::region ram2{"ram2", 0x10010000u, 0x10000u};
#endif
using map = ctnn::mmio::address_map<uart, ram2>;
static_assert(map::size == 2);
}
