// Access rights of a register field, as declared in fpga/regs/ctnn.toml.
#pragma once
#include <stdint.h>

namespace ctnn::mmio {

/// ro: read only (writes ignored); wo: write only (reads 0, writing 0 is a no-op);
/// rw: read/write; w1c: write 1 to clear (writing 0 is a no-op).
enum class access : uint8_t { ro, wo, rw, w1c };

constexpr bool readable(access a) { return a != access::wo; }
constexpr bool writable(access a) { return a != access::ro; }

}  // namespace ctnn::mmio
