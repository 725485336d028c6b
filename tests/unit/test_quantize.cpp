// Post-training int8: fused activations (nn/fused.hpp), the ops' quantize (per-channel symmetric
// weights, int32 bias, requantization: TFLite's formulas), and the host quantizer
// (host/quantize.hpp): TFLite's asymmetric parameters, the tensors that must share one
// quantization, the three calibration rules, its refusals, and the SQNR of an int8 graph.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ctnn/host/quantize.hpp"
#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/runtime.hpp"

using namespace ctnn;
namespace rt = ctnn::runtime;

namespace {

// The same network with its activations fused and as layers of their own.
using fused_net = network<"Fused", shape{3, 8, 8},
    dag<"F",
        node<"c1", fused<conv2d<3, 4, 3, 1, 1>, relu6>, 0>,
        node<"c2", fused<conv2d<4, 4, 1>, relu>, 1>,
        node<"add", fused<join<op::add>, clamp<1, 3, 2>>, 2, 1>,
        node<"flat", flatten, 3>,
        node<"fc", fused<linear<256, 5>, relu>, 4>>>;
using plain_net = network<"Plain", shape{3, 8, 8},
    dag<"P",
        node<"c1", conv2d<3, 4, 3, 1, 1>, 0>, node<"r1", relu6, 1>,
        node<"c2", conv2d<4, 4, 1>, 2>, node<"r2", relu, 3>,
        node<"add", join<op::add>, 4, 2>, node<"cl", clamp<1, 3, 2>, 5>,
        node<"flat", flatten, 6>,
        node<"fc", linear<256, 5>, 7>, node<"r3", relu, 8>>>;

static_assert(fused_net::leaf_count == 5 && plain_net::leaf_count == 9);
static_assert(fused_net::layer(0).kind == op::conv2d && fused_net::layer(0).geometry.act == fused_act::relu6);
static_assert(fused_net::layer(0).geometry.act_lo == 0.0f && fused_net::layer(0).geometry.act_hi == 6.0f);
static_assert(fused_net::layer(1).geometry.act == fused_act::relu &&
              fused_net::layer(1).geometry.act_hi == fused_act_unbounded);
static_assert(fused_net::layer(2).kind == op::add && fused_net::layer(2).geometry.act == fused_act::clamp);
static_assert(fused_net::layer(2).geometry.act_lo == 0.5f && fused_net::layer(2).geometry.act_hi == 1.5f);
static_assert(fused_net::layer(4).kind == op::linear && fused_net::layer(4).geometry.act == fused_act::relu);
static_assert(fused_net::layer(3).geometry.act == fused_act::none);
// same type, counts and parameters as the layer alone
static_assert(string_equal(fused_net::layer(0).type, "Conv2d"));
static_assert(fused_net::layer(0).counts.macs == plain_net::layer(0).counts.macs);
static_assert(fused_net::params == plain_net::params);
static_assert(rt::param_layout_of<fused_net, dtype::int8>.total_bytes <= rt::param_layout_of<plain_net, dtype::int8>.total_bytes);

template <class Net, class T>
std::vector<T> run_net(rt::backend be) {
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<Net, dt>;
  constexpr auto& layout = rt::param_layout_of<Net, dt>;
  alignas(16) static uint8_t arena[plan.arena_bytes];
  alignas(16) static uint8_t blob[layout.total_bytes];
  REQUIRE(rt::fill_params<Net, dt>(blob, sizeof blob, 11));
  rt::fill_input(reinterpret_cast<T*>(arena + plan.offset_of(0)), Net::input_shape.elems(), 5,
                 rt::default_tensor_quant<Net>(0));
  const rt::run_status s = rt::run<Net, T>(arena, sizeof arena, blob, sizeof blob, be);
  REQUIRE(s.ok());
  const T* y = reinterpret_cast<const T*>(arena + plan.offset_of(Net::output_tensor));
  return std::vector<T>(y, y + Net::output_shape.elems());
}

/// The leaf outputs of Net in T (every layer's, for comparing fused and unfused leaf by leaf).
template <class Net, class T>
std::vector<std::vector<T>> layers_of(rt::backend be) {
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<Net, dt>;
  constexpr auto& layout = rt::param_layout_of<Net, dt>;
  alignas(16) static uint8_t arena[plan.arena_bytes];
  alignas(16) static uint8_t blob[layout.total_bytes];
  REQUIRE(rt::fill_params<Net, dt>(blob, sizeof blob, 11));
  rt::fill_input(reinterpret_cast<T*>(arena + plan.offset_of(0)), Net::input_shape.elems(), 5,
                 rt::default_tensor_quant<Net>(0));
  std::vector<std::vector<T>> out(static_cast<size_t>(Net::leaf_count));
  auto record = [](void* user, int32_t leaf, const void* p, size_t bytes) {
    auto& v = (*static_cast<std::vector<std::vector<T>>*>(user))[static_cast<size_t>(leaf)];
    v.assign(static_cast<const T*>(p), static_cast<const T*>(p) + bytes / sizeof(T));
  };
  REQUIRE(rt::run<Net, T>(arena, sizeof arena, blob, sizeof blob, be, +record, &out).ok());
  return out;
}

}  // namespace

