// What every op provides beside its description: the vocabulary of `op_def<K>`, the one place
// where an op kind says how it runs (see "Adding an op" in include/ctnn/nn/README.md).
//
//   nn/<op>.hpp  layer type        shape, counts, check (its faults), reuse, scratch request, GEMM view
//                op_def<op::K>     parameter regions per dtype, seeded parameters, output
//                                  quantization rule, reference and optimized kernels (run)
//
// The consumers never switch over op kinds: the planner reads the row's buffer facts (reuse,
// scratch), the analysis the row's GEMM view, and the parameter layout, the generator and the
// executor fold over the kinds a network uses (`visit_kind<kinds_of<Net>>`), so an image
// compiles only the kernels of its network's ops.
#pragma once
#include "ctnn/core/dtype.hpp"
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/math.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/status.hpp"
#include "ctnn/nn/graph.hpp"

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
  bad_tensor_quant,  ///< int8: a tensor's scale (finite, > 0) or zero point ([-128, 127]) in the
                     ///< blob cannot be valid (the tensor in run_status::detail)
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
    case fault::bad_tensor_quant: return "bad_tensor_quant";
  }
  return "?";
}

/// @brief An activation tensor's quantization.
struct tensor_quant {
  float scale = 1.0f / 32.0f;
  int32_t zero_point = 0;
};

/// @brief Where one leaf's parameters live in the blob (byte offsets; 0 bytes = absent).
struct leaf_param_layout {
  uint64_t w = 0, w_bytes = 0;          ///< weights, gamma, or int8 per-channel scale
  uint64_t b = 0, b_bytes = 0;          ///< bias or beta
  uint64_t mean = 0, var = 0;           ///< float batch norm: running statistics
  uint64_t mult = 0, shift = 0;         ///< int8: per-output-channel requantization
  int64_t channels = 0;                 ///< output channels of the per-channel arrays
};

/// @brief The regions an op asks for in the parameter blob, per leaf and dtype (bytes; 0 = none).
struct param_regions {
  uint64_t w_bytes = 0;
  uint64_t b_bytes = 0;
  uint64_t stats_bytes = 0;      ///< float batch norm: bytes of each of mean and var
  bool requant = false;          ///< int8: per-output-channel multiplier and shift (int32[C] each)
};

/// @brief The documented default quantization of an op's output (runtime/params.hpp).
enum class quant_rule : uint8_t {
  standard,       ///< scale 1/32, zero point 0: the range [-4, 4)
  keeps_input,    ///< the input's quantization (shape-only ops)
  unit_interval,  ///< scale 1/256, zero point -128: the range [0, 1) (sigmoid, softmax)
  symmetric_unit, ///< scale 1/128, zero point 0: the range [-1, 1) (tanh)
};

/// @brief The int8 output range of a leaf: [-128, 127], narrowed by its fused activation.
struct act_range {
  int32_t min = -128;
  int32_t max = 127;
};

/// @brief One leaf as the executor resolved it from the plan and the parameter layout
/// (independent of Net): what the CPU kernels and an offload hook receive. No default member
/// initializers: the executor fills every field of its calls in place (a zeroing per leaf cost
/// the rv32 core more cycles than a small accelerator job); `leaf_call<T> c{}` is all zero.
template <class T>
struct leaf_call {
  using acc_type = conditional_t<is_same_v<T, int8_t>, int32_t, float>;
  int32_t index;                           ///< the leaf's execution position
  const row* r;                            ///< its row: kind, shapes, geometry, name
  T* out;
  // per input k < r->n_inputs (arrays the executor sizes by Net::max_fan_in):
  const T* const* in;
  const uint64_t* in_offset;               ///< byte offsets in the arena
  const int64_t* in_elems;
  uint64_t out_offset;
  void* scratch;                           ///< the plan's scratch for this leaf, or null
  size_t scratch_bytes;
  int64_t panel_rows;                      ///< the scratch units the plan granted (im2col rows)
  const uint8_t* params;                   ///< the whole blob
  const leaf_param_layout* lp;             ///< this leaf's regions of it
  const tensor_quant* q_in;
  tensor_quant q_out;
  /// The leaf's weights packed once into its optimized kernel's layout (runtime/packed.hpp), or
  /// null: no packed region given to run(), or the op packs nothing in this dtype and build.
  const uint8_t* packed;
  uint64_t packed_bytes;
  /// int8: the output range the leaf runs with instead of its row's fused activation, or null
  /// (fused_range of the row): an int8 clamp chain's (runtime/fold.hpp), a batch norm clamped to
  /// the int8 bounds of the ReLU / ReLU6 / Clamp after it. Read through out_range.
  const act_range* range;

