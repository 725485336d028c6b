// Host-only: post-training quantization of a network known at run time (host::graph_rows, a model
// read from a file) in TFLite's int8 scheme, calibrated by ctnn's own float32 executor:
//
//   1. calibrate: the float32 network runs on every calibration sample (graph_run.hpp) and each
//      tensor's values are observed; tensors that must share one quantization (the output of an
//      op whose quant_rule is keeps_input and its inputs: pooling, flatten, concat, ...) form one
//      group. Each group's range [lo, hi] follows the rule:
//        minmax      the smallest and the largest value seen;
//        percentile  the 0.01 % and 99.99 % quantiles of the values (a 2048-bin histogram over
//                    the min/max range, interpolated inside the bin), so rare outliers are clipped;
//        mse         the range, among histogram bin edges, that minimizes the expected squared
//                    error of quantizing the observed values: clipping error of the values
//                    outside plus step^2 / 12 of rounding for each value inside;
//      then TFLite's GetAsymmetricQuantizationParams: the range widened to include 0,
//      scale = (hi - lo) / 255, zero point = round(-128 - lo / scale) in [-128, 127] (all in
//      float32). Groups fixed by their op (sigmoid, hardsigmoid, softmax: 1/256 and -128; tanh:
//      1/128 and 0) are not calibrated.
//   2. quantize: each leaf's op converts its float32 parameters (op_def<K>::quantize: per-channel
//      symmetric weights, int32 bias, per-channel requantization); an op with parameters and no
//      quantize has no int8 form here and is refused.
//   3. measure: the per-layer SQNR of the int8 network against the float32 one over the same
//      samples, 10 log10(sum f^2 / sum (f - dequantize(q))^2) of each leaf's output, the int8
//      network running end to end from the quantized input (errors accumulate, as deployed).
//
// Every refusal is a quantize_error whose text is one line naming the tensor or the layer.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "ctnn/host/graph_run.hpp"

