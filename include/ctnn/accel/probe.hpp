// Whether the accelerator answers at its address on this machine: a trap-safe load of its ID
// register, so the same ELF can ask on QEMU, which has no device there. The load is the board
// runtime's ctnn_probe_load32 (firmware/runtime/probe.S: it swaps in a private trap vector).
#pragma once
#include <stdint.h>

#include "ctnn/accel/driver.hpp"

/// Loads the 32-bit word at addr; 0 on success, -1 when the access traps (nothing there).
/// Provided by the board runtime (firmware/runtime/probe.S), declared by its platform header too.
extern "C" int ctnn_probe_load32(uint32_t addr, uint32_t* value);

namespace ctnn::accel {

/// True when the ID register can be read and carries the accelerator's magic number.
inline bool probe_present() {
  uint32_t id = 0;
  return ctnn_probe_load32(regs::accel::id::address, &id) == 0 && is_accel_id(id);
}

}  // namespace ctnn::accel
