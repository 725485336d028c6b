// Elementwise activations: relu, relu6, sigmoid, silu, hardswish, hardsigmoid, tanh, gelu, and
// their ops (in place; float through the freestanding math; int8 through a 256-entry table: built
// at run time from the function, or, for sigmoid and tanh, TFLite's lookup table held in the
// parameter blob; hardswish in TFLite's 16-bit fixed point).
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"
#include "ctnn/runtime/fast_paths.hpp"

namespace ctnn {

namespace detail {
/// The shape facts of an elementwise op: any input, the same shape out, one operation per
/// element (ptflops' convention for activations).
struct elementwise_shape {
  static constexpr fault_report check(const layer_geometry&, shape) { return ok(); }
  static constexpr shape output(const layer_geometry&, shape in) { return in; }
  static constexpr leaf_counts counts(const layer_geometry&, shape in) {
    leaf_counts c{};
    c.ext_ops = static_cast<uint64_t>(in.elems());
    return c;
  }
};

/// The op of an elementwise function F (a callable float -> float made from the leaf's row by
/// `F::of(row)`, e.g. to read a slope), whose int8 output follows quantization rule Q. float: the function per element; int8: the reference
/// dequantizes, applies F and quantizes, the optimized backend looks up the table of the same.
template <class F, runtime::quant_rule Q = runtime::quant_rule::standard>
struct unary_op : elementwise_shape {
  static constexpr reuse_rule reuse{false, 1, false};
  static constexpr runtime::quant_rule quant = Q;
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const int64_t n = c.r->out.elems();
    const F f = F::of(*c.r);
    if constexpr (is_same_v<T, int8_t>) {
      const ref::act_s8_params ap = runtime::act_params(c);
      if constexpr (B == runtime::backend::optimized) {
        if (!ref::valid(ap)) return runtime::from(kernels::status::bad_quant_param);
        const kernels::activation_table t = kernels::make_unary_table(f, ap);
        return runtime::from(kernels::activation_s8(t, n, c.in[0], c.out));
      } else {
        return runtime::from(ref::unary_s8(f, n, c.in[0], c.out, ap));
      }
    } else {
      return runtime::from(ref::unary_f32(f, n, c.in[0], c.out));
    }
  }
};

/// The function of ref::activation A as a stateless callable.
template <ref::activation A>
struct activation_fn {
  static constexpr activation_fn of(const row&) { return {}; }
  constexpr float operator()(float x) const { return ref::apply(A, x); }
};

template <ref::activation A, runtime::quant_rule Q = runtime::quant_rule::standard>
using activation_op = unary_op<activation_fn<A>, Q>;

/// The function of a lookup-table op in double, for the table an import computes.
template <ref::activation A>
constexpr double exact(double x) {
  if constexpr (A == ref::activation::sigmoid) return 1.0 / (1.0 + __builtin_exp(-x));
  else return __builtin_tanh(x);
}

/// The op of an activation whose int8 form is TFLite's lookup table (its newer LOGISTIC and TANH
/// kernels): 256 int8 values, the output for each input byte, a parameter in the blob (int8:
/// the weight region, 256 bytes), looked up by both backends. An import computes it as TFLite's
/// LUTPopulate does, in double: table[v + 128] = clamp(round(f(s_in (v - z_in)) / s_out) + z_out)
/// (round half away from zero; `quantize`); the seeded generator from the float32 function
/// (`fill`, ref::unary_s8_one). float32: the function per element.
template <ref::activation A, runtime::quant_rule Q>
struct lut_op : activation_op<A, Q> {
  static constexpr runtime::param_regions params(const row&, dtype t) {
    return t == dtype::int8 ? runtime::param_regions{256, 0, 0, false} : runtime::param_regions{};
  }
  template <dtype T>
  static void fill(const runtime::fill_call& f) {
    if constexpr (T == dtype::int8) {
      const ref::act_s8_params p{f.in_q.scale, f.in_q.zero_point, f.out_q.scale, f.out_q.zero_point};
      for (int v = -128; v < 128; ++v)
        f.at<int8_t>(f.lp->w)[v + 128] = ref::activation_s8_one(A, static_cast<int8_t>(v), p);
    }
  }
  static kernels::status quantize(const runtime::quantize_call& q) {
    if (!quant::valid_scale(q.in_q.scale) || !quant::valid_scale(q.out_q.scale)) return kernels::status::bad_quant_param;
    for (int v = -128; v < 128; ++v) {
      const double real = static_cast<double>(q.in_q.scale) * static_cast<double>(v - q.in_q.zero_point);
      double y = runtime::detail::round_half_away(exact<A>(real) / static_cast<double>(q.out_q.scale));
      y += static_cast<double>(q.out_q.zero_point);
      q.at<int8_t>(q.lp->w)[v + 128] = static_cast<int8_t>(y < -128.0 ? -128 : (y > 127.0 ? 127 : static_cast<int32_t>(y)));
    }
    return kernels::status::ok;
  }
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    if constexpr (is_same_v<T, int8_t>) {
      const auto* table = reinterpret_cast<const kernels::activation_table*>(c.weights());
      if (table == nullptr) return runtime::from(kernels::status::null_pointer);
      return runtime::from(kernels::activation_s8(*table, c.r->out.elems(), c.in[0], c.out));
    } else {
      return activation_op<A, Q>::template run<T, B>(c);
    }
  }
};
}  // namespace detail

