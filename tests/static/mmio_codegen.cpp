// Typed ctnn::mmio register accesses next to the hand-written volatile code they must equal.
// Built for the host by tests/static (compiling is passing) and for rv32im -O2 by the
// mmio.zero_overhead test, which compares the instruction counts of each typed_/hand_ pair.
#include "ctnn/regs/accel.hpp"

namespace accel = ctnn::regs::accel;
using ctnn::mmio::volatile_bus;
using ctnn::mmio::write;

static_assert(ctnn::mmio::single_store<accel::cfg::relu, accel::cfg::bias_en, accel::cfg::out_raw,
                                       accel::cfg::per_channel, accel::cfg::conv, accel::cfg::row_params>);
static_assert(!ctnn::mmio::single_store<accel::cfg::relu, accel::cfg::bias_en, accel::cfg::out_raw,
                                        accel::cfg::per_channel>);
static_assert(!ctnn::mmio::single_store<accel::zp::a_zp>);
static_assert(ctnn::mmio::single_store<accel::status::done>);

#define CTNN_HAND_REG(off) (*reinterpret_cast<volatile uint32_t*>(uintptr_t{0x10020000u + (off)}))

// Six fields of CFG cover all its rw bits: one store of a constant.
extern "C" void typed_cfg_write() {
  write<volatile_bus>(accel::cfg::relu{1}, accel::cfg::bias_en{1}, accel::cfg::out_raw{0},
                      accel::cfg::per_channel{1}, accel::cfg::conv{1}, accel::cfg::row_params{1});
}
extern "C" void hand_cfg_write() { CTNN_HAND_REG(0x018) = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5); }

// One field of ZP: a read-modify-write keeping B_ZP and OUT_ZP.
extern "C" void typed_zp_rmw(uint32_t a_zp) { write<volatile_bus>(accel::zp::a_zp{a_zp}); }
extern "C" void hand_zp_rmw(uint32_t a_zp) {
  CTNN_HAND_REG(0x04C) = (CTNN_HAND_REG(0x04C) & 0xFFFFFF00u) | (a_zp & 0xFFu);
}

// Two fields of ZP from run-time values merged into one read-modify-write.
extern "C" void typed_zp_two(uint32_t a_zp, uint32_t out_zp) {
  write<volatile_bus>(accel::zp::a_zp{a_zp}, accel::zp::out_zp{out_zp});
}
extern "C" void hand_zp_two(uint32_t a_zp, uint32_t out_zp) {
  CTNN_HAND_REG(0x04C) =
      (CTNN_HAND_REG(0x04C) & 0x0000FF00u) | (a_zp & 0xFFu) | ((out_zp << 16) & 0x00FF0000u);
}

// w1c: clearing DONE is one store that writes 0 to ERROR (no read).
extern "C" void typed_clear_done() { write<volatile_bus>(accel::status::done{1}); }
extern "C" void hand_clear_done() { CTNN_HAND_REG(0x00C) = 1u << 1; }

// A whole-register write from a run-time value.
extern "C" void typed_set_addr(uint32_t a) { write<volatile_bus>(accel::a_addr::value{a}); }
extern "C" void hand_set_addr(uint32_t a) { CTNN_HAND_REG(0x028) = a; }

// Reading one field.
extern "C" uint32_t typed_read_busy() { return ctnn::mmio::read<volatile_bus, accel::status::busy>(); }
extern "C" uint32_t hand_read_busy() { return CTNN_HAND_REG(0x00C) & 1u; }

// Starting a job: a wo field.
extern "C" void typed_start() { write<volatile_bus>(accel::ctrl::start{1}); }
extern "C" void hand_start() { CTNN_HAND_REG(0x008) = 1u; }