TEST_CASE("a fused activation computes what the activation after the layer computes (float32 and int8)") {
  for (rt::backend be : {rt::backend::reference, rt::backend::optimized}) {
    // the seeded parameters are the same: the activations draw none
    const auto ff = layers_of<fused_net, float>(be);
    const auto pf = layers_of<plain_net, float>(be);
    CHECK(ff[0] == pf[1]);  // conv + relu6
    CHECK(ff[1] == pf[3]);  // conv + relu
    CHECK(ff[2] == pf[5]);  // add + clamp
    CHECK(ff[4] == pf[8]);  // linear + relu
    // each clamp bites somewhere: some outputs sit on a bound, none beyond
    auto count = [](const std::vector<float>& v, float x) { return std::count(v.begin(), v.end(), x); };
    CHECK(count(ff[0], 0.0f) > 0);
    CHECK(count(ff[2], 0.5f) > 0);
    CHECK(count(ff[2], 1.5f) > 0);
    CHECK(count(ff[4], 0.0f) > 0);
    for (float v : ff[2]) CHECK((v >= 0.5f && v <= 1.5f));
    // int8 (every tensor 1/32, zero point 0): the clamp in the requantization is the table's clamp
    const auto fq = layers_of<fused_net, int8_t>(be);
    const auto pq = layers_of<plain_net, int8_t>(be);
    CHECK(fq[0] == pq[1]);
    CHECK(fq[1] == pq[3]);
    CHECK(fq[2] == pq[5]);
    CHECK(fq[4] == pq[8]);
    for (int8_t v : fq[2]) CHECK((v >= 16 && v <= 48));
    CHECK(std::count(fq[2].begin(), fq[2].end(), int8_t{16}) > 0);
    CHECK(std::count(fq[2].begin(), fq[2].end(), int8_t{48}) > 0);
  }
  CHECK(run_net<fused_net, int8_t>(rt::backend::reference) == run_net<fused_net, int8_t>(rt::backend::optimized));
}

TEST_CASE("fused_range is TFLite's CalculateActivationRangeQuantized") {
  row r{};
  auto range = [&](fused_act a, float lo, float hi, rt::tensor_quant q) {
    r.geometry.act = a;
    r.geometry.act_lo = lo;
    r.geometry.act_hi = hi;
    return rt::fused_range(r, q);
  };
  const rt::tensor_quant q{0.05f, -10};
  rt::act_range a = range(fused_act::none, 0, 0, q);
  CHECK((a.min == -128 && a.max == 127));
  a = range(fused_act::relu, 0.0f, fused_act_unbounded, q);  // zp + round(0 / s)
  CHECK((a.min == -10 && a.max == 127));
  a = range(fused_act::relu6, 0.0f, 6.0f, q);  // 6 / 0.05 = 120
  CHECK((a.min == -10 && a.max == 110));
  a = range(fused_act::clamp, -1.0f, 2.0f, q);  // -20 and 40
  CHECK((a.min == -30 && a.max == 30));
  a = range(fused_act::relu6, 0.0f, 6.0f, rt::tensor_quant{0.01f, 0});  // 600: saturates
  CHECK((a.min == 0 && a.max == 127));
  a = range(fused_act::clamp, -100.0f, 100.0f, rt::tensor_quant{0.05f, 100});  // both saturate
  CHECK((a.min == -128 && a.max == 127));
  a = range(fused_act::clamp, -std::numeric_limits<float>::infinity(), 1.0f, rt::tensor_quant{0.5f, 3});  // open below
  CHECK((a.min == -128 && a.max == 5));
  a = range(fused_act::clamp, 0.125f, 0.125f, rt::tensor_quant{0.05f, 0});  // 2.5 rounds away from zero
  CHECK((a.min == 3 && a.max == 3));
}

