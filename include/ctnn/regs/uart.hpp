// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// 16550 UART transmitter (QEMU virt UART0 layout: byte registers 0..7 on two words).
// One struct per 8-bit register (byte offset in the uart region, absolute address), one
// nested struct per field: bit positions, mask in the register, largest value, named values.
#pragma once
#include <stdint.h>

#include "ctnn/regs/soc_map.hpp"

namespace ctnn::regs::uart {

inline constexpr uint32_t base = soc::uart.base;

/// @brief THR (+0x0): Transmit holding register (LCR.DLAB = 0; with DLAB = 1 offset 0 is the divisor latch low byte)
struct thr {
  static constexpr uint32_t offset = 0x0u;
  static constexpr uint32_t address = base + offset;
  static constexpr uint32_t reset = 0x0u;
  /// DATA [7:0] wo, reset 0x0: Byte to send
  struct data {
    static constexpr unsigned lo = 0, hi = 7;
    static constexpr uint32_t mask = 0xffu;
    static constexpr uint32_t max_value = 0xffu;
    static constexpr uint32_t reset = 0x0u;
  };
};

/// @brief LCR (+0x3): Line control
struct lcr {
  static constexpr uint32_t offset = 0x3u;
  static constexpr uint32_t address = base + offset;
  static constexpr uint32_t reset = 0x0u;
  /// DLAB [7:7] rw, reset 0x0: Divisor latch access: offsets 0 and 1 address the baud divisor
  struct dlab {
    static constexpr unsigned lo = 7, hi = 7;
    static constexpr uint32_t mask = 0x80u;
    static constexpr uint32_t max_value = 0x1u;
    static constexpr uint32_t reset = 0x0u;
  };
};

/// @brief LSR (+0x5): Line status (the model has no receiver and sends at once: THRE and TEMT always read 1)
struct lsr {
  static constexpr uint32_t offset = 0x5u;
  static constexpr uint32_t address = base + offset;
  static constexpr uint32_t reset = 0x60u;
  /// THRE [5:5] ro, reset 0x1: Transmit holding register empty: THR takes a byte
  struct thre {
    static constexpr unsigned lo = 5, hi = 5;
    static constexpr uint32_t mask = 0x20u;
    static constexpr uint32_t max_value = 0x1u;
    static constexpr uint32_t reset = 0x1u;
  };
  /// TEMT [6:6] ro, reset 0x1: Transmitter empty
  struct temt {
    static constexpr unsigned lo = 6, hi = 6;
    static constexpr uint32_t mask = 0x40u;
    static constexpr uint32_t max_value = 0x1u;
    static constexpr uint32_t reset = 0x1u;
  };
};

}  // namespace ctnn::regs::uart
