// Host-only: the roofline of a network on this host. Each leaf's arithmetic intensity (the
// analysis' operations over the bytes it reads and writes) against the throughput it reached in
// the executor (per-leaf median time over repeated runs, measured through the leaf_begin /
// leaf_end hooks), under two roofs measured here: the best this build's tiled GEMM reaches at
// cache-resident sizes (compute) and a STREAM-like triad over a buffer far above the caches
// (memory bandwidth). Uses the C++ standard library; firmware never includes this header.
//
//   GOP/s (log)
//     |              ridge = peak / bandwidth
//     |        ______o_____________________  compute roof (GEMM peak)
//     |      /   .  .
//     |    /  .        .                     one dot per leaf, coloured by its type
//     |  / bandwidth roof (slope 1)
//     +---------------------------------------- op/byte (log)
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

#include "ctnn/host/memory_svg.hpp"
#include "ctnn/host/plan.hpp"
#include "ctnn/host/report.hpp"
#include "ctnn/host/run_buffers.hpp"
#include "ctnn/host/runtime_graph.hpp"
#include "ctnn/kernels/tiled.hpp"
#include "ctnn/runtime/runtime.hpp"

namespace ctnn::host {

using roof_clock = std::chrono::steady_clock;

/// @brief The CPU's name as /proc/cpuinfo's first "model name" says, or "unknown CPU".
inline std::string cpu_model_name(const char* path = "/proc/cpuinfo") {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    std::size_t b = line.find_first_not_of(" \t", colon + 1);
    if (b == std::string::npos) break;
    std::size_t e = line.find_last_not_of(" \t\r");
    return line.substr(b, e + 1 - b);
  }
  return "unknown CPU";
}

/// @brief The roofs measured on this host for one dtype (GOP/s: GFLOP/s in float32, giga int
/// operations per second in int8; a multiply-accumulate is 2 operations).
struct host_roofs {
  std::string cpu;
  dtype type = dtype::float32;
  double gemm_gops = 0;    ///< the compute roof: best tiled GEMM (tiled::gemm_f32 / gemm_s8_s32)
  int gemm_size = 0;       ///< its M = N = K
  double vector_gops = 0;  ///< float32: a register-blocked multiply-add loop on this build's vectors (0 in int8)
  int vector_bits = 0;     ///< the width of those vectors
  double triad_gbs = 0;    ///< the memory roof: a[i] = b[i] + s * c[i], 12 bytes per element, best pass
  double copy_gbs = 0;     ///< a[i] = b[i], 8 bytes per element, best pass
  std::uint64_t stream_bytes = 0;  ///< the three arrays together
  double cache_gbs = 0;    ///< the triad on arrays that fit in the L2 cache (drawn, not a roof)
  std::uint64_t cache_bytes = 0;
  std::uint64_t llc_bytes = 0;  ///< the last-level cache the system reports (sysconf), 0 if it does not
  [[nodiscard]] double ridge() const { return gemm_gops / triad_gbs; }  ///< op/byte where the roofs meet
};

namespace detail {

inline double seconds_since(roof_clock::time_point t0) {
  return std::chrono::duration<double>(roof_clock::now() - t0).count();
}

/// The median of each list (sorted in place).
inline std::vector<double> medians(std::vector<std::vector<double>>& samples) {
  std::vector<double> m(samples.size(), 0.0);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::vector<double>& v = samples[i];
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    m[i] = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  }
  return m;
}

