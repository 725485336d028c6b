// Instructions per MAC (per element for add and softmax) of the int8 kernels the firmware runs
// (ctnn::kernels, backend::optimized's), on the layers of issue 14: conv 3x3 16->32 on 16x16
// through im2col and through the no-scratch path, depthwise 3x3 on 32 channels, fully connected
// 400->120, a residual add of 16x16x16 with three different scales, softmax over 10 classes.
// Each case runs the reference kernel first, then the optimized one between two reads of
// minstret (exact under QEMU -icount), and compares the two outputs byte for byte. One line per
// case:
//   bench: <case> instret=<n> work=<MACs or elements> per=<n/work, 2 decimals> match=yes|no
// bench/rv32_kernels.py builds this at -O2 and -Os and tabulates the lines; as a firmware test
// (firmware.bench_kernels) it passes when every output equals the reference's.
#include <stddef.h>
#include <stdint.h>

#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn_platform.h"

namespace {

namespace k = ctnn::kernels;
namespace ref = ctnn::ref;

uint32_t rng_state = 0x2545F491u;
uint32_t next_u32() {
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state;
}
void fill(int8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<int8_t>(next_u32() >> 24);
}

// operands of the largest case, shared by all
alignas(16) int8_t in_buf[16 * 16 * 16 * 2];
alignas(16) int8_t in2_buf[16 * 16 * 16];
alignas(16) int8_t w_buf[400 * 120];
alignas(16) int8_t out_ref[32 * 16 * 16];
alignas(16) int8_t out_opt[32 * 16 * 16];
alignas(16) uint8_t scratch[144 * 256];
int32_t bias[128];
int32_t mult[128];
int32_t shift[128];

void put_fixed2(uint32_t hundredths) {
  ctnn_console_put_dec(hundredths / 100u);
  ctnn_console_putc('.');
  const uint32_t f = hundredths % 100u;
  ctnn_console_putc(static_cast<char>('0' + f / 10u));
  ctnn_console_putc(static_cast<char>('0' + f % 10u));
}

/// Prints the case's line; returns true when the outputs match.
bool report(const char* name, uint64_t instret, uint32_t work, size_t out_bytes, k::status s) {
  bool match = s == k::status::ok;
  for (size_t i = 0; i < out_bytes && match; ++i) match = out_ref[i] == out_opt[i];
  const auto n = static_cast<uint32_t>(instret);
  ctnn_console_puts("bench: ");
  ctnn_console_puts(name);
  ctnn_console_puts(" instret=");
  ctnn_console_put_dec(n);
  ctnn_console_puts(" work=");
  ctnn_console_put_dec(work);
  ctnn_console_puts(" per=");
  put_fixed2(static_cast<uint32_t>((static_cast<uint64_t>(n) * 100u + work / 2u) / work));
  ctnn_console_puts(match ? " match=yes\n" : " match=no\n");
  return match;
}

ref::gemm_s8_params quant_params(int channels, int32_t shift_lo) {
  for (int i = 0; i < channels; ++i) {
    mult[i] = static_cast<int32_t>((1u << 30) + (next_u32() >> 2));
    shift[i] = shift_lo + static_cast<int32_t>(next_u32() >> 31);
    bias[i] = static_cast<int32_t>(next_u32() % 4001u) - 2000;
  }
  return ref::gemm_s8_params{-3, 0, 5, mult, shift, true, -128, 127};
}

template <class F>
uint64_t counted(F f, k::status& s) {
  const uint64_t i0 = ctnn_instret();
  s = f();
  const uint64_t i1 = ctnn_instret();
  return i1 - i0;
}

}  // namespace