  /// Weights (OIHW or [out][in]), or null.
  [[nodiscard]] const T* weights() const { return region<T>(lp->w, lp->w_bytes); }
  /// Bias (int32 for int8, float for float32), or null when the layer has none.
  [[nodiscard]] const acc_type* bias() const { return region<acc_type>(lp->b, lp->b_bytes); }
  /// int8: per-output-channel requantization multipliers and shifts, or null.
  [[nodiscard]] const int32_t* multipliers() const { return region<int32_t>(lp->mult, has_requant() ? 1 : 0); }
  [[nodiscard]] const int32_t* shifts() const { return region<int32_t>(lp->shift, has_requant() ? 1 : 0); }
  /// Any region of the blob as U (float statistics, float gamma of an int8 layer norm).
  template <class U>
  [[nodiscard]] const U* region(uint64_t offset, uint64_t bytes) const {
    return bytes == 0 ? nullptr : reinterpret_cast<const U*>(params + offset);
  }

 private:
  [[nodiscard]] bool has_requant() const { return lp->mult != 0 || lp->shift != 0; }
};

/// @brief What a kernel run of one leaf returned.
struct leaf_result {
  fault code;
  kernels::status kernel;
};
constexpr leaf_result from(kernels::status s) {
  return s == kernels::status::ok ? leaf_result{fault::none, s} : leaf_result{fault::kernel, s};
}
inline constexpr leaf_result leaf_done{fault::none, kernels::status::ok};
inline constexpr leaf_result unsupported{fault::unsupported, kernels::status::ok};
inline constexpr leaf_result quant_mismatch{fault::quant_mismatch, kernels::status::ok};

/// True when two tensors share one quantization.
inline bool same(const tensor_quant& a, const tensor_quant& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

/// True when the leaf may run: float, or int8 whose output keeps its input's quantization (the
/// shape-only ops and pooling move int8 values as they are).
template <class T>
inline bool keeps_quant(const leaf_call<T>& c) {
  return !is_same_v<T, int8_t> || same(c.q_in[0], c.q_out);
}

/// The seeded generator's state and what it needs of a leaf to draw its parameters.
struct splitmix64 {
  uint64_t state;
  constexpr uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi) with 24 bits of resolution.
  constexpr float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);
  }
  /// Uniform integer in [lo, hi] (hi - lo < 2^31): the high 32 bits modulo the span, a 32-bit
  /// remainder (rv32 has no 64-bit one: the firmware fills 60 k weights with this).
  constexpr int32_t range(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(static_cast<uint32_t>(next() >> 32) % static_cast<uint32_t>(hi - lo + 1));
  }
};

/// @brief What an op's `fill` receives: the blob, its regions, its row, the generator and (int8)
/// the quantization of its first input and of its output.
struct fill_call {
  uint8_t* blob = nullptr;
  const leaf_param_layout* lp = nullptr;
  const row* r = nullptr;
  splitmix64* g = nullptr;
  tensor_quant in_q{};
  tensor_quant out_q{};
  template <class U>
  [[nodiscard]] U* at(uint64_t offset) const { return reinterpret_cast<U*>(blob + offset); }
};

