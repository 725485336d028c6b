// The scalar int8 kernels (kernels/scalar.hpp, the rv32im path of layers.hpp) against the
// reference kernels, bit for bit, on random shapes: every padding / stride / dilation / groups,
// weight zero points other than 0, per-tensor and per-channel requantization, activation ranges,
// im2col buffers from two pixels up; the 32-bit requantization against quant:: on edge values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/scalar.hpp"
#include "test_kernels_rng.hpp"

using ctnn::kernels::conv_geometry;
using ctnn::kernels::status;
namespace kr = ctnn::ref;
namespace ks = ctnn::kernels::scalar;
namespace quant = ctnn::quant;

namespace {

size_t usz(int64_t v) { return static_cast<size_t>(v); }

/// Random requantization parameters for n channels (multipliers in [2^30, 2^31) or 0).
struct qp {
  std::vector<int32_t> mult, shift;
  kr::gemm_s8_params p{};
  qp(ctnn_test::rng& r, int n, int shift_lo, int shift_hi) {
    mult.resize(usz(n));
    shift.resize(usz(n));
    for (int i = 0; i < n; ++i) {
      mult[usz(i)] = r.range(0, 15) == 0 ? 0 : static_cast<int32_t>(r.uniform(int64_t{1} << 30, (int64_t{1} << 31) - 1));
      shift[usz(i)] = r.range(shift_lo, shift_hi);
    }
    const int out_zp = r.range(-128, 127);
    int lo = r.range(-128, 127), hi = r.range(-128, 127);
    if (lo > hi) std::swap(lo, hi);
    if (r.range(0, 1) == 0) lo = -128, hi = 127;
    p = kr::gemm_s8_params{r.range(-128, 127), r.range(0, 2) == 0 ? r.range(-128, 127) : 0, out_zp, mult.data(),
                           shift.data(), r.range(0, 3) != 0, lo, hi};
  }
};

}  // namespace

TEST_CASE("scalar requantize: equals quant::multiply_by_quantized_multiplier + zero point + clamp") {
  ctnn_test::rng r(11);
  const int32_t edges[] = {0, 1, -1, 2, -2, 255, -256, 1 << 20, -(1 << 20), std::numeric_limits<int32_t>::max(),
                           std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max() - 1,
                           std::numeric_limits<int32_t>::min() + 1};
  for (int t = 0; t < 200000; ++t) {
    const int32_t mult = t % 17 == 0 ? 0 : static_cast<int32_t>(r.uniform(int64_t{1} << 30, (int64_t{1} << 31) - 1));
    const int shift = r.range(quant::min_shift, quant::max_shift);
    const int32_t acc = t % 3 == 0 ? edges[usz(r.range(0, 12))] : static_cast<int32_t>(r.next());
    const int32_t zp = r.range(-128, 127);
    const int32_t mb = quant::multiply_by_quantized_multiplier(acc, mult, shift);
    const ks::requant32 q = ks::make_requant32(mult, shift, zp, -128, 127);
    REQUIRE(ks::mbqm(acc, q) == mb);
    const int64_t o = int64_t{mb} + zp;
    const auto want = static_cast<int8_t>(o < -128 ? -128 : (o > 127 ? 127 : o));
    REQUIRE(ks::requantize(static_cast<uint32_t>(acc), q) == want);
  }
}

