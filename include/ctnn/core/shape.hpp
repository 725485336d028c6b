// Tensor shapes (batch 1): rank 3 (C, H, W) for feature maps, rank 1 (features) after flatten.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn {

/// @brief Shape of one sample. Structural, so it can be a template argument: `network<shape{3, 224, 224}, ...>`.
struct shape {
  int64_t c = 0;
  int64_t h = 1;
  int64_t w = 1;
  int rank = 3;  ///< 3: (C, H, W); 1: (features,) with h = w = 1

  [[nodiscard]] constexpr int64_t elems() const { return c * h * w; }
  [[nodiscard]] constexpr bool valid() const { return c > 0 && h > 0 && w > 0; }
  friend constexpr bool operator==(const shape&, const shape&) = default;
};

/// A rank-1 shape of n features.
constexpr shape features(int64_t n) { return shape{n, 1, 1, 1}; }

/// A pair (h, w): kernel sizes, strides, dilations. One number n is the square pair (n, n), so
/// `conv2d<3, 64, 7>` and `conv2d<192, 192, hw{1, 7}>` are the same template.
struct hw {
  int64_t h = 1;
  int64_t w = 1;
  constexpr hw() = default;
  constexpr hw(int64_t n) : h(n), w(n) {}  // NOLINT: implicit on purpose (a square pair)
  constexpr hw(int64_t h_, int64_t w_) : h(h_), w(w_) {}
  friend constexpr bool operator==(const hw&, const hw&) = default;
};

/// @brief Padding on the four sides, possibly asymmetric. The one order of the library, in every
/// type, config, row, kernel and generated header: **top, bottom, left, right** (height's pair,
/// then width's, each begin then end). ONNX's `pads` [top, left, bottom, right] and PyTorch's
/// ZeroPad2d (left, right, top, bottom) are converted to it where they are read.
struct pad4 {
  int64_t top = 0;
  int64_t bottom = 0;
  int64_t left = 0;
  int64_t right = 0;
  friend constexpr bool operator==(const pad4&, const pad4&) = default;
};

constexpr pad4 pad_all(int64_t p) { return pad4{p, p, p, p}; }

/// @brief How a window's padding is found: given (explicit), or "same" (TensorFlow's SAME, ONNX's
/// auto_pad): the output is ceil(in / stride) and the padding needed for it is split between
/// the two ends, the odd element at the end (same_upper) or at the beginning (same_lower).
enum class pad_mode : uint8_t { given, same_upper, same_lower };

/// @brief The padding argument of the shorthands (conv2d, depthwise_conv2d, max_pool2d,
/// avg_pool2d): a number p (all four sides), hw{ph, pw} (PyTorch's padding=(ph, pw): top = bottom
/// = ph, left = right = pw), pad4{top, bottom, left, right}, or `same` / `same_lower`.
struct pad_spec {
  pad4 sides{};
  pad_mode mode = pad_mode::given;
  constexpr pad_spec() = default;
  constexpr pad_spec(int64_t p) : sides{p, p, p, p} {}                 // NOLINT: implicit on purpose
  constexpr pad_spec(hw p) : sides{p.h, p.h, p.w, p.w} {}              // NOLINT
  constexpr pad_spec(pad4 p) : sides(p) {}                             // NOLINT
  constexpr pad_spec(pad_mode m) : mode(m) {}                          // NOLINT
  friend constexpr bool operator==(const pad_spec&, const pad_spec&) = default;
};

/// The sides and the mode of a pad_spec (functions, not members: g++ 12 substitutes the argument
/// of a class-type template parameter of an alias template unconverted, so `Padding.sides` fails
/// there when the argument is a number).
constexpr pad4 sides_of(pad_spec p) { return p.sides; }
constexpr pad_mode mode_of(pad_spec p) { return p.mode; }
constexpr hw hw_of(hw v) { return v; }

/// "Same" padding (the odd element at the end, TensorFlow's and ONNX's SAME_UPPER).
inline constexpr pad_mode same = pad_mode::same_upper;
/// "Same" padding with the odd element at the beginning (ONNX's SAME_LOWER).
inline constexpr pad_mode same_lower = pad_mode::same_lower;

}  // namespace ctnn
