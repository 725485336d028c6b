// Layer kernels: references on hand-computed (PyTorch / TFLite semantics) values, and the
// optimized kernels against the references over sweeps of every padding / stride / dilation /
// groups / ceil_mode combination (int8 bit-exact, float within a stated tolerance).
#include <doctest/doctest.h>

#include <algorithm>
#include <utility>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/nn/layers.hpp"
#include "test_kernels_rng.hpp"

using ctnn::kernels::conv_geometry;
using ctnn::kernels::pool_geometry;
using ctnn::kernels::status;
namespace kr = ctnn::ref;
namespace kk = ctnn::kernels;

namespace {
std::vector<float> iota_f(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = float(i + 1);
  return v;
}
size_t usz(int64_t v) { return static_cast<size_t>(v); }
}  // namespace

TEST_CASE("ref conv2d_f32: hand-computed padding, stride, dilation, groups") {
  const auto in = iota_f(9);  // 1x3x3: 1..9
  const std::vector<float> ones(4, 1.0f);
  std::vector<float> out(4);
  conv_geometry g{1, 3, 3, 1, 2, 2};
  REQUIRE(kr::conv2d_f32(g, in.data(), ones.data(), nullptr, out.data()) == status::ok);
  CHECK(out == std::vector<float>{12, 16, 24, 28});
  g.sh = g.sw = 2;
  g.pt = g.pb = g.pl = g.pr = 1;
  REQUIRE(g.out_h() == 2);
  REQUIRE(kr::conv2d_f32(g, in.data(), ones.data(), nullptr, out.data()) == status::ok);
  CHECK(out == std::vector<float>{1, 5, 11, 28});
  conv_geometry d{1, 3, 3, 1, 2, 2};
  d.dh = d.dw = 2;  // taps (0,0) (0,2) (2,0) (2,2)
  const float bias = 0.5f;
  REQUIRE(d.out_h() == 1);
  REQUIRE(kr::conv2d_f32(d, in.data(), ones.data(), &bias, out.data()) == status::ok);
  CHECK(out[0] == 20.5f);
  // asymmetric padding: top 1, left 0, bottom 0, right 1 -> out 3x3 for a 2x2 kernel
  conv_geometry a{1, 3, 3, 1, 2, 2, 1, 1, 1, 0, 0, 1};
  REQUIRE(a.out_h() == 3);
  REQUIRE(a.out_w() == 3);
  std::vector<float> o9(9);
  REQUIRE(kr::conv2d_f32(a, in.data(), ones.data(), nullptr, o9.data()) == status::ok);
  CHECK(o9 == std::vector<float>{3, 5, 3, 12, 16, 9, 24, 28, 15});
  // groups = 2: each output channel sees only its own input channel
  conv_geometry gg{2, 1, 2, 2, 1, 1};
  gg.groups = 2;
  const float gin[4] = {1, 2, 10, 20}, gw[2] = {3, 5};
  float gout[4];
  REQUIRE(kr::conv2d_f32(gg, gin, gw, nullptr, gout) == status::ok);
  CHECK(gout[0] == 3);
  CHECK(gout[1] == 6);
  CHECK(gout[2] == 50);
  CHECK(gout[3] == 100);
  // invalid geometry: channels not divisible by groups
  gg.in_c = 3;
  CHECK(kr::conv2d_f32(gg, gin, gw, nullptr, gout) == status::bad_geometry);
}

TEST_CASE("conv_scratch_elems: whole output rows of one group's patches, the convolution's scratch request") {
  constexpr conv_geometry r50_conv1{3, 224, 224, 64, 7, 7, 2, 2, 3, 3, 3, 3};
  static_assert(r50_conv1.out_h() == 112 && r50_conv1.out_w() == 112);
  static_assert(kk::conv_scratch_elems(r50_conv1, 112) == 3 * 7 * 7 * 112 * 112);
  static_assert(kk::conv_scratch_elems(r50_conv1, 3) == 3 * 7 * 7 * 3 * 112);  // a panel of 3 rows
  static_assert(kk::conv_scratch_elems(r50_conv1, 0) == 0);                    // direct kernel
  static_assert(kk::conv_panel_row_elems(r50_conv1) == 3 * 7 * 7 * 112);
  static_assert(kk::conv_max_panel_rows(r50_conv1) == 3);  // ceil(256 / 112) rows
  // the row of that layer asks the planner for exactly these units
  using conv1 = ctnn::conv2d<3, 64, 7, 2, 3>;
  using net = ctnn::network<"c1", ctnn::shape{3, 224, 224}, conv1>;
  static_assert(net::layer(0).scratch.unit_elems == kk::conv_panel_row_elems(r50_conv1));
  static_assert(net::layer(0).scratch.max_units == kk::conv_max_panel_rows(r50_conv1));
  static_assert(net::layer(0).scratch.elems(3) == kk::conv_scratch_elems(r50_conv1, 3));
  constexpr conv_geometry pw{256, 56, 56, 64, 1, 1};
  static_assert(kk::conv_scratch_elems(pw, 4) == 0);  // pointwise: the input is used in place
  constexpr conv_geometry grouped{32, 8, 8, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4};
  static_assert(kk::conv_scratch_elems(grouped, 8) == 8 * 9 * 64);  // one group at a time
  constexpr conv_geometry dw_mult2{32, 8, 8, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 32};
  static_assert(dw_mult2.depthwise() && kk::conv_scratch_elems(dw_mult2, 8) == 0);  // direct, any multiplier
  CHECK(kk::conv_scratch_elems(conv_geometry{3, 2, 2, 1, 5, 5}, 1) == 0);  // invalid: empty output
}

TEST_CASE("ref pooling: PyTorch output sizes, ceil_mode, count_include_pad, adaptive windows") {
  const auto in16 = iota_f(16);
  std::vector<float> out(4);
  pool_geometry m{1, 4, 4, 2, 2, 2, 2};
  REQUIRE(kr::max_pool2d<float>(m, in16.data(), out.data()) == status::ok);
  CHECK(out == std::vector<float>{6, 8, 14, 16});
  pool_geometry c{1, 3, 3, 2, 2, 2, 2};
  CHECK(c.out_h() == 1);
  c.ceil_mode = true;
  CHECK(c.out_h() == 2);
  const auto in9 = iota_f(9);
  REQUIRE(kr::max_pool2d<float>(c, in9.data(), out.data()) == status::ok);
  CHECK(out == std::vector<float>{5, 6, 8, 9});
  // avg_pool2d(ones(3,3), 3, stride 2, padding 1, ceil_mode=True): every window has 4 ones
  const std::vector<float> ones(9, 1.0f);
  pool_geometry a{1, 3, 3, 3, 3, 2, 2, 1, 1, 1, 1, true, true};
  REQUIRE(a.out_h() == 2);
  REQUIRE(kr::avg_pool2d_f32(a, ones.data(), out.data()) == status::ok);
  for (float v : out) CHECK(v == doctest::Approx(4.0f / 9.0f));
  a.count_include_pad = false;
  REQUIRE(kr::avg_pool2d_f32(a, ones.data(), out.data()) == status::ok);
  for (float v : out) CHECK(v == 1.0f);
  // ceil_mode window that starts in the right padding is dropped (PyTorch rule)
  CHECK(ctnn::window_out_extent(5, 1, 1, 2, 2, 1, true) == 3);  // the 4th window would start in padding
  CHECK(ctnn::window_out_extent(4, 1, 1, 2, 2, 1, true) == 3);
  CHECK(ctnn::window_out_extent(6, 0, 0, 3, 2, 1, true) == 3);
  CHECK(ctnn::window_out_extent(6, 0, 0, 3, 2, 1, false) == 2);
  // ceil-mode overhang beyond the padding is not counted even with count_include_pad:
  // avg_pool2d(ones(1,3), (1,2), stride 2, ceil_mode=True) = [1, 1]
  pool_geometry o{1, 1, 3, 1, 2, 1, 2, 0, 0, 0, 0, true, true};
  REQUIRE(o.out_w() == 2);
  REQUIRE(kr::avg_pool2d_f32(o, ones.data(), out.data()) == status::ok);
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == 1.0f);
  // adaptive: 5 -> 3 windows [0,2) [1,4) [3,5)
  const float row[5] = {1, 2, 3, 4, 5};
  float ad[3];
  REQUIRE(kr::adaptive_avg_pool2d<float>(1, 1, 5, 1, 3, row, ad) == status::ok);
  CHECK(ad[0] == 1.5f);
  CHECK(ad[1] == 3.0f);
  CHECK(ad[2] == 4.5f);
  float gap;
  REQUIRE(kr::global_avg_pool2d<float>(1, 1, 5, row, &gap) == status::ok);
  CHECK(gap == 3.0f);
  // int8 averages round half away from zero on the raw values (TFLite)
  const int8_t neg[2] = {-1, -2}, pos[2] = {1, 2};
  int8_t q;
  REQUIRE(kr::global_avg_pool2d<int8_t>(1, 1, 2, neg, &q) == status::ok);
  CHECK(q == -2);
  REQUIRE(kr::global_avg_pool2d<int8_t>(1, 1, 2, pos, &q) == status::ok);
  CHECK(q == 2);
}