namespace ctnn::host {

/// @brief How a calibrated tensor's range is chosen from the observed values (file comment).
enum class calibration_rule : std::uint8_t { minmax, percentile, mse };

inline const char* name_of(calibration_rule r) {
  switch (r) {
    case calibration_rule::minmax: return "minmax";
    case calibration_rule::percentile: return "percentile";
    case calibration_rule::mse: return "mse";
  }
  return "?";
}
inline bool parse_rule(const std::string& s, calibration_rule& r) {
  for (calibration_rule c : {calibration_rule::minmax, calibration_rule::percentile, calibration_rule::mse})
    if (s == name_of(c)) {
      r = c;
      return true;
    }
  return false;
}

/// The percentile rule's upper quantile (the lower one is 100 minus it), in percent.
inline constexpr double calibration_percentile = 99.99;
/// The histogram of the percentile and mse rules: bins over each group's min/max range.
inline constexpr int calibration_bins = 2048;

/// @brief A refusal of the quantizer: one line naming the tensor or the layer.
struct quantize_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The names used in messages and reports: per tensor (0 = the input) and per leaf.
struct graph_names {
  std::vector<std::string> tensors;
  std::vector<std::string> leaves;
};

/// A leaf's type with its fused activation: "Conv2d+ReLU6".
inline std::string leaf_type(const row& r) {
  std::string t = r.type;
  if (r.geometry.act != fused_act::none) t += std::string("+") + fused_act_name(r.geometry.act);
  return t;
}

/// "tensor 'x' (the output of node 'conv', Conv2d+ReLU)" or "tensor 'input' (the network input)".
inline std::string tensor_label(const graph_rows& g, const graph_names& n, int32_t t) {
  const std::string name = static_cast<std::size_t>(t) < n.tensors.size() ? n.tensors[static_cast<std::size_t>(t)]
                                                                           : std::to_string(t);
  if (t == 0) return "tensor '" + name + "' (the network input)";
  const std::string node = static_cast<std::size_t>(t - 1) < n.leaves.size() ? n.leaves[static_cast<std::size_t>(t - 1)] : "?";
  return "tensor '" + name + "' (the output of node '" + node + "', " + leaf_type(g.layer(t - 1)) + ")";
}

/// @brief TFLite's GetAsymmetricQuantizationParams for int8, in float32: the range widened to
/// include 0, scale = (max - min) / 255, zero point = round(-128 - min / scale) in [-128, 127].
inline runtime::tensor_quant asymmetric_quant(float lo, float hi) {
  lo = std::min(lo, 0.0f);
  hi = std::max(hi, 0.0f);
  const float scale = (hi - lo) / 255.0f;
  float zp_from_min = -128.0f;
  if (scale != 0.0f) zp_from_min = -128.0f - lo / scale;
  std::int32_t zp = 0;
  if (zp_from_min < -128.0f) zp = -128;
  else if (zp_from_min > 127.0f) zp = 127;
  else zp = static_cast<std::int32_t>(std::round(zp_from_min));
  return runtime::tensor_quant{scale, zp};
}

/// @brief The tensors that must share one quantization, and which groups an op fixes.
struct tensor_groups {
  std::vector<std::int32_t> of;            ///< per tensor: its group
  std::vector<runtime::quant_rule> rule;   ///< per group: standard (calibrated) or the op's fixed rule
  std::vector<std::int32_t> first;         ///< per group: its first tensor (named in messages)
  [[nodiscard]] std::size_t count() const { return rule.size(); }
};

inline tensor_groups group_tensors(const graph_rows& g, const graph_names& names) {
  const auto tensors = static_cast<std::size_t>(g.tensor_count());
  std::vector<std::int32_t> parent(tensors);
  for (std::size_t t = 0; t < tensors; ++t) parent[t] = static_cast<std::int32_t>(t);
  auto find = [&](std::int32_t t) {
    while (parent[static_cast<std::size_t>(t)] != t) t = parent[static_cast<std::size_t>(t)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(t)])];
    return t;
  };
  std::vector<runtime::quant_rule> fixed(tensors, runtime::quant_rule::standard);
  std::vector<std::int32_t> fixed_by(tensors, -1);
  for (std::int32_t i = 0; i < g.leaf_count(); ++i) {
    const row& r = g.layer(i);
    const runtime::quant_rule q = visit_kind<all_kinds>(
        r.kind, []<op K>() { return ctnn::detail::quant_rule_of<K>(); }, runtime::quant_rule::standard);
    if (q == runtime::quant_rule::keeps_input) {
      for (std::int32_t k = 0; k < r.n_inputs; ++k) {
        const std::int32_t a = find(r.inputs[k]), b = find(r.output);
        if (a != b) parent[static_cast<std::size_t>(b)] = a;
      }
    } else if (q != runtime::quant_rule::standard) {
      fixed[static_cast<std::size_t>(r.output)] = q;
      fixed_by[static_cast<std::size_t>(r.output)] = i;
    }
  }
  tensor_groups x;
  x.of.assign(tensors, -1);
  std::vector<std::int32_t> id(tensors, -1);
  for (std::size_t t = 0; t < tensors; ++t) {
    const auto root = static_cast<std::size_t>(find(static_cast<std::int32_t>(t)));
    if (id[root] < 0) {
      id[root] = static_cast<std::int32_t>(x.rule.size());
      x.rule.push_back(runtime::quant_rule::standard);
      x.first.push_back(static_cast<std::int32_t>(t));
    }
    const std::int32_t gi = id[root];
    x.of[t] = gi;
    if (fixed[t] != runtime::quant_rule::standard) {
      runtime::quant_rule& rule = x.rule[static_cast<std::size_t>(gi)];
      if (rule != runtime::quant_rule::standard && rule != fixed[t])
        throw quantize_error(tensor_label(g, names, static_cast<std::int32_t>(t)) +
                             ": its op fixes its int8 quantization, and so does another op of the tensors that must "
                             "share it, differently (no int8 form)");
      rule = fixed[t];
    }
  }
  return x;
}

/// The fixed quantization of an op's rule (params.hpp: sigmoid, softmax 1/256 and -128; tanh 1/128 and 0).
inline runtime::tensor_quant fixed_quant(runtime::quant_rule r) {
  if (r == runtime::quant_rule::unit_interval) return {1.0f / 256.0f, -128};
  return {1.0f / 128.0f, 0};
}