/// Runs f() at least `min_reps` times and for at least `min_s` seconds; the fastest run in seconds.
template <class F>
double best_time(F&& f, int min_reps, double min_s) {
  double best = INFINITY;
  const auto start = roof_clock::now();
  for (int rep = 0; rep < min_reps || seconds_since(start) < min_s; ++rep) {
    const auto t0 = roof_clock::now();
    f();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

/// The best GOP/s of this build's tiled GEMM over sizes that fit in the caches (the packed
/// panels and C of 256^3 float32 take about 1 MiB); `size` gets the size that reached it.
inline double gemm_peak(dtype t, double min_s, int& size) {
  double best = 0;
  for (const int n : {64, 128, 256}) {
    const auto nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    double s = INFINITY;
    if (t == dtype::int8) {
      std::vector<std::int8_t> a(nn), b(nn);
      for (std::size_t i = 0; i < nn; ++i) {
        a[i] = static_cast<std::int8_t>(static_cast<int>(i * 7u % 255u) - 127);
        b[i] = static_cast<std::int8_t>(static_cast<int>(i * 13u % 255u) - 127);
      }
      std::vector<std::int32_t> c(nn);
      std::vector<std::uint8_t> ws(kernels::default_s8_tiling::workspace_bytes(n) + 4);
      s = best_time(
          [&] {
            kernels::tiled::gemm_s8_s32(n, n, n, a.data(), n, b.data(), n, nullptr, c.data(), n, 3, -5, ws.data(),
                                        ws.size());
          },
          2, min_s);
    } else {
      std::vector<float> a(nn), b(nn), c(nn);
      for (std::size_t i = 0; i < nn; ++i) {
        a[i] = static_cast<float>(i % 17) * 0.0625f - 0.5f;
        b[i] = static_cast<float>(i % 23) * 0.03125f - 0.25f;
      }
      s = best_time([&] { kernels::tiled::gemm_f32(n, n, n, a.data(), n, b.data(), n, nullptr, c.data(), n); }, 2,
                    min_s);
    }
    const double gops = 2.0 * n * n * n / s * 1e-9;
    if (gops > best) best = gops, size = n;
  }
  return best;
}

/// Float multiply-adds on 12 independent accumulators of this build's widest vector (the
/// kernels' simd::vf32): what the arithmetic units give with no memory traffic at all.
inline double vector_peak(double min_s) {
  using v = kernels::simd::vf32;
  constexpr int lanes = kernels::simd::f32_lanes;
  constexpr int accs = 12;
  constexpr long iters = 200000;
  volatile float seed = 1.0f;
  v acc[accs];
  for (int k = 0; k < accs; ++k) acc[k] = v{} + seed * static_cast<float>(k);
  const v m = v{} + seed * 0.999f, add = v{} + seed * 0.001f;
  const double s = best_time(
      [&] {
        v r[accs];  // locals, so that they live in registers through the loop
        for (int k = 0; k < accs; ++k) r[k] = acc[k];
        for (long i = 0; i < iters; ++i) {
#pragma GCC unroll 12
          for (int k = 0; k < accs; ++k) r[k] = r[k] * m + add;
        }
        for (int k = 0; k < accs; ++k) acc[k] = r[k];
      },
      2, min_s);
  float sink = 0;
  for (int k = 0; k < accs; ++k)
    for (int l = 0; l < lanes; ++l) sink += acc[k][l];
  volatile float keep = sink;
  (void)keep;
  return 2.0 * lanes * accs * static_cast<double>(iters) / s * 1e-9;
}

/// The largest cache the system reports (sysconf: L3, else L2), or 0.
inline std::uint64_t last_level_cache_bytes() {
  long c = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  c = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
  if (c <= 0) c = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return c > 0 ? static_cast<std::uint64_t>(c) : 0;
}

/// Half the L2 cache (sysconf), or 256 KiB when the system does not say.
inline std::uint64_t half_l2_bytes() {
#ifdef _SC_LEVEL2_CACHE_SIZE
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 > 0) return static_cast<std::uint64_t>(l2) / 2;
#endif
  return 256 * 1024;
}

/// STREAM's copy and triad over three float arrays of `bytes` together; the best pass of `reps`
/// (and of at least `min_s` seconds of passes). The loops use this build's widest vectors, four
/// per step, so that the loop is not what limits them (a scalar loop reaches about 23 GB/s here
/// from the L2 cache to 2 GiB alike).
inline void stream(std::uint64_t bytes, int reps, double& copy_gbs, double& triad_gbs, double min_s = 0) {
  using v = kernels::simd::vf32;
  constexpr std::size_t step = 4 * kernels::simd::f32_lanes;
  const std::size_t n = std::max<std::size_t>(step, static_cast<std::size_t>(bytes / 12) / step * step);
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.5f);
  const v s = v{} + 3.0f;
  float* pa = a.data();
  const float* pb = b.data();
  const float* pc = c.data();
  constexpr std::size_t l = kernels::simd::f32_lanes;
  using kernels::simd::load;
  using kernels::simd::store;
  const double t_copy = best_time(
      [&] {
        for (std::size_t i = 0; i < n; i += step) {
          const v x0 = load<v>(pb + i), x1 = load<v>(pb + i + l), x2 = load<v>(pb + i + 2 * l), x3 = load<v>(pb + i + 3 * l);
          store(pa + i, x0), store(pa + i + l, x1), store(pa + i + 2 * l, x2), store(pa + i + 3 * l, x3);
        }
      },
      reps, min_s);
  const double t_triad = best_time(
      [&] {
        for (std::size_t i = 0; i < n; i += step) {
          const v x0 = load<v>(pb + i) + s * load<v>(pc + i), x1 = load<v>(pb + i + l) + s * load<v>(pc + i + l);
          const v x2 = load<v>(pb + i + 2 * l) + s * load<v>(pc + i + 2 * l);
          const v x3 = load<v>(pb + i + 3 * l) + s * load<v>(pc + i + 3 * l);
          store(pa + i, x0), store(pa + i + l, x1), store(pa + i + 2 * l, x2), store(pa + i + 3 * l, x3);
        }
      },
      reps, min_s);
  volatile float keep = a[n / 2];
  (void)keep;
  copy_gbs = 8.0 * static_cast<double>(n) / t_copy * 1e-9;
  triad_gbs = 12.0 * static_cast<double>(n) / t_triad * 1e-9;
}

}  // namespace detail

