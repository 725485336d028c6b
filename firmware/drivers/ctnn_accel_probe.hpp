// Whether the accelerator answers at its address on this machine: a trap-safe load of its ID
// register (ctnn_probe_load32), so the same ELF can ask on QEMU, which has no device there.
#pragma once
#include <stdint.h>

#include "ctnn_accel_driver.hpp"
#include "ctnn_platform.h"

namespace ctnn_fw::accel {

/// True when the ID register can be read and carries the accelerator's magic number.
inline bool probe_present() {
  uint32_t id = 0;
  return ctnn_probe_load32(ctnn::regs::accel::id::address, &id) == 0 && is_accel_id(id);
}

}  // namespace ctnn_fw::accel