TEST_CASE("quantize of a linear layer: TFLite's per-channel weights, bias and multipliers") {
  using net = network<"Q", features(4), linear<4, 3>>;
  const row& r = net::layer(0);
  const auto& f32l = rt::param_layout_of<net, dtype::float32>;
  const auto& i8l = rt::param_layout_of<net, dtype::int8>;
  alignas(16) uint8_t f32[f32l.total_bytes] = {};
  alignas(16) uint8_t i8[i8l.total_bytes] = {};
  const float w[12] = {0.5f, -0.25f, 0.1f, 0.0f,   // channel 0: max 0.5
                       -2.0f, 1.0f, 0.3f, 0.7f,    // channel 1: max 2
                       0.0f, 0.0f, 0.0f, 0.0f};    // channel 2: all zero
  const float b[3] = {0.2f, -1.0f, 0.0625f};
  std::memcpy(f32 + f32l.leaves[0].w, w, sizeof w);
  std::memcpy(f32 + f32l.leaves[0].b, b, sizeof b);
  float scales[3] = {};
  rt::quantize_call q{&r, f32, &f32l.leaves[0], i8, &i8l.leaves[0], {0.02f, -5}, {0.1f, 3}, scales};
  REQUIRE(op_def<op::linear>::quantize(q) == kernels::status::ok);
  const int8_t* wq = reinterpret_cast<const int8_t*>(i8 + i8l.leaves[0].w);
  const int32_t* bq = reinterpret_cast<const int32_t*>(i8 + i8l.leaves[0].b);
  const int32_t* mult = reinterpret_cast<const int32_t*>(i8 + i8l.leaves[0].mult);
  const int32_t* shift = reinterpret_cast<const int32_t*>(i8 + i8l.leaves[0].shift);
  // scale = max / 127; q = round(w * 127 / max), half away from zero, in [-127, 127]
  CHECK(scales[0] == 0.5f / 127.0f);
  CHECK(scales[1] == 2.0f / 127.0f);
  CHECK(scales[2] == 1.0f);  // a channel of zeros
  // 254 w and 63.5 w: -63.5 -> -64 and 63.5 -> 64 (half away from zero), 25.4 -> 25, 19.05 -> 19, 44.45 -> 44
  const int8_t want_w[12] = {127, -64, 25, 0, -127, 64, 19, 44, 0, 0, 0, 0};
  CHECK(std::memcmp(wq, want_w, sizeof want_w) == 0);
  for (int k = 0; k < 3; ++k) {
    const float bias_scale = 0.02f * scales[k];
    CHECK(bq[k] == static_cast<int32_t>(std::llround(static_cast<double>(b[k]) * (1.0 / static_cast<double>(bias_scale)))));
    const quant::requant m = quant::quantize_multiplier(static_cast<double>(0.02f) * static_cast<double>(scales[k]) /
                                                         static_cast<double>(0.1f));
    CHECK(mult[k] == m.multiplier);
    CHECK(shift[k] == m.shift);
  }
  // a multiplier that cannot be represented is refused
  rt::quantize_call bad = q;
  bad.out_q.scale = 1e30f;
  CHECK(op_def<op::linear>::quantize(bad) == kernels::status::bad_quant_param);
}

TEST_CASE("TFLite's asymmetric int8 quantization of a range") {
  rt::tensor_quant q = host::asymmetric_quant(0.0f, 1.0f);
  CHECK(q.scale == 1.0f / 255.0f);
  CHECK(q.zero_point == -128);
  q = host::asymmetric_quant(-1.0f, 1.0f);  // -128 + 127.5 = -0.5 rounds to -1
  CHECK(q.scale == 2.0f / 255.0f);
  CHECK(q.zero_point == -1);
  q = host::asymmetric_quant(-2.0f, 0.0f);
  CHECK(q.zero_point == 127);
  q = host::asymmetric_quant(0.5f, 3.0f);  // widened to include 0
  CHECK(q.scale == 3.0f / 255.0f);
  CHECK(q.zero_point == -128);
  q = host::asymmetric_quant(-6.0f, -1.0f);
  CHECK(q.scale == 6.0f / 255.0f);
  CHECK(q.zero_point == 127);
}