TEST_CASE("ref softmax, batchnorm, shuffle, pad, concat, activations: hand values") {
  const float x[3] = {1, 2, 3};
  float y[3];
  REQUIRE(kr::softmax_f32(1, 3, x, y) == status::ok);
  CHECK(y[0] == doctest::Approx(0.09003057f));
  CHECK(y[1] == doctest::Approx(0.24472847f));
  CHECK(y[2] == doctest::Approx(0.66524096f));
  const float mean = 1, var = 3, gamma = 2, beta = 0.5f;
  REQUIRE(kr::batchnorm2d_f32(1, 3, x, &mean, &var, &gamma, &beta, 1.0f, y) == status::ok);
  CHECK(y[0] == doctest::Approx(0.5f));
  CHECK(y[1] == doctest::Approx(1.5f));
  CHECK(y[2] == doctest::Approx(2.5f));
  const int ch[6] = {0, 1, 2, 3, 4, 5};
  int sh[6];
  REQUIRE(kr::channel_shuffle<int>(6, 1, 2, ch, sh) == status::ok);
  CHECK(std::vector<int>(sh, sh + 6) == std::vector<int>{0, 3, 1, 4, 2, 5});
  const int8_t p_in[2] = {7, 8};
  int8_t p_out[12];
  REQUIRE(kr::zero_pad2d<int8_t>(1, 1, 2, 1, 0, 0, 2, p_in, p_out, int8_t{-3}) == status::ok);
  CHECK(std::vector<int8_t>(p_out, p_out + 8) == std::vector<int8_t>{-3, -3, -3, -3, 7, 8, -3, -3});
  const float c0[2] = {1, 2}, c1[4] = {3, 4, 5, 6};
  const float* ins[2] = {c0, c1};
  const int64_t chans[2] = {1, 2};
  float cat[6], cat2[6];
  REQUIRE(kr::concat_channels<float>(2, ins, chans, 2, cat) == status::ok);
  REQUIRE(kk::concat_channels<float>(2, ins, chans, 2, cat2) == status::ok);
  for (int i = 0; i < 6; ++i) {
    CHECK(cat[i] == float(i + 1));
    CHECK(cat2[i] == cat[i]);
  }
  CHECK(kr::apply(kr::activation::relu6, 7.5f) == 6.0f);
  CHECK(kr::apply(kr::activation::relu, -1.0f) == 0.0f);
  CHECK(kr::apply(kr::activation::sigmoid, 0.0f) == 0.5f);
  CHECK(kr::apply(kr::activation::tanh, 0.5f) == doctest::Approx(0.46211716f));
  CHECK(kr::apply(kr::activation::silu, 1.0f) == doctest::Approx(0.7310586f));
  CHECK(kr::apply(kr::activation::hardswish, -1.0f) == doctest::Approx(-1.0f / 3.0f));
  CHECK(kr::apply(kr::activation::hardsigmoid, 0.0f) == 0.5f);
  CHECK(kr::apply(kr::activation::hardsigmoid, 4.0f) == 1.0f);
  // GELU: PyTorch gelu(x) (exact) and gelu(x, approximate="tanh") at 1 and -0.5
  CHECK(kr::apply(kr::activation::gelu, 1.0f) == doctest::Approx(0.8413447f).epsilon(1e-6));
  CHECK(kr::apply(kr::activation::gelu, -0.5f) == doctest::Approx(-0.1542688f).epsilon(1e-6));
  CHECK(kr::apply(kr::activation::gelu_tanh, 1.0f) == doctest::Approx(0.8411920f).epsilon(1e-5));
  CHECK(kr::apply(kr::activation::gelu_tanh, -0.5f) == doctest::Approx(-0.1542859f).epsilon(1e-5));
}

TEST_CASE("int8 elementwise: add / mul / batchnorm / softmax / activations against float") {
  ctnn_test::rng r(51);
  for (int it = 0; it < 200; ++it) {
    const double sa = r.real(0.01f, 0.1f), sb = r.real(0.01f, 0.1f), so = r.real(0.02f, 0.2f);
    const int32_t za = r.range(-50, 50), zb = r.range(-50, 50), zo = r.range(-50, 50);
    kr::add_s8_params ap{};
    kr::mul_s8_params mp{};
    REQUIRE(kr::make_add_s8_params(ap, sa, za, sb, zb, so, zo) == status::ok);
    REQUIRE(kr::make_mul_s8_params(mp, sa, za, sb, zb, so * 5, zo) == status::ok);
    const auto a = r.s8(64), b = r.s8(64);
    std::vector<int8_t> ya(64), ym(64);
    REQUIRE(kr::add_s8(64, a.data(), b.data(), ya.data(), ap) == status::ok);
    REQUIRE(kr::mul_s8(64, a.data(), b.data(), ym.data(), mp) == status::ok);
    for (size_t i = 0; i < 64; ++i) {
      const double ra = sa * (a[i] - za), rb = sb * (b[i] - zb);
      const double wa = std::clamp(std::round((ra + rb) / so) + zo, -128.0, 127.0);
      const double wm = std::clamp(std::round(ra * rb / (so * 5)) + zo, -128.0, 127.0);
      REQUIRE(std::fabs(ya[i] - wa) <= 1.0);
      REQUIRE(std::fabs(ym[i] - wm) <= 1.0);
    }
  }
  // batchnorm int8 (folded): y = requant((x - zp) * s + b)
  const int8_t x[4] = {-128, -1, 0, 127}, s = 64;
  const int32_t bias = 1000;
  const auto rq = ctnn::quant::quantize_multiplier(0.01);
  const kr::gemm_s8_params p{-1, 0, 3, &rq.multiplier, &rq.shift, false, -128, 127};
  int8_t y[4];
  REQUIRE(kr::batchnorm2d_s8(1, 4, x, &s, &bias, y, p) == status::ok);
  for (int i = 0; i < 4; ++i) CHECK(std::fabs(y[i] - std::clamp(std::round(((x[i] + 1) * 64 + 1000) * 0.01) + 3, -128.0, 127.0)) <= 1.0);
  // every int8 activation: table kernel == reference on all 256 inputs; reference == float within 1
  for (auto act : {kr::activation::relu, kr::activation::relu6, kr::activation::sigmoid, kr::activation::silu,
                   kr::activation::hardswish, kr::activation::tanh, kr::activation::hardsigmoid,
                   kr::activation::gelu, kr::activation::gelu_tanh, kr::activation::identity}) {
    for (int it = 0; it < 20; ++it) {
      const kr::act_s8_params ap{r.real(0.01f, 0.1f), r.range(-128, 127), r.real(0.005f, 0.05f), r.range(-128, 127)};
      std::vector<int8_t> all(256), yr(256), yo(256);
      for (int i = 0; i < 256; ++i) all[size_t(i)] = static_cast<int8_t>(i - 128);
      REQUIRE(kr::activation_s8(act, 256, all.data(), yr.data(), ap) == status::ok);
      const auto table = kk::make_activation_table(act, ap);
      REQUIRE(kk::activation_s8(table, 256, all.data(), yo.data()) == status::ok);
      REQUIRE(yo == yr);
      for (int i = 0; i < 256; ++i) {
        const double real = ap.in_scale * double(all[size_t(i)] - ap.in_zp);
        const double want = std::clamp(std::round(double(kr::apply(act, float(real))) / ap.out_scale) + ap.out_zp, -128.0, 127.0);
        REQUIRE(std::fabs(yr[size_t(i)] - want) <= 1.0);
      }
    }
  }
  // softmax int8: table kernel bit-exact with the reference; reference within 1 of float
  for (int it = 0; it < 300; ++it) {
    const int rows = r.range(1, 4), cols = r.range(1, 40);
    const float sc = r.real(0.01f, 0.3f);
    const int32_t zp = r.range(-128, 127);
    const auto xs = r.s8(size_t(rows * cols));
    std::vector<int8_t> yr(xs.size()), yo(xs.size());
    REQUIRE(kr::softmax_s8(rows, cols, xs.data(), yr.data(), sc, zp) == status::ok);
    REQUIRE(kk::softmax_s8(rows, cols, xs.data(), yo.data(), sc, zp) == status::ok);
    REQUIRE(yo == yr);
    std::vector<float> xf(xs.size()), yf(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) xf[i] = sc * float(xs[i] - zp);
    REQUIRE(kr::softmax_f32(rows, cols, xf.data(), yf.data()) == status::ok);
    for (size_t i = 0; i < xs.size(); ++i) REQUIRE(std::fabs(yr[i] - std::clamp(std::round(yf[i] * 256.0) - 128.0, -128.0, 127.0)) <= 1.0);
  }
}

