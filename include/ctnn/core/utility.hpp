// The few standard-library-like utilities the freestanding core needs: array, fixed_string,
// type traits and integer helpers. Only <stdint.h>, <stddef.h> and compiler builtins.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace ctnn {

/// @brief A fixed-size aggregate array usable in constant expressions (std::array stand-in).
template <class T, size_t N>
struct array {
  T elems[N > 0 ? N : 1];

  [[nodiscard]] static constexpr size_t size() { return N; }
  constexpr T& operator[](size_t i) { return elems[i]; }
  constexpr const T& operator[](size_t i) const { return elems[i]; }
  constexpr T* begin() { return elems; }
  constexpr T* end() { return elems + N; }
  constexpr const T* begin() const { return elems; }
  constexpr const T* end() const { return elems + N; }
  constexpr T* data() { return elems; }
  constexpr const T* data() const { return elems; }
  friend constexpr bool operator==(const array&, const array&) = default;
};

/// @brief A string literal usable as a template argument: `block<"BasicBlock", ...>`.
template <size_t N>
struct fixed_string {
  char chars[N];
  constexpr fixed_string(const char (&s)[N]) {  // NOLINT: implicit on purpose
    for (size_t i = 0; i < N; ++i) chars[i] = s[i];
  }
  [[nodiscard]] constexpr const char* c_str() const { return chars; }
  [[nodiscard]] static constexpr size_t size() { return N - 1; }
};

template <class A, class B> inline constexpr bool is_same_v = false;
template <class A> inline constexpr bool is_same_v<A, A> = true;

template <class T> struct type_identity { using type = T; };

template <bool C, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool C, class T, class F> using conditional_t = typename conditional<C, T, F>::type;

template <class T> constexpr T min(T a, T b) { return b < a ? b : a; }
template <class T> constexpr T max(T a, T b) { return a < b ? b : a; }

/// A pack of integers (std::integer_sequence stand-in) for expanding repeated blocks.
template <class T, T... I> struct integer_sequence {};
#if defined(__has_builtin)
#if __has_builtin(__make_integer_seq)
template <size_t N> using make_index_sequence = __make_integer_seq<integer_sequence, size_t, N>;
#define CTNN_HAVE_INDEX_SEQUENCE 1
#endif
#endif
#ifndef CTNN_HAVE_INDEX_SEQUENCE
template <size_t N> using make_index_sequence = integer_sequence<size_t, __integer_pack(N)...>;
#endif

/// ceil(a / b) for a >= 0, b > 0.
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
/// Floor division that rounds toward minus infinity (PyTorch's output-size formula needs it).
constexpr int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}
/// The float nearest Num/Den (through double): how a real attribute written as an integer ratio
/// (a slope, an epsilon) becomes a value; integer template arguments work on every compiler.
constexpr float ratio_value(int64_t num, int64_t den) {
  return static_cast<float>(static_cast<double>(num) / static_cast<double>(den));
}
/// Rounds v up to a multiple of a (a > 0).
constexpr uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/// Length of a NUL-terminated string in a constant expression.
constexpr size_t string_length(const char* s) {
  size_t n = 0;
  while (s[n] != '\0') ++n;
  return n;
}

constexpr bool string_equal(const char* a, const char* b) {
  size_t i = 0;
  for (; a[i] != '\0' && b[i] != '\0'; ++i)
    if (a[i] != b[i]) return false;
  return a[i] == b[i];
}

}  // namespace ctnn