namespace {

/// A run-time graph of nodes, its float32 blob filled from a seed, and names.
struct test_graph {
  host::graph_rows rows;
  host::graph_param_layout layout;
  std::unique_ptr<host::aligned_bytes> blob;
  host::graph_names names;
  test_graph(shape in, const std::vector<host::graph_node>& nodes, uint64_t seed) {
    rows = host::build_rows("T", in, nodes);
    REQUIRE(rows.first_fault.report.ok());
    layout = host::param_layout(rows, dtype::float32);
    blob = std::make_unique<host::aligned_bytes>(static_cast<size_t>(layout.total_bytes));
    rt::splitmix64 g{seed};
    for (size_t i = 0; i < layout.leaves.size(); ++i) {
      const rt::leaf_param_layout& l = layout.leaves[i];
      float* w = reinterpret_cast<float*>(blob->data + l.w);
      for (uint64_t k = 0; k < l.w_bytes / 4; ++k) w[k] = g.uniform(-0.5f, 0.5f);
      float* b = reinterpret_cast<float*>(blob->data + l.b);
      for (uint64_t k = 0; k < l.b_bytes / 4; ++k) b[k] = g.uniform(-0.1f, 0.1f);
    }
    names.tensors.push_back("input");
    for (const host::graph_node& n : nodes) {
      names.tensors.push_back(n.name + ".out");
      names.leaves.push_back(n.name);
    }
  }
};

host::graph_node node_of(op k, layer_geometry g, std::vector<int32_t> in, std::string name) {
  return host::graph_node{k, g, std::move(in), std::move(name)};
}

std::vector<float> samples(int64_t n, int64_t elems, uint64_t seed) {
  rt::splitmix64 g{seed};
  std::vector<float> x(static_cast<size_t>(n * elems));
  for (float& v : x) v = g.uniform(-1.0f, 1.0f);
  return x;
}

}  // namespace