/// @brief What an op's `pack` receives (runtime/packed.hpp): its row, the parameter blob and its
/// regions of it, and its packed region (`bytes` of op_def<K>::packed_bytes, 64-byte aligned).
struct pack_call {
  const row* r = nullptr;
  const uint8_t* params = nullptr;
  const leaf_param_layout* lp = nullptr;
  uint8_t* dst = nullptr;
  uint64_t bytes = 0;
  dtype t = dtype::int8;  ///< the blob's element type (the region packs one dtype)
};

/// @brief What a float32 op that folds into the convolution before it receives (its optional
/// `op_def<K>::fold`, runtime/fold.hpp's CPU chains): its own row and regions of the blob, the
/// convolution's weights and bias, and where the folded ones go (the packed region).
struct fold_call {
  const row* r = nullptr;                 ///< the folded op's row
  const uint8_t* params = nullptr;        ///< the float32 blob
  const leaf_param_layout* lp = nullptr;  ///< the folded op's regions of it
  int64_t channels = 0;                   ///< the convolution's output channels
  int64_t per_channel = 0;                ///< its weights per output channel
  const float* w = nullptr;               ///< [channels][per_channel]
  const float* b = nullptr;               ///< [channels], or null: no bias
  float* w_out = nullptr;                 ///< [channels][per_channel]
  float* b_out = nullptr;                 ///< [channels]
};

/// The kernels' convolution geometry of a conv2d row.
constexpr kernels::conv_geometry conv_of(const row& r) {
  const layer_geometry& g = r.geometry;
  return kernels::conv_geometry{r.in.c,         r.in.h,           r.in.w,          r.out.c,        g.kernel.h,
                                g.kernel.w,     g.stride.h,       g.stride.w,      g.padding.top,  g.padding.bottom,
                                g.padding.left, g.padding.right,  g.dilation.h,    g.dilation.w,   g.groups};
}

/// The kernels' pooling geometry of a pooling row.
constexpr kernels::pool_geometry pool_of(const row& r) {
  const layer_geometry& g = r.geometry;
  return kernels::pool_geometry{r.in.c,           r.in.h,         r.in.w,          g.kernel.h,
                                g.kernel.w,       g.stride.h,     g.stride.w,      g.padding.top,
                                g.padding.bottom, g.padding.left, g.padding.right, g.ceil_mode,
                                g.count_include_pad};
}

/// @brief The int8 clamp of a leaf's fused activation (row.geometry.act) on an output quantized
/// with q, TFLite's CalculateActivationRangeQuantized: a bound b becomes
/// zero_point + round(b / scale) (half away from zero), limited to [-128, 127]; ReLU has no upper
/// bound. Without a fused activation, the full range.
constexpr act_range fused_range(const row& r, tensor_quant q) {
  const layer_geometry& g = r.geometry;
  if (g.act == fused_act::none || !quant::valid_scale(q.scale)) return {};
  auto at = [&](float bound) {
    float v = quant::round_half_away(bound / q.scale);
    v = v < -1.0e6f ? -1.0e6f : (v > 1.0e6f ? 1.0e6f : v);  // far outside int8 either way
    return quant::clamp(q.zero_point + static_cast<int32_t>(v), -128, 127);
  };
  return {at(g.act_lo), g.act == fused_act::relu ? 127 : at(g.act_hi)};
}

/// @brief float32: applies a leaf's fused activation to its n outputs (nothing without one).
inline void apply_fused(const row& r, float* y, int64_t n) {
  const layer_geometry& g = r.geometry;
  if (g.act == fused_act::none) return;
  const float lo = g.act_lo, hi = g.act_hi;
  for (int64_t i = 0; i < n; ++i) y[i] = y[i] < lo ? lo : (y[i] > hi ? hi : y[i]);
}

/// @brief A kernel's status, after which a float32 leaf applies its fused activation (int8 leaves
/// clamp in their requantization: fused_range).
template <class T>
inline leaf_result finish_fused(const leaf_call<T>& c, kernels::status s) {
  if constexpr (is_same_v<T, float>)
    if (s == kernels::status::ok) apply_fused(*c.r, c.out, c.r->out.elems());
  return from(s);
}