namespace {

struct conv_case_result {
  int cases = 0;
};

void check_conv(const conv_geometry& g, ctnn_test::rng& r, bool use_bias, conv_case_result& res) {
  REQUIRE(g.valid());
  const auto in_f = r.f32(usz(g.in_elems())), w_f = r.f32(usz(g.weight_elems())), b_f = r.f32(usz(g.out_c));
  std::vector<float> want(usz(g.out_elems())), got(want.size());
  const float* bf = use_bias ? b_f.data() : nullptr;
  REQUIRE(kr::conv2d_f32(g, in_f.data(), w_f.data(), bf, want.data()) == status::ok);
  // |terms| <= 1, K + 1 of them: reordering / contraction changes the sum by <= 2 (K+1)^2 2^-24
  const float tol = 2.0f * float(g.gemm_k() + 1) * float(g.gemm_k() + 1) * 5.97e-8f + 1e-6f;
  // panel_rows: 0 (direct kernel), 1, a random panel, every row at once
  const int64_t panels[4] = {0, 1, r.range(1, int(g.out_h())), g.out_h()};
  for (int64_t pr : panels) {
    std::vector<float> scratch(std::max<size_t>(size_t(kk::conv_scratch_elems(g, pr)), 1));
    std::fill(got.begin(), got.end(), -7.0f);
    REQUIRE(kk::conv2d_f32(g, in_f.data(), w_f.data(), bf, got.data(), pr, scratch.data(),
                           size_t(kk::conv_scratch_elems(g, pr)) * 4) == status::ok);
    REQUIRE(ctnn_test::within(got, want, tol) == "");
  }

  const auto in_q = r.s8(usz(g.in_elems())), w_q = r.s8(usz(g.weight_elems()), -127, 127);
  const auto b_q = r.s32(usz(g.out_c), -20000, 20000);
  std::vector<int32_t> mult(usz(g.out_c)), shift(usz(g.out_c));
  for (auto i = 0u; i < mult.size(); ++i) {
    const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-12, -5)));
    mult[i] = q.multiplier;
    shift[i] = q.shift;
  }
  const int32_t out_zp = r.range(-20, 20);
  const kr::gemm_s8_params p{r.range(-128, 127), 0, out_zp, mult.data(), shift.data(), r.range(0, 1) == 1,
                             r.range(0, 1) ? out_zp : -128, 127};
  std::vector<int8_t> want_q(usz(g.out_elems())), got_q(want_q.size());
  std::vector<int32_t> scratch_q(kk::conv2d_s8_scratch_bytes(g) / 4 + 1);
  const int32_t* bq = use_bias ? b_q.data() : nullptr;
  REQUIRE(kr::conv2d_s8(g, in_q.data(), w_q.data(), bq, want_q.data(), p) == status::ok);
  // the plan-free form: [ workspace | all rows ] in one buffer
  REQUIRE(kk::conv2d_s8(g, in_q.data(), w_q.data(), bq, got_q.data(), p, scratch_q.data(), scratch_q.size() * 4) ==
          status::ok);
  REQUIRE(got_q == want_q);
  for (int64_t pr : panels) {
    std::vector<int8_t> col(std::max<size_t>(size_t(kk::conv_scratch_elems(g, pr)), 1));
    std::fill(got_q.begin(), got_q.end(), int8_t{99});
    REQUIRE(kk::conv2d_s8(g, in_q.data(), w_q.data(), bq, got_q.data(), p, pr, col.data(),
                          size_t(kk::conv_scratch_elems(g, pr))) == status::ok);
    REQUIRE(got_q == want_q);
  }
  ++res.cases;
}

}  // namespace

TEST_CASE("int8 tables: activation lookups of any length and in place, batchnorm per-channel tables == reference") {
  ctnn_test::rng r(53);
  for (int it = 0; it < 100; ++it) {
    const kr::act_s8_params ap{r.real(0.01f, 0.1f), r.range(-128, 127), r.real(0.005f, 0.05f), r.range(-128, 127)};
    const auto table = kk::make_activation_table(kr::activation::relu6, ap);
    const int64_t n = r.range(0, 300);
    auto x = r.s8(size_t(n));
    std::vector<int8_t> want(static_cast<size_t>(n)), got(static_cast<size_t>(n));
    REQUIRE(kr::activation_s8(kr::activation::relu6, n, x.data(), want.data(), ap) == status::ok);
    REQUIRE(kk::activation_s8(table, n, x.data(), got.data()) == status::ok);
    REQUIRE(got == want);
    REQUIRE(kk::activation_s8(table, n, x.data(), x.data()) == status::ok);  // in place
    REQUIRE(x == want);
  }
  for (int it = 0; it < 60; ++it) {
    // channels of fewer and of more than 256 elements (per element / through the table)
    const int64_t c = r.range(1, 5), hw = it % 2 == 0 ? r.range(1, 255) : r.range(256, 700);
    const auto x = r.s8(size_t(c * hw)), sq = r.s8(size_t(c), -127, 127);
    const auto b = r.s32(size_t(c), -20000, 20000);
    std::vector<int32_t> mult(static_cast<size_t>(c)), shift(static_cast<size_t>(c));
    for (size_t i = 0; i < mult.size(); ++i) {
      const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-12, 3)));
      mult[i] = q.multiplier;
      shift[i] = q.shift;
    }
    const kr::gemm_s8_params p{r.range(-128, 127), it % 3 == 0 ? r.range(-5, 5) : 0, r.range(-128, 127), mult.data(),
                               shift.data(), it % 4 != 0, r.range(-128, 0), 127};
    std::vector<int8_t> want(x.size()), got(x.size());
    REQUIRE(kr::batchnorm2d_s8(c, hw, x.data(), sq.data(), it % 5 == 0 ? nullptr : b.data(), want.data(), p) == status::ok);
    REQUIRE(kk::batchnorm2d_s8(c, hw, x.data(), sq.data(), it % 5 == 0 ? nullptr : b.data(), got.data(), p) == status::ok);
    REQUIRE(got == want);
    auto inplace = x;
    REQUIRE(kk::batchnorm2d_s8(c, hw, inplace.data(), sq.data(), it % 5 == 0 ? nullptr : b.data(), inplace.data(), p) ==
            status::ok);
    REQUIRE(inplace == want);
  }
  const int8_t one = 1;
  int8_t out = 0;
  const int32_t m = 1 << 30, sh = 0;
  CHECK(kk::batchnorm2d_s8(0, 1, &one, &one, nullptr, &out, kr::gemm_s8_params{0, 0, 0, &m, &sh, false, -128, 127}) ==
        status::bad_size);
  CHECK(kk::batchnorm2d_s8(1, 1, nullptr, &one, nullptr, &out, kr::gemm_s8_params{0, 0, 0, &m, &sh, false, -128, 127}) ==
        status::null_pointer);
}

