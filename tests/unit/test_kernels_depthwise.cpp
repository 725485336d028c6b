// Depthwise conv2d kernels (kernels/depthwise.hpp) against ref::conv2d_f32 / ref::conv2d_s8:
// the vector lanes on 3x3 and 5x5, stride 1 and 2, every width 1..40 and height 1..9, asymmetric
// padding 0..2, channel multiplier 1 and 2, zero points at the int8 ends, large and small
// multipliers, wrapping biases; the direct loop on the other geometries. int8 bit-exact, float
// within the reordering bound of test_kernels_layers.cpp. Built for the host's widest vectors
// (the release and native builds), SSE2 (default, memcheck) and, with CTNN_KERNELS_SCALAR, the
// RISC-V routing (unit.kernels_depthwise_scalar).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "test_kernels_rng.hpp"

using ctnn::kernels::conv_geometry;
using ctnn::kernels::status;
namespace kr = ctnn::ref;
namespace kk = ctnn::kernels;

namespace {

size_t usz(int64_t v) { return static_cast<size_t>(v); }

struct sweep_count {
  int cases = 0, vectorized = 0;
};

/// int8 parameters of one case: zero points, multipliers and clamps drawn to reach the ends.
struct qcase {
  std::vector<int32_t> mult, shift;
  kr::gemm_s8_params p{};
  qcase(ctnn_test::rng& r, int64_t out_c) : mult(usz(out_c)), shift(usz(out_c)) {
    const int32_t zps[4] = {-128, 127, 0, r.range(-128, 127)};
    for (size_t i = 0; i < mult.size(); ++i) {
      // small (2^-31 .. 2^-20: right shifts up to 31), usual, and large (left shifts that wrap)
      const int kind = r.range(0, 3);
      const int e = kind == 0   ? r.range(-31, -20)
                    : kind == 1 ? r.range(-14, -6)
                    : kind == 2 ? r.range(-5, 3)
                                : r.range(4, 29);
      const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), e));
      mult[i] = q.multiplier;
      shift[i] = q.shift;
    }
    const int32_t out_zp = zps[r.range(0, 3)];
    int32_t lo = -128, hi = 127;
    if (r.range(0, 2) == 0) lo = out_zp;                   // ReLU
    if (r.range(0, 3) == 0) lo = r.range(-128, 0), hi = r.range(lo, 127);
    p = kr::gemm_s8_params{zps[r.range(0, 3)], r.range(0, 3) == 0 ? zps[r.range(0, 3)] : 0, out_zp, mult.data(),
                           shift.data(), r.range(0, 3) != 0, lo, hi};
  }
};

