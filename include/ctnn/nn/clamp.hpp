// clamp: y = min(max(x, lower), upper) (PyTorch's torch.clamp / Hardtanh, ONNX Clip with any
// bounds), and its op. The bounds are ratios LoNum/Den and HiNum/Den so they are plain integer
// template arguments on every compiler: clamp<0, 6> is ReLU6, clamp<-1, 1> Hardtanh,
// clamp<-25, 25, 10> clips to [-2.5, 2.5].
#pragma once
#include "ctnn/nn/activation.hpp"

namespace ctnn {

/// @brief Clamp to [LoNum/Den, HiNum/Den]. Output shape = input shape; ext_ops = one per
/// element (an activation). The bounds travel in the row (geometry.alpha, geometry.beta).
/// @tparam LoNum numerator of the lower bound
/// @tparam HiNum numerator of the upper bound
/// @tparam Den   the bounds' common denominator (> 0)
template <int64_t LoNum, int64_t HiNum, int64_t Den = 1>
struct clamp : leaf<clamp<LoNum, HiNum, Den>> {
  static_assert(Den > 0, "ctnn: clamp: the bounds' denominator must be positive");
  static_assert(LoNum <= HiNum, "ctnn: clamp: the lower bound is above the upper bound");
  static constexpr op kind = op::clamp;
  static constexpr float lower = ratio_value(LoNum, Den);
  static constexpr float upper = ratio_value(HiNum, Den);
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.alpha = lower;
    g.beta = upper;
    return g;
  }
};

/// @brief The function itself: lower below lower, upper above upper, x between (NaN stays NaN,
/// as torch.clamp).
struct clamp_fn {
  float lower, upper;
  static constexpr clamp_fn of(const row& r) { return {r.geometry.alpha, r.geometry.beta}; }
  constexpr float operator()(float x) const { return x < lower ? lower : (x > upper ? upper : x); }
};

/// @brief Clamp's op: an elementwise op (in place, no parameters, int8 output in the standard
/// quantization). float: the function per element; int8: the reference dequantizes, clamps and
/// quantizes, the optimized backend looks up the 256-entry table of the same function.
template <>
struct op_def<op::clamp> : detail::unary_op<clamp_fn> {
  static constexpr const char* type_name = "Clamp";
};

}  // namespace ctnn
