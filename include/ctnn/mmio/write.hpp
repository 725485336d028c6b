// Typed register access. Fields given to one write() are merged at compile time into one mask
// and one value, then written with a single store, or with one load and one store when some
// read/write field of the register is not written and must be preserved:
//
//   write<Bus>(cfg::relu{1}, cfg::bias_en{1})
//     written mask W = relu|bias_en, value V       rw fields not in W: keep = rw & ~W
//     all rw bits in W : store(addr, V)            (w1c and wo bits not in W are written 0,
//     otherwise : store(addr, (load(addr) & ~(W|w1c|wo)) | V)   which leaves them unchanged)
//
// Access rights are checked at compile time: writing a read-only field, reading a write-only
// one, mixing registers or passing something that is not a field (a register) does not compile,
// and the diagnostic names the type.
//
// Values: constants are fields, F{v}, checked when compiled (field.hpp); run-time values are
// F::from(v), and a write() with at least one of them returns a write_status: it writes nothing
// unless every value fits its field.
//   if (!write<Bus>(m::value::from(rows), cfg::relu{1})) return too_large;
#pragma once
#include "ctnn/core/utility.hpp"
#include "ctnn/mmio/access.hpp"
#include "ctnn/mmio/bus.hpp"
#include "ctnn/mmio/field.hpp"

