// The parameter blob of a network, laid out at compile time from the network type, and a seeded
// generator of deterministic parameters (float32 and int8) for tests, benches and the golden run.
//
// One flat blob, every region 16-byte aligned, leaves in execution order, then the table of
// per-tensor activation quantization (int8 only):
//
//   +----------------+---------------+------------------+-----+----------------------------+
//   | leaf 0 weights | leaf 0 bias   | leaf 0 mult/shift | ... | tensor scale[] | tensor zp[] |
//   +----------------+---------------+------------------+-----+----------------------------+
//
// Each op says which regions it needs in each dtype (`op_def<K>::params`, beside its layer in
// nn/: weights, bias, float statistics, int8 requantization, in that order) and how to draw them
// (`op_def<K>::fill`); this file lays them out and walks the leaves, folding over the kinds of
// the network.
//
// Activation quantization rule of the seeded parameters (int8, no calibration data; an imported
// int8 model carries calibrated ones, ctnn/host/quantize.hpp): per tensor, symmetric around 0 with
// scale 1/32 (the real range [-4, 4)) and zero point 0; an op may declare another rule
// (`op_def<K>::quant`): sigmoid, hardsigmoid and softmax outputs use 1/256 and zero point -128
// (the range [0, 1)), tanh 1/128 and 0, and shape-only ops (pooling, flatten, dropout, pad,
// shuffle, slice, concat) keep their input's. The generator draws weights whose real values are
// uniform in +-sqrt(3 / fan_in), which keeps an activation's second moment through a layer, so a
// 1/32 grid over [-4, 4) holds the activations of the test networks.
#pragma once
#include "ctnn/core/dtype.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/nn/network.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn::runtime {

/// @brief The blob layout of a network in one dtype: per leaf regions, the quantization table
/// (int8), and the total size.
template <size_t Leaves, size_t Tensors>
struct param_layout {
  array<leaf_param_layout, Leaves> leaves{};
  uint64_t quant_scale = 0;  ///< int8: float[Tensors], the scale of each tensor
  uint64_t quant_zp = 0;     ///< int8: int32[Tensors], the zero point of each tensor
  uint64_t total_bytes = 0;
};

/// The alignment of every region of the blob.
inline constexpr uint64_t param_alignment = 16;

namespace detail {

/// Lays out the blob of `n_leaves` leaves (`layer(i)` the i-th leaf's row) and `n_tensors`
/// tensors in dtype t, over the op kinds in Kinds: writes `leaves[i]` and the int8 quantization
/// table's offsets, returns the total bytes. The one layout of the constexpr network types and of
/// graphs built at run time (the importer writes its blob with it).
template <uint64_t Kinds, class LayerAt, class Leaves>
constexpr uint64_t lay_out_params(int32_t n_leaves, int32_t n_tensors, dtype t, LayerAt layer, Leaves& leaves,
                                  uint64_t& quant_scale, uint64_t& quant_zp) {
  uint64_t at = 0;
  auto take = [&at](uint64_t bytes) {
    if (bytes == 0) return uint64_t{0};
    const uint64_t o = at;
    at = round_up(at + bytes, param_alignment);
    return o;
  };
  for (int32_t i = 0; i < n_leaves; ++i) {
    const row& r = layer(i);
    leaf_param_layout& l = leaves[static_cast<size_t>(i)];
    const uint64_t c = static_cast<uint64_t>(r.out.c);
    l.channels = static_cast<int64_t>(c);
    const param_regions g = visit_kind<Kinds>(
        r.kind, [&]<op K>() { return ctnn::detail::regions_of<K>(r, t); }, param_regions{});
    l.w_bytes = g.w_bytes;
    l.w = take(g.w_bytes);
    l.b_bytes = g.b_bytes;
    l.b = take(g.b_bytes);
    l.mean = take(g.stats_bytes);
    l.var = take(g.stats_bytes);
    if (g.requant) {
      l.mult = take(4 * c);
      l.shift = take(4 * c);
    }
  }
  if (t == dtype::int8) {
    quant_scale = take(4u * static_cast<uint64_t>(n_tensors));
    quant_zp = take(4u * static_cast<uint64_t>(n_tensors));
  }
  return at;
}

template <Network Net, dtype T>
constexpr auto make_param_layout() {
  static_assert(T == dtype::float32 || T == dtype::int8, "ctnn: runtime: parameters exist for float32 and int8");
  param_layout<static_cast<size_t>(Net::leaf_count), static_cast<size_t>(Net::tensor_count)> p{};
  p.total_bytes = lay_out_params<kinds_of<Net>>(
      Net::leaf_count, Net::tensor_count, T, [](int32_t i) -> const row& { return Net::layer(i); }, p.leaves,
      p.quant_scale, p.quant_zp);
  return p;
}

}  // namespace detail

