// leaky_relu: y = x for x >= 0, slope · x below (PyTorch's LeakyReLU, ONNX LeakyRelu), and its op.
// The slope is a ratio Num/Den so it is a plain integer template argument on every compiler:
// leaky_relu<> is PyTorch's default 0.01, leaky_relu<3, 10> Keras' default 0.3.
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn {

/// @brief LeakyReLU with negative slope Num/Den. Output shape = input shape; ext_ops = one per
/// element (an activation). The slope travels in the row (geometry.alpha).
template <int64_t Num = 1, int64_t Den = 100>
struct leaky_relu : leaf<leaky_relu<Num, Den>> {
  static_assert(Den > 0, "ctnn: leaky_relu: the slope's denominator must be positive");
  static constexpr const char* type_name = "LeakyReLU";
  static constexpr op kind = op::leaky_relu;
  static constexpr float negative_slope = static_cast<float>(Num) / static_cast<float>(Den);
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.alpha = negative_slope;
    return g;
  }
  static constexpr fault_report check(shape) { return ok(); }
  static constexpr shape output(shape in) { return in; }
  static constexpr leaf_counts counts(shape in) {
    leaf_counts c{};
    c.ext_ops = static_cast<uint64_t>(in.elems());
    return c;
  }
};

/// @brief The function itself: x when x >= 0, else slope · x (NaN stays NaN).
struct leaky_relu_fn {
  float slope;
  constexpr float operator()(float x) const { return x >= 0.0f ? x : x * slope; }
};

/// @brief LeakyReLU's op: in place; no parameters; int8 output in the standard quantization.
/// float: the function per element (one loop the compiler vectorizes, both backends). int8: the
/// reference dequantizes, applies it and quantizes (TFLite's rounding); the optimized backend
/// looks up the 256-entry table of the same function, bit-exact by construction.
template <>
struct op_def<op::leaky_relu> {
  static constexpr reuse_rule reuse{false, 1, false};
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const leaky_relu_fn f{c.r->geometry.alpha};
    const int64_t n = c.r->out.elems();
    if constexpr (is_same_v<T, int8_t>) {
      const ref::act_s8_params ap = runtime::act_params(c);
      if constexpr (B == runtime::backend::optimized) {
        if (!ref::valid(ap)) return runtime::from(kernels::status::bad_quant_param);
        return runtime::from(kernels::activation_s8(kernels::make_unary_table(f, ap), n, c.in[0], c.out));
      } else {
        return runtime::from(ref::unary_s8(f, n, c.in[0], c.out, ap));
      }
    } else {
      return runtime::from(ref::unary_f32(f, n, c.in[0], c.out));
    }
  }
};

}  // namespace ctnn