extern "C" int ctnn_test_run(void) {
  int failed = 0;
  int case_no = 0;
  auto check = [&](bool ok) {
    ++case_no;
    if (!ok && failed == 0) failed = case_no;
  };
  k::status s{};

  // conv 3x3 16->32 on 16x16, padding 1: through im2col panels and through the no-scratch path
  {
    k::conv_geometry g{};
    g.in_c = 16, g.in_h = 16, g.in_w = 16, g.out_c = 32, g.kh = 3, g.kw = 3, g.pt = g.pb = g.pl = g.pr = 1;
    fill(in_buf, static_cast<size_t>(g.in_elems()));
    fill(w_buf, static_cast<size_t>(g.weight_elems()));
    const ref::gemm_s8_params p = quant_params(32, -9);
    const size_t out_n = static_cast<size_t>(g.out_elems());
    const auto macs = static_cast<uint32_t>(g.macs());
    (void)ref::conv2d_s8(g, in_buf, w_buf, bias, out_ref, p);
    const int64_t rows = k::conv_max_panel_rows(g);
    uint64_t n = counted([&] { return k::conv2d_s8(g, in_buf, w_buf, bias, out_opt, p, rows, scratch, sizeof scratch); }, s);
    check(report("conv3x3_16_32_im2col", n, macs, out_n, s));
    __builtin_memset(out_opt, 0, sizeof out_opt);
    n = counted([&] { return k::conv2d_s8(g, in_buf, w_buf, bias, out_opt, p, 0, nullptr, 0); }, s);
    check(report("conv3x3_16_32_noscratch", n, macs, out_n, s));
    __builtin_memset(out_opt, 0, sizeof out_opt);
    n = counted([&] { return ref::conv2d_s8(g, in_buf, w_buf, bias, out_opt, p); }, s);
    check(report("conv3x3_16_32_reference", n, macs, out_n, s));
  }
  // depthwise 3x3 on 32 channels of 16x16, padding 1
  {
    k::conv_geometry g{};
    g.in_c = 32, g.in_h = 16, g.in_w = 16, g.out_c = 32, g.kh = 3, g.kw = 3, g.pt = g.pb = g.pl = g.pr = 1;
    g.groups = 32;
    fill(in_buf, static_cast<size_t>(g.in_elems()));
    fill(w_buf, static_cast<size_t>(g.weight_elems()));
    const ref::gemm_s8_params p = quant_params(32, -6);
    const size_t out_n = static_cast<size_t>(g.out_elems());
    const auto macs = static_cast<uint32_t>(g.macs());
    (void)ref::conv2d_s8(g, in_buf, w_buf, bias, out_ref, p);
    __builtin_memset(out_opt, 0, sizeof out_opt);
    uint64_t n = counted([&] { return k::conv2d_s8(g, in_buf, w_buf, bias, out_opt, p, 0, nullptr, 0); }, s);
    check(report("depthwise3x3_32", n, macs, out_n, s));
    __builtin_memset(out_opt, 0, sizeof out_opt);
    n = counted([&] { return ref::conv2d_s8(g, in_buf, w_buf, bias, out_opt, p); }, s);
    check(report("depthwise3x3_32_reference", n, macs, out_n, s));
  }
  // fully connected 400 -> 120 (the workspace the runtime passes: tiled.hpp's static one)
  {
    fill(in_buf, 400);
    fill(w_buf, 400 * 120);
    const ref::gemm_s8_params p = quant_params(120, -10);
    (void)ref::linear_s8(1, 400, 120, in_buf, w_buf, bias, out_ref, p);
    __builtin_memset(out_opt, 0, sizeof out_opt);
    using tiling = k::default_s8_tiling;
    auto& ws = k::detail::static_workspace_s8<tiling>::buf;
    uint64_t n = counted([&] { return k::linear_s8<tiling>(1, 400, 120, in_buf, w_buf, bias, out_opt, p, ws, sizeof ws); }, s);
    check(report("fc_400_120", n, 400u * 120u, 120, s));
    __builtin_memset(out_opt, 0, sizeof out_opt);
    n = counted([&] { return ref::linear_s8(1, 400, 120, in_buf, w_buf, bias, out_opt, p); }, s);
    check(report("fc_400_120_reference", n, 400u * 120u, 120, s));
  }
  // residual add of 16x16x16 with three different scales (TFLite's int8 add)
  {
    const size_t n_el = 16 * 16 * 16;
    fill(in_buf, n_el);
    fill(in2_buf, n_el);
    ref::add_s8_params p{};
    (void)ref::make_add_s8_params(p, 0.05, -7, 0.031, 12, 0.07, -2);
    (void)ref::add_s8(static_cast<int64_t>(n_el), in_buf, in2_buf, out_ref, p);
    __builtin_memset(out_opt, 0, sizeof out_opt);
    uint64_t n = counted([&] { return k::add_s8(static_cast<int64_t>(n_el), in_buf, in2_buf, out_opt, p); }, s);
    check(report("add_16x16x16", n, static_cast<uint32_t>(n_el), n_el, s));
    __builtin_memset(out_opt, 0, sizeof out_opt);
    n = counted([&] { return ref::add_s8(static_cast<int64_t>(n_el), in_buf, in2_buf, out_opt, p); }, s);
    check(report("add_16x16x16_reference", n, static_cast<uint32_t>(n_el), n_el, s));
  }
  // softmax over 10 classes, as the runtime calls it (the input scale is a float)
  {
    fill(in_buf, 10);
    const float scale = 0.0625f;
    (void)ref::softmax_s8(1, 10, in_buf, out_ref, scale, 3);
    __builtin_memset(out_opt, 0, sizeof out_opt);
    uint64_t n = counted([&] { return k::softmax_s8(1, 10, in_buf, out_opt, scale, 3); }, s);
    check(report("softmax_10", n, 10, 10, s));
    __builtin_memset(out_opt, 0, sizeof out_opt);
    n = counted([&] { return ref::softmax_s8(1, 10, in_buf, out_opt, scale, 3); }, s);
    check(report("softmax_10_reference", n, 10, 10, s));
  }
  return failed;
}