void check_depthwise(const conv_geometry& g, ctnn_test::rng& r, sweep_count& res) {
  REQUIRE(g.valid());
  REQUIRE(g.depthwise());
  INFO("in " << g.in_c << "x" << g.in_h << "x" << g.in_w << " out_c " << g.out_c << " k " << g.kh << "x" << g.kw
             << " s " << g.sh << "," << g.sw << " pad " << g.pt << "," << g.pb << "," << g.pl << "," << g.pr << " d "
             << g.dh << "," << g.dw);
  const bool use_bias = r.range(0, 3) != 0;
  // float: |terms| <= 1, K + 1 of them: reordering / contraction changes the sum by <= 2 (K+1)^2 2^-24
  const auto in_f = r.f32(usz(g.in_elems())), w_f = r.f32(usz(g.weight_elems())), b_f = r.f32(usz(g.out_c));
  const float* bf = use_bias ? b_f.data() : nullptr;
  std::vector<float> want(usz(g.out_elems())), got(want.size(), -7.0f);
  REQUIRE(kr::conv2d_f32(g, in_f.data(), w_f.data(), bf, want.data()) == status::ok);
  REQUIRE(kk::depthwise_conv2d_f32(g, in_f.data(), w_f.data(), bf, got.data()) == status::ok);
  const float tol = 2.0f * float(g.gemm_k() + 1) * float(g.gemm_k() + 1) * 5.97e-8f + 1e-6f;
  REQUIRE(ctnn_test::within(got, want, tol) == "");
  // conv2d_f32 routes depthwise here whatever the panel rows
  std::fill(got.begin(), got.end(), -7.0f);
  REQUIRE(kk::conv2d_f32(g, in_f.data(), w_f.data(), bf, got.data(), 0, nullptr, 0) == status::ok);
  REQUIRE(ctnn_test::within(got, want, tol) == "");
  // a fused clamp between two of the outputs (some clamped below, some above), applied as each
  // path stores; through conv2d_f32 as the executor calls it
  float lo = want[usz(r.range(0, int(want.size()) - 1))], hi = want[usz(r.range(0, int(want.size()) - 1))];
  if (lo > hi) std::swap(lo, hi);
  std::fill(got.begin(), got.end(), -7.0f);
  REQUIRE(kk::conv2d_f32(g, in_f.data(), w_f.data(), bf, got.data(), 0, nullptr, 0, nullptr, lo, hi) == status::ok);
  REQUIRE(ctnn_test::within(got, ctnn_test::clamped(want, lo, hi), tol) == "");

  // int8: inputs at the ends too (all -128 / all 127 planes are the zero points' worst products)
  auto in_q = r.s8(usz(g.in_elems()));
  const int fill = r.range(0, 5);
  if (fill == 0) std::fill(in_q.begin(), in_q.end(), int8_t{-128});
  if (fill == 1) std::fill(in_q.begin(), in_q.end(), int8_t{127});
  const auto w_q = r.s8(usz(g.weight_elems()));
  auto b_q = r.s32(usz(g.out_c), -30000, 30000);
  if (r.range(0, 4) == 0)  // near the int32 ends: the sum wraps as the reference's
    for (auto& b : b_q) b = r.range(0, 1) ? 2147480000 + r.range(0, 3647) : -2147480000 - r.range(0, 3648);
  const qcase q(r, g.out_c);
  const int32_t* bq = use_bias ? b_q.data() : nullptr;
  std::vector<int8_t> want_q(usz(g.out_elems())), got_q(want_q.size(), int8_t{0x55});
  REQUIRE(kr::conv2d_s8(g, in_q.data(), w_q.data(), bq, want_q.data(), q.p) == status::ok);
  REQUIRE(kk::depthwise_conv2d_s8(g, in_q.data(), w_q.data(), bq, got_q.data(), q.p) == status::ok);
  REQUIRE(got_q == want_q);
  ++res.cases;
  if (kk::depthwise_vectorized(g)) ++res.vectorized;
}

conv_geometry dw_geometry(int64_t c, int64_t mult, int64_t h, int64_t w, int64_t k, int64_t s, int64_t pt, int64_t pb,
                          int64_t pl, int64_t pr) {
  conv_geometry g;
  g.in_c = c; g.groups = c; g.out_c = c * mult;
  g.in_h = h; g.in_w = w;
  g.kh = g.kw = k; g.sh = g.sw = s;
  g.pt = pt; g.pb = pb; g.pl = pl; g.pr = pr;
  return g;
}

}  // namespace

