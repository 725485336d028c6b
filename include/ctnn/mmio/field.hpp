// A typed register field: bit range, access right and reset value as compile-time facts, and a
// value to write. The generated headers in include/ctnn/regs/ derive one type per field.
//
//   bit:   31 ............ Hi ...... Lo .......... 0
//   mask:   0  0  0  0  0  1  1  1  1  0  0  0  0  0
#pragma once
#include "ctnn/core/bits.hpp"
#include "ctnn/core/utility.hpp"
#include "ctnn/mmio/access.hpp"

namespace ctnn::mmio {

namespace detail {
// Non-constexpr on purpose: a constant field value that does not fit is a compile error whose
// note names this function.
inline void field_value_does_not_fit_in_its_bits() {}
}  // namespace detail

/// @brief A field of register Reg.
/// @tparam Reg    the register type (may be incomplete here)
/// @tparam Self   the derived field type (its name appears in diagnostics)
/// @tparam Name   "block.REG.FIELD"
/// @tparam Hi,Lo  inclusive bit range
/// @tparam Access ro, wo, rw or w1c
/// @tparam Reset  value after reset, in field units
template <class Reg, class Self, fixed_string Name, unsigned Hi, unsigned Lo, access Access,
          uint32_t Reset>
struct field {
  static_assert(Lo <= Hi && Hi < 32, "ctnn::mmio::field: bit range must be Lo <= Hi < 32");
  using reg_type = Reg;
  using field_type = Self;
  static constexpr auto name = Name;
  static constexpr unsigned hi = Hi;
  static constexpr unsigned lo = Lo;
  static constexpr unsigned width = Hi - Lo + 1;
  static constexpr access rights = Access;
  static constexpr uint32_t mask = bits::mask<uint32_t>(Hi, Lo);
  static constexpr uint32_t reset = Reset;
  static_assert(bits::fits<uint32_t>(Hi, Lo, Reset), "ctnn::mmio::field: reset value does not fit");

  /// True for v that fits unsigned, or as a sign-extended negative number (signed fields).
  static constexpr bool fits(uint32_t v) {
    if (bits::fits<uint32_t>(Hi, Lo, v)) return true;
    const uint32_t upper = static_cast<uint32_t>(~(mask >> Lo));
    const uint32_t sign = uint32_t{1} << (width - 1);
    return (v & upper) == upper && (v & sign) != 0;
  }

  uint32_t value;

  /// A value to write; a constant that does not fit does not compile, at run time it is cut.
  constexpr explicit field(uint32_t v) : value(v) {
    if (!fits(v)) detail::field_value_does_not_fit_in_its_bits();
  }
  /// The value moved to its bit position.
  [[nodiscard]] constexpr uint32_t in_place() const {
    return static_cast<uint32_t>(value << Lo) & mask;
  }
  /// The field of a whole register value.
  [[nodiscard]] static constexpr uint32_t get(uint32_t reg_value) {
    return bits::extract<uint32_t>(reg_value, Hi, Lo);
  }
  /// The field of a register value, sign-extended (zero points, shifts).
  [[nodiscard]] static constexpr int32_t get_signed(uint32_t reg_value) {
    const uint32_t v = get(reg_value);
    const uint32_t sign = uint32_t{1} << (width - 1);
    return static_cast<int32_t>((v ^ sign)) - static_cast<int32_t>(sign);
  }
};

/// The list of a register's fields (the generator writes `using fields = field_list<...>`).
template <class... Fs>
struct field_list {
  /// Union of the masks of the fields with access right A.
  static constexpr uint32_t mask_of(access a) {
    return ((Fs::rights == a ? Fs::mask : 0u) | ... | 0u);
  }
  static constexpr uint32_t all = (Fs::mask | ... | 0u);
};

}  // namespace ctnn::mmio