TEST_CASE("calibration: groups, the three rules, and the int8 graph's SQNR") {
  layer_geometry conv = conv2d<2, 4, 3, 1, 1>::geometry();
  conv.act = fused_act::relu;
  conv.act_lo = 0.0f;
  conv.act_hi = fused_act_unbounded;
  const std::vector<host::graph_node> nodes = {
      node_of(op::conv2d, conv, {0}, "conv"),
      node_of(op::max_pool2d, max_pool2d<2>::geometry(), {1}, "pool"),
      node_of(op::flatten, {}, {2}, "flat"),
      node_of(op::linear, linear<64, 6>::geometry(), {3}, "fc"),
      node_of(op::sigmoid, {}, {4}, "sig")};
  test_graph t(shape{2, 8, 8}, nodes, 3);
  const int64_t n = 40, elems = 2 * 64;
  const std::vector<float> x = samples(n, elems, 9);
  // the tensors that share a quantization: conv, pool, flatten; the sigmoid's is fixed
  const host::tensor_groups groups = host::group_tensors(t.rows, t.names);
  CHECK(groups.of[1] == groups.of[2]);
  CHECK(groups.of[2] == groups.of[3]);
  CHECK(groups.of[0] != groups.of[1]);
  CHECK(groups.rule[static_cast<size_t>(groups.of[5])] == rt::quant_rule::unit_interval);

  const host::calibration mm = host::calibrate(t.rows, t.blob->data, t.layout, x.data(), n, host::calibration_rule::minmax, t.names);
  // the observed ranges, recomputed
  host::graph_runner<float> run(t.rows, t.blob->data, t.layout);
  std::vector<float> lo(6, 1e30f), hi(6, -1e30f);
  for (int64_t s = 0; s < n; ++s) {
    REQUIRE(run.run(x.data() + s * elems, rt::backend::reference).ok());
    for (int32_t k = 0; k < 6; ++k)
      for (int64_t i = 0; i < run.elems(k); ++i) {
        lo[size_t(k)] = std::min(lo[size_t(k)], run.tensor(k)[i]);
        hi[size_t(k)] = std::max(hi[size_t(k)], run.tensor(k)[i]);
      }
  }
  for (int32_t k = 0; k < 6; ++k) {
    CHECK(mm.min[size_t(k)] == doctest::Approx(lo[size_t(k)]).epsilon(1e-5));
    CHECK(mm.max[size_t(k)] == doctest::Approx(hi[size_t(k)]).epsilon(1e-5));
  }
  CHECK(mm.lo[1] == 0.0f);  // after a fused ReLU
  CHECK(mm.hi[1] == mm.max[1]);  // the group's range: conv's max is also pool's
  CHECK(mm.quant[1].scale == mm.quant[3].scale);
  CHECK(mm.quant[0].scale == host::asymmetric_quant(mm.min[0], mm.max[0]).scale);
  CHECK(mm.quant[5].scale == 1.0f / 256.0f);
  CHECK(mm.quant[5].zero_point == -128);
  for (host::calibration_rule rule : {host::calibration_rule::percentile, host::calibration_rule::mse}) {
    const host::calibration c = host::calibrate(t.rows, t.blob->data, t.layout, x.data(), n, rule, t.names);
    for (size_t k = 0; k < 5; ++k) {  // inside the observed range, not empty
      CHECK(c.lo[k] >= mm.lo[k] - 1e-6f);
      CHECK(c.hi[k] <= mm.hi[k] + 1e-6f);
      CHECK(c.hi[k] > c.lo[k]);
      CHECK(c.hi[k] > 0.5f * mm.hi[k]);
    }
  }
  // the int8 graph against the float one
  const host::quantized_model q = host::quantize_params(t.rows, t.blob->data, t.layout, mm.quant, t.names);
  CHECK(q.weight_scales[0].size() == 4);
  CHECK(q.weight_scales[1].empty());
  const std::vector<host::layer_sqnr> s =
      host::measure_sqnr(t.rows, t.blob->data, t.layout, q.blob->data, q.layout, x.data(), n, t.names);
  REQUIRE(s.size() == 5);
  for (const host::layer_sqnr& l : s) CHECK(l.db() > 25.0);
  CHECK(s[1].db() >= s[0].db() - 1e-9);  // max pooling adds no error of its own
  const std::string svg = host::sqnr_svg(t.rows, t.names, s, "test");
  CHECK(svg.find("worst layer: ") != std::string::npos);
  // both backends give the same int8 outputs
  host::graph_runner<int8_t> qr(t.rows, q.blob->data, q.layout), qo(t.rows, q.blob->data, q.layout);
  std::vector<int8_t> xq(static_cast<size_t>(elems));
  for (int64_t i = 0; i < elems; ++i) xq[size_t(i)] = quant::quantize<int8_t>(x[size_t(i)], mm.quant[0].scale, mm.quant[0].zero_point);
  REQUIRE(qr.run(xq.data(), rt::backend::reference).ok());
  REQUIRE(qo.run(xq.data(), rt::backend::optimized).ok());
  for (int32_t k = 1; k < 6; ++k) CHECK(std::memcmp(qr.tensor(k), qo.tensor(k), size_t(qr.elems(k))) == 0);
}

TEST_CASE("the histogram rules: percentile clips an outlier, mse minimizes the quantization error") {
  // a million values spread over [0, 0.98) and one at 100: min/max spends the 256 levels on [0, 100]
  std::vector<double> hist(2048, 0.0);
  const double base = 0.0, w = 100.0 / 2048;
  for (size_t i = 0; i < 20; ++i) hist[i] = 50000;
  hist[2047] = 1;
  // the expected squared error of quantizing the histogram (values at bin centres) over [0, hi],
  // value by value: clipped ones by their distance, the others by step^2 / 12
  auto error = [&](const std::vector<double>& h, double top) {
    const double step = top / 255.0;
    double e = 0;
    for (size_t i = 0; i < h.size(); ++i) {
      const double x = base + w * (double(i) + 0.5);
      e += h[i] * (x > top ? (x - top) * (x - top) : step * step / 12.0);
    }
    return e;
  };
  float lo = 0, hi = 100;
  host::detail::percentile_range(hist, base, w, lo, hi);
  CHECK(lo < w);
  CHECK(hi > 0.9f);
  CHECK(hi < 1.0f);
  const float p_hi = hi;
  host::detail::mse_range(hist, base, w, lo, hi);
  CHECK(lo == 0.0f);
  CHECK(hi > 1.0f);   // the outlier costs 99^2 clipped to 1; keeping it, 10^6 x (100 / 255)^2 / 12
  CHECK(hi < 99.0f);  // so the optimum lies between
  const double best = error(hist, hi);
  CHECK(best < error(hist, 100.0));
  CHECK(best < error(hist, p_hi));
  for (size_t k = 1; k <= 2048; ++k) CHECK(best <= error(hist, w * double(k)) * (1 + 1e-12));
  // one outlier among 10,000: its clipping error outweighs the rounding error of keeping it
  std::vector<double> few(2048, 0.0);
  for (size_t i = 0; i < 20; ++i) few[i] = 500;
  few[2047] = 1;
  host::detail::mse_range(few, base, w, lo, hi);
  CHECK(hi > 95.0f);
}

