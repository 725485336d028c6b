// A typed 32-bit memory-mapped register: its absolute address, reset value and fields.
// Writing and reading go through ctnn::mmio::write / read (write.hpp) with a bus type.
#pragma once
#include "ctnn/mmio/bus.hpp"
#include "ctnn/mmio/field.hpp"
#include "ctnn/mmio/write.hpp"

namespace ctnn::mmio {

/// @brief Base of a generated register type.
/// @tparam Self    the register type; it declares `using fields = field_list<...>`
/// @tparam Name    "block.REG"
/// @tparam Address absolute byte address (a multiple of 4)
/// @tparam Reset   register value after reset
template <class Self, fixed_string Name, uint32_t Address, uint32_t Reset>
struct reg {
  static_assert(Address % 4u == 0, "ctnn::mmio::reg: the address must be a multiple of 4");
  using reg_type = Self;
  static constexpr auto name = Name;
  static constexpr uint32_t address = Address;
  static constexpr uint32_t reset = Reset;
};

}  // namespace ctnn::mmio
