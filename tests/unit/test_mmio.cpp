// ctnn::mmio on a fake bus: merged writes, read-modify-write, w1c/wo handling, field reads,
// the SoC address decoder.
#include <doctest/doctest.h>

#include "ctnn/regs/accel.hpp"

namespace accel = ctnn::regs::accel;
namespace soc = ctnn::regs::soc;
using ctnn::mmio::read;
using ctnn::mmio::read_signed;
using ctnn::mmio::write;
using fake = ctnn::mmio::array_bus<soc::accel.base, soc::accel.size>;

namespace {
uint32_t& word(uint32_t reg_address) { return fake::at(reg_address); }
}  // namespace

TEST_CASE("fields covering every rw bit are one store, no load") {
  word(accel::cfg::address) = 0xFFFFFFFFu;
  fake::reset_counters();
  write<fake>(accel::cfg::relu{1}, accel::cfg::bias_en{0}, accel::cfg::out_raw{1},
              accel::cfg::per_channel{0}, accel::cfg::conv{1}, accel::cfg::row_params{0},
              accel::cfg::res_add{0}, accel::cfg::pool{uint32_t{accel::cfg::pool::max}}, accel::cfg::dw{0});
  CHECK(fake::stores == 1);
  CHECK(fake::loads == 0);
  CHECK(word(accel::cfg::address) == 0b010010011u);
}

TEST_CASE("fields leaving rw bits out are one read-modify-write") {
  word(accel::cfg::address) = 0b100000u;   // ROW_PARAMS set
  fake::reset_counters();
  write<fake>(accel::cfg::relu{1}, accel::cfg::bias_en{0}, accel::cfg::out_raw{1},
              accel::cfg::per_channel{0}, accel::cfg::conv{0});
  CHECK(fake::loads == 1);
  CHECK(fake::stores == 1);
  CHECK(word(accel::cfg::address) == 0b100011u);
}

TEST_CASE("a partial write is one read-modify-write that keeps the other rw fields") {
  word(accel::zp::address) = 0x00AABBCCu;
  fake::reset_counters();
  write<fake>(accel::zp::out_zp{0x12}, accel::zp::a_zp{0x34});
  CHECK(fake::loads == 1);
  CHECK(fake::stores == 1);
  CHECK(word(accel::zp::address) == 0x0012BB34u);
  CHECK(read<fake, accel::zp::b_zp>() == 0xBBu);
}

TEST_CASE("signed fields: negative values in, sign-extended out") {
  write<fake>(accel::zp::a_zp{-5}, accel::zp::b_zp{0}, accel::zp::out_zp{-128});
  CHECK(word(accel::zp::address) == 0x008000FBu);
  CHECK(read_signed<fake, accel::zp::a_zp>() == -5);
  CHECK(read_signed<fake, accel::zp::out_zp>() == -128);
  CHECK(read_signed<fake, accel::zp::b_zp>() == 0);
}