/// @brief The int8 output range a leaf runs with: its call's range where set, else its row's
/// fused activation on its output quantization.
template <class T>
constexpr act_range out_range(const leaf_call<T>& c) {
  return c.range != nullptr ? *c.range : fused_range(*c.r, c.q_out);
}

/// int8 GEMM-like layers (conv, linear, folded batch norm): input and output zero points, the
/// leaf's per-channel requantization, the int8 range narrowed by a fused activation (out_range).
template <class T>
inline ref::gemm_s8_params gemm_params(const leaf_call<T>& c) {
  const act_range a = out_range(c);
  return ref::gemm_s8_params{c.q_in[0].zero_point, 0, c.q_out.zero_point, c.multipliers(), c.shifts(), true, a.min, a.max};
}

/// @brief What an op's `quantize` receives (post-training quantization of imported models): the
/// leaf's float32 parameters in the float32 layout, the int8 blob and this leaf's regions of it,
/// and the calibrated quantization of its first input and of its output. `weight_scales`, when
/// not null, receives the per-output-channel weight scale (lp->channels floats).
struct quantize_call {
  const row* r = nullptr;
  const uint8_t* f32 = nullptr;               ///< the float32 blob
  const leaf_param_layout* f32_lp = nullptr;  ///< this leaf's regions of it
  uint8_t* blob = nullptr;                    ///< the int8 blob
  const leaf_param_layout* lp = nullptr;      ///< this leaf's regions of it
  tensor_quant in_q{};
  tensor_quant out_q{};
  float* weight_scales = nullptr;
  template <class U>
  [[nodiscard]] const U* from(uint64_t offset, uint64_t bytes) const {
    return bytes == 0 ? nullptr : reinterpret_cast<const U*>(f32 + offset);
  }
  template <class U>
  [[nodiscard]] U* at(uint64_t offset) const { return reinterpret_cast<U*>(blob + offset); }
};

