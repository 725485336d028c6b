// The joins of a graph: residual (x + f(x), the Add leaf), concat (channels, the Concat leaf)
// and scale (x * gate(x), the Mul leaf), and the ops of those three leaves.
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"
#include "ctnn/runtime/fast_paths.hpp"

namespace ctnn {

/// The faults of the joins: each is recorded on the leaf that joins (Add, Concat, Mul).
enum class join_fault : uint8_t { none, residual_shape, concat_spatial, scale_shape };

namespace error {
CTNN_DEFINE_ERROR(residual_shape_mismatch, "ctnn: residual: the body's output shape differs from the shortcut's");
CTNN_DEFINE_ERROR(concat_spatial_mismatch, "ctnn: concat: branches disagree on height/width (or rank)");
CTNN_DEFINE_ERROR(scale_shape_mismatch, "ctnn: scale: the gate must output (C, 1, 1) or the input's shape");
}  // namespace error

namespace detail {
/// The shape facts of a binary elementwise join (add, mul): the output has input 0's shape and
/// costs one operation per element.
struct binary_join_shape {
  static constexpr shape output(const layer_geometry&, const shape* in, int32_t) { return in[0]; }
  static constexpr leaf_counts counts(const layer_geometry&, const shape* in, int32_t) {
    leaf_counts c{};
    c.ext_ops = static_cast<uint64_t>(in[0].elems());
    return c;
  }
};
}  // namespace detail

/// @brief Add's op: in place over either input when it dies here. int8: TFLite's quantized add;
/// the optimized backend sums integers when the three scales are equal (fast_paths.hpp).
template <>
struct op_def<op::add> : detail::binary_join_shape {
  static constexpr const char* type_name = "Add";
  /// Two inputs of one shape (input 0 the residual's body, input 1 its shortcut).
  static constexpr fault_report check(const layer_geometry&, const shape* in, int32_t n) {
    if (n != 2 || !(in[0] == in[1])) return fail_shape(join_fault::residual_shape, in[n > 1 ? 1 : 0], in[0]);
    return ok();
  }
  template <diagnostic D>
  static constexpr auto raise() { return raise_shapes<D, error::residual_shape_mismatch>(); }
  static constexpr reuse_rule reuse{false, 2, false};
  /// A ReLU, ReLU6 or clamp after it may be fused (fused<join<op::add>, relu> in a dag).
  static constexpr bool fuses_activation = true;
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const int64_t n = c.r->out.elems();
    constexpr bool opt = B == runtime::backend::optimized;
    if constexpr (is_same_v<T, int8_t>) {
      const runtime::act_range a = runtime::out_range(c);
      if (opt && a.min == -128 && a.max == 127 && runtime::fast::add_is_integer(c.q_in[0], c.q_in[1], c.q_out)) {
        runtime::fast::add_integer_s8(static_cast<size_t>(n), c.in[0], c.in[1], c.out, c.q_in[0].zero_point,
                                      c.q_in[1].zero_point, c.q_out.zero_point);
        return runtime::leaf_done;
      }
      ref::add_s8_params p{};
      if (const kernels::status s = ref::make_add_s8_params(p, c.q_in[0].scale, c.q_in[0].zero_point, c.q_in[1].scale,
                                                            c.q_in[1].zero_point, c.q_out.scale, c.q_out.zero_point,
                                                            a.min, a.max);
          s != kernels::status::ok)
        return runtime::from(s);
      if constexpr (opt) return runtime::from(kernels::add_s8(n, c.in[0], c.in[1], c.out, p));
      else return runtime::from(ref::add_s8(n, c.in[0], c.in[1], c.out, p));
    } else {
      if constexpr (opt) return runtime::finish_fused(c, kernels::add_f32(n, c.in[0], c.in[1], c.out));
      else return runtime::finish_fused(c, ref::add_f32(n, c.in[0], c.in[1], c.out));
    }
  }
};

