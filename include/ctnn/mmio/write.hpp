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
// one or mixing registers does not compile, and the diagnostic names the field type.
#pragma once
#include "ctnn/core/utility.hpp"
#include "ctnn/mmio/access.hpp"
#include "ctnn/mmio/bus.hpp"

namespace ctnn::mmio {

namespace detail {

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

template <class T, class = void>
inline constexpr bool is_field = false;
template <class T>
inline constexpr bool is_field<T, decltype(void(T::mask))> = true;

}  // namespace detail

/// @brief Masks of register R by access right (R::fields is the generated field_list).
template <class R>
struct reg_masks {
  static constexpr uint32_t rw = R::fields::mask_of(access::rw);
  static constexpr uint32_t w1c = R::fields::mask_of(access::w1c);
  static constexpr uint32_t wo = R::fields::mask_of(access::wo);
  static constexpr uint32_t ro = R::fields::mask_of(access::ro);
};

/// @brief True when write<Bus>(Fs{}...) is a single store (no read-modify-write).
template <class F0, class... Fs>
inline constexpr bool single_store =
    (reg_masks<typename F0::reg_type>::rw & ~(F0::mask | ... | Fs::mask)) == 0;

/// @brief Writes several fields of one register with one store or one read-modify-write.
template <bus Bus, class F0, class... Fs>
inline void write(F0 f0, Fs... fs) {
  using R = typename F0::reg_type;
  static_assert((detail::same_reg_check<R, Fs>::ok && ... && true));
  static_assert(detail::write_check<typename F0::field_type>::ok &&
                (detail::write_check<typename Fs::field_type>::ok && ... && true));
  constexpr uint32_t written = (F0::mask | ... | Fs::mask);
  static_assert(detail::popcount(written) == (detail::popcount(F0::mask) + ... + detail::popcount(Fs::mask)),
                "ctnn::mmio::write: a field is written twice in one write");
  const uint32_t value = (f0.in_place() | ... | fs.in_place());
  if constexpr ((reg_masks<R>::rw & ~written) == 0) {
    Bus::store(R::address, value);
  } else {
    // Keep every bit except the written ones and the w1c/wo bits (writing back 1 there would
    // clear or trigger); ro and reserved bits written back are ignored by the hardware, and
    // keeping them lets the compiler use the shortest mask, as hand-written code does.
    constexpr uint32_t keep = ~(written | reg_masks<R>::w1c | reg_masks<R>::wo);
    Bus::store(R::address, (Bus::load(R::address) & keep) | value);
  }
}

/// @brief Reads a whole register (R is a register type) or one field (R is a field type).
template <bus Bus, class R>
[[nodiscard]] inline uint32_t read() {
  if constexpr (detail::is_field<R>) {
    static_assert(detail::read_check<typename R::field_type>::ok);
    return R::get(Bus::load(R::reg_type::address));
  } else {
    return Bus::load(R::address);
  }
}

/// @brief Reads one field and sign-extends it.
template <bus Bus, class F>
[[nodiscard]] inline int32_t read_signed() {
  static_assert(detail::read_check<typename F::field_type>::ok);
  return F::get_signed(Bus::load(F::reg_type::address));
}

}  // namespace ctnn::mmio