/// @brief Measures the roofs for dtype t: the GEMM peak (each size for at least `min_s` seconds),
/// the vector multiply-add loop (float32) and STREAM over `stream_bytes` (best of `stream_reps`).
inline host_roofs measure_roofs(dtype t, std::uint64_t stream_bytes, int stream_reps = 5, double min_s = 0.1) {
  host_roofs r;
  r.cpu = cpu_model_name();
  r.type = t;
  r.gemm_gops = detail::gemm_peak(t, min_s, r.gemm_size);
  if (t == dtype::float32) {
    r.vector_gops = detail::vector_peak(min_s);
    r.vector_bits = kernels::simd::vector_bytes * 8;
  }
  r.stream_bytes = stream_bytes / 12 * 12;
  detail::stream(stream_bytes, stream_reps, r.copy_gbs, r.triad_gbs);
  r.llc_bytes = detail::last_level_cache_bytes();
  r.cache_bytes = detail::half_l2_bytes() / 12 * 12;
  double cache_copy = 0;
  detail::stream(r.cache_bytes, 3, cache_copy, r.cache_gbs, min_s);
  return r;
}

/// @brief The offload hook that runs nothing and times each leaf through leaf_begin/leaf_end.
struct leaf_timer {
  std::vector<double>* seconds = nullptr;  ///< one per leaf, written by leaf_end
  roof_clock::time_point t0{};
  template <class T>
  runtime::offload_result offload(const runtime::leaf_call<T>&) const {
    return runtime::offload_result::declined();
  }
  void leaf_begin(std::int32_t) { t0 = roof_clock::now(); }
  void leaf_end(std::int32_t i) { (*seconds)[static_cast<std::size_t>(i)] = detail::seconds_since(t0); }
};

/// @brief Each leaf's median time in seconds over `repeats` runs of Net in element type T on the
/// optimized kernels (after one warm-up run), seeded parameters and input as ctnn-golden's.
/// Empty when a run fails (`failed` then says where).
template <Network Net, class T>
std::vector<double> time_leaves(int repeats, std::uint64_t seed, std::string& failed) {
  namespace rt = runtime;
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<Net, dt>;
  constexpr auto& layout = rt::param_layout_of<Net, dt>;
  aligned_bytes params(static_cast<std::size_t>(layout.total_bytes));
  aligned_bytes arena(static_cast<std::size_t>(plan.arena_bytes));
  if (!rt::fill_params<Net, dt>(params.data, params.size, seed)) {
    failed = "cannot fill the parameters";
    return {};
  }
  const auto leaves = static_cast<std::size_t>(Net::leaf_count);
  std::vector<std::vector<double>> samples(leaves);
  std::vector<double> one(leaves, 0.0);
  leaf_timer timer{&one, {}};
  for (int rep = -1; rep < repeats; ++rep) {  // rep -1: the warm-up
    // the input again each time: in-place layers may have overwritten it
    rt::fill_input<T>(reinterpret_cast<T*>(arena.data + plan.offset_of(0)), Net::input_shape.elems(), seed + 1,
                      rt::default_tensor_quant<Net>(0));
    const rt::run_status s =
        rt::run<Net, T, rt::backend::optimized>(arena.data, arena.size, params.data, params.size, timer);
    if (!s.ok()) {
      failed = std::string("the run failed at leaf ") + std::to_string(s.leaf) + ": " + rt::name_of(s.code);
      return {};
    }
    if (rep < 0) continue;
    for (std::size_t i = 0; i < leaves; ++i) samples[i].push_back(one[i]);
  }
  return detail::medians(samples);
}