TEST_CASE("scalar conv2d_s8: bit-exact with ref::conv2d_s8 on random geometries and buffers") {
  ctnn_test::rng r(2024);
  for (int t = 0; t < 600; ++t) {
    conv_geometry g{};
    g.groups = r.range(1, 3);
    g.in_c = g.groups * r.range(1, 4);
    g.out_c = g.groups * r.range(1, 6);
    g.kh = r.range(1, 4), g.kw = r.range(1, 4);
    g.sh = r.range(1, 3), g.sw = r.range(1, 3);
    g.dh = r.range(1, 2), g.dw = r.range(1, 2);
    g.pt = r.range(0, 2), g.pb = r.range(0, 2), g.pl = r.range(0, 2), g.pr = r.range(0, 2);
    g.in_h = r.range(1, 10), g.in_w = r.range(1, 10);
    if (!g.valid() || g.depthwise()) continue;
    const auto in = r.s8(usz(g.in_elems()));
    const auto w = r.s8(usz(g.weight_elems()));
    const auto bias = r.s32(usz(g.out_c), -5000, 5000);
    qp q(r, static_cast<int>(g.out_c), -12, 2);
    const int32_t* b = r.range(0, 4) == 0 ? nullptr : bias.data();
    std::vector<int8_t> want(usz(g.out_elems())), got(usz(g.out_elems()), 0x55);
    REQUIRE(kr::conv2d_s8(g, in.data(), w.data(), b, want.data(), q.p) == status::ok);
    // buffers from 2 patches (many blocks, odd pixel counts) to beyond the 64-pixel cap
    const size_t k = usz(g.gemm_k());
    const size_t bytes = k * usz(r.range(2, 70)) + usz(r.range(0, static_cast<int>(k) - 1));
    std::vector<int8_t> col(bytes);
    REQUIRE(ks::conv2d_s8(g, in.data(), w.data(), b, got.data(), q.p, col.data(), bytes) == status::ok);
    REQUIRE(got == want);
  }
}

TEST_CASE("scalar conv2d_s8: faults") {
  conv_geometry g{2, 4, 4, 3, 3, 3};
  std::vector<int8_t> in(32), w(54), out(12), col(64);
  int32_t m = 1 << 30, s = -3;
  const kr::gemm_s8_params p{0, 0, 0, &m, &s, false, -128, 127};
  CHECK(ks::conv2d_s8(g, in.data(), w.data(), nullptr, out.data(), p, col.data(), 18) == status::scratch_too_small);
  CHECK(ks::conv2d_s8(g, in.data(), w.data(), nullptr, out.data(), p, nullptr, 64) == status::null_pointer);
  CHECK(ks::conv2d_s8(g, in.data(), w.data(), nullptr, out.data(), p, col.data(), 36) == status::ok);
  conv_geometry bad = g;
  bad.in_c = 0;
  CHECK(ks::conv2d_s8(bad, in.data(), w.data(), nullptr, out.data(), p, col.data(), 64) == status::bad_geometry);
}

TEST_CASE("scalar depthwise_conv2d_s8: bit-exact with ref::conv2d_s8") {
  ctnn_test::rng r(77);
  for (int t = 0; t < 800; ++t) {
    conv_geometry g{};
    g.in_c = r.range(1, 5);
    g.groups = g.in_c;
    g.out_c = g.in_c * r.range(1, 3);
    const bool three = r.range(0, 1) == 0;
    g.kh = three ? 3 : r.range(1, 5), g.kw = three ? 3 : r.range(1, 5);
    g.sh = r.range(1, 3), g.sw = r.range(1, 3);
    g.dh = r.range(1, 2), g.dw = r.range(0, 2) == 0 ? 2 : 1;
    g.pt = r.range(0, 2), g.pb = r.range(0, 2), g.pl = r.range(0, 2), g.pr = r.range(0, 2);
    g.in_h = r.range(1, 12), g.in_w = r.range(1, 12);
    if (t % 8 == 0) g.in_h = r.range(28, 40), g.in_w = r.range(28, 40);  // beyond the 1 KiB padded plane
    if (!g.valid() || !g.depthwise()) continue;
    const auto in = r.s8(usz(g.in_elems()));
    const auto w = r.s8(usz(g.weight_elems()));
    const auto bias = r.s32(usz(g.out_c), -5000, 5000);
    qp q(r, static_cast<int>(g.out_c), -10, 3);
    const int32_t* b = r.range(0, 4) == 0 ? nullptr : bias.data();
    std::vector<int8_t> want(usz(g.out_elems())), got(usz(g.out_elems()), 0x55);
    REQUIRE(kr::conv2d_s8(g, in.data(), w.data(), b, want.data(), q.p) == status::ok);
    REQUIRE(ks::depthwise_conv2d_s8(g, in.data(), w.data(), b, got.data(), q.p) == status::ok);
    REQUIRE(got == want);
  }
}

