// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// ctnn SoC address map (QEMU virt compatible where the devices are shared): a compile-time checked ctnn::mmio::address_map (regions aligned to their
// size, no overlap) and one constant per region.
#pragma once
#include "ctnn/mmio/address_map.hpp"

namespace ctnn::regs::soc {

/// Exit device, QEMU sifive_test semantics (register FINISHER below)
inline constexpr mmio::region exit{"exit", 0x00100000u, 0x1000u};
/// 16550-style UART (QEMU virt UART0), byte registers on word addresses (below)
inline constexpr mmio::region uart{"uart", 0x10000000u, 0x100u};
/// GEMM accelerator registers (below); clear of QEMU virt's virtio-mmio at 0x1000_1000-0x1000_8fff
inline constexpr mmio::region accel{"accel", 0x10020000u, 0x1000u};
/// System RAM (1 MiB by default; the size is a parameter of the SoC and the accelerator)
inline constexpr mmio::region ram{"ram", 0x80000000u, 0x100000u};

/// The SoC address map; address_map's static_asserts check alignment and overlap.
using map = mmio::address_map<exit, uart, accel, ram>;

}  // namespace ctnn::regs::soc