TEST_CASE("the quantizer refuses: a zero range, a value that is not finite, an op with no int8 form") {
  // a convolution whose weights and bias are 0: its output is 0 on every sample
  {
    test_graph t(shape{1, 4, 4}, {node_of(op::conv2d, conv2d<1, 2, 3, 1, 1>::geometry(), {0}, "dead"),
                                  node_of(op::flatten, {}, {1}, "flat")},
                 1);
    std::memset(t.blob->data, 0, t.blob->size);
    const std::vector<float> x = samples(4, 16, 2);
    try {
      (void)host::calibrate(t.rows, t.blob->data, t.layout, x.data(), 4, host::calibration_rule::minmax, t.names);
      FAIL("no error");
    } catch (const host::quantize_error& e) {
      CHECK(std::string(e.what()) ==
            "tensor 'dead.out' (the output of node 'dead', Conv2d): its calibrated range is zero: every value on the 4 "
            "calibration samples is 0, so it has no int8 scale");
    }
  }
  // NaN in the input
  {
    test_graph t(shape{1, 4, 4}, {node_of(op::conv2d, conv2d<1, 2, 3, 1, 1>::geometry(), {0}, "c")}, 1);
    std::vector<float> x = samples(3, 16, 2);
    x[16 + 5] = std::numeric_limits<float>::quiet_NaN();
    try {
      (void)host::calibrate(t.rows, t.blob->data, t.layout, x.data(), 3, host::calibration_rule::minmax, t.names);
      FAIL("no error");
    } catch (const host::quantize_error& e) {
      CHECK(std::string(e.what()) ==
            "tensor 'input' (the network input): element 5 is NaN on calibration sample 1 (int8 needs finite values)");
    }
  }
  // layer_norm2d keeps float parameters in int8: no int8 form
  {
    layer_geometry ln = layer_norm2d<2>::geometry();
    test_graph t(shape{2, 4, 4}, {node_of(op::layer_norm2d, ln, {0}, "ln")}, 1);
    const std::vector<float> x = samples(3, 32, 2);
    const host::calibration c =
        host::calibrate(t.rows, t.blob->data, t.layout, x.data(), 3, host::calibration_rule::minmax, t.names);
    try {
      (void)host::quantize_params(t.rows, t.blob->data, t.layout, c.quant, t.names);
      FAIL("no error");
    } catch (const host::quantize_error& e) {
      CHECK(std::string(e.what()).rfind("node 'ln' (LayerNorm2d): the op has no int8 form", 0) == 0);
    }
  }
}

// ---- TFLite's special int8 kernels: fixed-point softmax and hard swish, lookup tables ----------

static_assert(quant::fixed::exp_on_negative_values<5>(0) == quant::int32_max);  // exp(0) = 1
static_assert(quant::fixed::rescale<12, 0>(quant::int32_max) == (1 << 19));     // 1.0 in Q12.19

