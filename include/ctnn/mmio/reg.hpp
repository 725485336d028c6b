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

/// @brief A register as plain data, for code that walks every register of a block (the generated
/// `registers` list of a block: agreement tests between the RTL and the generated header).
struct reg_info {
  const char* name;    ///< "block.REG"
  uint32_t address;    ///< absolute byte address
  uint32_t reset;      ///< value after reset
  uint32_t ro;         ///< mask of the read-only fields
  uint32_t wo;         ///< mask of the write-only fields (read 0)
  uint32_t rw;         ///< mask of the read/write fields
  uint32_t w1c;        ///< mask of the write-1-to-clear fields
};

/// The reg_info of a generated register type R.
template <class R>
constexpr reg_info info_of() {
  using f = typename R::fields;
  return {R::name.c_str(), R::address, R::reset, f::mask_of(access::ro), f::mask_of(access::wo),
          f::mask_of(access::rw), f::mask_of(access::w1c)};
}

}  // namespace ctnn::mmio
