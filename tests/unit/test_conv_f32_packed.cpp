// conv2d_f32's paths with weights packed once, against a direct convolution in double.
// Winograd F(4x4, 3x3) (kernels/winograd.hpp): partial tiles on both edges, asymmetric padding,
// several blocks with a block boundary inside a tile row, tile rows wider than a vector of tiles,
// output channels not a multiple of the GEMM's rows, bias and the fused clamp. The pixel-row
// GEMM (detail::conv2d_f32_rows): both weight layouts, strides, dilation, 5x5 and 7x7 windows,
// padding, the largest output it takes. conv2d_f32's dispatch to both through the packed
// weights, their status codes, where each applies.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/winograd.hpp"
#include "test_kernels_rng.hpp"

using ctnn::kernels::conv_geometry;
using ctnn::kernels::status;
namespace kk = ctnn::kernels;

namespace {

conv_geometry conv3x3(int64_t c, int64_t h, int64_t w, int64_t k, int64_t pt, int64_t pb, int64_t pl, int64_t pr) {
  conv_geometry g;
  g.in_c = c, g.in_h = h, g.in_w = w, g.out_c = k, g.kh = 3, g.kw = 3;
  g.pt = pt, g.pb = pb, g.pl = pl, g.pr = pr;
  return g;
}

/// The exact convolution (double sums) with bias; one group.
std::vector<double> exact_conv(const conv_geometry& g, const std::vector<float>& in, const std::vector<float>& w,
                               const std::vector<float>& bias) {
  const int64_t oh = g.out_h(), ow = g.out_w();
  std::vector<double> out(static_cast<size_t>(g.out_elems()));
  for (int64_t k = 0; k < g.out_c; ++k)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x) {
        double acc = bias[static_cast<size_t>(k)];
        for (int64_t c = 0; c < g.in_c; ++c)
          for (int64_t ky = 0; ky < g.kh; ++ky)
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              const int64_t iy = y * g.sh + ky * g.dh - g.pt, ix = x * g.sw + kx * g.dw - g.pl;
              if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
              acc += double(in[static_cast<size_t>((c * g.in_h + iy) * g.in_w + ix)]) *
                     double(w[static_cast<size_t>(((k * g.in_c + c) * g.kh + ky) * g.kw + kx)]);
            }
        out[static_cast<size_t>((k * oh + y) * ow + x)] = acc;
      }
  return out;
}

/// A layer's seeded input, weights and bias in [-1, 1) and its exact output.
struct conv_data {
  std::vector<float> in, w, bias;
  std::vector<double> want;
  conv_data(const conv_geometry& g, ctnn_test::rng& r)
      : in(r.f32(static_cast<size_t>(g.in_elems()))),
        w(r.f32(static_cast<size_t>(g.weight_elems()))),
        bias(r.f32(static_cast<size_t>(g.out_c))),
        want(exact_conv(g, in, w, bias)) {}
};

/// max |got - clamp(want, lo, hi)| / max(1, max |want|): the error against the layer's largest
/// output before the clamp
double rel_error(const std::vector<float>& got, const std::vector<double>& want, float lo, float hi) {
  double diff = 0, scale = 1;
  for (size_t i = 0; i < want.size(); ++i) {
    diff = std::max(diff, std::fabs(double(got[i]) - std::clamp(want[i], double(lo), double(hi))));
    scale = std::max(scale, std::fabs(want[i]));
  }
  return diff / scale;
}

}  // namespace