TEST_CASE("conv2d: im2col+GEMM and direct depthwise equal the reference on every combination") {
  ctnn_test::rng r(61);
  conv_case_result res;
  const int64_t pads[5][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {0, 1, 2, 0}, {2, 0, 0, 1}, {1, 2, 1, 2}};
  for (int64_t kh : {1, 2, 3})
    for (int64_t kw : {1, 3})
      for (int64_t sh : {1, 2})
        for (int64_t sw : {1, 3})
          for (int64_t dil : {1, 2})
            for (const auto& pd : pads)
              for (int gmode = 0; gmode < 3; ++gmode)
                for (bool bias : {false, true}) {
                  conv_geometry g;
                  g.kh = kh; g.kw = kw; g.sh = sh; g.sw = sw; g.dh = dil; g.dw = 3 - dil;
                  g.pt = pd[0]; g.pb = pd[1]; g.pl = pd[2]; g.pr = pd[3];
                  g.in_h = r.range(3, 7); g.in_w = r.range(3, 7);
                  if (gmode == 0) { g.groups = 1; g.in_c = r.range(1, 3); g.out_c = r.range(1, 5); }
                  if (gmode == 1) { g.groups = 2; g.in_c = 2 * r.range(1, 2); g.out_c = 2 * r.range(1, 2); }
                  if (gmode == 2) { g.in_c = r.range(2, 4); g.groups = g.in_c; g.out_c = g.in_c * r.range(1, 2); }
                  if (!g.valid()) continue;
                  check_conv(g, r, bias, res);
                }
  MESSAGE("conv sweep cases: " << res.cases);
  CHECK(res.cases > 1300);
  // random larger shapes crossing the GEMM blocks, 1x1 convs and K = 1
  for (int it = 0; it < 60; ++it) {
    conv_geometry g;
    g.in_c = r.range(1, 20); g.out_c = r.range(1, 40); g.in_h = r.range(1, 12); g.in_w = r.range(1, 12);
    g.kh = r.range(1, 3); g.kw = r.range(1, 3); g.sh = r.range(1, 2); g.sw = r.range(1, 2);
    g.pt = g.pb = g.kh / 2; g.pl = g.pr = g.kw / 2;
    if (!g.valid()) continue;
    check_conv(g, r, it % 2 == 0, res);
  }
}

TEST_CASE("conv2d float: the vector im2col equals the scalar one on wide rows, strides 1 and 2") {
  // im2col_rows_f32 (AVX-512 builds: 8-float moves for stride 1, masked 16-lane loads and an
  // even-lane permute for stride 2) against im2col_rows, bit for bit: widths across one, two and
  // several 16-column chunks, pads wider than the kernel's reach on either side, dilation
  ctnn_test::rng r(73);
  int cases = 0;
  for (int64_t in_w : {1, 5, 16, 17, 31, 33, 40, 67})
    for (int64_t k : {1, 3, 7})
      for (int64_t sw : {1, 2})
        for (int64_t dw : {1, 2}) {
          conv_geometry g;
          g.in_c = 2; g.out_c = 3; g.in_h = 5; g.in_w = in_w; g.kh = 3; g.kw = k; g.sh = 2; g.sw = sw; g.dw = dw;
          g.pt = 1; g.pb = 1; g.pl = r.range(0, int(k)); g.pr = r.range(0, int(k));
          if (!g.valid()) continue;
          const auto in = r.f32(usz(g.in_elems()));
          const int64_t oh = g.out_h();
          std::vector<float> want(size_t(kk::conv_scratch_elems(g, oh)), -3.0f), got(want.size(), -3.0f);
          kk::detail::im2col_rows<float>(g, in.data(), want.data(), 0.0f, 1, oh - 1);
          kk::detail::im2col_rows_f32(g, in.data(), got.data(), 1, oh - 1);
          REQUIRE(got == want);
          ++cases;
        }
  CHECK(cases > 80);
  MESSAGE("im2col cases: " << cases);
  // and through conv2d_f32, a ResNet stem (7x7, stride 2, pad 3) and a 3x3 on rows of 2+ chunks
  for (const conv_geometry& g : {conv_geometry{3, 20, 45, 8, 7, 7, 2, 2, 3, 3, 3, 3},
                                conv_geometry{5, 9, 37, 6, 3, 3, 1, 1, 1, 1, 1, 1}}) {
    conv_case_result res;
    check_conv(g, r, true, res);
  }
}

TEST_CASE("conv2d float: the implicit im2col (input phases in a slab) equals the reference") {
  // conv2d_f32's slab path (detail::conv2d_f32_slab): whole-K and KC-blocked GEMMs (M K over
  // f32_whole_k_max_elems), edge rows of every tier, groups, dilation, asymmetric padding,
  // strides 1, 2 and 3 (a ResNet stem, 7x7/2), and scratch for 1, 2, all but one and all
  // panel rows; the im2col path where the slab does not apply (a strided 1x1)
  ctnn_test::rng r(79);
  int slab_runs = 0, multi_panel = 0;
  const conv_geometry shapes[] = {
      {5, 9, 37, 13, 3, 3, 1, 1, 1, 1, 1, 1},           {7, 8, 20, 5, 3, 5, 1, 1, 0, 2, 1, 3},
      {256, 6, 9, 80, 3, 3, 1, 1, 1, 1, 1, 1},          {4, 10, 11, 6, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 2},
      {6, 7, 12, 17, 2, 2, 1, 1, 0, 1, 1, 0},           {3, 12, 12, 25, 1, 3, 1, 1, 0, 0, 1, 1},
      {16, 5, 6, 40, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4},  {3, 30, 41, 9, 7, 7, 2, 2, 3, 3, 3, 3},
      {8, 13, 22, 12, 3, 3, 2, 2, 1, 1, 1, 1},          {5, 11, 25, 6, 3, 5, 2, 3, 1, 0, 2, 1, 1, 2, 1},
      {6, 9, 16, 4, 1, 1, 2, 2, 0, 0, 0, 0},            {4, 12, 19, 7, 1, 3, 2, 1, 0, 0, 1, 1},
      {3, 40, 64, 8, 3, 3, 1, 1, 1, 1, 1, 1}};
  for (const conv_geometry& g : shapes) {
    REQUIRE(g.valid());
    const auto in = r.f32(usz(g.in_elems())), w = r.f32(usz(g.weight_elems())), b = r.f32(usz(g.out_c));
    std::vector<float> want(usz(g.out_elems())), got(want.size());
    REQUIRE(kr::conv2d_f32(g, in.data(), w.data(), b.data(), want.data()) == status::ok);
    const float tol = 2.0f * float(g.gemm_k() + 1) * float(g.gemm_k() + 1) * 5.97e-8f + 1e-6f;
    for (int64_t pr : {int64_t{1}, int64_t{2}, g.out_h() - 1, g.out_h()}) {
      if (pr < 1 || pr > g.out_h()) continue;
      const size_t elems = size_t(kk::conv_scratch_elems(g, pr));
      std::vector<float> scratch(elems, std::nanf(""));
      std::fill(got.begin(), got.end(), -7.0f);
      REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), b.data(), got.data(), pr, scratch.data(), elems * 4) ==
              status::ok);
      REQUIRE(ctnn_test::within(got, want, tol) == "");
      const auto sl = kk::detail::conv_slab_of<kk::default_f32_tiling::nr>(g, elems);
      slab_runs += sl.rows > 0;
      multi_panel += sl.rows > 0 && sl.rows < g.out_h();
      // packed weights where the geometry packs them (a buffer that is not theirs is ignored
      // where it packs none)
      const size_t pb = kk::conv2d_f32_packed_bytes(g);
      std::vector<float> packed(pb / 4 + 1, std::nanf(""));
      REQUIRE(kk::pack_conv2d_f32_weights(g, w.data(), packed.data(), pb) == status::ok);
      std::fill(got.begin(), got.end(), -7.0f);
      REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), b.data(), got.data(), pr, scratch.data(), elems * 4, nullptr,
                             -__builtin_huge_valf(), __builtin_huge_valf(), packed.data(), pb) == status::ok);
      REQUIRE(ctnn_test::within(got, want, tol) == "");
      // with a fused clamp (ReLU6-like bounds scaled to the outputs' range)
      REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), b.data(), got.data(), pr, scratch.data(), elems * 4, nullptr,
                             -0.5f, 0.75f) == status::ok);
      REQUIRE(ctnn_test::within(got, ctnn_test::clamped(want, -0.5f, 0.75f), tol) == "");
    }
  }
  // the clamp on the other paths: pointwise GEMM, direct (no scratch), depthwise
  for (const conv_geometry& g : {conv_geometry{6, 5, 7, 9, 1, 1}, conv_geometry{4, 6, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1},
                                 conv_geometry{4, 6, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4}}) {
    const auto in = r.f32(usz(g.in_elems())), w = r.f32(usz(g.weight_elems()));
    std::vector<float> want(usz(g.out_elems())), got(want.size());
    REQUIRE(kr::conv2d_f32(g, in.data(), w.data(), nullptr, want.data()) == status::ok);
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), nullptr, got.data(), 0, nullptr, 0, nullptr, 0.0f, 0.5f) ==
            status::ok);
    REQUIRE(ctnn_test::within(got, ctnn_test::clamped(want, 0.0f, 0.5f), 1e-5f) == "");
  }
  MESSAGE("runs on the slab path: " << slab_runs << ", of several panels: " << multi_panel);
  if (!CTNN_KERNELS_SCALAR) {
    CHECK(slab_runs > 15);
    CHECK(multi_panel > 1);
  }
}