TEST_CASE("a field's range: numbers as they are, not their bits") {
  using m = accel::m::value;          // 16 bits, unsigned
  using zp = accel::zp::a_zp;         // 8 bits, signed
  using sh = accel::shift::value;     // 8 bits, signed
  using mult = accel::mult::value;    // 32 bits, signed
  using addr = accel::a_addr::value;  // 32 bits, unsigned
  static_assert(!m::is_signed && m::min_value == 0u && m::max_value == 0xFFFFu);
  static_assert(zp::is_signed && zp::min_value == -128 && zp::max_value == 127);
  static_assert(mult::min_value == INT32_MIN && mult::max_value == INT32_MAX);
  static_assert(addr::max_value == 0xFFFFFFFFu);
  static_assert(m::fits(0) && m::fits(0xFFFF) && m::fits(uint64_t{0xFFFF}) && m::fits(true));
  static_assert(!m::fits(-1) && !m::fits(-8) && !m::fits(0x10000) && !m::fits(int64_t{-1}) &&
                !m::fits(0xFFFFFFF8u) && !m::fits(uint64_t{1} << 32));
  static_assert(zp::fits(-128) && zp::fits(127) && zp::fits(int8_t{-1}) && zp::fits(uint8_t{127}));
  static_assert(!zp::fits(-129) && !zp::fits(128) && !zp::fits(0xFFu) && !zp::fits(static_cast<uint32_t>(-5)));
  static_assert(sh::fits(-31) && sh::fits(30) && !sh::fits(200));
  static_assert(addr::fits(0xFFFFFFFFu) && !addr::fits(-1) && !addr::fits(int64_t{1} << 32));
  static_assert(mult::fits(INT32_MIN) && !mult::fits(int64_t{INT32_MAX} + 1) && !mult::fits(uint32_t{INT32_MAX} + 1u));
  // what a constant becomes (a value that does not fit is a compile error: tests/fail/mmio_*)
  static_assert(zp{-1}.value == 0xFFu && zp{-128}.in_place() == 0x80u && m{0xFFFF}.in_place() == 0xFFFFu);
  static_assert(accel::zp::out_zp{-2}.in_place() == 0x00FE0000u);
  // the field concepts: a register is not a field
  static_assert(ctnn::mmio::field_type<m> && !ctnn::mmio::field_type<accel::m> && !ctnn::mmio::field_type<int>);
  static_assert(ctnn::mmio::register_type<accel::m> && !ctnn::mmio::register_type<m>);
}

TEST_CASE("run-time values: F::from says whether the value fits, write() writes all or nothing") {
  word(accel::m::address) = 0x1234u;
  word(accel::zp::address) = 0x00AABBCCu;
  fake::reset_counters();
  volatile int rows = 300, negative = -8, too_big = 70000, zp_low = -128, zp_high = 128;
  CHECK(static_cast<bool>(write<fake>(accel::m::value::from(rows))));
  CHECK(word(accel::m::address) == 300u);
  CHECK(fake::stores == 1);
  // -8 is not written as 0xFFF8, 70000 not as 70000 & 0xFFFF: nothing is written
  CHECK_FALSE(static_cast<bool>(write<fake>(accel::m::value::from(negative))));
  CHECK_FALSE(static_cast<bool>(write<fake>(accel::m::value::from(too_big))));
  CHECK_FALSE(accel::m::value::from(negative).ok);
  CHECK(word(accel::m::address) == 300u);
  CHECK(fake::stores == 1);
  CHECK(fake::loads == 0);
  // several fields of one register: one that does not fit stops the whole write
  CHECK_FALSE(static_cast<bool>(write<fake>(accel::zp::a_zp::from(zp_low), accel::zp::out_zp::from(zp_high))));
  CHECK(word(accel::zp::address) == 0x00AABBCCu);
  CHECK(fake::loads == 0);
  CHECK(static_cast<bool>(write<fake>(accel::zp::a_zp::from(zp_low), accel::zp::out_zp{127})));
  CHECK(word(accel::zp::address) == 0x007FBB80u);
  CHECK(read_signed<fake, accel::zp::a_zp>() == -128);
  // a bool is 0 or 1
  CHECK(static_cast<bool>(write<fake>(accel::cfg::relu::from(true))));
  CHECK(read<fake, accel::cfg::relu>() == 1u);
}

TEST_CASE("w1c: clearing one flag writes 0 to the other and never reads") {
  word(accel::status::address) = 0b111u;
  fake::reset_counters();
  write<fake>(accel::status::done{1});
  CHECK(fake::loads == 0);
  CHECK(fake::stores == 1);
  CHECK(word(accel::status::address) == 0b010u);  // the fake bus has no w1c logic: the raw store
}