TEST_CASE("depthwise: vector lanes equal the reference on 3x3 / 5x5, stride 1 / 2, widths 1..40, heights 1..9") {
  ctnn_test::rng r(1414);
  sweep_count res;
  for (int64_t k : {3, 5})
    for (int64_t s : {1, 2})
      for (int64_t mult : {1, 2}) {
        // every width, random height and padding
        for (int64_t w = 1; w <= 40; ++w) {
          const conv_geometry g = dw_geometry(r.range(2, 3), mult, r.range(1, 9), w, k, s, r.range(0, 2), r.range(0, 2),
                                              r.range(0, 2), r.range(0, 2));
          if (g.valid()) check_depthwise(g, r, res);
        }
        // wider rows: several whole vectors of 16 lanes and a last one overlapping them
        for (int it = 0; it < 12; ++it) {
          const conv_geometry g = dw_geometry(2, mult, r.range(1, 6), r.range(41, 130), k, s, r.range(0, 2),
                                              r.range(0, 2), r.range(0, 2), r.range(0, 2));
          if (g.valid()) check_depthwise(g, r, res);
        }
        // every height and every padding of each side, random width
        for (int64_t h = 1; h <= 9; ++h)
          for (int64_t pad = 0; pad < 81; pad += 1 + r.range(0, 3)) {
            const conv_geometry g =
                dw_geometry(r.range(2, 3), mult, h, r.range(1, 40), k, s, pad % 3, pad / 3 % 3, pad / 9 % 3, pad / 27);
            if (g.valid()) check_depthwise(g, r, res);
          }
      }
  MESSAGE("depthwise sweep cases: " << res.cases << ", in vector lanes: " << res.vectorized);
  CHECK(res.cases > 1000);
#if CTNN_KERNELS_SCALAR
  CHECK(res.vectorized == 0);
#else
  CHECK(res.vectorized == res.cases);
#endif
}

TEST_CASE("depthwise: MobileNetV2's shapes run in vector lanes and equal the reference") {
  ctnn_test::rng r(2);
  sweep_count res;
  // a few channels of each shape (the kernel works plane by plane)
  const conv_geometry shapes[] = {
      dw_geometry(3, 1, 112, 112, 3, 1, 1, 1, 1, 1), dw_geometry(2, 1, 112, 112, 3, 2, 1, 1, 1, 1),
      dw_geometry(2, 1, 56, 56, 3, 1, 1, 1, 1, 1),   dw_geometry(2, 1, 56, 56, 3, 2, 1, 1, 1, 1),
      dw_geometry(3, 1, 28, 28, 3, 1, 1, 1, 1, 1),   dw_geometry(4, 1, 14, 14, 3, 1, 1, 1, 1, 1),
      dw_geometry(5, 1, 7, 7, 3, 1, 1, 1, 1, 1),     dw_geometry(3, 1, 14, 14, 5, 1, 2, 2, 2, 2),
      dw_geometry(3, 1, 28, 28, 5, 2, 2, 2, 2, 2),   dw_geometry(2, 2, 33, 47, 5, 2, 1, 2, 0, 1),
  };
  for (const auto& g : shapes) {
    CHECK(kk::depthwise_vectorized(g) == !CTNN_KERNELS_SCALAR);
    check_depthwise(g, r, res);
  }
}

TEST_CASE("depthwise: the direct loop on the other geometries equals the reference") {
  ctnn_test::rng r(9);
  sweep_count res;
  for (int it = 0; it < 300; ++it) {
    conv_geometry g = dw_geometry(r.range(2, 3), r.range(1, 3), r.range(1, 12), r.range(1, 20), 3, 1, r.range(0, 2),
                                  r.range(0, 2), r.range(0, 2), r.range(0, 2));
    g.kh = r.range(1, 7); g.kw = r.range(1, 7);
    g.sh = r.range(1, 3); g.sw = r.range(1, 3);
    g.dh = r.range(1, 2); g.dw = r.range(1, 2);
    if (!g.valid()) continue;
    check_depthwise(g, r, res);
  }
  // rows wider than the row buffers
  const conv_geometry wide = dw_geometry(2, 1, 3, 1500, 3, 1, 1, 1, 1, 1);
  CHECK_FALSE(kk::depthwise_vectorized(wide));
  check_depthwise(wide, r, res);
  const conv_geometry wide2 = dw_geometry(2, 2, 4, 2100, 5, 2, 2, 2, 2, 2);
  CHECK_FALSE(kk::depthwise_vectorized(wide2));
  check_depthwise(wide2, r, res);
  // dilation, unequal strides, 7x7: direct
  conv_geometry d = dw_geometry(2, 1, 9, 9, 3, 1, 2, 2, 2, 2);
  d.dh = d.dw = 2;
  CHECK_FALSE(kk::depthwise_vectorized(d));
  conv_geometry u = dw_geometry(2, 1, 9, 9, 3, 1, 1, 1, 1, 1);
  u.sw = 2;
  CHECK_FALSE(kk::depthwise_vectorized(u));
  CHECK_FALSE(kk::depthwise_vectorized(dw_geometry(2, 1, 9, 9, 7, 1, 3, 3, 3, 3)));
  MESSAGE("direct depthwise cases: " << res.cases);
  CHECK(res.cases > 150);
}