TEST_CASE("gemm_f32_offsets_impl: A packed once equals A in place bit for bit, whole K and KC blocks") {
  // B rows at offsets into one buffer (overlapping windows, as the conv's slab); M with an edge
  // panel; K over f32_whole_k_max_elems / M for the KC-blocked loop
  using tiling = kk::default_f32_tiling;
  ctnn_test::rng r(83);
  for (const int K : {37, 1000}) {
    const int M = K == 37 ? 29 : 170, N = 2 * tiling::nr;
    const auto a = r.f32(usz(M * K)), b = r.f32(usz(K + N + 64));
    std::vector<int32_t> boff(usz(K));
    for (int k = 0; k < K; ++k) boff[usz(k)] = (k * 7) % 64;
    std::vector<float> ws(tiling::workspace_elems), packed(usz(((M + tiling::mr - 1) / tiling::mr) * tiling::mr * K));
    kk::detail::pack_a_f32_offsets<tiling>(M, K, a.data(), K, packed.data());
    std::vector<float> c1(usz(M * N)), c2(c1.size()), want(c1.size());
    REQUIRE(kk::detail::gemm_f32_offsets_impl<tiling>(M, N, K, a.data(), K, b.data(), boff.data(), c1.data(), N,
                                                      ws.data()) == status::ok);
    REQUIRE(kk::detail::gemm_f32_offsets_impl<tiling>(M, N, K, nullptr, K, b.data(), boff.data(), c2.data(), N,
                                                      ws.data(), packed.data()) == status::ok);
    CHECK(c1 == c2);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double acc = 0;
        for (int k = 0; k < K; ++k) acc += double(a[usz(m * K + k)]) * b[usz(boff[usz(k)] + n)];
        REQUIRE(std::fabs(c1[usz(m * N + n)] - acc) <= 1e-4 * K);
      }
  }
}

TEST_CASE("batchnorm2d float: the folded scale and shift equal the reference within rounding, in place too") {
  ctnn_test::rng r(89);
  for (const auto& [c, hw] : {std::pair<int64_t, int64_t>{1, 1}, {3, 17}, {16, 49}, {5, 300}}) {
    const auto x = r.f32(usz(c * hw)), mean = r.f32(usz(c)), gamma = r.f32(usz(c)), beta = r.f32(usz(c));
    auto var = r.f32(usz(c));
    for (auto& v : var) v = std::fabs(v) + 0.1f;
    std::vector<float> want(x.size()), got(x.size()), inplace = x;
    REQUIRE(kr::batchnorm2d_f32(c, hw, x.data(), mean.data(), var.data(), gamma.data(), beta.data(), 1e-5f,
                                want.data()) == status::ok);
    REQUIRE(kk::batchnorm2d_f32(c, hw, x.data(), mean.data(), var.data(), gamma.data(), beta.data(), 1e-5f,
                                got.data()) == status::ok);
    REQUIRE(kk::batchnorm2d_f32(c, hw, inplace.data(), mean.data(), var.data(), gamma.data(), beta.data(), 1e-5f,
                                inplace.data()) == status::ok);
    CHECK(inplace == got);
    for (size_t i = 0; i < x.size(); ++i) {
      const size_t ch = i / size_t(hw);
      const float s = std::fabs(gamma[ch]) / std::sqrt(var[ch] + 1e-5f);
      const float bound = 4.0f * 1.2e-7f * ((std::fabs(x[i]) + std::fabs(mean[ch])) * s + std::fabs(beta[ch]));
      REQUIRE(std::fabs(got[i] - want[i]) <= bound);
    }
  }
  float v = 1.0f;
  CHECK(kk::batchnorm2d_f32(0, 1, &v, &v, &v, &v, &v, 0.0f, &v) == status::bad_size);
  CHECK(kk::batchnorm2d_f32(1, 1, &v, nullptr, &v, &v, &v, 0.0f, &v) == status::null_pointer);
}

TEST_CASE("conv2d and linear: scratch and argument faults return a status") {
  const conv_geometry g{4, 5, 5, 8, 3, 3, 1, 1, 1, 1, 1, 1};
  std::vector<float> in(100), w(288), out(200);
  std::vector<unsigned char> small(16);
  CHECK(kk::conv2d_f32(g, in.data(), w.data(), nullptr, out.data(), 5, small.data(), small.size()) ==
        status::scratch_too_small);
  // one byte below the planner's formula is refused, the formula itself is enough
  std::vector<float> col(size_t(kk::conv_scratch_elems(g, 2)));
  CHECK(kk::conv2d_f32(g, in.data(), w.data(), nullptr, out.data(), 2, col.data(), col.size() * 4 - 1) ==
        status::scratch_too_small);
  CHECK(kk::conv2d_f32(g, in.data(), w.data(), nullptr, out.data(), 2, col.data(), col.size() * 4) == status::ok);
  CHECK(kk::conv2d_f32(g, in.data(), w.data(), nullptr, out.data(), 5, nullptr, 0) == status::null_pointer);
  CHECK(kk::conv2d_f32(g, in.data(), w.data(), nullptr, out.data(), 0, nullptr, 0) == status::ok);  // direct
  CHECK(kk::conv2d_f32(g, in.data(), w.data(), nullptr, out.data(), -1, nullptr, 0) == status::bad_size);
  conv_geometry bad = g;
  bad.sh = 0;
  CHECK(kk::conv2d_f32(bad, in.data(), w.data(), nullptr, out.data(), 5, small.data(), small.size()) ==
        status::bad_geometry);
  CHECK(kk::conv2d_s8_scratch_bytes(g) >= size_t(kk::conv_scratch_elems(g, g.out_h())));
  // int8: a packing workspace too small for K is a status on the GEMM paths; with panel_rows == 0
  // the direct kernel runs without one, pointwise included, bit-exact with the reference
  ctnn_test::rng r(5);
  const auto qi = r.s8(100), qw = r.s8(288, -127, 127);
  std::vector<int32_t> mult(8, 1 << 30), shift(8, -6);
  const kr::gemm_s8_params p{3, 0, -2, mult.data(), shift.data(), true, -128, 127};
  std::vector<int8_t> want(200), got(200), qcol(size_t(kk::conv_scratch_elems(g, 5)));
  alignas(4) unsigned char tiny[16];
  REQUIRE(kr::conv2d_s8(g, qi.data(), qw.data(), nullptr, want.data(), p) == status::ok);
#if CTNN_KERNELS_SCALAR
  // the scalar kernels (RISC-V) lower pixel blocks into the panel and need no packing workspace
  CHECK(kk::conv2d_s8(g, qi.data(), qw.data(), nullptr, got.data(), p, 5, qcol.data(), qcol.size(), tiny, sizeof tiny) ==
        status::ok);
  CHECK(got == want);
#else
  CHECK(kk::conv2d_s8(g, qi.data(), qw.data(), nullptr, got.data(), p, 5, qcol.data(), qcol.size(), tiny, sizeof tiny) ==
        status::scratch_too_small);
#endif
  CHECK(kk::conv2d_s8(g, qi.data(), qw.data(), nullptr, got.data(), p, 0, nullptr, 0, tiny, sizeof tiny) == status::ok);
  CHECK(got == want);
  const conv_geometry pw{4, 5, 5, 8, 1, 1};
  REQUIRE(kr::conv2d_s8(pw, qi.data(), qw.data(), nullptr, want.data(), p) == status::ok);
  CHECK(kk::conv2d_s8(pw, qi.data(), qw.data(), nullptr, got.data(), p, 0, nullptr, 0, tiny, sizeof tiny) == status::ok);
  CHECK(got == want);
}