TEST_CASE("scalar linear_s8: bit-exact with ref::linear_s8") {
  ctnn_test::rng r(5);
  for (int t = 0; t < 500; ++t) {
    const int batch = r.range(1, 3), in_f = r.range(0, 41), out_f = r.range(1, 13);
    const auto x = r.s8(usz(batch * in_f));
    const auto w = r.s8(usz(in_f * out_f));
    const auto bias = r.s32(usz(out_f), -5000, 5000);
    qp q(r, out_f, -12, 3);
    const int32_t* b = r.range(0, 4) == 0 ? nullptr : bias.data();
    std::vector<int8_t> want(usz(batch * out_f)), got(usz(batch * out_f), 0x55);
    std::vector<int16_t> ws(usz(in_f) + 1);
    REQUIRE(kr::linear_s8(batch, in_f, out_f, x.data(), w.data(), b, want.data(), q.p) == status::ok);
    REQUIRE(ks::linear_s8(batch, in_f, out_f, x.data(), w.data(), b, got.data(), q.p, ws.data(),
                          ks::linear_workspace_bytes(in_f)) == status::ok);
    REQUIRE(got == want);
  }
  std::vector<int8_t> x(8), w(16), y(2);
  std::vector<int16_t> ws(8);
  int32_t m = 1 << 30, s = -3;
  const kr::gemm_s8_params p{0, 0, 0, &m, &s, false, -128, 127};
  CHECK(ks::linear_s8(1, 8, 2, x.data(), w.data(), nullptr, y.data(), p, ws.data(), 15) == status::scratch_too_small);
  CHECK(ks::linear_s8(1, 8, 2, x.data(), w.data(), nullptr, y.data(), p, nullptr, 16) == status::null_pointer);
  CHECK(ks::linear_s8(-1, 8, 2, x.data(), w.data(), nullptr, y.data(), p, ws.data(), 16) == status::bad_size);
}

TEST_CASE("scalar add_s8: bit-exact with ref::add_s8 (tables from 512 elements, every output shift)") {
  ctnn_test::rng r(99);
  for (int t = 0; t < 400; ++t) {
    kr::add_s8_params p{};
    if (t % 2 == 0) {
      const double sa = r.real(0.001f, 0.5f), sb = r.real(0.001f, 0.5f), so = r.real(0.001f, 1.0f);
      int lo = r.range(-128, 127), hi = r.range(-128, 127);
      if (lo > hi) std::swap(lo, hi);
      REQUIRE(kr::make_add_s8_params(p, sa, r.range(-128, 127), sb, r.range(-128, 127), so, r.range(-128, 127), lo,
                                     hi) == status::ok);
    } else {  // any valid parameters: output shifts from -31 to 30 (the fast path takes 1..23 right)
      auto m = [&] { return static_cast<int32_t>(r.uniform(int64_t{1} << 30, (int64_t{1} << 31) - 1)); };
      p = kr::add_s8_params{r.range(-128, 127), r.range(-128, 127), r.range(-128, 127), r.range(0, 20),
                            {m(), r.range(-31, 0)}, {m(), r.range(-31, 0)}, {m(), r.range(-31, 30)}, -128, 127};
    }
    REQUIRE(kr::valid(p));
    const int n = t % 3 == 0 ? r.range(0, 600) : r.range(512, 3000);
    const auto a = r.s8(usz(n)), b = r.s8(usz(n));
    std::vector<int8_t> want(usz(n)), got(usz(n), 0x55);
    REQUIRE(kr::add_s8(n, a.data(), b.data(), want.data(), p) == status::ok);
    ks::add_s8(n, a.data(), b.data(), got.data(), p);
    REQUIRE(got == want);
  }
}