TEST_CASE("depthwise: faults return a status and write nothing") {
  const conv_geometry g = dw_geometry(2, 1, 5, 5, 3, 1, 1, 1, 1, 1);
  std::vector<float> in(50), w(18), out(50, 3.0f);
  CHECK(kk::depthwise_conv2d_f32(g, nullptr, w.data(), nullptr, out.data()) == status::null_pointer);
  CHECK(kk::depthwise_conv2d_f32(g, in.data(), nullptr, nullptr, out.data()) == status::null_pointer);
  CHECK(kk::depthwise_conv2d_f32(g, in.data(), w.data(), nullptr, nullptr) == status::null_pointer);
  conv_geometry not_dw = g;
  not_dw.groups = 1;
  CHECK(kk::depthwise_conv2d_f32(not_dw, in.data(), w.data(), nullptr, out.data()) == status::bad_geometry);
  conv_geometry bad = g;
  bad.sh = 0;
  CHECK(kk::depthwise_conv2d_f32(bad, in.data(), w.data(), nullptr, out.data()) == status::bad_geometry);
  for (float v : out) CHECK(v == 3.0f);
  std::vector<int8_t> qi(50), qw(18), qo(50, int8_t{9});
  int32_t m = 1 << 30, s = -3;
  kr::gemm_s8_params p{0, 0, 0, &m, &s, false, -128, 127};
  CHECK(kk::depthwise_conv2d_s8(g, qi.data(), qw.data(), nullptr, nullptr, p) == status::null_pointer);
  CHECK(kk::depthwise_conv2d_s8(not_dw, qi.data(), qw.data(), nullptr, qo.data(), p) == status::bad_geometry);
  p.a_zp = 128;
  CHECK(kk::depthwise_conv2d_s8(g, qi.data(), qw.data(), nullptr, qo.data(), p) == status::bad_quant_param);
  p.a_zp = 0;
  m = 5;  // below 2^30: not a multiplier
  CHECK(kk::depthwise_conv2d_s8(g, qi.data(), qw.data(), nullptr, qo.data(), p) == status::bad_quant_param);
  for (int8_t v : qo) CHECK(v == 9);
}

TEST_CASE("depthwise int8: small maps with the channels in lanes (16 at a time, the rest per plane)") {
  ctnn_test::rng r(2718);
  sweep_count res;
  [[maybe_unused]] int clanes = 0;
  for (int64_t k : {3, 5})
    for (int64_t s : {1, 2})
      for (int it = 0; it < 24; ++it) {
        // 16 .. 40 channels (whole blocks of 16 and a remainder), maps up to 16 outputs wide
        const int64_t c = it % 3 == 0 ? 16 * r.range(1, 2) : r.range(16, 40);
        const int hw_max = s == 1 ? 16 : 32;
        const conv_geometry g = dw_geometry(c, 1, r.range(1, hw_max), r.range(1, hw_max), k, s, r.range(0, 2),
                                            r.range(0, 2), r.range(0, 2), r.range(0, 2));
        if (!g.valid()) continue;
        check_depthwise(g, r, res);
#if CTNN_DW_CHANNEL_LANES
        const bool fit = k == 3 ? (s == 1 ? kk::detail::dw::clanes_fit<3, 1>(g) : kk::detail::dw::clanes_fit<3, 2>(g))
                                : (s == 1 ? kk::detail::dw::clanes_fit<5, 1>(g) : kk::detail::dw::clanes_fit<5, 2>(g));
        clanes += fit ? 1 : 0;
#endif
      }
  // MobileNetV2's small maps with all their channels
  // and wider ones in several bands of output rows (56 wide: 8 rows a band at 3x3, stride 1)
  for (const auto& g : {dw_geometry(960, 1, 7, 7, 3, 1, 1, 1, 1, 1), dw_geometry(384, 1, 14, 14, 3, 1, 1, 1, 1, 1),
                        dw_geometry(576, 1, 14, 14, 3, 2, 1, 1, 1, 1), dw_geometry(40, 1, 14, 14, 5, 1, 2, 2, 2, 2),
                        dw_geometry(16, 1, 56, 56, 3, 1, 1, 1, 1, 1), dw_geometry(32, 1, 112, 112, 3, 2, 1, 1, 1, 1),
                        dw_geometry(17, 1, 28, 28, 5, 2, 2, 2, 2, 2), dw_geometry(16, 1, 30, 64, 3, 1, 0, 2, 1, 0)})
    check_depthwise(g, r, res);
  CHECK(res.cases > 80);
#if CTNN_DW_CHANNEL_LANES
  MESSAGE("channel-lane cases: " << clanes);
  CHECK(clanes > 40);
#endif
}