TEST_CASE("winograd F(4x4, 3x3): against the exact convolution, every tile and block shape") {
  struct shape {
    conv_geometry g;
    const char* what;
  };
  const shape shapes[] = {
      {conv3x3(32, 30, 26, 40, 1, 1, 1, 1), "8x7 tiles, the last row and column partial (30x26)"},
      {conv3x3(36, 34, 34, 33, 0, 0, 0, 0), "no padding, 33 output channels (GEMM row tail)"},
      {conv3x3(33, 27, 41, 32, 2, 0, 0, 1), "asymmetric padding 2/0/0/1"},
      {conv3x3(48, 20, 76, 48, 1, 1, 1, 1), "19 tiles a row (16 + 3 lanes), two blocks split inside a row"},
      {conv3x3(48, 40, 60, 48, 1, 1, 1, 1), "150 tiles in three blocks, the last one short"},
  };
  ctnn_test::rng r(17);
  for (const auto& s : shapes) {
    const conv_geometry& g = s.g;
    const std::string what = s.what;
    CAPTURE(what);
    REQUIRE(kk::detail::winograd_f32_applies(g));
    const conv_data d(g, r);
    const auto &in = d.in, &w = d.w, &bias = d.bias;
    const auto& want = d.want;
    const size_t pb = kk::winograd_f32_packed_bytes(g);
    REQUIRE(pb == size_t(36 * g.out_c * g.in_c * 4 + 63) / 64 * 64);
    REQUIRE(kk::conv2d_f32_packed_bytes(g) == pb);
    std::vector<float> packed(pb / 4);
    REQUIRE(kk::pack_conv2d_f32_weights(g, w.data(), packed.data(), pb) == status::ok);
    std::vector<float> got(static_cast<size_t>(g.out_elems()), -7.0f);
    REQUIRE(kk::conv2d_f32_winograd(g, in.data(), packed.data(), pb, bias.data(), got.data()) == status::ok);
    const double e = rel_error(got, want, -INFINITY, INFINITY);
    MESSAGE(what << ": max error " << e << " of the largest output");
    CHECK(e <= 2e-5);
    // the im2col path (no packed weights) on the same layer, for scale
    std::vector<float> direct(got.size());
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), bias.data(), direct.data(), 0, nullptr, 0) == status::ok);
    MESSAGE("  im2col path: " << rel_error(direct, want, -INFINITY, INFINITY));
    // conv2d_f32 with the packed weights runs Winograd: the same floats; with a clamp
    std::vector<float> via(got.size(), -7.0f);
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), bias.data(), via.data(), 0, nullptr, 0, nullptr,
                           -__builtin_huge_valf(), __builtin_huge_valf(), packed.data(), pb) == status::ok);
    CHECK(via == got);
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), bias.data(), via.data(), 0, nullptr, 0, nullptr, -0.5f, 0.75f,
                           packed.data(), pb) == status::ok);
    CHECK(rel_error(via, want, -0.5f, 0.75f) <= 2e-5);
    for (size_t i = 0; i < via.size(); ++i) REQUIRE((via[i] >= -0.5f && via[i] <= 0.75f));
    // no bias
    REQUIRE(kk::conv2d_f32_winograd(g, in.data(), packed.data(), pb, nullptr, got.data()) == status::ok);
    const std::vector<float> zero(static_cast<size_t>(g.out_c), 0.0f);
    CHECK(rel_error(got, exact_conv(g, in, w, zero), -INFINITY, INFINITY) <= 2e-5);
  }
}

