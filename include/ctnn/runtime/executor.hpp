// The executor: runs a network type on one arena laid out by memory::plan_of and one parameter
// blob laid out by param_layout_of, leaf by leaf in execution order, on the reference or the
// optimized CPU kernels. Every fault is a returned status naming the leaf, never UB.
//
//   arena (plan_of<Net, T>)                           params (param_layout_of<Net, T>)
//   +-------+-----------+--------+---------+          +------+------+-----+--------+
//   | input | tensor 3  | panel  | ...     |  <-->    | w0   | b0   | ... | quant  |
//   +-------+-----------+--------+---------+          +------+------+-----+--------+
//     offset_of(t)        scratch_offset[i]             leaves[i].w, .b, .mult, ...
//
// The caller places the input at offset_of(0) and finds the output at
// offset_of(Net::output_tensor). The GEMM packing workspace of the optimized kernels is the
// static workspace of tiled.hpp (it depends on the tiling only): run() is not reentrant.
//
// Offload: run(..., off) first asks off.offload(leaf) for each leaf, which may run the leaf on a
// device (done), refuse it (declined: the CPU kernels run it) or fail (the run stops with
// fault::offload, the leaf and the hook's code). Optional members off.leaf_begin(i) and
// off.leaf_end(i) bracket the execution of leaf i alone (offload attempt and CPU kernel), for
// per-layer profiles that leave out the executor's bookkeeping and the layer callback.
#pragma once
#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/memory/planner.hpp"
#include "ctnn/runtime/fast_paths.hpp"
#include "ctnn/runtime/params.hpp"

namespace ctnn::runtime {

/// @brief Which CPU kernels run the leaves.
enum class backend : uint8_t {
  reference,  ///< ctnn::ref: direct loops, the golden model
  optimized,  ///< ctnn::kernels: im2col panels + tiled GEMM, tables, vector lanes
};

/// @brief Why a run stopped.
enum class fault : uint8_t {
  none = 0,
  null_arena,        ///< the arena pointer is null
  arena_too_small,   ///< fewer bytes than plan_of<Net, T>.arena_bytes
  misaligned_arena,  ///< the arena is not aligned to the plan's alignment (16)
  null_params,       ///< the parameter blob is null while the network has parameters
  params_too_small,  ///< fewer bytes than param_layout_of<Net, T>.total_bytes, or misaligned
  kernel,            ///< a kernel returned a status (see `kernel`)
  unsupported,       ///< the leaf's configuration has no kernel (e.g. dilated pooling)
  quant_mismatch,    ///< int8: tensors that must share a quantization do not (concat, pooling)
  offload,           ///< the offload hook failed the leaf (its code in run_status::detail)
};

constexpr const char* name_of(fault f) {
  switch (f) {
    case fault::none: return "none";
    case fault::null_arena: return "null_arena";
    case fault::arena_too_small: return "arena_too_small";
    case fault::misaligned_arena: return "misaligned_arena";
    case fault::null_params: return "null_params";
    case fault::params_too_small: return "params_too_small";
    case fault::kernel: return "kernel";
    case fault::unsupported: return "unsupported";
    case fault::quant_mismatch: return "quant_mismatch";
    case fault::offload: return "offload";
  }
  return "?";
}

/// @brief The result of run(): ok, or the fault, the kernel status and the leaf (-1 before any leaf).
struct run_status {
  fault code = fault::none;
  kernels::status kernel = kernels::status::ok;
  int32_t leaf = -1;
  uint32_t detail = 0;  ///< fault::offload: the code the offload hook returned
  [[nodiscard]] constexpr bool ok() const { return code == fault::none; }
};

/// @brief Called after each leaf with its index, its output and the output's size in bytes.
using layer_callback = void (*)(void* user, int32_t leaf, const void* output, size_t bytes);

/// @brief One leaf as the executor resolved it from the plan and the parameter layout
/// (independent of Net): what the CPU kernels and an offload hook receive.
template <class T>
struct leaf_call {
  using acc_type = conditional_t<is_same_v<T, int8_t>, int32_t, float>;
  int32_t index = -1;                      ///< the leaf's execution position
  const row* r = nullptr;                  ///< its row: kind, shapes, geometry, name
  T* out = nullptr;
  const T* in[max_inputs] = {};
  uint64_t in_offset[max_inputs] = {};     ///< byte offsets in the arena
  int64_t in_elems[max_inputs] = {};
  uint64_t out_offset = 0;
  void* scratch = nullptr;                 ///< the plan's im2col panel for this leaf, or null
  size_t scratch_bytes = 0;
  int64_t panel_rows = 0;
  const uint8_t* params = nullptr;         ///< the whole blob
  const leaf_param_layout* lp = nullptr;   ///< this leaf's regions of it
  tensor_quant q_in[max_inputs] = {};
  tensor_quant q_out{};