/// @brief The result of calibration: per tensor, its quantization, the values observed and the
/// range its group was given.
struct calibration {
  calibration_rule rule = calibration_rule::minmax;
  std::int64_t samples = 0;
  std::vector<runtime::tensor_quant> quant;
  std::vector<float> min, max;  ///< observed, per tensor
  std::vector<float> lo, hi;    ///< the calibrated range of the tensor's group (before TFLite's widening to 0)
};

namespace detail {

/// The range of a histogram (bins of width w from `base`, counts c) under the percentile rule.
inline void percentile_range(const std::vector<double>& c, double base, double w, float& lo, float& hi) {
  double total = 0;
  for (double v : c) total += v;
  const double tail = total * (100.0 - calibration_percentile) / 100.0;
  auto quantile = [&](double rank) {  // the value below which `rank` of the counts lie
    double seen = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (c[i] > 0 && seen + c[i] >= rank) return base + w * (static_cast<double>(i) + (rank - seen) / c[i]);
      seen += c[i];
    }
    return base + w * static_cast<double>(c.size());
  };
  lo = static_cast<float>(quantile(tail));
  hi = static_cast<float>(quantile(total - tail));
}

/// The range [a, b] (a <= 0 <= b, bin edges or 0) minimizing the expected squared error of
/// quantizing the histogram's values to 256 levels over [a, b]: sum over bins left of a of
/// c (x - a)^2, right of b of c (x - b)^2 (x the bin centre), plus inside count * step^2 / 12.
inline void mse_range(const std::vector<double>& c, double base, double w, float& lo, float& hi) {
  const std::size_t n = c.size();
  std::vector<double> cnt(n + 1, 0), s1(n + 1, 0), s2(n + 1, 0);  // prefix sums over bins [0, i)
  for (std::size_t i = 0; i < n; ++i) {
    const double x = base + w * (static_cast<double>(i) + 0.5);
    cnt[i + 1] = cnt[i] + c[i];
    s1[i + 1] = s1[i] + c[i] * x;
    s2[i + 1] = s2[i] + c[i] * x * x;
  }
  // candidate bounds: the edge index i stands for base + w i; lower ones <= 0, upper ones >= 0,
  // with 0 itself when it lies inside (bins are then split at it: the candidate keeps the bin
  // whose centre is on its side)
  struct cand { double v; std::size_t edge; };
  std::vector<cand> lows, highs;
  for (std::size_t i = 0; i <= n; ++i) {
    const double v = base + w * static_cast<double>(i);
    if (v <= 0) lows.push_back({v, i});
    if (v >= 0) highs.push_back({v, i});
  }
  const double top = base + w * static_cast<double>(n);
  if (base > 0) lows.push_back({0.0, 0});
  if (top < 0) highs.push_back({0.0, n});
  if (base < 0 && top > 0) {
    const double z = -base / w;  // 0 at this fractional edge
    const auto zi = static_cast<std::size_t>(z + 0.5);
    lows.push_back({0.0, zi});
    highs.push_back({0.0, zi});
  }
  double best = std::numeric_limits<double>::infinity();
  for (const cand& a : lows)
    for (const cand& b : highs) {
      if (!(b.v > a.v)) continue;
      const double step = (b.v - a.v) / 255.0;
      const double below = s2[a.edge] - 2 * a.v * s1[a.edge] + a.v * a.v * cnt[a.edge];
      const double above = (s2[n] - s2[b.edge]) - 2 * b.v * (s1[n] - s1[b.edge]) + b.v * b.v * (cnt[n] - cnt[b.edge]);
      const double inside = b.edge > a.edge ? cnt[b.edge] - cnt[a.edge] : 0.0;
      const double e = below + above + inside * step * step / 12.0;
      if (e < best) {
        best = e;
        lo = static_cast<float>(a.v);
        hi = static_cast<float>(b.v);
      }
    }
}

}  // namespace detail