/// @brief As time_leaves for a network known only at run time (a model read from a file): its
/// rows planned by host::plan_rows (the planner of plan_of, so the same offsets, scratch and
/// im2col panels), each leaf run on the optimized kernels as runtime::run runs it
/// (runtime::detail::run_leaf), the parameters `params` in the layout `layout`
/// (param_layout(g, dtype_of<T>)); int8 reads each tensor's quantization from the blob.
template <class T>
std::vector<double> time_rows(const graph_rows& g, const std::uint8_t* params, const graph_param_layout& layout,
                              int repeats, std::uint64_t seed, std::string& failed) {
  namespace rt = runtime;
  const rows_view v = g.view();
  const dynamic_plan plan = plan_rows(v, sizeof(T));
  aligned_bytes arena(static_cast<std::size_t>(plan.arena_bytes));
  const auto tensors = static_cast<std::size_t>(v.tensor_count());
  std::vector<rt::tensor_quant> quant(tensors);
  if constexpr (std::is_same_v<T, std::int8_t>) {
    for (std::size_t t = 0; t < tensors; ++t) {
      std::memcpy(&quant[t].scale, params + layout.quant_scale + 4 * t, 4);
      std::memcpy(&quant[t].zero_point, params + layout.quant_zp + 4 * t, 4);
    }
  }
  const auto leaves = static_cast<std::size_t>(v.leaf_count);
  std::vector<std::vector<double>> samples(leaves);
  std::vector<const T*> in;
  std::vector<std::uint64_t> in_offset;
  std::vector<std::int64_t> in_elems;
  std::vector<rt::tensor_quant> q_in;
  for (int rep = -1; rep < repeats; ++rep) {  // rep -1: the warm-up
    rt::fill_input<T>(reinterpret_cast<T*>(arena.data + plan.offset_of(0)), v.input.elems(), seed + 1, quant[0]);
    for (std::int32_t i = 0; i < v.leaf_count; ++i) {
      const row& r = v.layer(i);
      const auto ui = static_cast<std::size_t>(i);
      const auto n = static_cast<std::size_t>(r.n_inputs);
      in.assign(n, nullptr), in_offset.assign(n, 0), in_elems.assign(n, 0), q_in.assign(n, {});
      for (std::size_t k = 0; k < n; ++k) {
        in_offset[k] = plan.offset_of(r.inputs[k]);
        in[k] = reinterpret_cast<const T*>(arena.data + in_offset[k]);
        in_elems[k] = v.tensor_shape(r.inputs[k]).elems();
        q_in[k] = quant[static_cast<std::size_t>(r.inputs[k])];
      }
      rt::leaf_call<T> c{};
      c.index = i;
      c.r = &r;
      c.out_offset = plan.offset_of(r.output);
      c.out = reinterpret_cast<T*>(arena.data + c.out_offset);
      c.in = in.data(), c.in_offset = in_offset.data(), c.in_elems = in_elems.data(), c.q_in = q_in.data();
      c.q_out = quant[static_cast<std::size_t>(r.output)];
      c.scratch = plan.scratch_bytes[ui] != 0 ? arena.data + plan.scratch_offset[ui] : nullptr;
      c.scratch_bytes = static_cast<std::size_t>(plan.scratch_bytes[ui]);
      c.panel_rows = plan.panel_rows[ui];
      c.params = params;
      c.lp = &layout.leaves[ui];
      const auto t0 = roof_clock::now();
      const rt::leaf_result res = rt::detail::run_leaf<T, rt::backend::optimized, all_kinds>(c);
      const double s = detail::seconds_since(t0);
      if (res.code != rt::fault::none) {
        failed = "the run failed at leaf " + std::to_string(i) + ": " + rt::name_of(res.code);
        return {};
      }
      if (rep >= 0) samples[ui].push_back(s);
    }
  }
  return detail::medians(samples);
}

/// @brief One leaf on the roofline.
struct roofline_point {
  std::string name, type;
  std::uint64_t macs = 0;
  std::uint64_t ops = 0;    ///< 2 * MACs + the other operations (the analysis' ext_ops)
  std::uint64_t bytes = 0;  ///< the analysis' read_bytes + write_bytes of the leaf
  double seconds = 0;       ///< median time per run
  double intensity = 0;     ///< ops / bytes
  double gops = 0;          ///< ops / seconds * 1e-9
  double roof = 0;          ///< min(peak, bandwidth * intensity)
  [[nodiscard]] bool plotted() const { return ops > 0 && bytes > 0 && seconds > 0; }
  [[nodiscard]] bool memory_bound(const host_roofs& r) const { return intensity < r.ridge(); }
};

struct roofline {
  std::string model;
  host_roofs roofs;
  int repeats = 0;
  std::vector<roofline_point> points;  ///< every leaf in execution order
};

/// @brief The roofline of report `r` with each leaf's median time `seconds` under `roofs`.
inline roofline make_roofline(const report& r, const std::vector<double>& seconds, const host_roofs& roofs,
                              int repeats) {
  roofline f;
  f.model = r.model;
  f.roofs = roofs;
  f.repeats = repeats;
  for (const report_row& x : r.rows) {
    if (x.leaf < 0) continue;
    roofline_point p;
    p.name = x.name;
    p.type = x.type;
    p.macs = x.counts.macs;
    p.ops = 2 * x.counts.macs + x.counts.ext_ops;
    p.bytes = x.read_bytes + x.write_bytes;
    const auto i = static_cast<std::size_t>(x.leaf);
    p.seconds = i < seconds.size() ? seconds[i] : 0.0;
    if (p.bytes > 0) p.intensity = static_cast<double>(p.ops) / static_cast<double>(p.bytes);
    if (p.seconds > 0) p.gops = static_cast<double>(p.ops) / p.seconds * 1e-9;
    p.roof = std::min(roofs.gemm_gops, roofs.triad_gbs * p.intensity);
    f.points.push_back(std::move(p));
  }
  return f;
}