TEST_CASE("gemmlowp's fixed point: exp of negative values and the reciprocal") {
  for (int i = 0; i <= 1000; ++i) {  // exp(a) for a in [-31, 0] in Q5.26, within 3e-7 of exp (measured 2.0e-7)
    const double a = -31.0 * i / 1000.0;
    const auto raw = static_cast<int32_t>(std::llround(a * double(1 << 26)));
    const double got = quant::fixed::exp_on_negative_values<5>(raw) / 2147483648.0;
    CHECK(std::fabs(got - std::exp(raw / double(1 << 26))) < 3e-7);
  }
  for (int i = 1; i <= 1000; ++i) {  // 1 / x for x in (0, 16) in Q12.19
    const auto raw = static_cast<int32_t>(i * 8191);
    int bits = 0;
    const double got = quant::fixed::reciprocal(raw, 12, bits) / 2147483648.0 / std::ldexp(1.0, bits);
    CHECK(std::fabs(got * (raw / double(1 << 19)) - 1.0) < 1e-8);
  }
}

TEST_CASE("int8 softmax: TFLite's fixed point, the table kernel equals the reference, output 1/256 and -128") {
  rt::splitmix64 g{21};
  int worst = 0;
  for (int it = 0; it < 200; ++it) {
    const int rows = g.range(1, 40), cols = g.range(1, 70);
    const float scale = g.uniform(0.005f, 0.4f);
    std::vector<int8_t> x(size_t(rows * cols)), yr(x.size()), yo(x.size());
    for (int8_t& v : x) v = static_cast<int8_t>(g.range(-128, 127));
    REQUIRE(ref::softmax_s8(rows, cols, x.data(), yr.data(), scale, 3) == kernels::status::ok);
    REQUIRE(kernels::softmax_s8(rows, cols, x.data(), yo.data(), scale, 3) == kernels::status::ok);
    CHECK(yo == yr);  // rows x cols >= 256: the table path, below: the reference
    for (int r = 0; r < rows; ++r) {  // against round(softmax * 256) - 128 in double
      double mx = -1e9, sum = 0;
      for (int c = 0; c < cols; ++c) mx = std::max(mx, double(x[size_t(r * cols + c)]));
      for (int c = 0; c < cols; ++c) sum += std::exp(double(scale) * (x[size_t(r * cols + c)] - mx));
      for (int c = 0; c < cols; ++c) {
        const double p = std::exp(double(scale) * (x[size_t(r * cols + c)] - mx)) / sum;
        const int want = std::clamp(int(std::lround(p * 256.0)) - 128, -128, 127);
        worst = std::max(worst, std::abs(want - yr[size_t(r * cols + c)]));
      }
    }
  }
  CHECK(worst <= 1);
  ref::softmax_s8_params p{};
  CHECK(ref::make_softmax_s8_params(p, 0.0f) == kernels::status::bad_quant_param);
  CHECK(ref::make_softmax_s8_params(p, 1e-9f) == kernels::status::bad_quant_param);  // below 2^-26
  REQUIRE(ref::make_softmax_s8_params(p, 0.1f) == kernels::status::ok);
  CHECK(p.left_shift == 23);                              // 0.1 * 2^26 = 6710886.4 = 0.8 * 2^23
  CHECK(p.diff_min == -static_cast<int32_t>((int64_t{31} << 26) >> 23));  // -248: exp(-24.8) is 0 at 8 bits
}

TEST_CASE("int8 hard swish: TFLite's 16-bit fixed point, within one step of x relu6(x + 3) / 6") {
  rt::splitmix64 g{5};
  int worst = 0;
  for (int it = 0; it < 300; ++it) {
    const float in_s = g.uniform(0.01f, 0.2f), out_s = g.uniform(0.01f, 0.2f);
    const int32_t in_zp = g.range(-128, 127), out_zp = g.range(-128, 127);
    ref::hardswish_s8_params p{};
    if (ref::make_hardswish_s8_params(p, in_s, in_zp, out_s, out_zp) != kernels::status::ok) continue;  // output multiplier > 1
    for (int v = -128; v < 128; ++v) {
      const double x = double(in_s) * (v - in_zp);
      const double y = x * std::clamp(x + 3.0, 0.0, 6.0) / 6.0;
      const int want = std::clamp(int(std::lround(y / out_s)) + out_zp, -128, 127);
      worst = std::max(worst, std::abs(want - ref::hardswish_s8_one(static_cast<int8_t>(v), p)));
    }
  }
  CHECK(worst <= 1);
  ref::hardswish_s8_params p{};
  CHECK(ref::make_hardswish_s8_params(p, 0.05f, 0, 0.0f, 0) == kernels::status::bad_quant_param);
  CHECK(ref::make_hardswish_s8_params(p, 0.05f, 200, 0.05f, 0) == kernels::status::bad_quant_param);
  CHECK(ref::make_hardswish_s8_params(p, 1.0f, 0, 0.001f, 0) == kernels::status::bad_quant_param);  // multiplier > 1
}