// A register mixing every access right (not in the accelerator map), built like the generated ones.
namespace mixed {
struct ctl : ctnn::mmio::reg<ctl, "test.CTL", soc::accel.base + 0x800u, 0u> {
  struct mode : ctnn::mmio::field<ctl, mode, "test.CTL.MODE", 3, 0, ctnn::mmio::access::rw, 0u> {
    using field::field;
  };
  struct gain : ctnn::mmio::field<ctl, gain, "test.CTL.GAIN", 7, 4, ctnn::mmio::access::rw, 0u> {
    using field::field;
  };
  struct irq : ctnn::mmio::field<ctl, irq, "test.CTL.IRQ", 8, 8, ctnn::mmio::access::w1c, 0u> {
    using field::field;
  };
  struct go : ctnn::mmio::field<ctl, go, "test.CTL.GO", 9, 9, ctnn::mmio::access::wo, 0u> {
    using field::field;
  };
  struct id : ctnn::mmio::field<ctl, id, "test.CTL.ID", 15, 12, ctnn::mmio::access::ro, 0u> {
    using field::field;
  };
  using fields = ctnn::mmio::field_list<mode, gain, irq, go, id>;
};
}  // namespace mixed

TEST_CASE("a read-modify-write keeps rw fields and never writes 1 back to w1c or wo bits") {
  using mixed::ctl;
  // The hardware would read IRQ = 1 (pending), GO = 1 (a fake bus has no write-only logic).
  word(ctl::address) = 0x0000A3A5u | (1u << 8) | (1u << 9);
  fake::reset_counters();
  write<fake>(ctl::mode{0x6});
  CHECK(fake::loads == 1);
  CHECK(fake::stores == 1);
  const uint32_t stored = word(ctl::address);
  CHECK((stored & 0xFu) == 0x6u);            // written field
  CHECK(((stored >> 4) & 0xFu) == 0xAu);     // other rw field kept
  CHECK((stored & (1u << 8)) == 0u);         // w1c not cleared by accident
  CHECK((stored & (1u << 9)) == 0u);         // wo command not re-triggered
  // Writing the w1c flag and the command alongside both rw fields: one store, no load.
  fake::reset_counters();
  write<fake>(ctl::mode{1}, ctl::gain{2}, ctl::irq{1}, ctl::go{1});
  CHECK(fake::loads == 0);
  CHECK(fake::stores == 1);
  CHECK(word(ctl::address) == (1u | (2u << 4) | (1u << 8) | (1u << 9)));
  using masks = ctnn::mmio::reg_masks<ctl>;
  CHECK(masks::rw == 0xFFu);
  CHECK(masks::w1c == 0x100u);
  CHECK(masks::wo == 0x200u);
  CHECK(masks::ro == 0xF000u);
}

TEST_CASE("whole-register reads and field reads") {
  word(accel::id::address) = accel::id::reset;
  CHECK(read<fake, accel::id>() == 0xC7AA0001u);
  CHECK(read<fake, accel::id::magic>() == 0xC7AAu);
  CHECK(read<fake, accel::id::version>() == 1u);
}

TEST_CASE("register addresses come from the map") {
  CHECK(accel::id::address == 0x10020000u);
  CHECK(accel::status::address == soc::accel.base + 0x0Cu);
  CHECK(accel::macs::address == 0x10020060u);
}

TEST_CASE("address decoder") {
  using map = soc::map;
  CHECK(map::decode(0x80000000u) == 3);
  CHECK(map::decode(0x800FFFFCu) == 3);
  CHECK(map::decode(0x80100000u) == -1);
  CHECK(map::decode(0x10000000u) == 1);
  CHECK(map::decode(0x100000FCu) == 1);
  CHECK(map::decode(0x10000100u) == -1);
  CHECK(map::decode(0x10020FFCu) == 2);
  CHECK(map::decode(0x00100000u) == 0);
  CHECK(map::decode(0x00000000u) == -1);
  CHECK(map::within(soc::ram, 0x800FFFF0u, 16));
  CHECK_FALSE(map::within(soc::ram, 0x800FFFF0u, 17));
  // Exhaustive over the region boundaries: decode agrees with a plain interval test.
  for (const auto& r : map::regions)
    for (const uint32_t a : ctnn::array<uint32_t, 4>{{r.base - 4u, r.base, r.base + r.size - 4u,
                                                      r.base + r.size}}) {
      const bool in = a >= r.base && a - r.base < r.size;
      CHECK(r.contains(a) == in);
    }
}
