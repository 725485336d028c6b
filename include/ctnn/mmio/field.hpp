// A typed register field: bit range, access right, reset value and whether it holds an unsigned
// or a signed (two's complement) number, as compile-time facts; and a value to write. The
// generated headers in include/ctnn/regs/ derive one type per field.
//
//   bit:   31 ............ Hi ...... Lo .......... 0
//   mask:   0  0  0  0  0  1  1  1  1  0  0  0  0  0
//
// A value is checked against the field's range [min_value, max_value] as the number it is, in its
// own type: -8 is not 0xFFF8 and does not fit an unsigned field.
//   - a constant, F{v}: the constructor is consteval, so a value that does not fit is a compile
//     error wherever it is written (the note names field_value_does_not_fit_in_its_bits or
//     field_value_is_negative_but_the_field_is_unsigned);
//   - a run-time value, F::from(v): a checked<F> that says whether v fits; write() of checked
//     values writes nothing unless every one fits and returns a write_status (nodiscard).
#pragma once
#include "ctnn/core/bits.hpp"
#include "ctnn/core/utility.hpp"
#include "ctnn/mmio/access.hpp"

namespace ctnn::mmio {

/// What a field holds: an unsigned number or a two's-complement signed one (zero points, shifts).
enum class value_kind : uint8_t { unsigned_int, signed_int };

namespace detail {
// Non-constexpr on purpose: a constant field value that does not fit is a compile error whose
// note names one of these functions.
inline void field_value_does_not_fit_in_its_bits() {}
inline void field_value_is_negative_but_the_field_is_unsigned() {}

/// The built-in integer types a field value may have (bool as 0 or 1).
template <class T> inline constexpr bool is_integer = false;
template <> inline constexpr bool is_integer<bool> = true;
template <> inline constexpr bool is_integer<char> = true;
template <> inline constexpr bool is_integer<signed char> = true;
template <> inline constexpr bool is_integer<unsigned char> = true;
template <> inline constexpr bool is_integer<short> = true;
template <> inline constexpr bool is_integer<unsigned short> = true;
template <> inline constexpr bool is_integer<int> = true;
template <> inline constexpr bool is_integer<unsigned> = true;
template <> inline constexpr bool is_integer<long> = true;
template <> inline constexpr bool is_integer<unsigned long> = true;
template <> inline constexpr bool is_integer<long long> = true;
template <> inline constexpr bool is_integer<unsigned long long> = true;

template <class V> inline constexpr bool is_signed_integer = static_cast<V>(-1) < static_cast<V>(0);

/// Tag of the constructor F::from uses (a run-time value, its check kept apart).
struct checked_value_tag {};
}  // namespace detail

/// @brief A constant value for field F: its consteval constructor is where a value that does not
/// fit fails to compile (a run-time value cannot be one: use F::from).
template <class F>
struct constant {
  uint32_t bits;
  template <class V>
    requires detail::is_integer<V>
  consteval constant(V v) : bits(F::bits_of(v)) {   // NOLINT(google-explicit-constructor): F{v}
    if (F::fits(v)) return;
    if constexpr (detail::is_signed_integer<V>) {
      if (!F::is_signed && v < 0) detail::field_value_is_negative_but_the_field_is_unsigned();
    }
    detail::field_value_does_not_fit_in_its_bits();
  }
};

/// @brief An integer type a field value may be given in.
template <class V>
concept integer = detail::is_integer<V>;

/// @brief A field built from a run-time value (F::from(v)) and whether that value fits.
template <class F>
struct checked {
  F field;
  bool ok;
};

/// @brief A field of register Reg.
/// @tparam Reg    the register type (may be incomplete here)
/// @tparam Self   the derived field type (its name appears in diagnostics)
/// @tparam Name   "block.REG.FIELD"
/// @tparam Hi,Lo  inclusive bit range
/// @tparam Access ro, wo, rw or w1c
/// @tparam Reset  value after reset, the field's bits
/// @tparam Kind   unsigned (default) or signed, two's complement
template <class Reg, class Self, fixed_string Name, unsigned Hi, unsigned Lo, access Access,
          uint32_t Reset, value_kind Kind = value_kind::unsigned_int>
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

  static constexpr bool is_signed = Kind == value_kind::signed_int;
  /// The type of the numbers the field holds.
  using value_type = conditional_t<is_signed, int32_t, uint32_t>;
  /// The smallest and the largest number the field holds: [0, 2^width - 1], or
  /// [-2^(width-1), 2^(width-1) - 1] when signed.
  static constexpr value_type min_value =
      is_signed ? static_cast<value_type>(-(int64_t{1} << (width - 1))) : value_type{0};
  static constexpr value_type max_value =
      is_signed ? static_cast<value_type>((int64_t{1} << (width - 1)) - 1) : static_cast<value_type>(mask >> Lo);

  /// True when the number v (in its own type) lies in [min_value, max_value].
  template <integer V>
  [[nodiscard]] static constexpr bool fits(V v) {
    if constexpr (detail::is_signed_integer<V>) {
      const auto x = static_cast<long long>(v);
      return x >= static_cast<long long>(min_value) && x <= static_cast<long long>(max_value);
    } else {
      return static_cast<unsigned long long>(v) <= static_cast<unsigned long long>(max_value);
    }
  }

  /// The field's bits of v (two's complement, cut to the width).
  template <integer V>
  [[nodiscard]] static constexpr uint32_t bits_of(V v) {
    return static_cast<uint32_t>(v) & (mask >> Lo);
  }

  uint32_t value;   ///< the field's bits, not yet in place

  /// A constant value, F{v}: one that does not fit does not compile, in any context (constant's
  /// constructor is consteval). A run-time value does not compile here either: use F::from(v).
  constexpr explicit field(constant<field> v) : value(v.bits) {}
  /// F::from's constructor: the bits of a run-time value.
  constexpr field(detail::checked_value_tag, uint32_t field_bits) : value(field_bits & (mask >> Lo)) {}

  /// @brief A run-time value: the field with v's bits, and whether v fits (checked::ok).
  template <integer V>
  [[nodiscard]] static constexpr checked<Self> from(V v) {
    return {Self(detail::checked_value_tag{}, bits_of(v)), fits(v)};
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
