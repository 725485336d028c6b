// int8 GEMM and convolution with operands packed once (tiled::pack_a_s8_once / pack_b_s8_once,
// kernels::pack_conv2d_s8_weights) against the reference: bit-exact on random shapes whose M, N
// and K are not multiples of the tile, with zero points, per-channel requantization and clamps.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/tiled.hpp"
#include "test_kernels_rng.hpp"

using ctnn::kernels::status;
namespace k = ctnn::kernels;

namespace {

/// A 64-byte aligned byte buffer (vector of 64-byte words).
struct aligned_bytes {
  struct alignas(64) line { unsigned char b[64]; };
  std::vector<line> v;
  explicit aligned_bytes(size_t n) : v(n / 64 + 1) {}
  void* data() { return v.data(); }
  size_t size() const { return v.size() * 64; }
};

struct requant {
  std::vector<int32_t> mult, shift;
  // multipliers of 2^-17 .. 2^max_exp: above 1 (a left shift) the fused requantizations fall back
  requant(ctnn_test::rng& r, int n, int max_exp = 2) : mult(size_t(n)), shift(size_t(n)) {
    for (size_t i = 0; i < size_t(n); ++i) {
      const auto q = ctnn::quant::quantize_multiplier(std::ldexp(double(r.real(0.5f, 1.0f)), r.range(-16, max_exp)));
      mult[i] = q.multiplier;
      shift[i] = q.shift;
    }
  }
};

/// `cases` random GEMMs with A, B or both packed once; returns the number checked.
template <class Tiling>
int run_prepacked_cases(uint64_t seed, int cases, int max_dim) {
  ctnn_test::rng r(seed);
  aligned_bytes ws(Tiling::workspace_bytes(max_dim));
  int checked = 0;
  for (int c = 0; c < cases; ++c) {
    const int M = r.range(1, max_dim), N = r.range(1, max_dim), K = r.range(1, max_dim);
    const int lda = K + r.range(0, 3), ldb = N + r.range(0, 3), ldc = N + r.range(0, 3);
    const auto A = r.s8(size_t(M) * size_t(lda)), B = r.s8(size_t(K) * size_t(ldb));
    const int which = r.range(1, 3);  // 1: A packed, 2: B packed, 3: both
    const bool use_bias = r.range(0, 3) != 0, per_channel = r.range(0, 1) == 1, relu = r.range(0, 1) == 1;
    const int32_t a_zp = r.range(-128, 127), b_zp = r.range(0, 2) == 0 ? r.range(-128, 127) : 0;
    const int32_t out_zp = r.range(-128, 127);
    const auto bias = r.s32(size_t(N), -100000, 100000);
    const requant q(r, N);
    const ctnn::ref::gemm_s8_params p{a_zp, b_zp, out_zp, q.mult.data(), q.shift.data(), per_channel,
                                      relu ? out_zp : -128, 127};
    const int32_t* bp = use_bias ? bias.data() : nullptr;

    aligned_bytes pa(k::tiled::packed_a_s8_bytes<Tiling>(M, K)), pb(k::tiled::packed_b_s8_bytes<Tiling>(K, N));
    k::tiled::s8_prepacked pre{};
    if (which & 1) {
      REQUIRE(k::tiled::pack_a_s8_once<Tiling>(M, K, A.data(), lda, pa.data(), pa.size()) == status::ok);
      pre.a = static_cast<const uint8_t*>(pa.data());
    }
    if (which & 2) {
      REQUIRE(k::tiled::pack_b_s8_once<Tiling>(K, N, B.data(), ldb, pb.data(), pb.size()) == status::ok);
      pre.b = static_cast<const uint8_t*>(pb.data());
    }
    // the raw pointer of a packed operand is not read: pass null for it
    const int8_t* a_raw = (which & 1) ? nullptr : A.data();
    const int8_t* b_raw = (which & 2) ? nullptr : B.data();
    INFO("M=" << M << " N=" << N << " K=" << K << " packed=" << which << " a_zp=" << a_zp << " b_zp=" << b_zp);

    std::vector<int32_t> want32(size_t(M) * size_t(ldc), -7), got32(want32);
    REQUIRE(ctnn::ref::try_gemm_s8_s32(M, N, K, A.data(), lda, B.data(), ldb, bp, want32.data(), ldc, a_zp, b_zp) ==
            status::ok);
    REQUIRE(k::tiled::gemm_s8_s32_prepacked<Tiling>(M, N, K, a_raw, lda, b_raw, ldb, pre, bp, got32.data(), ldc, a_zp,
                                                    b_zp, ws.data(), ws.size()) == status::ok);
    REQUIRE(got32 == want32);

    std::vector<int8_t> want8(size_t(M) * size_t(ldc), 99), got8(want8);
    REQUIRE(ctnn::ref::try_gemm_s8(M, N, K, A.data(), lda, B.data(), ldb, bp, want8.data(), ldc, p) == status::ok);
    REQUIRE(k::tiled::gemm_s8_prepacked<Tiling>(M, N, K, a_raw, lda, b_raw, ldb, pre, bp, got8.data(), ldc, p,
                                                ws.data(), ws.size()) == status::ok);
    REQUIRE(got8 == want8);
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("int8 GEMM with operands packed once is bit-exact with the reference") {
  int n = 0;
  n += run_prepacked_cases<k::qgemm_tiling<3, 5, 6, 10, 64>>(31, 1500, 20);   // portable, odd tiles
  n += run_prepacked_cases<k::qgemm_tiling<3, 16, 6, 32, 64>>(32, 1500, 40);  // VNNI when present
  n += run_prepacked_cases<k::qgemm_tiling<4, 32, 8, 64, 256>>(33, 200, 150);  // several MC / NC blocks
  n += run_prepacked_cases<k::default_s8_tiling>(34, 300, 100);               // this build's tiling
  CHECK(n == 3500);
}

TEST_CASE("packed int8 operands: sizes, padding and argument faults") {
  using T = k::qgemm_tiling<4, 16, 8, 32, 64>;
  // M = 5 -> 8 rows, K = 6 -> 8: sums 8 x 4, panels 8 x 8 values (16-bit where the AVX2 kernel runs)
  CHECK(T::a_bytes == (CTNN_KERNELS_AVX2_S8 ? 2 : 1));
  CHECK(k::tiled::packed_a_s8_bytes<T>(5, 6) == size_t(8 * 4 + 8 * 8 * T::a_bytes));
  CHECK(k::tiled::packed_b_s8_bytes<T>(6, 17) == 32 * 4 + 32 * 8);
  CHECK(k::tiled::packed_a_s8_bytes<T>(0, 6) == 0);
  ctnn_test::rng r(7);
  const auto A = r.s8(5 * 6);
  aligned_bytes pa(k::tiled::packed_a_s8_bytes<T>(5, 6));
  // padding rows have zero sums and zero bytes whatever the buffer held
  for (auto& l : pa.v)
    for (auto& b : l.b) b = 0xAB;
  REQUIRE(k::tiled::pack_a_s8_once<T>(5, 6, A.data(), 6, pa.data(), pa.size()) == status::ok);
  const auto* sums = static_cast<const int32_t*>(pa.data());
  for (int i = 0; i < 5; ++i) {
    int32_t s = 0;
    for (int kk = 0; kk < 6; ++kk) s += A[size_t(i) * 6 + size_t(kk)] + 128;
    CHECK(sums[i] == s);
  }
  CHECK(sums[5] == 0);
  CHECK(sums[7] == 0);
  CHECK(k::tiled::pack_a_s8_once<T>(5, 6, A.data(), 6, pa.data(), k::tiled::packed_a_s8_bytes<T>(5, 6) - 1) ==
        status::scratch_too_small);
  CHECK(k::tiled::pack_a_s8_once<T>(5, 6, A.data(), 5, pa.data(), pa.size()) == status::bad_leading_dim);
  CHECK(k::tiled::pack_a_s8_once<T>(5, 6, nullptr, 6, pa.data(), pa.size()) == status::null_pointer);
  CHECK(k::tiled::pack_a_s8_once<T>(5, 6, A.data(), 6, static_cast<unsigned char*>(pa.data()) + 1, pa.size() - 1) ==
        status::bad_size);
  CHECK(k::tiled::pack_b_s8_once<T>(6, 5, A.data(), 4, pa.data(), pa.size()) == status::bad_leading_dim);
  // a misaligned packed operand is refused by the GEMM
  std::vector<int32_t> c(25);
  aligned_bytes ws(T::workspace_bytes(6));
  k::tiled::s8_prepacked bad{static_cast<const uint8_t*>(pa.data()) + 2, nullptr};
  CHECK(k::tiled::gemm_s8_s32_prepacked<T>(5, 5, 6, nullptr, 6, A.data(), 5, bad, nullptr, c.data(), 5, 0, 0,
                                           ws.data(), ws.size()) == status::bad_size);
}

namespace {

/// One int8 conv with weights packed once against ref::conv2d_s8, random operands, per-channel
/// requantization; false when the GEMM does not run it (nothing packed).
bool check_packed_conv(const k::conv_geometry& g, ctnn_test::rng& r, int64_t panel_rows) {
  const auto in = r.s8(size_t(g.in_c * g.in_h * g.in_w));
  const auto w = r.s8(size_t(g.out_c * g.gemm_k()), -127, 127);
  const auto bias = r.s32(size_t(g.out_c), -5000, 5000);
  const requant q(r, int(g.out_c));
  const int32_t in_zp = r.range(-128, 127), out_zp = r.range(-128, 127);
  const bool relu = r.range(0, 1) == 1;
  const ctnn::ref::gemm_s8_params p{in_zp, 0, out_zp, q.mult.data(), q.shift.data(), true, relu ? out_zp : -128,
                                    127};
  const size_t out_n = size_t(g.out_c * g.out_h() * g.out_w());
  std::vector<int8_t> want(out_n, 1), got(out_n, 2);
  REQUIRE(ctnn::ref::conv2d_s8(g, in.data(), w.data(), bias.data(), want.data(), p) == status::ok);

  const size_t pbytes = k::conv2d_s8_packed_bytes(g);
  aligned_bytes packed(pbytes);
  REQUIRE(k::pack_conv2d_s8_weights(g, w.data(), packed.data(), packed.size()) == status::ok);
  std::vector<int8_t> panel(size_t(k::conv_scratch_elems(g, panel_rows)) + 1);
  INFO("in " << g.in_c << "x" << g.in_h << "x" << g.in_w << " out_c " << g.out_c << " k " << g.kh << "x" << g.kw
             << " s " << g.sh << "x" << g.sw << " groups " << g.groups << " panel_rows " << panel_rows);
  REQUIRE(k::conv2d_s8(g, in.data(), w.data(), bias.data(), got.data(), p, panel_rows, panel.data(), panel.size(),
                       nullptr, 0, pbytes != 0 ? packed.data() : nullptr) == status::ok);
  REQUIRE(got == want);
  return pbytes != 0;
}

}  // namespace

TEST_CASE("conv2d int8 with weights packed once is bit-exact with ref::conv2d_s8") {
  ctnn_test::rng r(41);
  int checked = 0, packed_runs = 0;
  for (int c = 0; c < 400; ++c) {
    k::conv_geometry g{};
    const int groups = r.range(0, 3) == 0 ? r.range(2, 3) : 1;
    g.groups = groups;
    g.in_c = groups * r.range(1, 6);
    g.out_c = groups * r.range(1, 20);
    g.in_h = r.range(1, 12);
    g.in_w = r.range(1, 12);
    const int kernel = r.range(0, 2) == 0 ? 1 : r.range(1, 3);
    g.kh = kernel;
    g.kw = r.range(0, 3) == 0 ? r.range(1, 3) : kernel;
    g.sh = r.range(1, 2);
    g.sw = r.range(1, 2);
    const bool pad = r.range(0, 1) == 1;
    g.pt = pad ? r.range(0, 1) : 0;
    g.pb = pad ? r.range(0, 1) : 0;
    g.pl = pad ? r.range(0, 1) : 0;
    g.pr = pad ? r.range(0, 1) : 0;
    g.dh = g.dw = 1;
    if (!g.valid() || g.depthwise()) continue;
    packed_runs += check_packed_conv(g, r, r.range(1, int(g.out_h()))) ? 1 : 0;
    ++checked;
  }
  CHECK(checked > 300);
#if !CTNN_KERNELS_SCALAR
  CHECK(packed_runs == checked);  // every non-depthwise conv here has K <= kmax: all packed
#else
  CHECK(packed_runs == 0);  // no GEMM on the scalar path: nothing to pack
#endif
}

TEST_CASE("int8 im2col: a stride-2 row gathers the even bytes, every length and offset") {
  ctnn_test::rng r(67);
  const auto src = r.s8(600);
  for (int off = 0; off < 3; ++off)
    for (int64_t n = 0; n <= 280; ++n) {
      std::vector<int8_t> got(size_t(n) + 8, int8_t{77});
      k::detail::gather_even_bytes(got.data(), src.data() + off, n);
      for (int64_t i = 0; i < n; ++i) REQUIRE(got[size_t(i)] == src[size_t(off + 2 * i)]);
      for (size_t i = size_t(n); i < got.size(); ++i) REQUIRE(got[i] == 77);  // nothing past n
    }
}

TEST_CASE("conv2d int8 on network shapes: wide stride-2 rows, panels split at the GEMM's B block, 7x7 and 14x14 maps") {
  ctnn_test::rng r(71);
  struct shape {
    int64_t in_c, in_h, in_w, out_c, k, s, groups;
  };
  // ResNet-18's and MobileNetV2's first convs narrowed, stride-2 3x3 and 1x1 downsampling, rows
  // wider than a B block (panel rows capped), small maps whose N leaves an edge panel (49, 196)
  const shape shapes[] = {{3, 9, 223, 9, 7, 2, 1},   {3, 7, 97, 12, 3, 2, 1},  {6, 8, 120, 18, 3, 2, 1},
                          {8, 6, 150, 17, 1, 2, 1},  {5, 12, 75, 11, 3, 1, 1}, {4, 20, 56, 10, 3, 1, 2},
                          {24, 7, 7, 40, 3, 1, 1},   {20, 7, 7, 35, 1, 1, 1},  {16, 14, 14, 21, 3, 1, 1},
                          {12, 14, 14, 70, 1, 1, 1}, {10, 14, 14, 33, 3, 2, 1}, {9, 28, 28, 13, 3, 1, 1}};
  int checked = 0;
  for (const shape& sh : shapes) {
    k::conv_geometry g{};
    g.in_c = sh.in_c; g.in_h = sh.in_h; g.in_w = sh.in_w; g.out_c = sh.out_c; g.groups = sh.groups;
    g.kh = g.kw = sh.k; g.sh = g.sw = sh.s;
    g.pt = g.pb = g.pl = g.pr = sh.k / 2;
    REQUIRE(g.valid());
    // 0: no panel from the caller, lowered into the static workspace's spare bytes
    for (const int64_t rows : {int64_t{0}, int64_t{1}, g.out_h()}) check_packed_conv(g, r, rows);
    ++checked;
  }
  CHECK(checked == 12);
}

TEST_CASE("conv2d int8 packed: dilation, stride 3, K not a multiple of 4, rows wider than a B block") {
  ctnn_test::rng r(73);
  // {in_c, in_h, in_w, out_c, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw}: the im2col written in the
  // packed B layout (stride 3 and dilation 2 taps, K = 5 * 3 * 3 = 45 with an edge group, N
  // with an edge panel), stride-1 rows read from the padded rows with dilation 2 and with
  // stride 2 in y only, and an output row wider than Tiling::nc (the K x N panel path)
  const k::conv_geometry shapes[] = {{5, 13, 31, 11, 3, 3, 3, 3, 1, 1, 1, 1, 2, 2},
                                     {3, 9, 17, 7, 3, 2, 1, 2, 2, 0, 1, 1, 2, 1},
                                     {2, 3, 700, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
                                     {4, 11, 19, 9, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2},
                                     {3, 12, 20, 6, 3, 3, 2, 1, 1, 0, 1, 2, 1, 2}};
  for (const auto& g : shapes) {
    REQUIRE(g.valid());
    // the GEMM runs them (weights packed), except on the scalar path (no GEMM)
    for (const int64_t rows : {int64_t{0}, int64_t{1}, g.out_h()}) CHECK(check_packed_conv(g, r, rows) == !CTNN_KERNELS_SCALAR);
  }
}

namespace {

/// One int8 conv with packed weights against ref::conv2d_s8 with the weights' zero point wzp,
/// per-channel or per-tensor requantization and a caller workspace of ws_bytes (0: the static
/// one); true when the slab path (AVX-512 VNNI: the implicit im2col) ran it.
bool check_slab_conv(const k::conv_geometry& g, ctnn_test::rng& r, int32_t wzp, bool per_channel, size_t ws_bytes,
                     int max_exp = 2) {
  const auto in = r.s8(size_t(g.in_c * g.in_h * g.in_w));
  const auto w = r.s8(size_t(g.out_c * g.gemm_k()));
  const auto bias = r.s32(size_t(g.out_c), -30000, 30000);
  const requant q(r, int(g.out_c), max_exp);
  const int32_t in_zp = r.range(-128, 127), out_zp = r.range(-128, 127);
  const ctnn::ref::gemm_s8_params p{in_zp, wzp, out_zp, q.mult.data(), q.shift.data(), per_channel, -100, 110};
  const size_t out_n = size_t(g.out_c * g.out_h() * g.out_w());
  std::vector<int8_t> want(out_n, 1), got(out_n, 2);
  REQUIRE(ctnn::ref::conv2d_s8(g, in.data(), w.data(), bias.data(), want.data(), p) == status::ok);
  const size_t pbytes = k::conv2d_s8_packed_bytes(g);
  aligned_bytes packed(pbytes), ws(ws_bytes);
  REQUIRE(k::pack_conv2d_s8_weights(g, w.data(), packed.data(), packed.size()) == status::ok);
  std::vector<int8_t> panel(size_t(k::conv_scratch_elems(g, g.out_h())) + 1);
  INFO("in " << g.in_c << "x" << g.in_h << "x" << g.in_w << " out_c " << g.out_c << " k " << g.kh << "x" << g.kw
             << " s " << g.sh << "x" << g.sw << " d " << g.dh << "x" << g.dw << " groups " << g.groups << " wzp "
             << wzp << " per_channel " << per_channel << " ws " << ws_bytes);
  REQUIRE(k::conv2d_s8(g, in.data(), w.data(), bias.data(), got.data(), p, g.out_h(), panel.data(), panel.size(),
                       ws_bytes != 0 ? ws.data() : nullptr, ws_bytes, pbytes != 0 ? packed.data() : nullptr) ==
          status::ok);
  REQUIRE(got == want);
  using T = k::default_s8_tiling;
  const size_t avail = ws_bytes != 0 ? ws_bytes : sizeof(k::detail::static_workspace_s8<T>::buf);
  if (!k::detail::conv_s8_slab_applies<T>(g) || wzp != 0) return false;
  return k::detail::conv_s8_cells_applies(g) ? k::detail::conv_s8_cells_chunk<T::nr>(g, avail) > 0
                       : k::detail::conv_s8_slab_rows<T::nr>(g, avail) > 0;
}

}  // namespace

TEST_CASE("conv2d int8 slab path (implicit im2col): strides, dilation, groups, padded channels, panels, fallbacks") {
  ctnn_test::rng r(79);
  using T = k::default_s8_tiling;
  // {in_c, in_h, in_w, out_c, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw, groups}
  const k::conv_geometry shapes[] = {{64, 9, 11, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},   // M edge 70 = 5 x 12 + 10
                                     {16, 14, 14, 20, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},  // stride 2: 4 phases
                                     {3, 17, 30, 8, 7, 7, 2, 2, 3, 3, 3, 3, 1, 1, 1},    // a stem: in_c 3 -> 4
                                     {8, 10, 12, 13, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 1},   // dilation 2
                                     {12, 9, 9, 18, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3},    // 3 groups of 4 channels
                                     {6, 8, 9, 5, 3, 2, 2, 1, 1, 0, 0, 1, 1, 1, 1},      // 3x2, stride (2, 1)
                                     {32, 7, 7, 36, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},    // 7x7 map: wq 9
                                     {4, 11, 13, 7, 3, 3, 1, 1, 2, 0, 1, 2, 1, 1, 1},    // asymmetric padding
                                     {7, 6, 40, 9, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 1},     // in_c 7 -> 8, 5x5
                                     {5, 8, 8, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},      // in_c 5: not on the slab
                                     {8, 40, 70, 10, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},   // panels in a K-sized workspace
                                     {8, 9, 75, 10, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},    // stride 2, rows of 39 cells: 2 loads
                                     {4, 10, 70, 6, 3, 3, 2, 2, 0, 1, 0, 1, 1, 1, 1},    // stride 2, padding right only
                                     {8, 12, 41, 5, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 1},    // stride 2, dilation 2
                                     {8, 13, 40, 9, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1},    // stride 3: staged phase rows
                                     {4, 6, 200, 200, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}}; // no slab panel fits it
  int slab_runs = 0;
  for (const auto& g : shapes) {
    REQUIRE(g.valid());
    // the static workspace, and one of the im2col path's size (Tiling::workspace_bytes(K))
    for (const int32_t wzp : {0, 3})
      for (const bool per_channel : {true, false})
        for (const size_t ws : {size_t{0}, size_t(T::workspace_bytes(g.gemm_k()))})
          slab_runs += check_slab_conv(g, r, wzp, per_channel, ws) ? 1 : 0;
  }
#if CTNN_KERNELS_VNNI && !CTNN_KERNELS_SCALAR
  // 15 shapes on the slab with the weights' zero point 0: both workspaces, but the last's K-sized one
  CHECK(slab_runs == (15 * 2 - 1) * 2);
  const auto& split = shapes[10];
  const int64_t rows = k::detail::conv_s8_slab_rows<T::nr>(split, T::workspace_bytes(split.gemm_k()));
  CHECK(rows > 0);
  CHECK(rows < split.out_h());
#else
  CHECK(slab_runs == 0);
#endif
}

TEST_CASE("conv2d int8 pixel-row GEMM (small maps: pixels as rows, channels in lanes): shapes, blocks, tiles") {
  ctnn_test::rng r(89);
  using T = k::default_s8_tiling;
  // {in_c, in_h, in_w, out_c, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw, groups}
  const k::conv_geometry shapes[] = {{64, 7, 7, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},     // 49 = 4 x 6 + 5 x 5
                                     {32, 14, 14, 96, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},   // stride 2; 64 + 32 channels
                                     {64, 7, 7, 160, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},   // 64 + 64 + 32 channels
                                     {32, 13, 13, 32, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},   // stride 2, odd input
                                     {38, 6, 7, 32, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},     // in_c 38 -> 40; 42 = 7 x 6
                                     {32, 1, 6, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},     // 6 pixels: one tile
                                     {48, 6, 6, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},     // wq 8 for 6 columns
                                     {32, 1, 7, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},     // 7 = 4 + 3 pixels
                                     {32, 8, 8, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},     // 64 pixels, the most
                                     {64, 8, 8, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2},     // 2 groups of 32
                                     {32, 2, 6, 96, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}};    // 12 pixels, 64 + 32 channels
  int px_runs = 0;
  for (const auto& g : shapes) {
    REQUIRE(g.valid());
    const bool px = k::detail::conv_s8_px_applies<T>(g);
    for (const int max_exp : {0, 2})  // every channel on the fused requantization; some not
      for (const int32_t wzp : {0, 3})
        for (const bool per_channel : {true, false})
          px_runs += check_slab_conv(g, r, wzp, per_channel, 0, max_exp) && px ? 1 : 0;
  }
  // a map of more pixels, a K of fewer groups, or a 1x1 window (the cells path) runs the
  // channel-row GEMM
  CHECK_FALSE(k::detail::conv_s8_px_applies<T>(k::conv_geometry{32, 9, 8, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  CHECK_FALSE(k::detail::conv_s8_px_applies<T>(k::conv_geometry{24, 7, 7, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  CHECK_FALSE(k::detail::conv_s8_px_applies<T>(k::conv_geometry{64, 7, 7, 48, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  CHECK_FALSE(k::detail::conv_s8_px_applies<T>(k::conv_geometry{576, 7, 7, 160, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1}));
#if CTNN_KERNELS_VNNI && !CTNN_KERNELS_SCALAR
  CHECK(px_runs == 11 * 2 * 2);  // every shape with the weights' zero point 0
#else
  CHECK(px_runs == 0);
#endif
}

TEST_CASE("conv2d int8 1x1 on the slab layout: channel quads, pixel chunks, strides, groups, edges, fallbacks") {
  ctnn_test::rng r(83);
  using T = k::default_s8_tiling;
  // {in_c, in_h, in_w, out_c, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw, groups}
  const k::conv_geometry shapes[] = {{16, 12, 13, 30, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1},   // N 156: an edge tile
                                     {24, 7, 7, 100, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1},   // N 49, M 100 = 8 x 12 + 4
                                     {6, 9, 10, 8, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1},     // in_c 6 -> 8
                                     {32, 16, 16, 20, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 2},  // 2 groups
                                     {96, 5, 3, 290, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1},   // rows past one block
                                     {64, 14, 14, 70, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1},  // stride 2: 7 x 7
                                     {8, 19, 23, 12, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1},   // odd sizes: 10 x 12
                                     {12, 9, 10, 9, 1, 1, 3, 1, 0, 0, 0, 0, 1, 1, 1},    // stride (3, 1)
                                     {16, 12, 17, 10, 1, 1, 1, 3, 0, 0, 0, 0, 1, 1, 2},  // stride (1, 3), groups
                                     {5, 6, 6, 7, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1}};     // in_c 5: not on the slab
  int runs = 0;
  for (const auto& g : shapes) {
    REQUIRE(g.valid());
    // the static workspace, one of the im2col path's size, and one that holds 64 pixels' cells
    // (the plane in chunks: 156 = 64 + 64 + 28)
    // (the plane in chunks: 156 = 64 + 64 + 28; only where the cells path runs: the GEMM's packing
    // needs more)
    const bool strided = g.sh != 1 || g.sw != 1;
    const size_t quads = size_t((g.in_c_per_group() + 3) / 4);
    const size_t small = 4 * quads * 64 + 64 * quads + (strided ? 4 * 64 + 4 * 32 : 0);
    const bool cells = CTNN_KERNELS_VNNI && k::detail::conv_s8_slab_applies<T>(g);
    for (const int32_t wzp : {0, 3})
      for (const bool per_channel : {true, false})
        for (const size_t ws : {size_t{0}, size_t(T::workspace_bytes(g.gemm_k())), small})
          if (ws != small || (cells && wzp == 0)) runs += check_slab_conv(g, r, wzp, per_channel, ws) ? 1 : 0;
  }
#if CTNN_KERNELS_VNNI && !CTNN_KERNELS_SCALAR
  CHECK(runs == 9 * 2 * 3);  // 9 shapes, the weights' zero point 0, every workspace
  CHECK(k::detail::conv_s8_cells_chunk<T::nr>(shapes[0], 4 * 4 * 64 + 64 * 4) == 64);
#else
  CHECK(runs == 0);
#endif
}

#if CTNN_KERNELS_VNNI && !CTNN_KERNELS_SCALAR
TEST_CASE("fused int8 requantization: one 64-bit rounding equals TFLite's two, ties and limits included") {
  // rq16_fused(raw) with make_s8_rq_row's fields against multiply_by_quantized_multiplier(raw +
  // rt) + zp: every raw in [-4096, 4096] (multiplier 2^30 puts a tie of each rounding on every
  // other value) and random ones up to the bound, every right shift 0..23
  ctnn_test::rng r(89);
  const int64_t K = 64, bound = 128 * 255 * K;
  int checked = 0;
  for (int rs = 0; rs <= 23; ++rs)
    for (const int32_t mult : {int32_t{1} << 30, (int32_t{1} << 30) + 1, int32_t{2147483647}, int32_t{1518500250}})
      for (const int32_t zp : {-128, 0, 127})
        for (const int32_t bias : {0, -77, 123456}) {
          k::detail::s8_rq_row row{};
          const int32_t rowsum = 5, b_zp_u = 3;
          REQUIRE(k::detail::make_s8_rq_row(rowsum, bias, b_zp_u, K, mult, -rs, zp, row));
          const int32_t rt = bias - b_zp_u * rowsum;
          std::vector<int32_t> raws;
          for (int32_t x = -4096; x <= 4096; ++x) raws.push_back(x);
          for (int i = 0; i < 512; ++i) raws.push_back(r.range(int(-bound), int(bound)));
          raws.push_back(int32_t(-bound));
          raws.push_back(int32_t(bound));
          while (raws.size() % 16 != 0) raws.push_back(0);
          for (size_t i = 0; i < raws.size(); i += 16) {
            alignas(64) int32_t got[16];
            _mm512_store_si512(got, k::detail::rq16_fused(_mm512_loadu_si512(raws.data() + i), row));
            for (size_t l = 0; l < 16; ++l) {
              const int64_t want = int64_t{ctnn::quant::multiply_by_quantized_multiplier(raws[i + l] + rt, mult, -rs)} + zp;
              INFO("raw " << raws[i + l] << " rt " << rt << " mult " << mult << " shift " << -rs << " zp " << zp);
              REQUIRE(int64_t{got[l]} == want);
            }
            ++checked;
          }
        }
  CHECK(checked > 24 * 4 * 3 * 3 * 500);
  // where the one rounding is not TFLite's (or a sum could leave int64), the row is declined
  k::detail::s8_rq_row row{};
  CHECK(k::detail::make_s8_rq_row(0, 0, 0, K, 1 << 30, 0, 0, row));          // no right shift: one rounding
  CHECK_FALSE(k::detail::make_s8_rq_row(0, int32_t(2147483647 - 127 - bound), 0, K, 1 << 30, 0, 0, row));  // q + zp
  CHECK(k::detail::make_s8_rq_row(0, int32_t(2147483647 - 128 - bound), 0, K, 1 << 30, 0, 0, row));
  CHECK_FALSE(k::detail::make_s8_rq_row(0, 0, 0, K, 1 << 30, 2, 0, row));    // a left shift
  CHECK_FALSE(k::detail::make_s8_rq_row(0, 0, 0, K, 1 << 30, -24, 0, row));  // past the exact range
  CHECK_FALSE(k::detail::make_s8_rq_row(0, 0, 0, K, -1, -5, 0, row));        // a negative multiplier
  // the accumulator must not wrap: rt +- bound within int32
  const auto top = int32_t(2147483647 - bound);
  CHECK(k::detail::make_s8_rq_row(0, top, 0, K, 1 << 30, -5, 0, row));
  CHECK_FALSE(k::detail::make_s8_rq_row(0, top + 1, 0, K, 1 << 30, -5, 0, row));
  CHECK(k::detail::make_s8_rq_row(0, int32_t(-2147483647 - 1 + bound), 0, K, 1 << 30, -5, 0, row));
  CHECK_FALSE(k::detail::make_s8_rq_row(0, int32_t(-2147483647 + bound - 2), 0, K, 1 << 30, -5, 0, row));
  CHECK_FALSE(k::detail::make_s8_rq_row(-9000000, 0, 255, K, 1 << 30, -5, 0, row));  // rt = 2.3e9
}
#endif