  /// Weights (OIHW or [out][in]), or null.
  [[nodiscard]] const T* weights() const { return region<T>(lp->w, lp->w_bytes); }
  /// Bias (int32 for int8, float for float32), or null when the layer has none.
  [[nodiscard]] const acc_type* bias() const { return region<acc_type>(lp->b, lp->b_bytes); }
  /// int8: per-output-channel requantization multipliers and shifts, or null.
  [[nodiscard]] const int32_t* multipliers() const { return region<int32_t>(lp->mult, has_requant() ? 1 : 0); }
  [[nodiscard]] const int32_t* shifts() const { return region<int32_t>(lp->shift, has_requant() ? 1 : 0); }

 private:
  [[nodiscard]] bool has_requant() const { return lp->mult != 0 || lp->shift != 0; }
  template <class U>
  [[nodiscard]] const U* region(uint64_t offset, uint64_t bytes) const {
    return bytes == 0 ? nullptr : reinterpret_cast<const U*>(params + offset);
  }
};

/// @brief What an offload hook did with a leaf.
struct offload_result {
  enum class verdict : uint8_t {
    declined,  ///< not for this device: the CPU kernels run the leaf
    done,      ///< the device wrote the leaf's output
    failed,    ///< the device failed: run() stops with fault::offload and `code`
  };
  verdict v = verdict::declined;
  uint32_t code = 0;  ///< failed: the hook's reason (e.g. a device error cause)
  static constexpr offload_result declined() { return {verdict::declined, 0}; }
  static constexpr offload_result done() { return {verdict::done, 0}; }
  static constexpr offload_result failed(uint32_t why) { return {verdict::failed, why}; }
};

/// @brief An offload hook for element type T: `offload_result o.offload(const leaf_call<T>&)`.
/// Optional: `o.leaf_begin(int32_t)` and `o.leaf_end(int32_t)`, called around each leaf.
template <class O, class T>
concept offload_hook = requires(O& o, const leaf_call<T>& c) {
  requires is_same_v<decltype(o.offload(c)), offload_result>;
};

/// @brief The hook that declines every leaf (run() without offload).
struct no_offload {
  template <class T>
  constexpr offload_result offload(const leaf_call<T>&) const {
    return offload_result::declined();
  }
};

namespace detail {

template <class U>
inline const U* param(const uint8_t* blob, uint64_t offset, uint64_t bytes) {
  return bytes == 0 ? nullptr : reinterpret_cast<const U*>(blob + offset);
}

inline kernels::conv_geometry conv_of(const row& r) {
  const layer_geometry& g = r.geometry;
  return kernels::conv_geometry{r.in.c,        r.in.h,        r.in.w,         r.out.c,         g.kernel.h,
                                g.kernel.w,    g.stride.h,    g.stride.w,     g.padding.top,   g.padding.bottom,
                                g.padding.left, g.padding.right, g.dilation.h, g.dilation.w, g.groups};
}

inline kernels::pool_geometry pool_of(const row& r) {
  const layer_geometry& g = r.geometry;
  return kernels::pool_geometry{r.in.c,         r.in.h,           r.in.w,          g.kernel.h,
                                g.kernel.w,     g.stride.h,       g.stride.w,      g.padding.top,
                                g.padding.bottom, g.padding.left, g.padding.right, g.ceil_mode,
                                g.count_include_pad};
}

inline ref::activation activation_of(op k) {
  switch (k) {
    case op::relu: return ref::activation::relu;
    case op::relu6: return ref::activation::relu6;
    case op::sigmoid: return ref::activation::sigmoid;
    case op::silu: return ref::activation::silu;
    case op::hardswish: return ref::activation::hardswish;
    case op::hardsigmoid: return ref::activation::hardsigmoid;
    case op::tanh: return ref::activation::tanh;
    case op::gelu: return ref::activation::gelu;
    default: return ref::activation::identity;
  }
}

/// Copies n elements, correct for any overlap (an alias whose plan did not share the buffer).
template <class T>
inline void move_elems(T* dst, const T* src, int64_t n) {
  if (dst == src || n <= 0) return;
  if (dst < src)
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
  else
    for (int64_t i = n; i-- > 0;) dst[i] = src[i];
}

inline bool same(const tensor_quant& a, const tensor_quant& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

struct leaf_result {
  fault code;
  kernels::status kernel;
};
constexpr leaf_result from(kernels::status s) {
  return s == kernels::status::ok ? leaf_result{fault::none, s} : leaf_result{fault::kernel, s};
}
inline constexpr leaf_result done{fault::none, kernels::status::ok};

/// The bit of op kind k in a set of kinds (a uint64_t).
constexpr uint64_t kind_bit(op k) { return uint64_t{1} << static_cast<unsigned>(k); }
inline constexpr uint64_t all_kinds = ~uint64_t{0};
inline constexpr leaf_result not_in_net{fault::unsupported, kernels::status::ok};

/// The op kinds of Net's leaves: run_leaf<T, kinds_of<Net>> compiles the kernels of those kinds
/// only (a firmware image carries no softmax when its network has none).
template <Network Net>
inline constexpr uint64_t kinds_of = [] {
  uint64_t k = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i) k |= kind_bit(Net::layer(i).kind);
  return k;
}();

/// Runs one leaf. T: float or int8_t. Uses: the op kinds that may occur (others: unsupported).
template <class T, uint64_t Uses = all_kinds>
inline leaf_result run_leaf(const leaf_call<T>& c, backend be) {
  constexpr bool q = is_same_v<T, int8_t>;
  using acc_t = conditional_t<q, int32_t, float>;
  const row& r = *c.r;
  const bool opt = be == backend::optimized;
  const int64_t n = r.out.elems();
  const int64_t hw = r.out.h * r.out.w;
  const leaf_param_layout& l = *c.lp;
  const T* w = c.weights();
  const acc_t* bias = c.bias();
  const int32_t* mult = c.multipliers();
  const int32_t* shift = c.shifts();
  const ref::gemm_s8_params gp{c.q_in[0].zero_point, 0, c.q_out.zero_point, mult, shift, true, -128, 127};
  const ref::act_s8_params ap{c.q_in[0].scale, c.q_in[0].zero_point, c.q_out.scale, c.q_out.zero_point};
  const bool keeps_quant = same(c.q_in[0], c.q_out);

  switch (r.kind) {
    case op::container: return done;
    case op::conv2d: {
      if constexpr ((Uses & (kind_bit(op::conv2d))) == 0) return not_in_net;
      const kernels::conv_geometry g = conv_of(r);
      if constexpr (q) {
        if (opt) {
          // the static packing workspace holds K <= kmax; beyond it the direct kernel needs none
          using tiling = kernels::default_s8_tiling;
          const bool fits = tiling::workspace_bytes(g.gemm_k()) <= sizeof(kernels::detail::static_workspace_s8<tiling>::buf);
          return from(kernels::conv2d_s8(g, c.in[0], w, bias, c.out, gp, fits ? c.panel_rows : 0, c.scratch,
                                         c.scratch_bytes));
        }
        return from(ref::conv2d_s8(g, c.in[0], w, bias, c.out, gp));
      } else {
        if (opt) return from(kernels::conv2d_f32(g, c.in[0], w, bias, c.out, c.panel_rows, c.scratch, c.scratch_bytes));
        return from(ref::conv2d_f32(g, c.in[0], w, bias, c.out));
      }
    }
    case op::linear: {
      if constexpr ((Uses & (kind_bit(op::linear))) == 0) return not_in_net;
      const int in_f = static_cast<int>(r.in.elems()), out_f = static_cast<int>(r.out.c);
      if constexpr (q) {
        using tiling = kernels::default_s8_tiling;
        // a GEMV gains little from packing: beyond the static workspace (K > kmax) the reference runs
        if (opt && tiling::workspace_bytes(in_f) <= sizeof(kernels::detail::static_workspace_s8<tiling>::buf)) {
          return from(kernels::linear_s8<tiling>(1, in_f, out_f, c.in[0], w, bias, c.out, gp,
                                                 kernels::detail::static_workspace_s8<tiling>::buf,
                                                 sizeof(kernels::detail::static_workspace_s8<tiling>::buf)));
        }
        return from(ref::linear_s8(1, in_f, out_f, c.in[0], w, bias, c.out, gp));
      } else {
        using tiling = kernels::default_f32_tiling;
        if (opt)
          return from(kernels::linear_f32<tiling>(1, in_f, out_f, c.in[0], w, bias, c.out,
                                                  kernels::detail::static_workspace_f32<tiling>::buf));
        return from(ref::linear_f32(1, in_f, out_f, c.in[0], w, bias, c.out));
      }
    }
    case op::max_pool2d: {
      if constexpr ((Uses & (kind_bit(op::max_pool2d))) == 0) return not_in_net;
      if (r.geometry.dilation.h != 1 || r.geometry.dilation.w != 1) return {fault::unsupported, kernels::status::ok};
      if (q && !keeps_quant) return {fault::quant_mismatch, kernels::status::ok};
      const kernels::pool_geometry g = pool_of(r);
      if (opt && fast::pool_windows_inside(g, r.out.h, r.out.w)) {
        fast::max_pool_inside<T>(g, r.out.h, r.out.w, c.in[0], c.out);
        return done;
      }
      return from(opt ? kernels::max_pool2d<T>(g, c.in[0], c.out) : ref::max_pool2d<T>(g, c.in[0], c.out));
    }
    case op::avg_pool2d: {
      if constexpr ((Uses & (kind_bit(op::avg_pool2d))) == 0) return not_in_net;
      const kernels::pool_geometry g = pool_of(r);
      if constexpr (q) {
        if (!keeps_quant) return {fault::quant_mismatch, kernels::status::ok};
        return from(opt ? kernels::avg_pool2d_s8(g, c.in[0], c.out, c.q_in[0].zero_point)
                        : ref::avg_pool2d_s8(g, c.in[0], c.out, c.q_in[0].zero_point));
      } else {
        return from(ref::avg_pool2d_f32(g, c.in[0], c.out));  // no optimized float kernel: the reference
      }
    }
    case op::adaptive_avg_pool2d:
      if constexpr ((Uses & (kind_bit(op::adaptive_avg_pool2d))) == 0) return not_in_net;
      if (q && !keeps_quant) return {fault::quant_mismatch, kernels::status::ok};
      return from(ref::adaptive_avg_pool2d<T>(r.in.c, r.in.h, r.in.w, r.out.h, r.out.w, c.in[0], c.out));
    case op::batch_norm2d:
      if constexpr ((Uses & (kind_bit(op::batch_norm2d))) == 0) return not_in_net;
      if constexpr (q) {
        return from(ref::batchnorm2d_s8(r.out.c, hw, c.in[0], w, bias, c.out, gp));
      } else {
        return from(ref::batchnorm2d_f32(r.out.c, hw, c.in[0], param<float>(c.params, l.mean, 1),
                                         param<float>(c.params, l.var, 1), w, bias, 1e-5f, c.out));
      }
    case op::channel_scale:
      if constexpr ((Uses & (kind_bit(op::channel_scale))) == 0) return not_in_net;
      if constexpr (q) return from(ref::batchnorm2d_s8(r.out.c, hw, c.in[0], w, nullptr, c.out, gp));
      else return from(ref::channel_scale_f32(r.out.c, hw, c.in[0], w, c.out));
    case op::layer_norm2d: {
      if constexpr ((Uses & (kind_bit(op::layer_norm2d))) == 0) return not_in_net;
      const float* gamma = param<float>(c.params, l.w, l.w_bytes);
      const float* beta = param<float>(c.params, l.b, l.b_bytes);
      if constexpr (q)
        return from(ref::layer_norm2d_s8(r.out.c, hw, c.in[0], gamma, beta, 1e-6f, c.out, c.q_in[0].scale,
                                         c.q_in[0].zero_point, c.q_out.scale, c.q_out.zero_point));
      else return from(ref::layer_norm2d_f32(r.out.c, hw, c.in[0], gamma, beta, 1e-6f, c.out));
    }
    case op::relu: case op::relu6: case op::sigmoid: case op::silu: case op::hardswish: case op::hardsigmoid:
    case op::tanh: case op::gelu: {
      if constexpr ((Uses & (kind_bit(op::relu) | kind_bit(op::relu6) | kind_bit(op::sigmoid) | kind_bit(op::silu) |
                             kind_bit(op::hardswish) | kind_bit(op::hardsigmoid) | kind_bit(op::tanh) |
                             kind_bit(op::gelu))) == 0)
        return not_in_net;
      const ref::activation a = activation_of(r.kind);
      if constexpr (q) {
        if (opt && r.kind == op::relu && fast::relu_is_clamp(c.q_in[0], c.q_out)) {
          fast::relu_clamp_s8(static_cast<size_t>(n), c.in[0], c.out, c.q_out.zero_point);
          return done;
        }
        if (opt) {
          if (!ref::valid(ap)) return from(kernels::status::bad_quant_param);
          const kernels::activation_table t = kernels::make_activation_table(a, ap);
          return from(kernels::activation_s8(t, n, c.in[0], c.out));
        }
        return from(ref::activation_s8(a, n, c.in[0], c.out, ap));
      } else {
        return from(ref::activation_f32(a, n, c.in[0], c.out));
      }
    }
    case op::flatten:
    case op::dropout:
      if constexpr ((Uses & (kind_bit(op::flatten) | kind_bit(op::dropout))) == 0) return not_in_net;
      if (q && !keeps_quant) return {fault::quant_mismatch, kernels::status::ok};
      move_elems(c.out, c.in[0], n);  // nothing moves when the plan aliased the buffers
      return done;
    case op::softmax: {
      if constexpr ((Uses & (kind_bit(op::softmax))) == 0) return not_in_net;
      const int64_t ch = r.out.c;
      if constexpr (q) {
        if (c.q_out.scale != ref::softmax_out_scale || c.q_out.zero_point != ref::softmax_out_zp)
          return {fault::quant_mismatch, kernels::status::ok};
        if (opt && hw == 1) return from(kernels::softmax_s8(1, ch, c.in[0], c.out, c.q_in[0].scale, c.q_in[0].zero_point));
        return from(ref::softmax_channels_s8(ch, hw, c.in[0], c.out, c.q_in[0].scale, c.q_in[0].zero_point));
      } else {
        return from(ref::softmax_channels_f32(ch, hw, c.in[0], c.out));
      }
    }
    case op::zero_pad2d: {
      if constexpr ((Uses & (kind_bit(op::zero_pad2d))) == 0) return not_in_net;
      if (q && !keeps_quant) return {fault::quant_mismatch, kernels::status::ok};
      const pad4& p = r.geometry.padding;
      const T pad_value = q ? static_cast<T>(c.q_in[0].zero_point) : T{};
      return from(ref::zero_pad2d<T>(r.in.c, r.in.h, r.in.w, p.top, p.bottom, p.left, p.right, c.in[0], c.out,
                                     pad_value));
    }
    case op::channel_shuffle:
      if constexpr ((Uses & (kind_bit(op::channel_shuffle))) == 0) return not_in_net;
      if (q && !keeps_quant) return {fault::quant_mismatch, kernels::status::ok};
      return from(ref::channel_shuffle<T>(r.out.c, hw, r.geometry.groups, c.in[0], c.out));
    case op::channel_slice:
      if constexpr ((Uses & (kind_bit(op::channel_slice))) == 0) return not_in_net;
      if (q && !keeps_quant) return {fault::quant_mismatch, kernels::status::ok};
      move_elems(c.out, c.in[0] + r.geometry.first_channel * hw, n);
      return done;
    case op::add:
      if constexpr ((Uses & (kind_bit(op::add))) == 0) return not_in_net;
      if constexpr (q) {
        if (opt && fast::add_is_integer(c.q_in[0], c.q_in[1], c.q_out)) {
          fast::add_integer_s8(static_cast<size_t>(n), c.in[0], c.in[1], c.out, c.q_in[0].zero_point,
                               c.q_in[1].zero_point, c.q_out.zero_point);
          return done;
        }
        const ref::add_s8_params p = ref::make_add_s8_params(c.q_in[0].scale, c.q_in[0].zero_point, c.q_in[1].scale,
                                                             c.q_in[1].zero_point, c.q_out.scale, c.q_out.zero_point);
        return from(opt ? kernels::add_s8(n, c.in[0], c.in[1], c.out, p) : ref::add_s8(n, c.in[0], c.in[1], c.out, p));
      } else {
        return from(opt ? kernels::add_f32(n, c.in[0], c.in[1], c.out) : ref::add_f32(n, c.in[0], c.in[1], c.out));
      }
    case op::mul: {
      if constexpr ((Uses & (kind_bit(op::mul))) == 0) return not_in_net;
      // inputs: x (the output's shape) and the gate, (C, 1, 1) broadcast over H x W or x's shape
      const int64_t gate_elems = c.in_elems[1];
      if constexpr (q) {
        const ref::mul_s8_params p = ref::make_mul_s8_params(c.q_in[0].scale, c.q_in[0].zero_point, c.q_in[1].scale,
                                                             c.q_in[1].zero_point, c.q_out.scale, c.q_out.zero_point);
        if (gate_elems != n) return from(ref::mul_channels_s8(r.out.c, hw, c.in[0], c.in[1], c.out, p));
        return from(opt ? kernels::mul_s8(n, c.in[0], c.in[1], c.out, p) : ref::mul_s8(n, c.in[0], c.in[1], c.out, p));
      } else {
        if (gate_elems != n) return from(ref::mul_channels_f32(r.out.c, hw, c.in[0], c.in[1], c.out));
        return from(ref::mul_f32(n, c.in[0], c.in[1], c.out));
      }
    }
    case op::concat: {
      if constexpr ((Uses & (kind_bit(op::concat))) == 0) return not_in_net;
      // inputs the plan embedded already sit at their slice; copy only the others
      uint64_t slice = 0;
      for (int32_t k = 0; k < r.n_inputs; ++k) {
        if (q && !same(c.q_in[k], c.q_out)) return {fault::quant_mismatch, kernels::status::ok};
        const int64_t elems = c.in_elems[k];
        const uint64_t bytes = static_cast<uint64_t>(elems) * sizeof(T);
        if (c.in_offset[k] != c.out_offset + slice) {
          T* dst = c.out + slice / sizeof(T);
          const T* src[1] = {c.in[k]};
          const int64_t chans[1] = {elems / hw};
          const kernels::status s = opt ? kernels::concat_channels<T>(1, src, chans, hw, dst)
                                        : ref::concat_channels<T>(1, src, chans, hw, dst);
          if (s != kernels::status::ok) return from(s);
        }
        slice += bytes;
      }
      return done;
    }
  }
  return {fault::unsupported, kernels::status::ok};
}

}  // namespace detail

namespace detail {

/// The op kinds an offload hook owns (its optional `static constexpr uint64_t owned_kinds`): no
/// CPU kernel of those kinds is compiled in, so a leaf of such a kind that the hook declines
/// stops the run with fault::unsupported. A firmware image that must run them on its device
/// carries none of their CPU kernels.
template <class Offload>
inline constexpr uint64_t owned_kinds = [] {
  if constexpr (requires { Offload::owned_kinds; }) return static_cast<uint64_t>(Offload::owned_kinds);
  else return uint64_t{0};
}();

template <Network Net, class T, class Offload>
inline run_status run_with(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes, backend be,
                           Offload& off, layer_callback callback, void* user) {
  static_assert(is_same_v<T, float> || is_same_v<T, int8_t>, "ctnn: runtime::run: T must be float or int8_t");
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<Net, dt>;
  constexpr auto& layout = param_layout_of<Net, dt>;
  if (arena == nullptr) return {fault::null_arena, kernels::status::ok, -1};
  if (arena_bytes < plan.arena_bytes) return {fault::arena_too_small, kernels::status::ok, -1};
  if (reinterpret_cast<uintptr_t>(arena) % memory::default_alignment != 0)
    return {fault::misaligned_arena, kernels::status::ok, -1};
  if (params == nullptr && layout.total_bytes != 0) return {fault::null_params, kernels::status::ok, -1};
  if (params_bytes < layout.total_bytes || reinterpret_cast<uintptr_t>(params) % param_alignment != 0)
    return {fault::params_too_small, kernels::status::ok, -1};

  auto quant_of = [&](int32_t t) {
    tensor_quant tq{};
    if constexpr (dt == dtype::int8) {
      tq.scale = reinterpret_cast<const float*>(params + layout.quant_scale)[t];
      tq.zero_point = reinterpret_cast<const int32_t*>(params + layout.quant_zp)[t];
    }
    return tq;
  };
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    const auto ui = static_cast<size_t>(i);
    leaf_call<T> c{};
    c.index = i;
    c.r = &r;
    c.out_offset = plan.offset_of(r.output);
    c.out = reinterpret_cast<T*>(arena + c.out_offset);
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      c.in_offset[k] = plan.offset_of(r.inputs[k]);
      c.in[k] = reinterpret_cast<const T*>(arena + c.in_offset[k]);
      c.in_elems[k] = Net::tensor_shape(r.inputs[k]).elems();
      c.q_in[k] = quant_of(r.inputs[k]);
    }
    c.q_out = quant_of(r.output);
    c.scratch = plan.scratch_bytes[ui] != 0 ? arena + plan.scratch_offset[ui] : nullptr;
    c.scratch_bytes = static_cast<size_t>(plan.scratch_bytes[ui]);
    c.panel_rows = plan.panel_rows[ui];
    c.params = params;
    c.lp = &layout.leaves[ui];
    if constexpr (requires { off.leaf_begin(i); }) off.leaf_begin(i);
    const offload_result o = off.offload(c);
    leaf_result res = done;
    if (o.v == offload_result::verdict::declined) res = run_leaf<T, kinds_of<Net> & ~owned_kinds<Offload>>(c, be);
    if constexpr (requires { off.leaf_end(i); }) off.leaf_end(i);
    if (o.v == offload_result::verdict::failed) return {fault::offload, kernels::status::ok, i, o.code};
    if (res.code != fault::none) return {res.code, res.kernel, i};
    if (callback != nullptr) callback(user, i, c.out, static_cast<size_t>(r.out.elems()) * sizeof(T));
  }
  return {};
}

}  // namespace detail

/// @brief Runs Net on `arena` (plan_of<Net, dtype_of<T>>.arena_bytes bytes, 16-byte aligned, the
/// input at offset_of(0)) with the parameters of `params` (param_layout_of<Net, dtype_of<T>>),
/// on backend `be`. After each leaf, `callback(user, leaf, output, bytes)` when given.
/// @tparam Net a network  @tparam T float or int8_t
template <Network Net, class T>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes, backend be,
                      layer_callback callback = nullptr, void* user = nullptr) {
  no_offload none;
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, be, none, callback, user);
}

/// @brief As run() above, but each leaf is first offered to `off` (see offload_hook): the leaves
/// it declines run on the CPU kernels of backend `be`; a leaf it fails stops the run with
/// fault::offload, the leaf and the hook's code in run_status::detail.
/// @tparam Net a network  @tparam T float or int8_t  @tparam Offload an offload_hook for T
template <Network Net, class T, class Offload>
  requires offload_hook<Offload, T>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes, backend be,
                      Offload& off, layer_callback callback = nullptr, void* user = nullptr) {
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, be, off, callback, user);
}

}  // namespace ctnn::runtime
