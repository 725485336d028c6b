// Compile-time facts of ctnn::mmio and the generated register map.
#include "ctnn/regs/accel.hpp"

namespace accel = ctnn::regs::accel;
namespace soc = ctnn::regs::soc;
namespace mmio = ctnn::mmio;

// The decoder is usable in constant expressions.
static_assert(soc::map::decode(0x80000000u) == 3);
static_assert(soc::map::decode(0x10020000u) == 2);
static_assert(soc::map::decode(0x20000000u) == -1);
static_assert(soc::map::regions[0].addr_bits() == 12);
static_assert(soc::ram.addr_bits() == 20);

// A field value is one word: typed registers cost nothing in memory.
static_assert(sizeof(accel::cfg::relu) == sizeof(uint32_t));
static_assert(sizeof(accel::zp::a_zp) == 4);

// Field facts from fpga/regs/ctnn.toml.
static_assert(accel::zp::out_zp::mask == 0x00FF0000u);
static_assert(accel::clamp::reset == 0x7F80u);
static_assert(accel::status::done::rights == mmio::access::w1c);
static_assert(accel::ctrl::start::rights == mmio::access::wo);
static_assert(accel::cfg::fields::all == 0x3FFu);  // RELU .. ROW_PARAMS, RES_ADD, POOL (8:7), DW
static_assert(accel::zp::a_zp::fits(-128));   // signed: numbers, not bit patterns
static_assert(!accel::zp::a_zp::fits(0x100u));
static_assert(!accel::zp::a_zp::fits(-129));
static_assert(!accel::zp::a_zp::fits(static_cast<uint32_t>(-128)));
static_assert(!accel::m::value::fits(-8));     // unsigned: no negative number (was written as 0xFFF8)
static_assert(accel::zp::a_zp::get_signed(0x80u) == -128);

// Which writes are a single store.
static_assert(mmio::single_store<accel::m::value>);
static_assert(mmio::single_store<accel::status::done, accel::status::error>);
static_assert(!mmio::single_store<accel::clamp::act_min>);
static_assert(mmio::single_store<accel::clamp::act_min, accel::clamp::act_max>);

// A hand-built map with the same checks.
namespace t {
inline constexpr mmio::region rom{"rom", 0x0000'0000u, 0x1000u};
inline constexpr mmio::region io{"io", 0x0000'1000u, 0x100u};
using map = mmio::address_map<rom, io>;
static_assert(map::decode(0x0FFCu) == 0);
static_assert(map::decode(0x10FCu) == 1);
static_assert(map::decode(0x1100u) == -1);
}  // namespace t