TEST_CASE("winograd: where it applies, and its status codes") {
  // ResNet-18's 56x56 and 28x28 3x3 layers, not its 14x14 and 7x7 ones (16 and 4 tiles)
  CHECK(kk::detail::winograd_f32_applies(conv3x3(64, 56, 56, 64, 1, 1, 1, 1)));
  CHECK(kk::detail::winograd_f32_applies(conv3x3(128, 28, 28, 128, 1, 1, 1, 1)));
  CHECK_FALSE(kk::detail::winograd_f32_applies(conv3x3(256, 14, 14, 256, 1, 1, 1, 1)));
  CHECK_FALSE(kk::detail::winograd_f32_applies(conv3x3(512, 7, 7, 512, 1, 1, 1, 1)));
  CHECK_FALSE(kk::detail::winograd_f32_applies(conv3x3(16, 32, 32, 16, 1, 1, 1, 1)));  // 16 channels
  conv_geometry g = conv3x3(64, 56, 56, 64, 1, 1, 1, 1);
  g.sh = g.sw = 2;
  CHECK_FALSE(kk::detail::winograd_f32_applies(g));
  g = conv3x3(64, 56, 56, 64, 1, 1, 1, 1);
  g.dh = g.dw = 2;
  CHECK_FALSE(kk::detail::winograd_f32_applies(g));
  g = conv3x3(64, 56, 56, 64, 1, 1, 1, 1);
  g.groups = 2;
  CHECK_FALSE(kk::detail::winograd_f32_applies(g));
  g = conv3x3(64, 56, 56, 64, 1, 1, 1, 1);
  g.kh = g.kw = 5;
  CHECK_FALSE(kk::detail::winograd_f32_applies(g));
  CHECK(kk::winograd_f32_packed_bytes(g) == 0);
  // a block of 32 tiles beyond the workspace: not applied
  CHECK_FALSE(kk::detail::winograd_f32_applies(conv3x3(512, 28, 28, 512, 1, 1, 1, 1)));

  const conv_geometry ok = conv3x3(32, 30, 26, 40, 1, 1, 1, 1);
  const size_t pb = kk::winograd_f32_packed_bytes(ok);
  std::vector<float> in(static_cast<size_t>(ok.in_elems()), 0.5f), w(static_cast<size_t>(ok.weight_elems()), 0.25f);
  std::vector<float> packed(pb / 4), out(static_cast<size_t>(ok.out_elems()));
  CHECK(kk::pack_winograd_f32(ok, w.data(), packed.data(), pb - 4) == status::scratch_too_small);
  CHECK(kk::pack_winograd_f32(ok, nullptr, packed.data(), pb) == status::null_pointer);
  CHECK(kk::pack_winograd_f32(g, w.data(), packed.data(), pb) == status::bad_geometry);
  REQUIRE(kk::pack_winograd_f32(ok, w.data(), packed.data(), pb) == status::ok);
  CHECK(kk::conv2d_f32_winograd(ok, in.data(), packed.data(), pb - 4, nullptr, out.data()) ==
        status::scratch_too_small);
  CHECK(kk::conv2d_f32_winograd(ok, nullptr, packed.data(), pb, nullptr, out.data()) == status::null_pointer);
  CHECK(kk::conv2d_f32_winograd(ok, in.data(), nullptr, pb, nullptr, out.data()) == status::null_pointer);
  CHECK(kk::conv2d_f32_winograd(ok, in.data(), packed.data(), pb, nullptr, nullptr) == status::null_pointer);
  CHECK(kk::conv2d_f32_winograd(g, in.data(), packed.data(), pb, nullptr, out.data()) == status::bad_geometry);
  // too few packed bytes through conv2d_f32: the im2col path with the weights in place
  std::vector<float> a(out.size()), b(out.size());
  REQUIRE(kk::conv2d_f32(ok, in.data(), w.data(), nullptr, a.data(), 0, nullptr, 0, nullptr, -__builtin_huge_valf(),
                         __builtin_huge_valf(), packed.data(), pb - 4) == status::ok);
  REQUIRE(kk::conv2d_f32(ok, in.data(), w.data(), nullptr, b.data(), 0, nullptr, 0) == status::ok);
  CHECK(a == b);
  // every output of constant input and weights: 0.125 times the taps inside the input
  REQUIRE(kk::conv2d_f32_winograd(ok, in.data(), packed.data(), pb, nullptr, out.data()) == status::ok);
  const int64_t oh = ok.out_h(), ow = ok.out_w();
  for (int64_t y = 0; y < oh; ++y)
    for (int64_t x = 0; x < ow; ++x) {
      const int64_t ny = 3 - (y == 0) - (y == oh - 1), nx = 3 - (x == 0) - (x == ow - 1);
      REQUIRE(std::fabs(out[static_cast<size_t>(y * ow + x)] - 0.125f * 32 * float(ny * nx)) <= 1e-4f);
    }
}