namespace ctnn::mmio {

namespace detail {

template <class T, class = void>
inline constexpr bool is_field = false;
template <class T>
inline constexpr bool is_field<T, decltype(void(T::mask), void(static_cast<typename T::field_type*>(nullptr)),
                                           void(static_cast<typename T::reg_type*>(nullptr)))> = true;
template <class T, class = void>
inline constexpr bool is_register = false;
template <class T>
inline constexpr bool is_register<T, decltype(void(T::address), void(static_cast<typename T::fields*>(nullptr)))> =
    !is_field<T>;

/// An argument of write(): a field F (a constant) or checked<F> (a run-time value, F::from).
template <class A>
struct write_arg {
  using field = A;
  static constexpr bool is_checked = false;
  static constexpr const A& get(const A& a) { return a; }
  static constexpr bool ok(const A&) { return true; }
};
template <class F>
struct write_arg<checked<F>> {
  using field = F;
  static constexpr bool is_checked = true;
  static constexpr const F& get(const checked<F>& c) { return c.field; }
  static constexpr bool ok(const checked<F>& c) { return c.ok; }
};

template <class F>
struct field_check {
  static_assert(is_field<F>,
                "ctnn::mmio: a field of a register is expected here (reg::field{value} or reg::field::from(v)), "
                "not a register or another type (see the type in 'required from')");
  static constexpr bool ok = is_field<F>;
};

template <class R>
struct reg_or_field_check {
  static_assert(is_field<R> || is_register<R>,
                "ctnn::mmio::read: a register or a field of a register is expected here (see the type in "
                "'required from')");
  static constexpr bool ok = is_field<R> || is_register<R>;
};

template <class F>
struct write_check {
  static_assert(writable(F::rights),
                "ctnn::mmio::write: this field is read-only (see the field type in 'required from')");
  static constexpr bool ok = true;
};

template <class F>
struct read_check {
  static_assert(readable(F::rights),
                "ctnn::mmio::read: this field is write-only (see the field type in 'required from')");
  static constexpr bool ok = true;
};

template <class R, class F>
struct same_reg_check {
  static_assert(is_same_v<typename F::reg_type, R>,
                "ctnn::mmio::write: all fields of one write must belong to the same register");
  static constexpr bool ok = true;
};

constexpr unsigned popcount(uint32_t v) {
  unsigned n = 0;
  for (; v != 0; v &= v - 1) ++n;
  return n;
}

}  // namespace detail

/// @brief True for a generated field type (what write() takes, F{v} or F::from(v)).
template <class T>
concept field_type = detail::is_field<T>;
/// @brief True for a generated register type (what read() of a whole register takes).
template <class T>
concept register_type = detail::is_register<T>;

/// @brief Masks of register R by access right (R::fields is the generated field_list).
template <class R>
struct reg_masks {
  static constexpr uint32_t rw = R::fields::mask_of(access::rw);
  static constexpr uint32_t w1c = R::fields::mask_of(access::w1c);
  static constexpr uint32_t wo = R::fields::mask_of(access::wo);
  static constexpr uint32_t ro = R::fields::mask_of(access::ro);
};

namespace detail {
template <class F0, class... Fs>
constexpr bool single_store_of() {
  if constexpr (!(field_check<F0>::ok && ... && field_check<Fs>::ok)) return false;
  else return (reg_masks<typename F0::reg_type>::rw & ~(F0::mask | ... | Fs::mask)) == 0;
}
}  // namespace detail

/// @brief True when write<Bus>(Fs{}...) is a single store (no read-modify-write).
template <class F0, class... Fs>
inline constexpr bool single_store = detail::single_store_of<F0, Fs...>();

/// @brief What write() of run-time values returns: true when every value fit and was written;
/// false: nothing was written.
struct [[nodiscard]] write_status {
  bool ok;
  constexpr explicit operator bool() const { return ok; }
};

/// @brief Writes several fields of one register with one store or one read-modify-write.
/// Each argument is a field (a constant, F{v}) or a run-time value (F::from(v)); with at least
/// one of the latter it returns a write_status and writes nothing unless all fit.
template <bus Bus, class A0, class... As>
inline auto write(A0 a0, As... as) {
  using F0 = typename detail::write_arg<A0>::field;
  constexpr bool fields = (detail::field_check<F0>::ok && ... && detail::field_check<typename detail::write_arg<As>::field>::ok);
  constexpr bool any_checked = (detail::write_arg<A0>::is_checked || ... || detail::write_arg<As>::is_checked);
  if constexpr (!fields) {
    return;   // the static_assert above is the one diagnostic
  } else {
    using R = typename F0::reg_type;
    static_assert((detail::same_reg_check<R, typename detail::write_arg<As>::field>::ok && ... && true));
    static_assert(detail::write_check<typename F0::field_type>::ok &&
                  (detail::write_check<typename detail::write_arg<As>::field::field_type>::ok && ... && true));
    constexpr uint32_t written = (F0::mask | ... | detail::write_arg<As>::field::mask);
    static_assert(detail::popcount(written) ==
                      (detail::popcount(F0::mask) + ... + detail::popcount(detail::write_arg<As>::field::mask)),
                  "ctnn::mmio::write: a field is written twice in one write");
    const auto store = [&] {
      const uint32_t value =
          (detail::write_arg<A0>::get(a0).in_place() | ... | detail::write_arg<As>::get(as).in_place());
      if constexpr ((reg_masks<R>::rw & ~written) == 0) {
        Bus::store(R::address, value);
      } else {
        // Keep every bit except the written ones and the w1c/wo bits (writing back 1 there would
        // clear or trigger); ro and reserved bits written back are ignored by the hardware, and
        // keeping them lets the compiler use the shortest mask, as hand-written code does.
        constexpr uint32_t keep = ~(written | reg_masks<R>::w1c | reg_masks<R>::wo);
        Bus::store(R::address, (Bus::load(R::address) & keep) | value);
      }
    };
    if constexpr (any_checked) {
      if (!(detail::write_arg<A0>::ok(a0) && ... && detail::write_arg<As>::ok(as))) return write_status{false};
      store();
      return write_status{true};
    } else {
      store();
    }
  }
}

/// @brief Reads a whole register (R is a register type) or one field (R is a field type).
template <bus Bus, class R>
[[nodiscard]] inline uint32_t read() {
  if constexpr (!detail::reg_or_field_check<R>::ok) {
    return 0;   // the static_assert above is the one diagnostic
  } else if constexpr (detail::is_field<R>) {
    static_assert(detail::read_check<typename R::field_type>::ok);
    return R::get(Bus::load(R::reg_type::address));
  } else {
    return Bus::load(R::address);
  }
}

/// @brief Reads one field and sign-extends it.
template <bus Bus, class F>
[[nodiscard]] inline int32_t read_signed() {
  if constexpr (!detail::field_check<F>::ok) {
    return 0;   // the static_assert above is the one diagnostic
  } else {
    static_assert(detail::read_check<typename F::field_type>::ok);
    return F::get_signed(Bus::load(F::reg_type::address));
  }
}

}  // namespace ctnn::mmio