namespace detail {
inline std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
inline const char* ops_unit(dtype t) { return t == dtype::int8 ? "GOP/s" : "GFLOP/s"; }
inline const char* intensity_unit(dtype t) { return t == dtype::int8 ? "op/byte" : "FLOP/byte"; }
}  // namespace detail

/// @brief The roofs in text (what the SVG draws), then one line per leaf. The roofs to 4
/// significant digits, as the leaves' figures: an unoptimized build's compute peak of 0.15 GOP/s
/// to 2 decimals was 3 % off, more than the printed ridge point's own rounding.
inline std::string roofline_table(const roofline& f) {
  using detail::fmt;
  const host_roofs& h = f.roofs;
  const char* u = detail::ops_unit(h.type);
  std::string s;
  s += "Roofline of " + f.model + " (" + name_of(h.type) + ") on " + h.cpu + "\n";
  s += "Compute peak: " + fmt("%.4g", h.gemm_gops) + " " + u + " (best tiled GEMM of this build, " +
       std::to_string(h.gemm_size) + "x" + std::to_string(h.gemm_size) + "x" + std::to_string(h.gemm_size) + ")\n";
  if (h.vector_gops > 0)
    s += "Vector multiply-add loop: " + fmt("%.4g", h.vector_gops) + " " + u + " (" + std::to_string(h.vector_bits) +
         "-bit vectors, 12 accumulators; not a roof: no kernel reaches it without loads)\n";
  s += "Memory bandwidth: " + fmt("%.4g", h.triad_gbs) + " GB/s (triad; copy " + fmt("%.4g", h.copy_gbs) +
       " GB/s; " + fmt("%.0f", static_cast<double>(h.stream_bytes) / 1048576.0) + " MiB, one thread" +
       (h.llc_bytes > 0 ? "; the system reports a last-level cache of " +
                              fmt("%.0f", static_cast<double>(h.llc_bytes) / 1048576.0) + " MiB"
                        : std::string()) +
       ")\n";
  if (h.cache_gbs > 0)
    s += "L2-resident triad: " + fmt("%.4g", h.cache_gbs) + " GB/s (" +
         fmt("%.0f", static_cast<double>(h.cache_bytes) / 1024.0) +
         " KiB; not a roof: a layer above the memory roof found its data in the caches)\n";
  s += "Ridge point: " + fmt("%.3f", h.ridge()) + " " + detail::intensity_unit(h.type) + "\n";
  s += "Per leaf: the median of " + std::to_string(f.repeats) +
       " runs on the optimized kernels; ops = 2 x MACs + other ops, bytes = read + written (the analysis)\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-32s %-18s %14s %12s %12s %10s %10s %8s  %s\n", "leaf", "layer", "type",
                "ops", "bytes", "time us", "intensity", u, "% roof", "bound");
  s += line;
  for (std::size_t i = 0; i < f.points.size(); ++i) {
    const roofline_point& p = f.points[i];
    if (!p.plotted()) {
      std::snprintf(line, sizeof line, "%4zu  %-32s %-18s %14llu %12llu %12.2f %10s %10s %8s  %s\n", i,
                    p.name.c_str(), p.type.c_str(), static_cast<unsigned long long>(p.ops),
                    static_cast<unsigned long long>(p.bytes), p.seconds * 1e6, "-", "-", "-",
                    p.ops == 0 ? "no ops" : "not timed");
    } else {
      std::snprintf(line, sizeof line, "%4zu  %-32s %-18s %14llu %12llu %12.2f %10.4g %10.4g %8.3g  %s\n", i,
                    p.name.c_str(), p.type.c_str(), static_cast<unsigned long long>(p.ops),
                    static_cast<unsigned long long>(p.bytes), p.seconds * 1e6, p.intensity, p.gops,
                    100.0 * p.gops / p.roof, p.memory_bound(h) ? "memory" : "compute");
    }
    s += line;
  }
  double total_s = 0;
  std::uint64_t total_ops = 0;
  int memory = 0, plotted = 0;
  for (const roofline_point& p : f.points) {
    total_s += p.seconds;
    total_ops += p.ops;
    if (p.plotted()) ++plotted, memory += p.memory_bound(h) ? 1 : 0;
  }
  s += "\nSum of the leaves' medians: " + fmt("%.3f", total_s * 1e3) + " ms, " +
       fmt("%.3f", total_s > 0 ? static_cast<double>(total_ops) / total_s * 1e-9 : 0.0) + " " + u + "; " +
       std::to_string(memory) + " of " + std::to_string(plotted) + " plotted leaves are memory-bound\n";
  return s;
}