/// @brief Calibrates graph g (float32 parameters `f32` laid out by `f32_layout`) on `n` samples
/// (`samples`, n times the input's elements, finite) with rule `rule`. Throws quantize_error for a
/// tensor that is not finite on a sample, or whose calibrated range is zero.
inline calibration calibrate(const graph_rows& g, const std::uint8_t* f32, const graph_param_layout& f32_layout,
                             const float* samples, std::int64_t n, calibration_rule rule, const graph_names& names) {
  const tensor_groups groups = group_tensors(g, names);
  const auto tensors = static_cast<std::size_t>(g.tensor_count());
  const std::int64_t in_elems = g.tensor_shape(0).elems();
  graph_runner<float> run(g, f32, f32_layout);
  calibration c;
  c.rule = rule;
  c.samples = n;
  c.min.assign(tensors, std::numeric_limits<float>::infinity());
  c.max.assign(tensors, -std::numeric_limits<float>::infinity());
  auto forward = [&](std::int64_t s) {
    const runtime::run_status st = run.run(samples + s * in_elems, runtime::backend::optimized);
    if (!st.ok())
      throw quantize_error("calibration sample " + std::to_string(s) + ": the float32 run stopped at node '" +
                           names.leaves.at(static_cast<std::size_t>(st.leaf)) + "' (" + runtime::name_of(st.code) + ")");
  };
  // pass 1: every tensor's min and max, every value finite
  for (std::int64_t s = 0; s < n; ++s) {
    forward(s);
    for (std::size_t t = 0; t < tensors; ++t) {
      const float* x = run.tensor(static_cast<std::int32_t>(t));
      const std::int64_t e = run.elems(static_cast<std::int32_t>(t));
      float lo = c.min[t], hi = c.max[t];
      for (std::int64_t i = 0; i < e; ++i) {
        const float v = x[i];
        if (!std::isfinite(v))
          throw quantize_error(tensor_label(g, names, static_cast<std::int32_t>(t)) + ": element " + std::to_string(i) +
                               " is " + (std::isnan(v) ? "NaN" : "infinite") + " on calibration sample " +
                               std::to_string(s) + " (int8 needs finite values)");
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      c.min[t] = lo;
      c.max[t] = hi;
    }
  }
  // each group's observed range
  const std::size_t ng = groups.count();
  std::vector<float> g_lo(ng, std::numeric_limits<float>::infinity()), g_hi(ng, -std::numeric_limits<float>::infinity());
  for (std::size_t t = 0; t < tensors; ++t) {
    const auto gi = static_cast<std::size_t>(groups.of[t]);
    g_lo[gi] = std::min(g_lo[gi], c.min[t]);
    g_hi[gi] = std::max(g_hi[gi], c.max[t]);
  }
  std::vector<float> lo = g_lo, hi = g_hi;
  // pass 2 (percentile, mse): a histogram of each calibrated group over its observed range
  if (rule != calibration_rule::minmax) {
    const auto bins = static_cast<std::size_t>(calibration_bins);
    std::vector<std::vector<double>> hist(ng);
    std::vector<double> base(ng), width(ng);
    for (std::size_t gi = 0; gi < ng; ++gi) {
      if (groups.rule[gi] != runtime::quant_rule::standard || !(g_hi[gi] > g_lo[gi])) continue;
      hist[gi].assign(bins, 0.0);
      base[gi] = g_lo[gi];
      width[gi] = (static_cast<double>(g_hi[gi]) - static_cast<double>(g_lo[gi])) / static_cast<double>(bins);
    }
    std::vector<std::uint64_t> counts(bins);
    for (std::int64_t s = 0; s < n; ++s) {
      forward(s);
      for (std::size_t t = 0; t < tensors; ++t) {
        const auto gi = static_cast<std::size_t>(groups.of[t]);
        if (hist[gi].empty()) continue;
        const float* x = run.tensor(static_cast<std::int32_t>(t));
        const std::int64_t e = run.elems(static_cast<std::int32_t>(t));
        const double b0 = base[gi], inv = 1.0 / width[gi];
        std::fill(counts.begin(), counts.end(), 0);
        for (std::int64_t i = 0; i < e; ++i) {
          auto k = static_cast<std::size_t>((static_cast<double>(x[i]) - b0) * inv);
          counts[std::min(k, bins - 1)] += 1;
        }
        for (std::size_t k = 0; k < bins; ++k) hist[gi][k] += static_cast<double>(counts[k]);
      }
    }
    for (std::size_t gi = 0; gi < ng; ++gi) {
      if (hist[gi].empty()) continue;
      float a = g_lo[gi], b = g_hi[gi];
      if (rule == calibration_rule::percentile) detail::percentile_range(hist[gi], base[gi], width[gi], a, b);
      else detail::mse_range(hist[gi], base[gi], width[gi], a, b);
      // a range the rule shrank to nothing (a tensor that is 0 on all but a few values) keeps min/max
      if (std::min(a, 0.0f) < std::max(b, 0.0f)) {
        lo[gi] = a;
        hi[gi] = b;
      }
    }
  }
  c.quant.resize(tensors);
  c.lo.resize(tensors);
  c.hi.resize(tensors);
  for (std::size_t gi = 0; gi < ng; ++gi) {
    const auto first = groups.first[gi];
    runtime::tensor_quant q{};
    if (groups.rule[gi] != runtime::quant_rule::standard) {
      q = fixed_quant(groups.rule[gi]);
    } else {
      if (!(std::min(lo[gi], 0.0f) < std::max(hi[gi], 0.0f)))
        throw quantize_error(tensor_label(g, names, first) + ": its calibrated range is zero: every value on the " +
                             std::to_string(n) + " calibration samples is 0, so it has no int8 scale");
      q = asymmetric_quant(lo[gi], hi[gi]);
      if (!quant::valid_scale(q.scale))
        throw quantize_error(tensor_label(g, names, first) + ": its calibrated range [" + std::to_string(lo[gi]) + ", " +
                             std::to_string(hi[gi]) + "] gives no valid int8 scale");
    }
    for (std::size_t t = 0; t < tensors; ++t)
      if (static_cast<std::size_t>(groups.of[t]) == gi) {
        c.quant[t] = q;
        c.lo[t] = lo[gi];
        c.hi[t] = hi[gi];
      }
  }
  return c;
}

/// @brief An int8 model: its blob in the layout of param_layout(g, int8), 16-byte aligned, and
/// the per-output-channel weight scale of each leaf that has weights (empty for the others).
struct quantized_model {
  graph_param_layout layout;
  std::unique_ptr<aligned_bytes> blob;
  std::vector<std::vector<float>> weight_scales;
};

/// @brief Converts the float32 parameters of g to int8 with the tensors' quantization `quant`
/// (op_def<K>::quantize per leaf) and writes the quantization table. Throws quantize_error naming
/// the layer for an op with no int8 form or a requantization that cannot be represented.
inline quantized_model quantize_params(const graph_rows& g, const std::uint8_t* f32, const graph_param_layout& f32_layout,
                                       const std::vector<runtime::tensor_quant>& quant, const graph_names& names) {
  quantized_model m;
  m.layout = param_layout(g, dtype::int8);
  m.blob = std::make_unique<aligned_bytes>(static_cast<std::size_t>(m.layout.total_bytes));
  m.weight_scales.resize(static_cast<std::size_t>(g.leaf_count()));
  for (std::int32_t i = 0; i < g.leaf_count(); ++i) {
    const row& r = g.layer(i);
    const auto ui = static_cast<std::size_t>(i);
    const std::string where = "node '" + names.leaves.at(ui) + "' (" + leaf_type(r) + ")";
    runtime::quantize_call q{};
    q.r = &r;
    q.f32 = f32;
    q.f32_lp = &f32_layout.leaves[ui];
    q.blob = m.blob->data;
    q.lp = &m.layout.leaves[ui];
    q.in_q = quant[static_cast<std::size_t>(r.inputs[0])];
    q.out_q = quant[static_cast<std::size_t>(r.output)];
    const runtime::param_regions regions = visit_kind<all_kinds>(
        r.kind, [&]<op K>() { return ctnn::detail::regions_of<K>(r, dtype::int8); }, runtime::param_regions{});
    if (regions.requant) {
      m.weight_scales[ui].assign(static_cast<std::size_t>(q.lp->channels), 0.0f);
      q.weight_scales = m.weight_scales[ui].data();
    }
    const bool has_params = regions.w_bytes != 0 || regions.b_bytes != 0 || regions.stats_bytes != 0 || regions.requant;
    const int verdict = visit_kind<all_kinds>(
        r.kind,
        [&]<op K>() {
          if constexpr (requires { op_def<K>::quantize(q); })
            return op_def<K>::quantize(q) == kernels::status::ok ? 0 : 1;
          else return has_params ? 2 : 0;
        },
        2);
    if (verdict == 1)
      throw quantize_error(where + ": a requantization multiplier (input scale x weight scale / output scale) is "
                           "outside [2^-32, 2^30): the calibrated scales cannot be represented");
    if (verdict == 2)
      throw quantize_error(where + ": the op has no int8 form in ctnn's TFLite scheme (its int8 kernel keeps float "
                           "parameters); quantize a model without it, or import it as float32");
  }
  float* scale = reinterpret_cast<float*>(m.blob->data + m.layout.quant_scale);
  std::int32_t* zp = reinterpret_cast<std::int32_t*>(m.blob->data + m.layout.quant_zp);
  for (std::size_t t = 0; t < quant.size(); ++t) {
    scale[t] = quant[t].scale;
    zp[t] = quant[t].zero_point;
  }
  return m;
}

/// @brief One leaf's SQNR: the sums of its float32 output's squares and of the squared error of
/// its dequantized int8 output, over all samples.
struct layer_sqnr {
  std::int32_t leaf = 0;
  double signal = 0, noise = 0;
  /// 10 log10(signal / noise) in dB; infinite when the int8 output is exact.
  [[nodiscard]] double db() const {
    if (noise == 0) return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(signal / noise);
  }
};

/// @brief The SQNR of each leaf of the int8 model (`i8`, laid out by `i8_layout`) against the
/// float32 one over `n` samples; the int8 network runs from the quantized input on backend be.
inline std::vector<layer_sqnr> measure_sqnr(const graph_rows& g, const std::uint8_t* f32, const graph_param_layout& f32_layout,
                                            const std::uint8_t* i8, const graph_param_layout& i8_layout,
                                            const float* samples, std::int64_t n, const graph_names& names,
                                            runtime::backend be = runtime::backend::optimized) {
  graph_runner<float> fr(g, f32, f32_layout);
  graph_runner<std::int8_t> qr(g, i8, i8_layout);
  const std::int64_t in_elems = g.tensor_shape(0).elems();
  const float* scales = reinterpret_cast<const float*>(i8 + i8_layout.quant_scale);
  const std::int32_t* zps = reinterpret_cast<const std::int32_t*>(i8 + i8_layout.quant_zp);
  std::vector<layer_sqnr> out(static_cast<std::size_t>(g.leaf_count()));
  std::vector<std::int8_t> xq(static_cast<std::size_t>(in_elems));
  for (std::int64_t s = 0; s < n; ++s) {
    const float* x = samples + s * in_elems;
    for (std::int64_t i = 0; i < in_elems; ++i)
      xq[static_cast<std::size_t>(i)] = quant::quantize<std::int8_t>(x[i], scales[0], zps[0]);
    for (int pass = 0; pass < 2; ++pass) {
      const runtime::run_status st = pass == 0 ? fr.run(x, be) : qr.run(xq.data(), be);
      if (!st.ok())
        throw quantize_error("sample " + std::to_string(s) + ": the " + (pass == 0 ? "float32" : "int8") +
                             " run stopped at node '" + names.leaves.at(static_cast<std::size_t>(st.leaf)) + "' (" +
                             runtime::name_of(st.code) + ")");
    }
    for (std::int32_t i = 0; i < g.leaf_count(); ++i) {
      const std::int32_t t = i + 1;
      const float* f = fr.tensor(t);
      const std::int8_t* q = qr.tensor(t);
      const double sc = scales[t];
      const std::int32_t zp = zps[t];
      layer_sqnr& l = out[static_cast<std::size_t>(i)];
      l.leaf = i;
      for (std::int64_t k = 0; k < fr.elems(t); ++k) {
        const double fv = f[k], d = fv - sc * (static_cast<double>(q[k]) - zp);
        l.signal += fv * fv;
        l.noise += d * d;
      }
    }
  }
  return out;
}

/// @brief The SQNR of each layer as an SVG bar chart (x: the leaves in execution order, y: dB),
/// the worst layer (lowest SQNR) in red and named in the title.
inline std::string sqnr_svg(const graph_rows& g, const graph_names& names, const std::vector<layer_sqnr>& s,
                            const std::string& title) {
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return std::string(buf);
  };
  auto esc = [](const std::string& x) {
    std::string o;
    for (char ch : x) {
      if (ch == '&') o += "&amp;";
      else if (ch == '<') o += "&lt;";
      else if (ch == '>') o += "&gt;";
      else if (ch == '"') o += "&quot;";
      else o += ch;
    }
    return o;
  };
  std::size_t worst = 0;
  double top = 10.0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i].db() < s[worst].db()) worst = i;
    if (std::isfinite(s[i].db())) top = std::max(top, s[i].db());
  }
  top = std::ceil(top / 10.0) * 10.0;
  const double left = 70, right = 30, plot_top = 70, bottom = 40, height = 520;
  const double bar = s.size() > 60 ? 8.0 : 16.0;
  const double plot_w = std::max(600.0, bar * static_cast<double>(s.size()));
  const double width = left + plot_w + right, plot_h = height - plot_top - bottom;
  const double slot = plot_w / static_cast<double>(std::max<std::size_t>(s.size(), 1));
  auto y_of = [&](double db) { return plot_top + plot_h - std::clamp(db, 0.0, top) / top * plot_h; };
  std::string o = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o += "<text x=\"" + num(left) + "\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" + esc(title) + "</text>\n";
  if (!s.empty()) {
    const layer_sqnr& w = s[worst];
    o += "<text x=\"" + num(left) + "\" y=\"46\" fill=\"#c00000\">worst layer: " + std::to_string(w.leaf) + " " +
         esc(names.leaves.at(static_cast<std::size_t>(w.leaf))) + " (" + esc(leaf_type(g.layer(w.leaf))) + "), " +
         num(w.db()) + " dB</text>\n";
  }
  o += "<rect x=\"" + num(left) + "\" y=\"" + num(plot_top) + "\" width=\"" + num(plot_w) + "\" height=\"" + num(plot_h) +
       "\" fill=\"none\" stroke=\"#333\"/>\n";
  for (double db = 0; db <= top; db += 10) {
    o += "<line x1=\"" + num(left) + "\" y1=\"" + num(y_of(db)) + "\" x2=\"" + num(left + plot_w) + "\" y2=\"" +
         num(y_of(db)) + "\" stroke=\"#ddd\"/>\n<text x=\"" + num(left - 6) + "\" y=\"" + num(y_of(db) + 4) +
         "\" text-anchor=\"end\">" + num(db) + "</text>\n";
  }
  o += "<text x=\"16\" y=\"" + num(plot_top + plot_h / 2) + "\" transform=\"rotate(-90 16 " + num(plot_top + plot_h / 2) +
       ")\" text-anchor=\"middle\">SQNR (dB), int8 against float32</text>\n";
  const std::size_t tick = s.size() > 40 ? (s.size() + 19) / 20 : 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double db = s[i].db(), x = left + slot * static_cast<double>(i) + slot * 0.15;
    const double y = y_of(std::isfinite(db) ? db : top);
    const std::string label = "leaf " + std::to_string(s[i].leaf) + " " + names.leaves.at(static_cast<std::size_t>(s[i].leaf)) +
                              " (" + leaf_type(g.layer(s[i].leaf)) + "): " + (std::isfinite(db) ? num(db) + " dB" : "exact");
    o += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(slot * 0.7) + "\" height=\"" +
         num(plot_top + plot_h - y) + "\" fill=\"" + (i == worst ? "#c00000" : "#4a7fc0") + "\"><title>" + esc(label) +
         "</title></rect>\n";
    if (i % tick == 0)
      o += "<text x=\"" + num(x + slot * 0.35) + "\" y=\"" + num(plot_top + plot_h + 16) + "\" text-anchor=\"middle\">" +
           std::to_string(s[i].leaf) + "</text>\n";
  }
  o += "<text x=\"" + num(left + plot_w / 2) + "\" y=\"" + num(height - 6) +
       "\" text-anchor=\"middle\">leaf (execution order)</text>\n</svg>\n";
  return o;
}

}  // namespace ctnn::host