/// @brief Multiply's op: x times a gate of x's shape or (C, 1, 1) broadcast over H×W; in place
/// over x (the full-size input) when it dies here. int8: TFLite's quantized multiply.
template <>
struct op_def<op::mul> : detail::binary_join_shape {
  static constexpr const char* type_name = "Mul";
  /// x (input 0) times a gate (input 1) of x's shape or (C, 1, 1).
  static constexpr fault_report check(const layer_geometry&, const shape* in, int32_t n) {
    const shape gate = n == 2 ? in[1] : shape{};
    const bool broadcast = gate.c == in[0].c && gate.h == 1 && gate.w == 1;
    if (n != 2 || !(broadcast || gate == in[0]))
      return fail_shape(join_fault::scale_shape, shape{in[0].c, 1, 1, 3}, gate);
    return ok();
  }
  template <diagnostic D>
  static constexpr auto raise() { return raise_shapes<D, error::scale_shape_mismatch>(); }
  static constexpr reuse_rule reuse{false, 1, false};
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    const int64_t n = r.out.elems(), hw = r.out.h * r.out.w;
    const bool broadcast = c.in_elems[1] != n;
    constexpr bool opt = B == runtime::backend::optimized;
    if constexpr (is_same_v<T, int8_t>) {
      ref::mul_s8_params p{};
      if (const kernels::status s = ref::make_mul_s8_params(p, c.q_in[0].scale, c.q_in[0].zero_point, c.q_in[1].scale,
                                                            c.q_in[1].zero_point, c.q_out.scale, c.q_out.zero_point);
          s != kernels::status::ok)
        return runtime::from(s);
      if (broadcast) return runtime::from(ref::mul_channels_s8(r.out.c, hw, c.in[0], c.in[1], c.out, p));
      if constexpr (opt) return runtime::from(kernels::mul_s8(n, c.in[0], c.in[1], c.out, p));
      else return runtime::from(ref::mul_s8(n, c.in[0], c.in[1], c.out, p));
    } else {
      if (broadcast) return runtime::from(ref::mul_channels_f32(r.out.c, hw, c.in[0], c.in[1], c.out));
      return runtime::from(ref::mul_f32(n, c.in[0], c.in[1], c.out));
    }
  }
};

/// @brief Concat's op: inputs that die here are written by their producers straight into their
/// channel slice of the output (the plan embeds them); the others are copied. int8: every input
/// shares the output's quantization.
template <>
struct op_def<op::concat> {
  static constexpr const char* type_name = "Concat";
  /// Inputs that agree on height, width and rank.
  static constexpr fault_report check(const layer_geometry&, const shape* in, int32_t n) {
    for (int32_t k = 1; k < n; ++k)
      if (in[k].h != in[0].h || in[k].w != in[0].w || in[k].rank != in[0].rank)
        return fail_shape(join_fault::concat_spatial, in[0], in[k]);
    return ok();
  }
  static constexpr shape output(const layer_geometry&, const shape* in, int32_t n) {
    shape out = in[0];
    for (int32_t k = 1; k < n; ++k) out.c += in[k].c;
    return out;
  }
  static constexpr leaf_counts counts(const layer_geometry&, const shape*, int32_t) { return {}; }
  template <diagnostic D>
  static constexpr auto raise() { return raise_shapes<D, error::concat_spatial_mismatch>(); }
  static constexpr reuse_rule reuse{false, 0, true};
  static constexpr runtime::quant_rule quant = runtime::quant_rule::keeps_input;
  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const row& r = *c.r;
    const int64_t hw = r.out.h * r.out.w;
    uint64_t slice = 0;
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      if (is_same_v<T, int8_t> && !runtime::same(c.q_in[k], c.q_out)) return runtime::quant_mismatch;
      const int64_t elems = c.in_elems[k];
      if (c.in_offset[k] != c.out_offset + slice) {
        T* dst = c.out + slice / sizeof(T);
        const T* src[1] = {c.in[k]};
        const int64_t chans[1] = {elems / hw};
        const kernels::status s = B == runtime::backend::optimized
                                      ? kernels::concat_channels<T>(1, src, chans, hw, dst)
                                      : ref::concat_channels<T>(1, src, chans, hw, dst);
        if (s != kernels::status::ok) return runtime::from(s);
      }
      slice += static_cast<uint64_t>(elems) * sizeof(T);
    }
    return runtime::leaf_done;
  }
};