namespace detail {

/// Distinct colours for the layer types, in order of first appearance.
inline const char* palette(std::size_t i) {
  static const char* const c[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                  "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a",
                                  "#637939", "#8c6d31", "#7b4173", "#3182bd"};
  return c[i % (sizeof c / sizeof c[0])];
}

/// "0.01", "1", "1000", "1e+06": a decade's tick label.
inline std::string decade_label(int e) {
  char b[32];
  if (e >= 0 && e <= 5) std::snprintf(b, sizeof b, "%.0f", std::pow(10.0, e));
  else if (e < 0 && e >= -3) std::snprintf(b, sizeof b, "%.*f", -e, std::pow(10.0, e));
  else std::snprintf(b, sizeof b, "1e%d", e);
  return b;
}

}  // namespace detail

/// @brief The roofline as an SVG picture: log-log axes, the bandwidth and compute roofs meeting
/// at the ridge point, one dot per leaf with ops (hover: name, type, MACs, bytes, intensity,
/// throughput), a legend of the layer types. Machine-readable attributes for tests and tools:
/// the root's data-peak-gops, data-bandwidth-gbs, data-ridge; each dot's data-layer.
inline std::string roofline_svg(const roofline& f) {
  using detail::fmt;
  using detail::xml_escape;
  const host_roofs& h = f.roofs;
  const char* u = detail::ops_unit(h.type);
  const char* iu = detail::intensity_unit(h.type);
  // the decades shown: every plotted point, the ridge and the peak, with a margin
  double x_lo = h.ridge(), x_hi = h.ridge(), y_lo = h.gemm_gops, y_hi = std::max(h.gemm_gops, h.vector_gops);
  for (const roofline_point& p : f.points) {
    if (!p.plotted()) continue;
    x_lo = std::min(x_lo, p.intensity), x_hi = std::max(x_hi, p.intensity);
    y_lo = std::min(y_lo, p.gops), y_hi = std::max(y_hi, p.gops);
  }
  const int ex0 = static_cast<int>(std::floor(std::log10(x_lo))) - (std::log10(x_lo) - std::floor(std::log10(x_lo)) < 0.15 ? 1 : 0);
  const int ex1 = static_cast<int>(std::ceil(std::log10(x_hi * 1.3)));
  const int ey0 = static_cast<int>(std::floor(std::log10(y_lo))) - (std::log10(y_lo) - std::floor(std::log10(y_lo)) < 0.15 ? 1 : 0);
  const int ey1 = static_cast<int>(std::ceil(std::log10(y_hi * 1.3)));
  const double W = 960, H = 640, L = 90, R = 250, T = 70, B = 70;
  const double pw = W - L - R, ph = H - T - B;
  auto X = [&](double v) { return L + (std::log10(v) - ex0) / (ex1 - ex0) * pw; };
  auto Y = [&](double v) { return T + ph - (std::log10(v) - ey0) / (ey1 - ey0) * ph; };
  std::string s;
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", W) + "\" height=\"" + fmt("%.0f", H) +
       "\" viewBox=\"0 0 " + fmt("%.0f", W) + " " + fmt("%.0f", H) + "\" font-family=\"sans-serif\" font-size=\"12\"" +
       " data-peak-gops=\"" + fmt("%.9g", h.gemm_gops) + "\" data-bandwidth-gbs=\"" + fmt("%.9g", h.triad_gbs) +
       "\" data-ridge=\"" + fmt("%.9g", h.ridge()) + "\" data-dtype=\"" + name_of(h.type) + "\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + fmt("%.0f", L) + "\" y=\"28\" font-size=\"16\" font-weight=\"bold\">" +
       xml_escape("Roofline of " + f.model + " (" + name_of(h.type) + ") on " + h.cpu) + "</text>\n";
  s += "<text x=\"" + fmt("%.0f", L) + "\" y=\"48\" fill=\"#555\">" +
       xml_escape("compute peak " + fmt("%.2f", h.gemm_gops) + " " + u + " (best tiled GEMM, " +
                  std::to_string(h.gemm_size) + "^3), bandwidth " + fmt("%.2f", h.triad_gbs) +
                  " GB/s (STREAM triad, one thread); each leaf: median of " + std::to_string(f.repeats) + " runs") +
       "</text>\n";
  // grid and tick labels, one per decade
  s += "<g id=\"axes\" stroke=\"#ddd\">\n";
  for (int e = ex0; e <= ex1; ++e) {
    const double x = X(std::pow(10.0, e));
    s += "<line x1=\"" + fmt("%.1f", x) + "\" y1=\"" + fmt("%.1f", T) + "\" x2=\"" + fmt("%.1f", x) + "\" y2=\"" +
         fmt("%.1f", T + ph) + "\"/>\n";
    s += "<text x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", T + ph + 18) +
         "\" text-anchor=\"middle\" stroke=\"none\" fill=\"#333\">" + detail::decade_label(e) + "</text>\n";
  }
  for (int e = ey0; e <= ey1; ++e) {
    const double y = Y(std::pow(10.0, e));
    s += "<line x1=\"" + fmt("%.1f", L) + "\" y1=\"" + fmt("%.1f", y) + "\" x2=\"" + fmt("%.1f", L + pw) + "\" y2=\"" +
         fmt("%.1f", y) + "\"/>\n";
    s += "<text x=\"" + fmt("%.1f", L - 8) + "\" y=\"" + fmt("%.1f", y + 4) +
         "\" text-anchor=\"end\" stroke=\"none\" fill=\"#333\">" + detail::decade_label(e) + "</text>\n";
  }
  s += "<rect x=\"" + fmt("%.1f", L) + "\" y=\"" + fmt("%.1f", T) + "\" width=\"" + fmt("%.1f", pw) + "\" height=\"" +
       fmt("%.1f", ph) + "\" fill=\"none\" stroke=\"#333\"/>\n</g>\n";
  s += "<text x=\"" + fmt("%.1f", L + pw / 2) + "\" y=\"" + fmt("%.1f", H - 22) + "\" text-anchor=\"middle\">" +
       "arithmetic intensity (" + iu + ", log)</text>\n";
  s += "<text transform=\"translate(24," + fmt("%.1f", T + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
       "throughput (" + u + ", log)</text>\n";
  // the roofs: bandwidth * I up to the ridge, then the peak; clipped to the plot
  const double x_min = std::pow(10.0, ex0), x_max = std::pow(10.0, ex1), y_min = std::pow(10.0, ey0);
  const double x_start = std::max(x_min, y_min / h.triad_gbs);
  const double ridge = h.ridge();
  s += "<line id=\"roof-memory\" x1=\"" + fmt("%.2f", X(x_start)) + "\" y1=\"" + fmt("%.2f", Y(h.triad_gbs * x_start)) +
       "\" x2=\"" + fmt("%.2f", X(ridge)) + "\" y2=\"" + fmt("%.2f", Y(h.gemm_gops)) +
       "\" stroke=\"#c00\" stroke-width=\"2.5\"><title>" +
       xml_escape("memory roof: " + fmt("%.2f", h.triad_gbs) + " GB/s x intensity") + "</title></line>\n";
  s += "<line id=\"roof-compute\" x1=\"" + fmt("%.2f", X(ridge)) + "\" y1=\"" + fmt("%.2f", Y(h.gemm_gops)) +
       "\" x2=\"" + fmt("%.2f", X(x_max)) + "\" y2=\"" + fmt("%.2f", Y(h.gemm_gops)) +
       "\" stroke=\"#00c\" stroke-width=\"2.5\"><title>" +
       xml_escape("compute roof: " + fmt("%.2f", h.gemm_gops) + " " + u) + "</title></line>\n";
  if (h.cache_gbs > 0) {
    const double c0 = std::max(x_min, y_min / h.cache_gbs), c1 = h.gemm_gops / h.cache_gbs;
    if (c1 > c0)
      s += "<line id=\"cache-bandwidth\" x1=\"" + fmt("%.2f", X(c0)) + "\" y1=\"" + fmt("%.2f", Y(h.cache_gbs * c0)) +
           "\" x2=\"" + fmt("%.2f", X(c1)) + "\" y2=\"" + fmt("%.2f", Y(h.gemm_gops)) +
           "\" stroke=\"#c00\" stroke-dasharray=\"6 4\"><title>" +
           xml_escape("L2-resident triad: " + fmt("%.2f", h.cache_gbs) + " GB/s x intensity (not a roof)") +
           "</title></line>\n";
  }
  if (h.vector_gops > 0)
    s += "<line id=\"vector-peak\" x1=\"" + fmt("%.2f", L) + "\" y1=\"" + fmt("%.2f", Y(h.vector_gops)) + "\" x2=\"" +
         fmt("%.2f", L + pw) + "\" y2=\"" + fmt("%.2f", Y(h.vector_gops)) +
         "\" stroke=\"#888\" stroke-dasharray=\"6 4\"><title>" +
         xml_escape("vector multiply-add loop: " + fmt("%.2f", h.vector_gops) + " " + u + " (" +
                    std::to_string(h.vector_bits) + "-bit vectors, no loads)") +
         "</title></line>\n";
  s += "<g id=\"ridge\"><circle cx=\"" + fmt("%.2f", X(ridge)) + "\" cy=\"" + fmt("%.2f", Y(h.gemm_gops)) +
       "\" r=\"5\" fill=\"white\" stroke=\"#000\" stroke-width=\"2\"/><text x=\"" + fmt("%.2f", X(ridge) + 8) +
       "\" y=\"" + fmt("%.2f", Y(h.gemm_gops) - 8) + "\">" + xml_escape("ridge " + fmt("%.3g", ridge) + " " + iu) +
       "</text><title>" +
       xml_escape("ridge point: peak / bandwidth = " + fmt("%.2f", h.gemm_gops) + " / " + fmt("%.2f", h.triad_gbs) +
                  " = " + fmt("%.4g", ridge) + " " + iu) +
       "</title></g>\n";
  // the dots, coloured by type
  std::vector<std::string> types;
  auto colour = [&](const std::string& t) {
    auto it = std::find(types.begin(), types.end(), t);
    if (it == types.end()) it = types.insert(types.end(), t);
    return detail::palette(static_cast<std::size_t>(it - types.begin()));
  };
  s += "<g id=\"layers\">\n";
  for (const roofline_point& p : f.points) {
    if (!p.plotted()) continue;
    s += "<circle class=\"layer\" data-layer=\"" + xml_escape(p.name) + "\" cx=\"" + fmt("%.2f", X(p.intensity)) +
         "\" cy=\"" + fmt("%.2f", Y(p.gops)) + "\" r=\"4\" fill=\"" + colour(p.type) +
         "\" fill-opacity=\"0.8\" stroke=\"#222\" stroke-width=\"0.5\"><title>" +
         xml_escape(p.name + " (" + p.type + "): MACs " + grouped(p.macs) + ", ops " + grouped(p.ops) + ", bytes " +
                    grouped(p.bytes) + ", intensity " + fmt("%.3f", p.intensity) + " " + iu + ", " +
                    fmt("%.3f", p.gops) + " " + u + " (" + fmt("%.1f", 100.0 * p.gops / p.roof) + " % of the roof, " +
                    (p.memory_bound(h) ? "memory" : "compute") + "-bound), " + fmt("%.2f", p.seconds * 1e6) + " us") +
         "</title></circle>\n";
  }
  s += "</g>\n<g id=\"legend\">\n";
  const double lx = L + pw + 20;
  double ly = T + 10;
  s += "<line x1=\"" + fmt("%.1f", lx) + "\" y1=\"" + fmt("%.1f", ly) + "\" x2=\"" + fmt("%.1f", lx + 20) + "\" y2=\"" +
       fmt("%.1f", ly) + "\" stroke=\"#c00\" stroke-width=\"2.5\"/><text x=\"" + fmt("%.1f", lx + 26) + "\" y=\"" +
       fmt("%.1f", ly + 4) + "\">" + xml_escape("bandwidth " + fmt("%.1f", h.triad_gbs) + " GB/s") + "</text>\n";
  ly += 18;
  s += "<line x1=\"" + fmt("%.1f", lx) + "\" y1=\"" + fmt("%.1f", ly) + "\" x2=\"" + fmt("%.1f", lx + 20) + "\" y2=\"" +
       fmt("%.1f", ly) + "\" stroke=\"#00c\" stroke-width=\"2.5\"/><text x=\"" + fmt("%.1f", lx + 26) + "\" y=\"" +
       fmt("%.1f", ly + 4) + "\">" + xml_escape("GEMM peak " + fmt("%.1f", h.gemm_gops) + " " + u) + "</text>\n";
  if (h.cache_gbs > 0) {
    ly += 18;
    s += "<line x1=\"" + fmt("%.1f", lx) + "\" y1=\"" + fmt("%.1f", ly) + "\" x2=\"" + fmt("%.1f", lx + 20) +
         "\" y2=\"" + fmt("%.1f", ly) + "\" stroke=\"#c00\" stroke-dasharray=\"6 4\"/><text x=\"" +
         fmt("%.1f", lx + 26) + "\" y=\"" + fmt("%.1f", ly + 4) + "\">" +
         xml_escape("L2 triad " + fmt("%.1f", h.cache_gbs) + " GB/s") + "</text>\n";
  }
  if (h.vector_gops > 0) {
    ly += 18;
    s += "<line x1=\"" + fmt("%.1f", lx) + "\" y1=\"" + fmt("%.1f", ly) + "\" x2=\"" + fmt("%.1f", lx + 20) +
         "\" y2=\"" + fmt("%.1f", ly) + "\" stroke=\"#888\" stroke-dasharray=\"6 4\"/><text x=\"" +
         fmt("%.1f", lx + 26) + "\" y=\"" + fmt("%.1f", ly + 4) + "\">" +
         xml_escape("multiply-add loop " + fmt("%.1f", h.vector_gops) + " " + u) + "</text>\n";
  }
  ly += 10;
  for (std::size_t i = 0; i < types.size(); ++i) {
    ly += 18;
    s += "<circle cx=\"" + fmt("%.1f", lx + 10) + "\" cy=\"" + fmt("%.1f", ly) + "\" r=\"5\" fill=\"" +
         detail::palette(i) + "\"/><text x=\"" + fmt("%.1f", lx + 26) + "\" y=\"" + fmt("%.1f", ly + 4) + "\">" +
         xml_escape(types[i]) + "</text>\n";
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace ctnn::host
