// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// Exit device, QEMU sifive_test semantics (one full-word write ends the program).
// One struct per 32-bit register (byte offset in the exit region, absolute address), one
// nested struct per field: bit positions, mask in the register, largest value, named values.
#pragma once
#include <stdint.h>

#include "ctnn/regs/soc_map.hpp"

namespace ctnn::regs::exit {

inline constexpr uint32_t base = soc::exit.base;

/// @brief FINISHER (+0x0): Write STATUS = PASS to pass, (CODE << 16) | FAIL to fail with CODE; reads 0
struct finisher {
  static constexpr uint32_t offset = 0x0u;
  static constexpr uint32_t address = base + offset;
  static constexpr uint32_t reset = 0x0u;
  /// STATUS [15:0] wo, reset 0x0: What happened
  struct status {
    static constexpr unsigned lo = 0, hi = 15;
    static constexpr uint32_t mask = 0xffffu;
    static constexpr uint32_t max_value = 0xffffu;
    static constexpr uint32_t reset = 0x0u;
    enum value : uint32_t {
      fail = 0x3333,  ///< the program failed with CODE
      pass = 0x5555,  ///< the program passed (CODE 0)
    };
  };
  /// CODE [31:16] wo, reset 0x0: Exit code with STATUS = FAIL
  struct code {
    static constexpr unsigned lo = 16, hi = 31;
    static constexpr uint32_t mask = 0xffff0000u;
    static constexpr uint32_t max_value = 0xffffu;
    static constexpr uint32_t reset = 0x0u;
  };
};

}  // namespace ctnn::regs::exit