/// @brief The parameter layout of Net in dtype T (float32 or int8), a constant:
/// `param_layout_of<Net, dtype::int8>.total_bytes` sizes a static blob.
template <Network Net, dtype T>
inline constexpr auto param_layout_of = detail::make_param_layout<Net, T>();

/// @brief The documented default quantization of tensor t of Net (see the file comment).
template <Network Net>
constexpr tensor_quant default_tensor_quant(int32_t t) {
  while (t > 0) {
    const row& r = Net::layer(t - 1);
    const quant_rule rule = visit_kind<kinds_of<Net>>(
        r.kind, []<op K>() { return ctnn::detail::quant_rule_of<K>(); }, quant_rule::standard);
    switch (rule) {
      case quant_rule::standard: return tensor_quant{};
      case quant_rule::unit_interval: return tensor_quant{1.0f / 256.0f, -128};
      case quant_rule::symmetric_unit: return tensor_quant{1.0f / 128.0f, 0};
      case quant_rule::keeps_input: t = r.inputs[0]; break;
    }
  }
  return tensor_quant{};
}

/// @brief Fills a blob of param_layout_of<Net, T>.total_bytes bytes (16-byte aligned) with
/// deterministic parameters drawn from splitmix64(seed). Returns false, writing nothing, when
/// the blob is null, misaligned or too small.
template <Network Net, dtype T>
inline bool fill_params(uint8_t* blob, size_t bytes, uint64_t seed) {
  constexpr auto& layout = param_layout_of<Net, T>;
  if (blob == nullptr || bytes < layout.total_bytes || reinterpret_cast<uintptr_t>(blob) % param_alignment != 0)
    return false;
  splitmix64 g{seed};
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    fill_call f{blob, &layout.leaves[static_cast<size_t>(i)], &r, &g, {}, {}};
    if constexpr (T == dtype::int8) {
      f.in_q = default_tensor_quant<Net>(r.inputs[0]);
      f.out_q = default_tensor_quant<Net>(r.output);
    }
    visit_kind<kinds_of<Net>>(
        r.kind,
        [&]<op K>() {
          if constexpr (requires { op_def<K>::template fill<T>(f); }) op_def<K>::template fill<T>(f);
          return true;
        },
        false);
  }
  if constexpr (T == dtype::int8) {
    for (int32_t t = 0; t < Net::tensor_count; ++t) {
      const tensor_quant tq = default_tensor_quant<Net>(t);
      reinterpret_cast<float*>(blob + layout.quant_scale)[t] = tq.scale;
      reinterpret_cast<int32_t*>(blob + layout.quant_zp)[t] = tq.zero_point;
    }
  }
  return true;
}

/// @brief Fills n input elements with values uniform in [-1, 1) (float) or their quantization
/// with the input tensor's scale and zero point (int8).
template <class T>
inline void fill_input(T* x, int64_t n, uint64_t seed, tensor_quant q = {}) {
  splitmix64 g{seed};
  for (int64_t i = 0; i < n; ++i) {
    const float v = g.uniform(-1.0f, 1.0f);
    if constexpr (is_same_v<T, float>) x[i] = v;
    else x[i] = quant::quantize<int8_t>(v, q.scale, q.zero_point);
  }
}

}  // namespace ctnn::runtime