TEST_CASE("linear: optimized kernels equal the reference") {
  ctnn_test::rng r(71);
  for (int it = 0; it < 200; ++it) {
    const int batch = r.range(1, 3), in_f = r.range(1, 70), out_f = r.range(1, 50);
    const auto x = r.f32(size_t(batch * in_f)), w = r.f32(size_t(in_f * out_f)), b = r.f32(size_t(out_f));
    std::vector<float> want(size_t(batch * out_f)), got(want.size());
    REQUIRE(kr::linear_f32(batch, in_f, out_f, x.data(), w.data(), b.data(), want.data()) == status::ok);
    REQUIRE(kk::linear_f32(batch, in_f, out_f, x.data(), w.data(), b.data(), got.data()) == status::ok);
    for (size_t i = 0; i < want.size(); ++i) REQUIRE(got[i] == doctest::Approx(want[i]).epsilon(1e-4).scale(1.0));

    const auto xq = r.s8(size_t(batch * in_f)), wq = r.s8(size_t(in_f * out_f), -127, 127);
    const auto bq = r.s32(size_t(out_f), -5000, 5000);
    std::vector<int32_t> mult(static_cast<size_t>(out_f)), shift(static_cast<size_t>(out_f));
    for (size_t i = 0; i < mult.size(); ++i) {
      const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-12, -4)));
      mult[i] = q.multiplier;
      shift[i] = q.shift;
    }
    const kr::gemm_s8_params p{r.range(-128, 127), 0, r.range(-10, 10), mult.data(), shift.data(), true, -128, 127};
    std::vector<int8_t> wq8(size_t(batch * out_f)), gq8(wq8.size());
    std::vector<int32_t> ws(kk::default_s8_tiling::workspace_bytes(in_f) / 4 + 1);
    REQUIRE(kr::linear_s8(batch, in_f, out_f, xq.data(), wq.data(), bq.data(), wq8.data(), p) == status::ok);
    REQUIRE(kk::linear_s8(batch, in_f, out_f, xq.data(), wq.data(), bq.data(), gq8.data(), p, ws.data(), ws.size() * 4) ==
            status::ok);
    REQUIRE(gq8 == wq8);
  }
}

TEST_CASE("gemv: matrix-vector kernels of linear layers equal the reference (vector tails, weight zero points)") {
  ctnn_test::rng r(73);
  for (int it = 0; it < 300; ++it) {
    // every residue of the vector steps (16 floats x 2, 32 int8) and a few layer-sized rows
    const int in_f = it < 270 ? r.range(0, 135) : std::vector<int>{400, 512, 1000, 1280, 4096}[size_t(r.range(0, 4))];
    const int out_f = r.range(1, 13), batch = r.range(1, 2);
    const auto x = r.f32(size_t(batch * in_f)), w = r.f32(size_t(in_f * out_f)), b = r.f32(size_t(out_f));
    const bool with_bias = r.range(0, 3) != 0;
    std::vector<float> want(size_t(batch * out_f)), got(want.size());
    REQUIRE(kr::linear_f32(batch, in_f, out_f, x.data(), w.data(), with_bias ? b.data() : nullptr, want.data()) ==
            status::ok);
    REQUIRE(kk::linear_f32(batch, in_f, out_f, x.data(), w.data(), with_bias ? b.data() : nullptr, got.data()) ==
            status::ok);
    for (size_t i = 0; i < want.size(); ++i)
      REQUIRE(got[i] == doctest::Approx(want[i]).epsilon(1e-4).scale(1.0));

    const auto xq = r.s8(size_t(batch * in_f)), wq = r.s8(size_t(in_f * out_f));
    const auto bq = r.s32(size_t(out_f), -100000, 100000);
    std::vector<int32_t> mult(static_cast<size_t>(out_f)), shift(static_cast<size_t>(out_f));
    for (size_t i = 0; i < mult.size(); ++i) {
      const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-16, -6)));
      mult[i] = q.multiplier;
      shift[i] = q.shift;
    }
    const int32_t b_zp = it % 3 == 0 ? 0 : r.range(-128, 127);  // extremes too: -128 - 127 = -255
    const kr::gemm_s8_params p{r.range(-128, 127), b_zp, r.range(-128, 127), mult.data(), shift.data(), it % 2 == 0,
                               -128, 127};
    std::vector<int8_t> want8(size_t(batch * out_f)), got8(want8.size());
    std::vector<int16_t> ws(kk::linear_s8_workspace_bytes(in_f) / 2 + 1);
    REQUIRE(kr::linear_s8(batch, in_f, out_f, xq.data(), wq.data(), with_bias ? bq.data() : nullptr, want8.data(), p) ==
            status::ok);
    REQUIRE(kk::linear_s8(batch, in_f, out_f, xq.data(), wq.data(), with_bias ? bq.data() : nullptr, got8.data(), p,
                          ws.data(), ws.size() * 2) == status::ok);
    REQUIRE(got8 == want8);
  }
  // the extremes of every operand at once: products of 255 x 255 summed over 4096 columns
  const int in_f = 4096, out_f = 5;
  std::vector<int8_t> xq(size_t(in_f), -128), wq(size_t(in_f * out_f), 127), want8(static_cast<size_t>(out_f)), got8(want8.size());
  const int32_t m = ctnn::quant::quantize_multiplier(0.6).multiplier, sh = -22;  // -266M x 0.6 / 2^22: -38
  const kr::gemm_s8_params p{127, -128, 0, &m, &sh, false, -128, 127};
  std::vector<int16_t> ws(static_cast<size_t>(in_f));
  REQUIRE(kr::linear_s8(1, in_f, out_f, xq.data(), wq.data(), nullptr, want8.data(), p) == status::ok);
  REQUIRE(kk::linear_s8(1, in_f, out_f, xq.data(), wq.data(), nullptr, got8.data(), p, ws.data(), ws.size() * 2) ==
          status::ok);
  CHECK(got8 == want8);
  CHECK(kk::linear_s8(1, in_f, out_f, xq.data(), wq.data(), nullptr, got8.data(), p, ws.data(), ws.size() * 2 - 1) ==
        status::scratch_too_small);
  CHECK(kk::linear_s8(1, in_f, out_f, xq.data(), wq.data(), nullptr, got8.data(), p, nullptr, 0) == status::null_pointer);
  CHECK(kk::linear_f32(-1, 4, 4, nullptr, nullptr, nullptr, nullptr) == status::bad_size);
}