/// int8 elementwise functions: the input's and the output's quantization.
template <class T>
inline ref::act_s8_params act_params(const leaf_call<T>& c) {
  return ref::act_s8_params{c.q_in[0].scale, c.q_in[0].zero_point, c.q_out.scale, c.q_out.zero_point};
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

namespace detail {
inline int32_t round_to_int(double v) { return static_cast<int32_t>(v >= 0 ? v + 0.5 : v - 0.5); }

/// Stores channel c's requantization real multiplier.
inline void store_requant(const fill_call& f, int64_t c, double real) {
  const quant::requant m = quant::quantize_multiplier(real);
  f.at<int32_t>(f.lp->mult)[c] = m.multiplier;
  f.at<int32_t>(f.lp->shift)[c] = m.shift;
}

/// The parameters of a weighted layer (conv2d, linear): float weights uniform in
/// +-sqrt(3 / fan_in) and biases in +-0.1; int8 weights uniform in [-127, 127] with a per-channel
/// scale a/127 (symmetric, zero point 0), the bias and requantization that scale implies.
template <dtype T>
inline void fill_weighted(const fill_call& f) {
  const leaf_param_layout& l = *f.lp;
  splitmix64& g = *f.g;
  const int64_t c = l.channels;
  const int64_t n = static_cast<int64_t>(f.r->counts.weights);
  const int64_t fan_in = n / c;
  const float a = kernels::math::sqrt(3.0f / static_cast<float>(fan_in));
  if constexpr (T == dtype::float32) {
    float* w = f.at<float>(l.w);
    for (int64_t k = 0; k < n; ++k) w[k] = g.uniform(-a, a);
    if (l.b_bytes != 0)
      for (int64_t k = 0; k < c; ++k) f.at<float>(l.b)[k] = g.uniform(-0.1f, 0.1f);
  } else {
    int8_t* w = f.at<int8_t>(l.w);
    for (int64_t k = 0; k < n; ++k) w[k] = static_cast<int8_t>(g.range(-127, 127));
    for (int64_t k = 0; k < c; ++k) {
      const double w_scale = static_cast<double>(a) / 127.0 * static_cast<double>(g.uniform(0.75f, 1.0f));
      const double acc_scale = static_cast<double>(f.in_q.scale) * w_scale;
      if (l.b_bytes != 0) f.at<int32_t>(l.b)[k] = round_to_int(g.uniform(-0.1f, 0.1f) / acc_scale);
      store_requant(f, k, acc_scale / static_cast<double>(f.out_q.scale));
    }
  }
}

/// Round half away from zero of a double (no libm; exact: the fraction is computed without error).
constexpr double round_half_away(double x) {
  if (!(x < 4503599627370496.0 && x > -4503599627370496.0)) return x;  // |x| >= 2^52: integral (or NaN)
  const double t = static_cast<double>(static_cast<int64_t>(x));
  const double frac = x - t;
  if (frac >= 0.5) return t + 1.0;
  if (frac <= -0.5) return t - 1.0;
  return t;
}

/// @brief The symmetric per-channel int8 quantization of one output channel's `n` float weights
/// `w` (TFLite's SymmetricPerChannelQuantization, in float32 as TFLite computes it):
/// half = max |w|, scale = half / 127, q = clamp(round(w * (127 / half)), -127, 127); a channel
/// of zeros gets scale 1 and q = 0. Writes q, returns the scale.
inline float quantize_channel(const float* w, int64_t n, int8_t* q) {
  float half = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float a = w[i] < 0.0f ? -w[i] : w[i];
    half = a > half ? a : half;
  }
  const float inv = half > 0.0f ? 127.0f / half : 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = quant::round_half_away(w[i] * inv);
    q[i] = static_cast<int8_t>(v < -127.0f ? -127 : (v > 127.0f ? 127 : static_cast<int32_t>(v)));
  }
  return half > 0.0f ? half / 127.0f : 1.0f;
}

/// @brief The int32 bias of a channel whose accumulator has scale in_scale * w_scale (TFLite's
/// SymmetricPerChannelBiasQuantize: the product in float32, its inverse in double,
/// round(b * inverse), clamped to [-(2^31 - 1), 2^31 - 1]).
inline int32_t quantize_bias(float b, float in_scale, float w_scale) {
  const float bias_scale = in_scale * w_scale;
  const double inv = bias_scale == 0.0f ? 0.0 : 1.0 / static_cast<double>(bias_scale);
  const double v = round_half_away(static_cast<double>(b) * inv);
  return v < -2147483647.0 ? -2147483647 : (v > 2147483647.0 ? 2147483647 : static_cast<int32_t>(v));
}

/// @brief Stores channel k's requantization in_scale * w_scale / out_scale (in double, as
/// TFLite's PopulateConvolutionQuantizationParams); status::bad_quant_param when it is no
/// representable multiplier (quant::make_requant).
inline kernels::status store_requant(const quantize_call& q, int64_t k, float w_scale) {
  quant::requant m{};
  const double real =
      static_cast<double>(q.in_q.scale) * static_cast<double>(w_scale) / static_cast<double>(q.out_q.scale);
  if (const kernels::status s = quant::make_requant(m, real); s != kernels::status::ok) return s;
  q.at<int32_t>(q.lp->mult)[k] = m.multiplier;
  q.at<int32_t>(q.lp->shift)[k] = m.shift;
  if (q.weight_scales != nullptr) q.weight_scales[k] = w_scale;
  return kernels::status::ok;
}