// The lattice path (one input's rescaling exact, the tables of cells) against ref::add_s8_one on
// every (a, b) byte pair: each parameter set is checked exhaustively, so the path is proven for it.
TEST_CASE("scalar add_s8: the lattice path equals ref::add_s8_one on all 65,536 byte pairs") {
  std::vector<int8_t> a(65536), b(65536), got(65536);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(i & 255u), b[i] = static_cast<int8_t>(i >> 8);
  int taken = 0;
  auto exhaustive = [&](const kr::add_s8_params& p) {
    REQUIRE(kr::valid(p));
    ks::detail::add_entry entries[256];
    int32_t cells[ks::detail::add_max_cells];
    bool x_is_a = true;
    uint32_t xs = 0, k = 0;
    const bool lattice = ks::detail::add_s8_lattice_tables(p, x_is_a, entries, cells, xs, k);
    taken += lattice ? 1 : 0;
    std::fill(got.begin(), got.end(), int8_t{0x55});
    ks::add_s8(65536, a.data(), b.data(), got.data(), p);
    for (size_t i = 0; i < a.size(); ++i)
      if (got[i] != kr::add_s8_one(a[i], b[i], p)) {
        CAPTURE(lattice);
        CAPTURE(p.left_shift);
        CAPTURE(p.a.multiplier);
        CAPTURE(p.a.shift);
        CAPTURE(p.b.multiplier);
        CAPTURE(p.b.shift);
        CAPTURE(p.out.multiplier);
        CAPTURE(p.out.shift);
        CAPTURE(static_cast<int>(a[i]));
        CAPTURE(static_cast<int>(b[i]));
        REQUIRE(static_cast<int>(got[i]) == static_cast<int>(kr::add_s8_one(a[i], b[i], p)));
      }
    // a count that is no multiple of the 16-element step, from unaligned places
    ks::add_s8(1037, a.data() + 11, b.data() + 4099, got.data() + 3, p);
    for (size_t i = 0; i < 1037; ++i) REQUIRE(got[i + 3] == kr::add_s8_one(a[i + 11], b[i + 4099], p));
    return lattice;
  };
  kr::add_s8_params p{};
  // firmware/tests/bench_kernels.cpp's residual add, and its inputs swapped
  REQUIRE(kr::make_add_s8_params(p, 0.05, -7, 0.031, 12, 0.07, -2) == status::ok);
  CHECK(exhaustive(p));
  REQUIRE(kr::make_add_s8_params(p, 0.031, 12, 0.05, -7, 0.07, -2) == status::ok);
  CHECK(exhaustive(p));
  // equal scales (both inputs exact), a relu range, zero points and ranges at the ends of int8
  REQUIRE(kr::make_add_s8_params(p, 0.1, 0, 0.1, 0, 0.1, 0) == status::ok);
  CHECK(exhaustive(p));
  REQUIRE(kr::make_add_s8_params(p, 0.02, -128, 0.01, 127, 0.03, -128, -128, 127) == status::ok);
  CHECK(exhaustive(p));
  REQUIRE(kr::make_add_s8_params(p, 0.02, 127, 0.02, -128, 0.025, 5, 5, 127) == status::ok);
  CHECK(exhaustive(p));
  REQUIRE(kr::make_add_s8_params(p, 0.5, 3, 0.001, -3, 0.5, 127, 0, 0) == status::ok);
  exhaustive(p);
  ctnn_test::rng r(1414);
  // what ctnn-import writes: the larger input exact; output scales from 0.3 to 4 times it
  for (int t = 0; t < 120; ++t) {
    const double sa = r.real(0.001f, 0.5f), sb = r.real(0.001f, 0.5f);
    const double so = (sa > sb ? sa : sb) * r.real(0.3f, 4.0f);
    int lo = r.range(-128, 127), hi = r.range(-128, 127);
    if (t % 2 == 0) lo = -128, hi = 127;
    if (lo > hi) std::swap(lo, hi);
    REQUIRE(kr::make_add_s8_params(p, sa, r.range(-128, 127), t % 5 == 0 ? sa : sb, r.range(-128, 127), so,
                                   r.range(-128, 127), lo, hi) == status::ok);
    exhaustive(p);
  }
  CHECK(taken >= 90);
  // any valid parameters with one exact side: left shifts 1..22, the output shift near the
  // lattice step, multipliers at both ends of [2^30, 2^31)
  auto m = [&] { return static_cast<int32_t>(r.uniform(int64_t{1} << 30, (int64_t{1} << 31) - 1)); };
  for (int t = 0; t < 80; ++t) {
    const int ls = t % 3 == 0 ? r.range(1, 22) : 20;
    const int right = std::max(1, ls - 1 + r.range(-2, 6));
    p = kr::add_s8_params{r.range(-128, 127), r.range(-128, 127), r.range(-128, 127), ls, {1 << 30, -r.range(0, 1)},
                          {m(), -r.range(0, 4)}, {m(), -right}, -128, 127};
    if (t % 4 == 0) p.out.multiplier = t % 8 == 0 ? (1 << 30) : quant::int32_max;
    if (t % 5 == 0) p.b = {1 << 30, 0};
    if (t % 7 == 0) p.a_zp = -128, p.b_zp = 127;
    if (t % 2 == 0) std::swap(p.a, p.b);
    if (t % 3 == 1) p.act_min = r.range(-128, 0), p.act_max = r.range(0, 127);
    if (!kr::valid(p)) continue;
    exhaustive(p);
  }
}

