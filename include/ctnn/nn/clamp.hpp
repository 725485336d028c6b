// clamp: y = min(max(x, lower), upper) (PyTorch's torch.clamp / Hardtanh, ONNX Clip with any
// bounds), and its op. The bounds are ratios LoNum/Den and HiNum/Den so they are plain integer
// template arguments on every compiler: clamp<0, 6> is ReLU6, clamp<-1, 1> Hardtanh,
// clamp<-25, 25, 10> clips to [-2.5, 2.5]. A bound may be open: clamp_min<-1, 4> is
// torch.clamp(x, min=-0.25), clamp_max<3> torch.clamp(x, max=3) (ONNX Clip with one input).
#pragma once
#include "ctnn/nn/activation.hpp"

namespace ctnn {

/// As clamp's LoNum: no lower bound (-infinity).
inline constexpr int64_t unbounded_below = INT64_MIN;
/// As clamp's HiNum: no upper bound (+infinity).
inline constexpr int64_t unbounded_above = INT64_MAX;

/// @brief Clamp to [LoNum/Den, HiNum/Den]. Output shape = input shape; ext_ops = one per
/// element (an activation). The bounds travel in the row (geometry.alpha, geometry.beta).
/// @tparam LoNum numerator of the lower bound, or unbounded_below
/// @tparam HiNum numerator of the upper bound, or unbounded_above
/// @tparam Den   the bounds' common denominator (> 0)
template <int64_t LoNum, int64_t HiNum, int64_t Den = 1>
struct clamp : leaf<clamp<LoNum, HiNum, Den>> {
  static_assert(Den > 0, "ctnn: clamp: the bounds' denominator must be positive");
  static_assert(LoNum <= HiNum, "ctnn: clamp: the lower bound is above the upper bound");
  static_assert(LoNum != unbounded_above && HiNum != unbounded_below,
                "ctnn: clamp: unbounded_above is an upper bound and unbounded_below a lower bound");
  static constexpr op kind = op::clamp;
  static constexpr float lower = LoNum == unbounded_below ? -__builtin_huge_valf() : ratio_value(LoNum, Den);
  static constexpr float upper = HiNum == unbounded_above ? __builtin_huge_valf() : ratio_value(HiNum, Den);
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.alpha = lower;
    g.beta = upper;
    return g;
  }
};

/// @brief torch.clamp(x, min=LoNum/Den): no upper bound.
template <int64_t LoNum, int64_t Den = 1>
using clamp_min = clamp<LoNum, unbounded_above, Den>;
/// @brief torch.clamp(x, max=HiNum/Den): no lower bound.
template <int64_t HiNum, int64_t Den = 1>
using clamp_max = clamp<unbounded_below, HiNum, Den>;

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