TEST_CASE("depthwise int8 in bytes (vpdpbusd): rows sharing a vector, tails, 5x5, strides, the plane's limit") {
  ctnn_test::rng r(3141);
  sweep_count res;
  [[maybe_unused]] int bytes = 0;
  // {c, h, w, k, s, pads}: 7-wide (2 rows a vector, an odd row left), 4-wide at 5x5 stride 2
  // (3 rows: the windows of 4 do not fit one load), 3-wide (5 rows), widths around 16 and 64, a
  // 130-wide row (tails), the plane at vpdp_plane_cap and past it (the other paths)
  const conv_geometry shapes[] = {
      dw_geometry(17, 1, 7, 7, 3, 1, 1, 1, 1, 1),    dw_geometry(20, 1, 9, 8, 5, 2, 2, 2, 2, 2),
      dw_geometry(18, 1, 11, 3, 3, 1, 1, 1, 1, 1),   dw_geometry(3, 1, 19, 17, 3, 1, 1, 1, 1, 1),
      dw_geometry(3, 1, 13, 65, 3, 1, 0, 2, 2, 0),   dw_geometry(2, 1, 6, 130, 5, 1, 2, 2, 2, 2),
      dw_geometry(2, 1, 9, 129, 3, 2, 1, 1, 1, 1),   dw_geometry(2, 1, 28, 28, 5, 2, 2, 2, 2, 2),
      dw_geometry(2, 1, 178, 178, 3, 1, 1, 1, 1, 1), dw_geometry(2, 1, 200, 200, 3, 1, 1, 1, 1, 1),
      dw_geometry(2, 2, 30, 30, 3, 1, 1, 1, 1, 1)};
  for (const auto& g : shapes)
    for (int rep = 0; rep < 4; ++rep) {  // zero points, multipliers (fast and wrapping rows) and clamps vary
      check_depthwise(g, r, res);
#if CTNN_DW_VPDP
      const bool fits = g.kh == 3 ? (g.sh == 1 ? kk::detail::dw::vpdp_fits<3, 1>(g, 0) : kk::detail::dw::vpdp_fits<3, 2>(g, 0))
                                  : (g.sh == 1 ? kk::detail::dw::vpdp_fits<5, 1>(g, 0) : kk::detail::dw::vpdp_fits<5, 2>(g, 0));
      bytes += fits ? 1 : 0;
#endif
    }
#if CTNN_DW_VPDP
  CHECK(bytes == 4 * 9);  // all but the 200 x 200 plane and the channel multiplier 2
  CHECK(kk::detail::dw::vpdp_rows<3, 1>(shapes[0], 9) == 2);
  CHECK(kk::detail::dw::vpdp_rows<5, 2>(shapes[1], 12) == 3);  // 4 rows would read 86 bytes
  CHECK(kk::detail::dw::vpdp_rows<3, 1>(shapes[2], 5) == 5);
  CHECK(kk::detail::dw::vpdp_rows<3, 1>(shapes[3], 19) == 1);
#endif
}