TEST_CASE("pixel-row GEMM: against the exact convolution, both weight layouts, strides, dilation, windows") {
  struct shape {
    conv_geometry g;
    const char* what;
  };
  auto geo = [](int64_t c, int64_t h, int64_t w, int64_t k, int64_t kh, int64_t kw, int64_t s, int64_t p, int64_t d) {
    conv_geometry g;
    g.in_c = c, g.in_h = h, g.in_w = w, g.out_c = k, g.kh = kh, g.kw = kw, g.sh = g.sw = s;
    g.pt = g.pb = g.pl = g.pr = p, g.dh = g.dw = d;
    return g;
  };
  conv_geometry asym = geo(40, 9, 13, 70, 3, 3, 1, 0, 1);
  asym.pt = 2, asym.pl = 1, asym.pr = 0, asym.pb = 1;
  const shape shapes[] = {
      {geo(16, 8, 8, 64, 3, 3, 1, 1, 1), "ResNet-8's 8x8 (weights row-major: out_c K within the whole-K GEMM)"},
      {geo(128, 7, 7, 150, 3, 3, 1, 1, 1), "7x7, weights in B panels (150 x 1152), out_c not a multiple of NR"},
      {geo(96, 14, 14, 96, 3, 3, 2, 1, 1), "stride 2 (14x14 -> 7x7)"},
      {geo(24, 11, 12, 64, 5, 5, 1, 2, 2), "5x5, dilation 2"},
      {geo(3, 30, 30, 64, 7, 7, 2, 3, 1), "a 7x7/2 stem on 3 channels (15x15)"},
      {geo(32, 16, 16, 65, 3, 3, 1, 1, 1), "16x16: the largest output taken"},
      {asym, "asymmetric padding 2/1/1/0"},
  };
  ctnn_test::rng r(23);
  for (const auto& s : shapes) {
    const conv_geometry& g = s.g;
    const std::string what = s.what;
    CAPTURE(what);
    REQUIRE(g.valid());
    REQUIRE(kk::detail::conv_rows_applies(g));
    REQUIRE_FALSE(kk::detail::winograd_f32_applies(g));
    const conv_data d(g, r);
    const auto &in = d.in, &w = d.w, &bias = d.bias;
    const auto& want = d.want;
    const size_t pb = kk::conv2d_f32_packed_bytes(g);
    REQUIRE(pb >= size_t(g.weight_elems()) * 4);
    std::vector<float> packed(pb / 4, std::nanf(""));
    REQUIRE(kk::pack_conv2d_f32_weights(g, w.data(), packed.data(), pb) == status::ok);
    std::vector<float> got(static_cast<size_t>(g.out_elems()), -7.0f);
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), bias.data(), got.data(), 0, nullptr, 0, nullptr,
                           -__builtin_huge_valf(), __builtin_huge_valf(), packed.data(), pb) == status::ok);
    // a plain GEMM over K products: the im2col path's rounding
    CHECK(rel_error(got, want, -INFINITY, INFINITY) <= 2e-6);
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), bias.data(), got.data(), 0, nullptr, 0, nullptr, -0.5f, 0.75f,
                           packed.data(), pb) == status::ok);
    CHECK(rel_error(got, want, -0.5f, 0.75f) <= 2e-6);
    for (float v : got) REQUIRE((v >= -0.5f && v <= 0.75f));
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), nullptr, got.data(), 0, nullptr, 0, nullptr,
                           -__builtin_huge_valf(), __builtin_huge_valf(), packed.data(), pb) == status::ok);
    const std::vector<float> zero(static_cast<size_t>(g.out_c), 0.0f);
    CHECK(rel_error(got, exact_conv(g, in, w, zero), -INFINITY, INFINITY) <= 2e-6);
    // too few packed bytes: an error from the packing, the weights in place in conv2d_f32
    CHECK(kk::pack_conv2d_f32_weights(g, w.data(), packed.data(), pb - 4) == status::scratch_too_small);
    std::vector<float> inplace(got.size());
    REQUIRE(kk::conv2d_f32(g, in.data(), w.data(), nullptr, inplace.data(), 0, nullptr, 0, nullptr,
                           -__builtin_huge_valf(), __builtin_huge_valf(), packed.data(), pb - 4) == status::ok);
    CHECK(rel_error(inplace, exact_conv(g, in, w, zero), -INFINITY, INFINITY) <= 2e-6);
  }
  // where it does not apply
  CHECK_FALSE(kk::detail::conv_rows_applies(geo(32, 17, 16, 64, 3, 3, 1, 1, 1)));  // 272 pixels
  CHECK_FALSE(kk::detail::conv_rows_applies(geo(32, 8, 8, 63, 3, 3, 1, 1, 1)));    // 63 channels
  CHECK_FALSE(kk::detail::conv_rows_applies(geo(256, 14, 14, 512, 1, 1, 2, 0, 1)));  // a strided 1x1
  CHECK_FALSE(kk::detail::conv_rows_applies(geo(64, 56, 56, 64, 3, 3, 1, 1, 1)));    // Winograd's
  conv_geometry grouped = geo(64, 8, 8, 64, 3, 3, 1, 1, 1);
  grouped.groups = 2;
  CHECK_FALSE(kk::detail::conv_rows_applies(grouped));
  CHECK(kk::detail::conv_rows_applies(geo(512, 7, 7, 512, 3, 3, 1, 1, 1)));  // ResNet-18's 7x7 and 14x14
  CHECK(kk::detail::conv_rows_applies(geo(256, 14, 14, 256, 3, 3, 1, 1, 1)));
}