namespace {
/// The optimized max pool equals the reference, float32 and int8, on g with inputs xf and xq.
void require_max_pool_equal(const pool_geometry& g, const std::vector<float>& xf, const std::vector<int8_t>& xq) {
  std::vector<float> wf(usz(g.out_elems())), gf(wf.size());
  std::vector<int8_t> wq(usz(g.out_elems())), gq(wq.size());
  REQUIRE(kr::max_pool2d<float>(g, xf.data(), wf.data()) == status::ok);
  REQUIRE(kk::max_pool2d<float>(g, xf.data(), gf.data()) == status::ok);
  REQUIRE(gf == wf);
  REQUIRE(kr::max_pool2d<int8_t>(g, xq.data(), wq.data()) == status::ok);
  REQUIRE(kk::max_pool2d<int8_t>(g, xq.data(), gq.data()) == status::ok);
  REQUIRE(gq == wq);
}
}  // namespace

TEST_CASE("pooling: optimized max/avg equal the reference on every combination") {
  ctnn_test::rng r(81);
  int cases = 0;
  for (int64_t kh : {1, 2, 3})
    for (int64_t kw : {1, 2, 3})
      for (int64_t s : {1, 2, 3})
        for (int pad = 0; pad < 4; ++pad)
          for (bool ceil : {false, true})
            for (bool include : {false, true}) {
              pool_geometry g;
              g.c = r.range(1, 3); g.in_h = r.range(1, 8); g.in_w = r.range(1, 8);
              g.kh = kh; g.kw = kw; g.sh = s; g.sw = 4 - s;
              g.pt = pad & 1 ? kh / 2 : 0; g.pb = pad & 2 ? kh / 2 : 0;
              g.pl = pad & 2 ? kw / 2 : 0; g.pr = pad & 1 ? kw / 2 : 0;
              g.ceil_mode = ceil;
              g.count_include_pad = include;
              if (!g.valid()) continue;
              const auto xf = r.f32(usz(g.in_elems()));
              const auto xq = r.s8(usz(g.in_elems()));
              require_max_pool_equal(g, xf, xq);
              std::vector<int8_t> wq(usz(g.out_elems())), gq(wq.size());
              const int32_t zp = r.range(-128, 127);
              REQUIRE(kr::avg_pool2d_s8(g, xq.data(), wq.data(), zp) == status::ok);
              REQUIRE(kk::avg_pool2d_s8(g, xq.data(), gq.data(), zp) == status::ok);
              REQUIRE(gq == wq);
              // int8 average within 1 of the float average of the same real values
              std::vector<float> xr(xq.size()), ar(wq.size());
              for (size_t i = 0; i < xq.size(); ++i) xr[i] = float(xq[i] - zp);
              REQUIRE(kr::avg_pool2d_f32(g, xr.data(), ar.data()) == status::ok);
              for (size_t i = 0; i < ar.size(); ++i)
                REQUIRE(std::fabs(double(wq[i]) - std::clamp(double(ar[i]) + zp, -128.0, 127.0)) <= 0.5001);
              ++cases;
            }
  MESSAGE("pool sweep cases: " << cases);
  CHECK(cases > 300);
}

TEST_CASE("max pool: the separable kernel equals the reference on wide rows, padding, strides, extremes") {
  // rows wider than one 256-output chunk, windows touching the padding (int8: -128 there never
  // wins), ceil mode, every stride 1..3; ResNet's stem pool (64x112x112, 3x3/2, pad 1) once
  ctnn_test::rng r(82);
  int cases = 0;
  auto check_one = [&](const pool_geometry& g, bool extremes) {
    auto xf = r.f32(usz(g.in_elems()), -4.0f, 4.0f);
    auto xq = r.s8(usz(g.in_elems()));
    if (extremes)  // most values at the bottom of the range: windows of -128 / -inf beside the padding
      for (size_t i = 0; i < xq.size(); ++i)
        if (i % 7 != 0) {
          xq[i] = -128;
          xf[i] = -std::numeric_limits<float>::infinity();
        }
    require_max_pool_equal(g, xf, xq);
    ++cases;
  };
  for (int k = 0; k < 60; ++k) {
    pool_geometry g;
    g.c = r.range(1, 4);
    g.kh = r.range(1, 6);
    g.kw = r.range(1, 6);
    g.in_h = r.range(1, 20);
    g.in_w = r.range(1, 700);
    g.sh = r.range(1, 3);
    g.sw = r.range(1, 3);
    g.pt = r.range(0, int(g.kh / 2));  // PyTorch's limit: at most half the kernel
    g.pb = r.range(0, int(g.kh / 2));
    g.pl = r.range(0, int(g.kw / 2));
    g.pr = r.range(0, int(g.kw / 2));
    g.ceil_mode = (k & 1) != 0;
    if (!g.valid()) continue;
    check_one(g, (k & 2) != 0);
  }
  pool_geometry stem;
  stem.c = 64; stem.in_h = 112; stem.in_w = 112; stem.kh = stem.kw = 3; stem.sh = stem.sw = 2;
  stem.pt = stem.pb = stem.pl = stem.pr = 1;
  check_one(stem, false);
  check_one(stem, true);
  // 3 wide at stride 2 (AVX-512BW: 32 outputs per vector, the last ones masked): every width to
  // 2 x 32 + 40 outputs and some wider, each padding and rounding
  for (int64_t w = 1; w <= 210; w += (w < 150 ? 1 : 13)) {
    pool_geometry g;
    g.c = 1 + w % 2; g.in_h = r.range(3, 6); g.in_w = w; g.kh = g.kw = 3; g.sh = g.sw = 2;
    g.pt = g.pb = r.range(0, 1); g.pl = r.range(0, 1); g.pr = r.range(0, 1);
    g.ceil_mode = (w & 1) != 0;
    if (g.valid()) check_one(g, (w % 3) == 0);
  }
  // a window wider than the row buffer takes the window-by-window path
  pool_geometry wide;
  wide.c = 2; wide.in_h = 3; wide.in_w = 1100; wide.kh = 2; wide.kw = 1030; wide.sh = 1; wide.sw = 7;
  check_one(wide, false);
  MESSAGE("separable max pool cases: " << cases);
  CHECK(cases > 40);
}

TEST_CASE("global average pool: int8 equals the reference, float within its rounding") {
  ctnn_test::rng r(83);
  for (int k = 0; k < 40; ++k) {
    const int64_t c = r.range(1, 9), h = r.range(1, 15), w = r.range(1, 15);
    const auto xq = r.s8(usz(c * h * w), k % 3 == 0 ? -128 : -100, k % 3 == 0 ? -127 : 127);
    std::vector<int8_t> wq(usz(c)), gq(wq.size());
    REQUIRE(kr::adaptive_avg_pool2d<int8_t>(c, h, w, 1, 1, xq.data(), wq.data()) == status::ok);
    REQUIRE(kk::global_avg_pool2d<int8_t>(c, h, w, xq.data(), gq.data()) == status::ok);
    REQUIRE(gq == wq);
    const auto xf = r.f32(usz(c * h * w), -3.0f, 3.0f);
    std::vector<float> wf(usz(c)), gf(wf.size());
    REQUIRE(kr::adaptive_avg_pool2d<float>(c, h, w, 1, 1, xf.data(), wf.data()) == status::ok);
    REQUIRE(kk::global_avg_pool2d<float>(c, h, w, xf.data(), gf.data()) == status::ok);
    for (int64_t ch = 0; ch < c; ++ch) {
      double mag = 0.0;  // the mean of |x|: the scale of the rounding error of either order
      for (int64_t i = 0; i < h * w; ++i) mag += std::fabs(double(xf[usz(ch * h * w + i)]));
      mag /= double(h * w);
      REQUIRE(std::fabs(double(gf[usz(ch)]) - double(wf[usz(ch)])) <= 1e-5 * mag + 1e-7);
    }
  }
  std::vector<float> one(1, 2.5f), y(1);
  CHECK(kk::global_avg_pool2d<float>(1, 1, 1, one.data(), y.data()) == status::ok);
  CHECK(y[0] == 2.5f);
  CHECK(kk::global_avg_pool2d<float>(0, 1, 1, one.data(), y.data()) == status::bad_geometry);
  CHECK(kk::global_avg_pool2d<float>(1, 1, 1, nullptr, y.data()) == status::null_pointer);
}