/// @brief x + Body(x), or Shortcut(x) + Body(x) with a projection shortcut (ResNet's downsample).
/// Rows: a "Residual" container with Body's rows, Shortcut's rows, then the Add leaf.
template <class Body, class Shortcut = identity, fixed_string Name = "Residual">
struct residual {
  static constexpr int32_t leaf_count = Body::leaf_count + Shortcut::leaf_count + 1;
  static constexpr int32_t input_count = Body::input_count + Shortcut::input_count + 2;
  static constexpr int32_t row_count = 1 + detail::body_rows<Body> + Shortcut::row_count + 1;
  static constexpr int32_t sibling_slots = 1;
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    const int32_t me = detail::open_container(b, ctx, Name.c_str(), in.s);
    const value body = detail::emit_body<Body>(b, in, ctx.depth + 1, me);
    constexpr int32_t skip_index = detail::body_slots<Body>;
    const value skip = Shortcut::emit(b, in, context{ctx.depth + 1, me, skip_index});
    const value ins[2] = {body, skip};
    const value out = detail::emit_leaf<op::add>(b, context{ctx.depth + 1, me, skip_index + Shortcut::sibling_slots},
                                                 "Add", layer_geometry{}, ins, 2);
    b.close_container(me, out.s);
    return out;
  }
};

/// @brief Parallel branches on the same input, concatenated along channels (Inception, DenseNet).
/// Rows: a container, each branch, then the Concat leaf. Branches write their slices directly.
template <fixed_string Name, class... Branches>
struct concat_named {
  static_assert(sizeof...(Branches) >= 1, "ctnn: concat: at least one branch");
  static constexpr int32_t leaf_count = (0 + ... + Branches::leaf_count) + 1;
  static constexpr int32_t input_count = (0 + ... + Branches::input_count) + static_cast<int32_t>(sizeof...(Branches));
  static constexpr int32_t row_count = 1 + (0 + ... + Branches::row_count) + 1;
  static constexpr int32_t sibling_slots = 1;
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    const int32_t me = detail::open_container(b, ctx, Name.c_str(), in.s);
    value outs[sizeof...(Branches)] = {};
    int32_t i = 0;
    ((outs[i] = Branches::emit(b, in, context{ctx.depth + 1, me, i}), ++i), ...);
    const value r = detail::emit_leaf<op::concat>(b, context{ctx.depth + 1, me, i}, "Concat", layer_geometry{},
                                                  outs, static_cast<int32_t>(sizeof...(Branches)));
    b.close_container(me, r.s);
    return r;
  }
};
template <class... Branches>
using concat = concat_named<"Concat", Branches...>;

/// @brief x * Gate(x): squeeze-and-excitation. Gate yields (C, 1, 1) (broadcast over H, W) or x's shape.
template <class Gate, fixed_string Name = "Scale">
struct scale {
  static constexpr int32_t leaf_count = Gate::leaf_count + 1;
  static constexpr int32_t input_count = Gate::input_count + 2;
  static constexpr int32_t row_count = 1 + Gate::row_count + 1;
  static constexpr int32_t sibling_slots = 1;
  template <class B>
  static constexpr value emit(B& b, value in, context ctx) {
    const int32_t me = detail::open_container(b, ctx, Name.c_str(), in.s);
    const value g = Gate::emit(b, in, context{ctx.depth + 1, me, 0});
    const value ins[2] = {in, g};
    const value out = detail::emit_leaf<op::mul>(b, context{ctx.depth + 1, me, 1}, "Mul", layer_geometry{}, ins, 2);
    b.close_container(me, out.s);
    return out;
  }
};

}  // namespace ctnn