/// @brief Post-training quantization of a weighted layer (conv2d, linear) in TFLite's int8
/// scheme: weights per output channel symmetric (quantize_channel), the bias int32 at
/// in_scale * w_scale (quantize_bias), the requantization in_scale * w_scale / out_scale.
inline kernels::status quantize_weighted(const quantize_call& q) {
  const leaf_param_layout& f = *q.f32_lp;
  const int64_t c = q.lp->channels;
  const int64_t fan_in = static_cast<int64_t>(q.r->counts.weights) / c;
  const float* w = q.from<float>(f.w, f.w_bytes);
  const float* b = q.from<float>(f.b, f.b_bytes);
  for (int64_t k = 0; k < c; ++k) {
    const float w_scale = quantize_channel(w + k * fan_in, fan_in, q.at<int8_t>(q.lp->w) + k * fan_in);
    if (b != nullptr) q.at<int32_t>(q.lp->b)[k] = quantize_bias(b[k], q.in_q.scale, w_scale);
    if (const kernels::status s = store_requant(q, k, w_scale); s != kernels::status::ok) return s;
  }
  return kernels::status::ok;
}

/// The regions of a weighted layer: T weights, acc-typed bias when biased, int8 requantization.
constexpr param_regions weighted_regions(const row& r, dtype t) {
  const bool q = t == dtype::int8;
  return param_regions{r.counts.weights * (q ? 1u : 4u), r.counts.biases * 4u, 0, q};
}

}  // namespace detail

}  // namespace ctnn::runtime

namespace ctnn {

/// The bit of op kind k in a set of kinds (a uint64_t).
constexpr uint64_t kind_bit(op k) { return uint64_t{1} << static_cast<unsigned>(k); }
/// Every leaf kind (all but op::container).
inline constexpr uint64_t all_kinds = ((uint64_t{1} << op_count) - 1) & ~kind_bit(op::container);

/// @brief The op kinds of Net's leaves: folds over them compile those kinds' code only.
template <class Net>
inline constexpr uint64_t kinds_of = [] {
  uint64_t k = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i) k |= kind_bit(Net::layer(i).kind);
  return k;
}();

namespace detail {
template <uint64_t Kinds, size_t I, class F, class R>
constexpr bool visit_one(op k, F& f, R& r) {
  if constexpr (((Kinds >> I) & 1u) != 0) {
    if (static_cast<size_t>(k) == I) {
      r = f.template operator()<static_cast<op>(I)>();
      return true;
    }
  }
  return false;
}
template <uint64_t Kinds, class F, class R, size_t... I>
constexpr R visit_kind_impl(op k, F& f, R otherwise, integer_sequence<size_t, I...>) {
  R r = otherwise;
  (void)(visit_one<Kinds, I>(k, f, r) || ...);
  return r;
}
}  // namespace detail

/// @brief Calls `f.template operator()<K>()` for the kind K == k among the set Kinds (a mask of
/// kind_bit), or returns `otherwise` when k is not in the set. A fold, not a switch: only the
/// kinds of the set are instantiated.
template <uint64_t Kinds, class F, class R>
constexpr R visit_kind(op k, F&& f, R otherwise) {
  return detail::visit_kind_impl<Kinds>(k, f, otherwise, make_index_sequence<static_cast<size_t>(op_count)>{});
}

/// Defaults of the optional op_def members.
namespace detail {
template <op K>
constexpr runtime::param_regions regions_of(const row& r, dtype t) {
  if constexpr (requires { op_def<K>::params(r, t); }) return op_def<K>::params(r, t);
  else return runtime::param_regions{};
}
/// Bytes of the leaf's packed region in dtype t (op_def<K>::packed_bytes; none when absent).
template <op K>
constexpr uint64_t packed_bytes_of(const row& r, dtype t) {
  if constexpr (requires { op_def<K>::packed_bytes(r, t); }) return op_def<K>::packed_bytes(r, t);
  else return 0;
}
template <op K>
constexpr bool fuses_activation() {
  if constexpr (requires { op_def<K>::fuses_activation; }) return op_def<K>::fuses_activation;
  else return false;
}
template <op K>
constexpr runtime::quant_rule quant_rule_of() {
  if constexpr (requires { op_def<K>::quant; }) return op_def<K>::quant;
  else return runtime::quant_rule::standard;
}
}  // namespace detail

}  // namespace ctnn
