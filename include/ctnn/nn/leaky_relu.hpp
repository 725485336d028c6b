// leaky_relu: y = x for x >= 0, slope · x below (PyTorch's LeakyReLU, ONNX LeakyRelu), and its op.
// The slope is a ratio Num/Den so it is a plain integer template argument on every compiler:
// leaky_relu<> is PyTorch's default 0.01, leaky_relu<3, 10> Keras' default 0.3.
#pragma once
#include "ctnn/nn/activation.hpp"

namespace ctnn {

/// @brief LeakyReLU with negative slope Num/Den. Output shape = input shape; ext_ops = one per
/// element (an activation). The slope travels in the row (geometry.alpha).
template <int64_t Num = 1, int64_t Den = 100>
struct leaky_relu : leaf<leaky_relu<Num, Den>> {
  static_assert(Den > 0, "ctnn: leaky_relu: the slope's denominator must be positive");
  static constexpr op kind = op::leaky_relu;
  static constexpr float negative_slope = ratio_value(Num, Den);
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.alpha = negative_slope;
    return g;
  }
};

/// @brief The function itself: x when x >= 0, else slope · x (NaN stays NaN).
struct leaky_relu_fn {
  float slope;
  static constexpr leaky_relu_fn of(const row& r) { return {r.geometry.alpha}; }
  constexpr float operator()(float x) const { return x >= 0.0f ? x : x * slope; }
};

/// @brief LeakyReLU's op: an elementwise op (in place, no parameters, int8 output in the standard
/// quantization). float: the function per element; int8: the reference dequantizes, applies it
/// and quantizes (TFLite's rounding), the optimized backend looks up the 256-entry table of the
/// same function, bit-exact by construction.
template <>
struct op_def<op::leaky_relu> : detail::unary_op<leaky_relu_fn> {
  static constexpr const char* type_name = "LeakyReLU";
};

}  // namespace ctnn