TEST_CASE("softmax_s8_params_of: ref::make_softmax_s8_params from the float's bits") {
  ctnn_test::rng r(3);
  auto same = [](float s) {
    kr::softmax_s8_params want{1, 2, 3}, got{1, 2, 3};
    const status sw = kr::make_softmax_s8_params(want, s), sg = ctnn::kernels::softmax_s8_params_of(got, s);
    REQUIRE(sw == sg);
    REQUIRE(want.multiplier == got.multiplier);
    REQUIRE(want.left_shift == got.left_shift);
    REQUIRE(want.diff_min == got.diff_min);
  };
  const float edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0x1p-26f, std::nextafter(0x1p-26f, 1.0f), 16.0f,
                         std::nextafter(16.0f, 0.0f), std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min(), 0.0625f,
                         0.1f, 7.9f};
  for (const float e : edges) same(e);
  for (int t = 0; t < 200000; ++t) {
    const auto bits = static_cast<uint32_t>(r.next() >> 32);
    float s;
    std::memcpy(&s, &bits, 4);
    same(s);
    same(std::ldexp(r.real(1.0f, 2.0f), r.range(-30, 5)));
  }
}

TEST_CASE("kernels::softmax_s8: bit-exact with ref::softmax_s8 (short rows, long rows, the table)") {
  ctnn_test::rng r(8);
  for (int t = 0; t < 300; ++t) {
    const int rows = r.range(1, 4), cols = t % 4 == 0 ? r.range(65, 300) : r.range(1, 64);
    const float scale = std::ldexp(r.real(1.0f, 2.0f), r.range(-12, 2));
    const int zp = r.range(-128, 127);
    const auto x = r.s8(usz(rows * cols));
    std::vector<int8_t> want(x.size()), got(x.size(), 0x55);
    REQUIRE(kr::softmax_s8(rows, cols, x.data(), want.data(), scale, zp) == status::ok);
    REQUIRE(ctnn::kernels::softmax_s8(rows, cols, x.data(), got.data(), scale, zp) == status::ok);
    REQUIRE(got == want);
  }
}

// sum_s8's words: every head alignment and tail length, planes long enough to empty the 16-bit
// halves (128 words) several times, all -128 and all 127 (the halves' extremes) besides random bytes.
TEST_CASE("scalar global_avg_pool2d_s8: bit-exact with ref::adaptive_avg_pool2d to 1 x 1") {
  ctnn_test::rng r(4242);
  for (int t = 0; t < 300; ++t) {
    const int c = r.range(1, 9);
    const int h = t < 40 ? r.range(20, 40) : r.range(1, 12), w = t < 40 ? r.range(20, 40) : r.range(1, 12);
    const int offset = r.range(0, 3);
    const size_t elems = usz(c) * usz(h) * usz(w);
    std::vector<int8_t> buf(elems + 4);
    const int fill = t % 10;
    for (size_t i = 0; i < buf.size(); ++i)
      buf[i] = fill == 0 ? int8_t{-128} : fill == 1 ? int8_t{127} : static_cast<int8_t>(r.range(-128, 127));
    const int8_t* in = buf.data() + offset;
    std::vector<int8_t> want(usz(c)), got(usz(c), 0x55);
    REQUIRE(kr::adaptive_avg_pool2d<int8_t>(c, h, w, 1, 1, in, want.data()) == status::ok);
    ks::global_avg_pool2d_s8(static_cast<uint32_t>(c), static_cast<uint32_t>(h * w), in, got.data());
    REQUIRE(got == want);
    int32_t direct = 0;
    for (int i = 0; i < h * w; ++i) direct += in[i];
    REQUIRE(ks::sum_s8(in, static_cast<uint32_t>(h * w)) == direct);
  }
}