TEST_CASE("elementwise add / mul: optimized kernels equal the reference") {
  ctnn_test::rng r(91);
  for (int it = 0; it < 400; ++it) {
    const int n = r.range(1, 100);
    const double sa = r.real(0.005f, 0.2f), sb = r.real(0.005f, 0.2f), so = r.real(0.01f, 0.4f);
    const int32_t za = r.range(-128, 127), zb = r.range(-128, 127), zo = r.range(-128, 127);
    const bool relu = r.range(0, 1) == 1;
    kr::add_s8_params ap{};
    kr::mul_s8_params mp{};
    REQUIRE(kr::make_add_s8_params(ap, sa, za, sb, zb, so, zo, relu ? zo : -128, 127) == status::ok);
    REQUIRE(kr::make_mul_s8_params(mp, sa, za, sb, zb, so * r.real(1.0f, 30.0f), zo, relu ? zo : -128, 127) == status::ok);
    const auto a = r.s8(size_t(n)), b = r.s8(size_t(n));
    std::vector<int8_t> want(static_cast<size_t>(n)), got(static_cast<size_t>(n));
    REQUIRE(kr::add_s8(n, a.data(), b.data(), want.data(), ap) == status::ok);
    REQUIRE(kk::add_s8(n, a.data(), b.data(), got.data(), ap) == status::ok);
    REQUIRE(got == want);
#if CTNN_KERNELS_VNNI
    {  // these scales (left shift 20) take the one-rounding lanes: both inputs and the output
      kk::detail::s8_rq_row f{};
      const int64_t in_bound = int64_t{128} << ap.left_shift;
      CHECK(kk::detail::make_rq_fused(-(int64_t{ap.a_zp} << ap.left_shift), in_bound, ap.a.multiplier, ap.a.shift, 0, f));
      CHECK(kk::detail::make_rq_fused(-(int64_t{ap.b_zp} << ap.left_shift), in_bound, ap.b.multiplier, ap.b.shift, 0, f));
      CHECK(kk::detail::make_rq_fused(0, 2 * ((int64_t{255} << ap.left_shift) + 1), ap.out.multiplier, ap.out.shift,
                                      ap.out_zp, f));
    }
#endif
    REQUIRE(kr::mul_s8(n, a.data(), b.data(), want.data(), mp) == status::ok);
    REQUIRE(kk::mul_s8(n, a.data(), b.data(), got.data(), mp) == status::ok);
    REQUIRE(got == want);
    const auto fa = r.f32(size_t(n)), fb = r.f32(size_t(n));
    std::vector<float> fw(static_cast<size_t>(n)), fg(static_cast<size_t>(n));
    REQUIRE(kr::add_f32(n, fa.data(), fb.data(), fw.data()) == status::ok);
    REQUIRE(kk::add_f32(n, fa.data(), fb.data(), fg.data()) == status::ok);
    REQUIRE(fg == fw);
  }
  kr::add_s8_params good{};
  REQUIRE(kr::make_add_s8_params(good, 0.1, 0, 0.1, 0, 0.1, 0) == status::ok);
  kr::add_s8_params bad = good;
  bad.a.multiplier = 17;
  int8_t x = 0, y = 0;
  CHECK(kk::add_s8(1, &x, &x, &y, bad) == status::bad_quant_param);
  CHECK(kk::add_s8(-1, &x, &x, &y, good) == status::bad_size);
}

TEST_CASE("int8 add / mul parameters that cannot be valid are refused where they are made") {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  struct q8 {
    double a_scale;
    int32_t a_zp;
    double b_scale;
    int32_t b_zp;
    double out_scale;
    int32_t out_zp;
    int32_t act_min = -128, act_max = 127;
  };
  const q8 good{0.05, 3, 0.1, -2, 0.2, 1};
  const q8 bad[] = {
      {0.0, 3, 0.1, -2, 0.2, 1},          // a zero input scale: the add dropped that input ("ok")
      {0.05, 3, 0.0, -2, 0.2, 1},         // the other one
      {0.0, 3, 0.0, -2, 0.2, 1},          // both: twice the larger scale was 0, a division by zero
      {0.05, 3, 0.1, -2, 0.0, 1},         // a zero output scale
      {-0.05, 3, 0.1, -2, 0.2, 1},        // negative
      {0.05, 3, 0.1, -2, -0.2, 1},
      {nan, 3, 0.1, -2, 0.2, 1},          // NaN and infinities
      {0.05, 3, nan, -2, 0.2, 1},
      {0.05, 3, 0.1, -2, inf, 1},
      {inf, 3, 0.1, -2, 0.2, 1},
      {0.05, 128, 0.1, -2, 0.2, 1},       // zero points outside int8
      {0.05, 3, 0.1, -129, 0.2, 1},
      {0.05, 3, 0.1, -2, 0.2, 200},
      {0.05, 3, 0.1, -2, 0.2, 1, 10, 5},  // an empty activation range
      {0.05, 3, 0.1, -2, 0.2, 1, -129, 127},
      {0.05, 3, 0.1, -2, 0.2, 1, -128, 128},
  };
  kr::add_s8_params ap{}, ap_good{};
  kr::mul_s8_params mp{}, mp_good{};
  REQUIRE(kr::make_add_s8_params(ap_good, good.a_scale, good.a_zp, good.b_scale, good.b_zp, good.out_scale, good.out_zp) ==
          status::ok);
  REQUIRE(kr::make_mul_s8_params(mp_good, good.a_scale, good.a_zp, good.b_scale, good.b_zp, good.out_scale, good.out_zp) ==
          status::ok);
  for (const q8& b : bad) {
    CAPTURE(b.a_scale);
    CAPTURE(b.b_scale);
    CAPTURE(b.out_scale);
    CAPTURE(b.out_zp);
    ap = ap_good;
    mp = mp_good;
    CHECK(kr::make_add_s8_params(ap, b.a_scale, b.a_zp, b.b_scale, b.b_zp, b.out_scale, b.out_zp, b.act_min, b.act_max) ==
          status::bad_quant_param);
    CHECK(kr::make_mul_s8_params(mp, b.a_scale, b.a_zp, b.b_scale, b.b_zp, b.out_scale, b.out_zp, b.act_min, b.act_max) ==
          status::bad_quant_param);
    // nothing written
    CHECK(ap.a == ap_good.a);
    CHECK(ap.out_zp == ap_good.out_zp);
    CHECK(mp.out == mp_good.out);
    CHECK(mp.out_zp == mp_good.out_zp);
  }
  // valid scales whose ratios cannot be represented: a multiplier below 2^-32 would flush to
  // {0, 0} (the add's smaller input dropped), one of 2^30 or more would saturate
  CHECK(kr::make_add_s8_params(ap, 1e-12, 0, 1.0, 0, 1.0, 0) == status::bad_quant_param);
  CHECK(kr::make_add_s8_params(ap, 1.0, 0, 1.0, 0, 1e-20, 0) == status::bad_quant_param);
  CHECK(kr::make_mul_s8_params(mp, 1e-6, 0, 1e-6, 0, 1e3, 0) == status::bad_quant_param);
  CHECK(kr::make_mul_s8_params(mp, 1e3, 0, 1e3, 0, 1e-6, 0) == status::bad_quant_param);
  // in a constant expression: the status, checked with static_assert
  static_assert([] {
    kr::add_s8_params p{};
    return kr::make_add_s8_params(p, 0.0, 0, 0.1, 0, 0.1, 0) == status::bad_quant_param &&
           kr::make_add_s8_params(p, 0.1, 0, 0.1, 0, 0.1, 0) == status::ok;
  }());
  CHECK(kr::valid(ap_good));
  CHECK(kr::valid(mp_good));
}
