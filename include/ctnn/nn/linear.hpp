// linear: fully connected layer on a flattened input (PyTorch's Linear), and its op.
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn {

/// The faults of a linear layer.
enum class linear_fault : uint8_t { none, not_flat, in_features };

namespace error {
CTNN_DEFINE_ERROR(linear_input_not_flattened, "ctnn: linear: input is a feature map; insert flatten before linear");
CTNN_DEFINE_ERROR(linear_in_features_mismatch, "ctnn: linear: the flattened input size differs from the layer's in_features");
}  // namespace error

/// @brief y = W·x + b with W of In×Out (op_def<op::linear> counts it).
template <int64_t In, int64_t Out, bool Bias = true>
struct linear : leaf<linear<In, Out, Bias>> {
  static_assert(In > 0 && Out > 0, "ctnn: linear: feature counts must be positive");
  static constexpr op kind = op::linear;
  static constexpr int64_t in_features = In;
  static constexpr int64_t out_features = Out;
  static constexpr bool bias = Bias;

  static constexpr layer_geometry geometry() {
    layer_geometry g{};
    g.bias = Bias;
    g.in_channels = In;
    g.out_channels = Out;
    return g;
  }
};

/// @brief The linear op: weights [out][in] (T), bias, int8 requantization; GEMM M = out, N = 1,
/// K = in. The tiled GEMM packs into the static workspace of tiled.hpp; an int8 K beyond it runs
/// the reference (a GEMV gains little from packing).
template <>
struct op_def<op::linear> {
  static constexpr const char* type_name = "Linear";
  static constexpr fault_report check(const layer_geometry& g, shape in) {
    if (in.rank != 1) return fail_shape(linear_fault::not_flat, features(g.in_channels), in);
    if (in.elems() != g.in_channels) return fail(linear_fault::in_features, g.in_channels, in.elems());
    return ok();
  }
  static constexpr shape output(const layer_geometry& g, shape) { return features(g.out_channels); }
  /// MACs = In·Out; ext_ops = Out bias additions when biased.
  static constexpr leaf_counts counts(const layer_geometry& g, shape) {
    leaf_counts c{};
    c.weights = static_cast<uint64_t>(g.in_channels * g.out_channels);
    c.biases = g.bias ? static_cast<uint64_t>(g.out_channels) : 0;
    c.macs = static_cast<uint64_t>(g.in_channels * g.out_channels);
    c.ext_ops = g.bias ? static_cast<uint64_t>(g.out_channels) : 0;
    return c;
  }
  template <diagnostic D>
  static constexpr auto raise() {
    if constexpr (static_cast<linear_fault>(D.report.code) == linear_fault::not_flat)
      return raise_shapes<D, error::linear_input_not_flattened>();
    else return raise_values<D, error::linear_in_features_mismatch>();
  }
  static constexpr gemm_view gemm(const row& r) { return gemm_view{r.out.c, 1, r.in.elems(), 1}; }
  static constexpr runtime::param_regions params(const row& r, dtype t) { return runtime::detail::weighted_regions(r, t); }
  template <dtype T>
  static void fill(const runtime::fill_call& f) { runtime::detail::fill_weighted<T>(f); }
  /// Post-training int8: per-channel symmetric weights, int32 bias, per-channel requantization.
  static kernels::status quantize(const runtime::quantize_call& q) { return runtime::detail::quantize_weighted(q); }
  /// A ReLU, ReLU6 or clamp after it may be fused (fused<linear<...>, relu>).
  static constexpr bool fuses_activation = true;

  template <class T, runtime::backend B>
  static runtime::leaf_result run(const runtime::leaf_call<T>& c) {
    const int in_f = static_cast<int>(c.r->in.elems()), out_f = static_cast<int>(c.r->out.c);
    if constexpr (is_same_v<T, int8_t>) {
      const ref::gemm_s8_params gp = runtime::gemm_params(c);
      using tiling = kernels::default_s8_tiling;
      if constexpr (B == runtime::backend::optimized) {
        if (kernels::linear_s8_workspace_bytes(in_f) <= sizeof(kernels::detail::static_workspace_s8<tiling>::buf))
          return runtime::from(kernels::linear_s8<tiling>(1, in_f, out_f, c.in[0], c.weights(), c.bias(), c.out, gp,
                                                          kernels::detail::static_workspace_s8<tiling>::buf,
                                                          sizeof(kernels::detail::static_workspace_s8<tiling>::buf)));
      }
      return runtime::from(ref::linear_s8(1, in_f, out_f, c.in[0], c.weights(), c.bias(), c.out, gp));
    } else if constexpr (B == runtime::backend::optimized) {
      return runtime::finish_fused(c, kernels::linear_f32(1, in_f, out_f, c.in[0], c.weights(), c.bias(), c.out));
    } else {
      return runtime::finish_fused(c, ref::linear_f32(1, in_f, out_f, c.in[0], c.weights(), c.bias(), c.out));
    }
  }
};

}  // namespace ctnn