TEST_CASE("sigmoid and tanh: the int8 lookup table an import writes is TFLite's LUTPopulate in double") {
  using net = network<"Lut", shape{2, 3, 3}, sigmoid, conv2d<2, 2, 1>, tanh_activation>;
  static_assert(rt::param_layout_of<net, dtype::int8>.leaves[0].w_bytes == 256);
  static_assert(rt::param_layout_of<net, dtype::float32>.leaves[0].w_bytes == 0);
  const auto& i8l = rt::param_layout_of<net, dtype::int8>;
  alignas(16) uint8_t blob[i8l.total_bytes] = {};
  for (const rt::tensor_quant in : {rt::tensor_quant{0.05f, -3}, rt::tensor_quant{0.2f, 40}, rt::tensor_quant{0.01f, -128}}) {
    for (int leaf : {0, 2}) {
      const bool sig = leaf == 0;
      const rt::tensor_quant out = sig ? rt::tensor_quant{1.0f / 256.0f, -128} : rt::tensor_quant{1.0f / 128.0f, 0};
      rt::quantize_call q{&net::layer(leaf), nullptr, nullptr, blob, &i8l.leaves[size_t(leaf)], in, out, nullptr};
      REQUIRE((sig ? op_def<op::sigmoid>::quantize(q) : op_def<op::tanh>::quantize(q)) == kernels::status::ok);
      const int8_t* table = reinterpret_cast<const int8_t*>(blob + i8l.leaves[size_t(leaf)].w);
      for (int v = -128; v < 128; ++v) {
        const double x = double(in.scale) * (v - in.zero_point);
        const double f = sig ? 1.0 / (1.0 + std::exp(-x)) : std::tanh(x);
        const double r = f / double(out.scale);
        const double rounded = r >= 0 ? std::floor(r + 0.5) : std::ceil(r - 0.5);
        CHECK(table[v + 128] == std::clamp(int(rounded) + out.zero_point, -128, 127));
      }
    }
  }
  // the kernels read the table: both backends give table[x + 128]
  alignas(16) uint8_t seeded[i8l.total_bytes];
  REQUIRE(rt::fill_params<net, dtype::int8>(seeded, sizeof seeded, 3));
  const int8_t* t0 = reinterpret_cast<const int8_t*>(seeded + i8l.leaves[0].w);
  const rt::tensor_quant q0 = rt::default_tensor_quant<net>(0), q1 = rt::default_tensor_quant<net>(1);
  for (int v = -128; v < 128; ++v)  // the seeded table is the float32 function's (ref::unary_s8_one)
    CHECK(t0[v + 128] == ref::activation_s8_one(ref::activation::sigmoid, int8_t(v),
                                                ref::act_s8_params{q0.scale, q0.zero_point, q1.scale, q1.zero_point}));
  for (rt::backend be : {rt::backend::reference, rt::backend::optimized}) {
    constexpr auto& plan = memory::plan_of<net, dtype::int8>;
    alignas(16) static uint8_t arena[plan.arena_bytes];
    auto* x = reinterpret_cast<int8_t*>(arena + plan.offset_of(0));
    for (int i = 0; i < 18; ++i) x[i] = static_cast<int8_t>(i * 14 - 128);
    std::vector<std::vector<int8_t>> outs(3);
    auto record = [](void* user, int32_t leaf, const void* p, size_t bytes) {
      auto& v = (*static_cast<std::vector<std::vector<int8_t>>*>(user))[size_t(leaf)];
      v.assign(static_cast<const int8_t*>(p), static_cast<const int8_t*>(p) + bytes);
    };
    std::vector<int8_t> in0(x, x + 18);
    REQUIRE(rt::run<net, int8_t>(arena, sizeof arena, seeded, sizeof seeded, be, +record, &outs).ok());
    for (int i = 0; i < 18; ++i) CHECK(outs[0][size_t(i)] == t0[in0[size_t(i)] + 128]);
  }
}
