// Typed ctnn::mmio register accesses next to the hand-written volatile code they must equal.
// Built for the host by tests/static (compiling is passing) and for rv32im -O2 by the
// mmio.zero_overhead test, which compares the instruction counts of each typed_/hand_ pair.
#include "ctnn/regs/accel.hpp"

namespace accel = ctnn::regs::accel;
using ctnn::mmio::volatile_bus;
using ctnn::mmio::write;

static_assert(ctnn::mmio::single_store<accel::cfg::relu, accel::cfg::bias_en, accel::cfg::out_raw,
                                       accel::cfg::per_channel, accel::cfg::conv, accel::cfg::row_params,
                                       accel::cfg::res_add, accel::cfg::pool, accel::cfg::dw>);
static_assert(!ctnn::mmio::single_store<accel::cfg::relu, accel::cfg::bias_en, accel::cfg::out_raw,
                                        accel::cfg::per_channel, accel::cfg::conv, accel::cfg::row_params,
                                        accel::cfg::res_add, accel::cfg::pool>);
static_assert(!ctnn::mmio::single_store<accel::cfg::relu, accel::cfg::bias_en, accel::cfg::out_raw,
                                        accel::cfg::per_channel, accel::cfg::conv, accel::cfg::row_params>);
static_assert(!ctnn::mmio::single_store<accel::cfg::relu, accel::cfg::bias_en, accel::cfg::out_raw,
                                        accel::cfg::per_channel>);
static_assert(!ctnn::mmio::single_store<accel::zp::a_zp>);
static_assert(ctnn::mmio::single_store<accel::status::done>);

#define CTNN_HAND_REG(off) (*reinterpret_cast<volatile uint32_t*>(uintptr_t{0x10020000u + (off)}))

// Nine fields of CFG cover all its rw bits: one store of a constant.
extern "C" void typed_cfg_write() {
  write<volatile_bus>(accel::cfg::relu{1}, accel::cfg::bias_en{1}, accel::cfg::out_raw{0},
                      accel::cfg::per_channel{1}, accel::cfg::conv{1}, accel::cfg::row_params{1},
                      accel::cfg::res_add{0}, accel::cfg::pool{uint32_t{accel::cfg::pool::avg}}, accel::cfg::dw{0});
}
extern "C" void hand_cfg_write() {
  CTNN_HAND_REG(0x018) = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5) | (2u << 7);
}

// One field of ZP from a run-time value: a read-modify-write keeping B_ZP and OUT_ZP. An int8_t
// always fits the signed 8-bit field, so the check of F::from costs nothing.
extern "C" bool typed_zp_rmw(int8_t a_zp) { return static_cast<bool>(write<volatile_bus>(accel::zp::a_zp::from(a_zp))); }
extern "C" bool hand_zp_rmw(int8_t a_zp) {
  CTNN_HAND_REG(0x04C) = (CTNN_HAND_REG(0x04C) & 0xFFFFFF00u) | (static_cast<uint32_t>(a_zp) & 0xFFu);
  return true;
}

// Two fields of ZP from run-time values merged into one read-modify-write.
extern "C" bool typed_zp_two(int8_t a_zp, int8_t out_zp) {
  return static_cast<bool>(write<volatile_bus>(accel::zp::a_zp::from(a_zp), accel::zp::out_zp::from(out_zp)));
}
extern "C" bool hand_zp_two(int8_t a_zp, int8_t out_zp) {
  CTNN_HAND_REG(0x04C) = (CTNN_HAND_REG(0x04C) & 0x0000FF00u) | (static_cast<uint32_t>(a_zp) & 0xFFu) |
                         ((static_cast<uint32_t>(out_zp) << 16) & 0x00FF0000u);
  return true;
}

// A run-time value that may not fit (a 16-bit field from 32 bits): the check a hand-written driver
// would have to make, and nothing written when it fails.
extern "C" bool typed_m_checked(uint32_t m) { return static_cast<bool>(write<volatile_bus>(accel::m::value::from(m))); }
extern "C" bool hand_m_checked(uint32_t m) {
  if (m > 0xFFFFu) return false;
  CTNN_HAND_REG(0x01C) = m;
  return true;
}

// w1c: clearing DONE is one store that writes 0 to ERROR (no read).
extern "C" void typed_clear_done() { write<volatile_bus>(accel::status::done{1}); }
extern "C" void hand_clear_done() { CTNN_HAND_REG(0x00C) = 1u << 1; }

// A whole-register write from a run-time value (32 bits always fit).
extern "C" bool typed_set_addr(uint32_t a) { return static_cast<bool>(write<volatile_bus>(accel::a_addr::value::from(a))); }
extern "C" bool hand_set_addr(uint32_t a) {
  CTNN_HAND_REG(0x028) = a;
  return true;
}

// Reading one field.
extern "C" uint32_t typed_read_busy() { return ctnn::mmio::read<volatile_bus, accel::status::busy>(); }
extern "C" uint32_t hand_read_busy() { return CTNN_HAND_REG(0x00C) & 1u; }

// Starting a job: a wo field.
extern "C" void typed_start() { write<volatile_bus>(accel::ctrl::start{1}); }
extern "C" void hand_start() { CTNN_HAND_REG(0x008) = 1u; }