template <>
struct op_def<op::relu> : detail::activation_op<ref::activation::relu> {
  static constexpr const char* type_name = "ReLU";
  /// int8 with the same quantization in and out: max(x, zero point), bit-exact (fast_paths.hpp).
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    if constexpr (is_same_v<T, int8_t> && B == runtime::backend::optimized) {
      if (runtime::fast::relu_is_clamp(c.q_in[0], c.q_out)) {
        runtime::fast::relu_clamp_s8(static_cast<size_t>(c.r->out.elems()), c.in[0], c.out, c.q_out.zero_point);
        return runtime::leaf_done;
      }
    }
    return detail::activation_op<ref::activation::relu>::run<T, B>(c);
  }
};
template <>
struct op_def<op::relu6> : detail::activation_op<ref::activation::relu6> {
  static constexpr const char* type_name = "ReLU6";
};
/// @brief Sigmoid's op: int8 through its lookup table (TFLite's LOGISTIC), output scale 1/256, zero point -128.
template <>
struct op_def<op::sigmoid> : detail::lut_op<ref::activation::sigmoid, runtime::quant_rule::unit_interval> {
  static constexpr const char* type_name = "Sigmoid";
};
template <>
struct op_def<op::silu> : detail::activation_op<ref::activation::silu> {
  static constexpr const char* type_name = "SiLU";
};
template <>
struct op_def<op::hardswish> : detail::activation_op<ref::activation::hardswish> {
  static constexpr const char* type_name = "Hardswish";
  /// int8: TFLite's fixed-point hard swish (ref::hardswish_s8_one, its parameters made from the
  /// input's and output's quantization as TFLite's Prepare makes them); the optimized backend
  /// looks up the 256 values of the same function.
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    if constexpr (is_same_v<T, int8_t>) {
      const int64_t n = c.r->out.elems();
      ref::hardswish_s8_params p{};
      if (const kernels::status s = ref::make_hardswish_s8_params(p, c.q_in[0].scale, c.q_in[0].zero_point, c.q_out.scale,
                                                                  c.q_out.zero_point);
          s != kernels::status::ok)
        return runtime::from(s);
      if constexpr (B == runtime::backend::optimized) {
        kernels::activation_table t{};
        for (int x = -128; x < 128; ++x) t.v[x + 128] = ref::hardswish_s8_one(static_cast<int8_t>(x), p);
        return runtime::from(kernels::activation_s8(t, n, c.in[0], c.out));
      } else {
        return runtime::from(ref::hardswish_s8(n, c.in[0], c.out, p));
      }
    } else {
      return detail::activation_op<ref::activation::hardswish>::run<T, B>(c);
    }
  }
};
template <>
struct op_def<op::hardsigmoid>
    : detail::activation_op<ref::activation::hardsigmoid, runtime::quant_rule::unit_interval> {
  static constexpr const char* type_name = "Hardsigmoid";
};
/// @brief Tanh's op: int8 through its lookup table (TFLite's TANH), output scale 1/128, zero point 0.
template <>
struct op_def<op::tanh> : detail::lut_op<ref::activation::tanh, runtime::quant_rule::symmetric_unit> {
  static constexpr const char* type_name = "Tanh";
};
namespace detail {
/// GELU as its row asks: exact (erf, PyTorch's default) or the tanh form (variant 1).
struct gelu_fn {
  bool tanh_form;
  static constexpr gelu_fn of(const row& r) { return {r.geometry.variant == 1}; }
  constexpr float operator()(float x) const {
    return ref::apply(tanh_form ? ref::activation::gelu_tanh : ref::activation::gelu, x);
  }
};
}  // namespace detail

/// @brief GELU's op: elementwise; the row's variant picks the exact (0) or the tanh form (1).
template <>
struct op_def<op::gelu> : detail::unary_op<detail::gelu_fn> {
  static constexpr const char* type_name = "GELU";
};

/// @brief An elementwise activation of kind K (one of the op_defs above). Output shape = input
/// shape; ext_ops = one per element (ptflops' convention for activations).
template <op K>
struct activation : leaf<activation<K>> {
  static constexpr op kind = K;
};

using relu = activation<op::relu>;
using relu6 = activation<op::relu6>;
using sigmoid = activation<op::sigmoid>;
using silu = activation<op::silu>;
using hardswish = activation<op::hardswish>;
using hardsigmoid = activation<op::hardsigmoid>;
using tanh_activation = activation<op::tanh>;
/// @brief GELU, exact: x/2 (1 + erf(x / sqrt 2)) (PyTorch's nn.GELU(), ONNX Gelu).
using gelu = activation<op::gelu>;
/// @brief GELU in the tanh form (PyTorch's nn.GELU(approximate="tanh")).
struct gelu_tanh : leaf<gelu_tanh> {
  static constexpr op kind = op::gelu;
  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.variant = 1;
    return g;
  }
};

}  // namespace ctnn
