// SoC test of the accelerator driver: GEMM jobs (ragged sizes, padded strides, zero points,
// bias, per-tensor and per-channel requantization, ReLU clamp, raw int32 output, unaligned A) and
// convolution jobs (CFG.CONV implicit im2col with padding and strides, unaligned input and output,
// CFG.ROW_PARAMS per-output-channel bias and requantization) must equal ctnn::ref on the CPU bit for
// bit and report M*N*K MACs; bad jobs must stop with the documented error cause, and a good job
// must run after them.
#include "ctnn/accel/driver.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn_platform.h"

namespace {

using drv = ctnn::accel::driver<>;
using ctnn::accel::result;

constexpr uint32_t max_polls = 2'000'000;

uint32_t seed = 0x9e3779b9u;
int rnd(int lo, int hi) {
  seed = seed * 1664525u + 1013904223u;
  return lo + static_cast<int>((seed >> 8) % static_cast<uint32_t>(hi - lo + 1));
}

alignas(4) int8_t a_buf[2048];
alignas(4) int8_t b_buf[8192];
alignas(4) int32_t c_buf[1024];     // int8 or int32 results
alignas(4) int32_t ref_buf[1024];
int32_t bias_buf[128];
int32_t mult_buf[128];
int32_t shift_buf[128];

struct shape_case {
  int m, n, k;
  int lda_pad, ldb_pad, ldc_pad;   // extra elements per row (strides stay multiples of 4 bytes)
  bool bias, per_channel, relu, raw;
  int a_zp, b_zp, out_zp;
};

constexpr shape_case cases[] = {
    {8, 8, 16, 0, 0, 0, false, false, false, false, 0, 0, 0},
    {13, 21, 37, 0, 0, 0, true, true, true, false, -5, 3, 7},
    {5, 70, 100, 4, 8, 12, false, false, false, false, 17, 0, -3},
    {9, 17, 64, 0, 0, 3, true, false, false, true, 10, -2, 0},
    {16, 32, 150, 0, 0, 0, true, true, true, false, -128, 0, -128},
};

int round4(int v) { return (v + 3) & ~3; }

void put_signed(int32_t v) {
  if (v < 0) ctnn_console_putc('-');
  ctnn_console_put_dec(static_cast<uint32_t>(v < 0 ? -v : v));
}

// Runs one case on the accelerator and on the CPU; 0 when they agree, else a failure code.
int run_case(const shape_case& sc) {
  const int lda = round4(sc.k) + sc.lda_pad;
  const int ldb = round4(sc.n) + sc.ldb_pad;
  const int ldc = (sc.raw ? sc.n : round4(sc.n)) + sc.ldc_pad * (sc.raw ? 1 : 4);
  for (int i = 0; i < sc.m * lda; ++i) a_buf[i] = static_cast<int8_t>(rnd(-128, 127));
  for (int i = 0; i < sc.k * ldb; ++i) b_buf[i] = static_cast<int8_t>(rnd(-128, 127));
  for (int i = 0; i < sc.n; ++i) {
    bias_buf[i] = rnd(-20000, 20000);
    const ctnn::quant::requant q = {rnd(1 << 30, 0x7fffffff), -rnd(6, 12)};
    mult_buf[i] = q.multiplier;
    shift_buf[i] = q.shift;
  }
  ctnn::accel::job g;
  g.m = sc.m;
  g.n = sc.n;
  g.k = sc.k;
  g.a = a_buf;
  g.lda = lda;
  g.b = b_buf;
  g.ldb = ldb;
  g.c = c_buf;
  g.ldc = ldc;
  g.bias = sc.bias ? bias_buf : nullptr;
  g.out_raw = sc.raw;
  g.q = {.a_zp = sc.a_zp, .b_zp = sc.b_zp, .out_zp = sc.out_zp, .multiplier = mult_buf, .shift = shift_buf,
         .per_channel = sc.per_channel, .act_min = sc.relu ? sc.out_zp : -128, .act_max = 127};
  for (int32_t& w : c_buf) w = 0x5a5a5a5a;
  for (int32_t& w : ref_buf) w = 0x5a5a5a5a;

  const ctnn::accel::job_status s = drv::run(g, max_polls);
  if (s.res != result::ok) return 10 + static_cast<int>(s.res);
  if (s.macs != static_cast<uint32_t>(sc.m * sc.n * sc.k) || s.cycles == 0) return 20;

  if (sc.raw) {
    ctnn::ref::gemm_s8_s32(sc.m, sc.n, sc.k, a_buf, lda, b_buf, ldb, g.bias, ref_buf, ldc, sc.a_zp, sc.b_zp);
  } else {
    ctnn::ref::gemm_s8(sc.m, sc.n, sc.k, a_buf, lda, b_buf, ldb, g.bias, reinterpret_cast<int8_t*>(ref_buf), ldc,
                       g.q);
  }
  // Every byte of the buffers, padding included: the accelerator must not write outside C.
  for (int i = 0; i < 1024; ++i)
    if (c_buf[i] != ref_buf[i]) return 30;

  ctnn_console_puts("accel: m=");
  ctnn_console_put_dec(static_cast<uint32_t>(sc.m));
  ctnn_console_puts(" n=");
  ctnn_console_put_dec(static_cast<uint32_t>(sc.n));
  ctnn_console_puts(" k=");
  ctnn_console_put_dec(static_cast<uint32_t>(sc.k));
  ctnn_console_puts(sc.raw ? " int32" : " int8");
  ctnn_console_puts(" zp=");
  put_signed(sc.a_zp);
  ctnn_console_putc('/');
  put_signed(sc.b_zp);
  ctnn_console_putc('/');
  put_signed(sc.out_zp);
  ctnn_console_puts(" macs=");
  ctnn_console_put_dec(s.macs);
  ctnn_console_puts(" cycles=");
  ctnn_console_put_dec(s.cycles);
  ctnn_console_puts(" ok\n");
  return 0;
}

// A GEMM whose A starts at an odd address with an odd row stride (A may have any alignment).
int run_unaligned_a() {
  const int m = 7, n = 12, k = 29, lda = 31;
  int8_t* a = a_buf + 1;
  for (int i = 0; i < m * lda; ++i) a[i] = static_cast<int8_t>(rnd(-128, 127));
  for (int i = 0; i < k * n; ++i) b_buf[i] = static_cast<int8_t>(rnd(-128, 127));
  const int32_t mult[1] = {1 << 30}, shift[1] = {-7};
  ctnn::accel::job g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.lda = lda;
  g.b = b_buf;
  g.ldb = n;
  g.c = c_buf;
  g.ldc = n;
  g.q = {.a_zp = 3, .b_zp = -1, .out_zp = 2, .multiplier = mult, .shift = shift, .per_channel = false,
         .act_min = -128, .act_max = 127};
  for (int32_t& w : c_buf) w = 0x5a5a5a5a;
  for (int32_t& w : ref_buf) w = 0x5a5a5a5a;
  const ctnn::accel::job_status s = drv::run(g, max_polls);
  if (s.res != result::ok) return 10 + static_cast<int>(s.res);
  ctnn::ref::gemm_s8(m, n, k, a, lda, b_buf, n, nullptr, reinterpret_cast<int8_t*>(ref_buf), n, g.q);
  for (int i = 0; i < 1024; ++i)
    if (c_buf[i] != ref_buf[i]) return 30;
  ctnn_console_puts("accel: unaligned A ok\n");
  return 0;
}

// ---- convolution jobs: CFG.CONV + CFG.ROW_PARAMS against ctnn::ref::conv2d_s8 ----------------
struct conv_case {
  int cin, h, w, cout, kh, kw, sh, sw, pt, pb, pl, pr;
  int in_off, out_off;  // byte offsets of the input and the output from a word boundary
  bool bias;
  int in_zp, out_zp;
};

constexpr conv_case conv_cases[] = {
    {3, 9, 11, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 3, true, -3, 5},
    {4, 10, 10, 6, 5, 3, 2, 1, 2, 0, 1, 2, 2, 1, false, 0, 0},
    {8, 8, 8, 16, 1, 1, 2, 2, 0, 0, 0, 0, 0, 0, true, 7, -9},
};

int run_conv_case(const conv_case& cc) {
  const ctnn::kernels::conv_geometry geo{cc.cin, cc.h, cc.w, cc.cout, cc.kh, cc.kw, cc.sh, cc.sw,
                                         cc.pt,  cc.pb, cc.pl, cc.pr, 1, 1, 1};
  const int oh = static_cast<int>(geo.out_h()), ow = static_cast<int>(geo.out_w());
  const int k = cc.cin * cc.kh * cc.kw, n = oh * ow;
  int8_t* in = b_buf + cc.in_off;
  for (int i = 0; i < cc.cin * cc.h * cc.w; ++i) in[i] = static_cast<int8_t>(rnd(-128, 127));
  for (int i = 0; i < cc.cout * k; ++i) a_buf[i] = static_cast<int8_t>(rnd(-127, 127));
  for (int i = 0; i < cc.cout; ++i) {
    bias_buf[i] = rnd(-20000, 20000);
    mult_buf[i] = rnd(1 << 30, 0x7fffffff);
    shift_buf[i] = -rnd(6, 10);
  }
  ctnn::accel::conv_view v;
  v.h = static_cast<uint32_t>(cc.h);
  v.w = static_cast<uint32_t>(cc.w);
  v.cstride = static_cast<uint32_t>(cc.h * cc.w);
  v.kh = static_cast<uint32_t>(cc.kh);
  v.kw = static_cast<uint32_t>(cc.kw);
  v.sh = static_cast<uint32_t>(cc.sh);
  v.sw = static_cast<uint32_t>(cc.sw);
  v.out_w = static_cast<uint32_t>(ow);
  v.pt = static_cast<uint32_t>(cc.pt);
  v.pl = static_cast<uint32_t>(cc.pl);
  ctnn::accel::job g;
  g.m = cc.cout;
  g.n = n;
  g.k = k;
  g.a = a_buf;
  g.lda = k;
  g.b = in;
  g.ldb = round4(n);
  g.c = reinterpret_cast<int8_t*>(c_buf) + cc.out_off;
  g.ldc = n;
  g.bias = cc.bias ? bias_buf : nullptr;
  g.row_params = true;
  g.conv = &v;
  // A = weights (zero point 0), B = the input (its zero point; the padding reads it)
  g.q = {.a_zp = 0, .b_zp = cc.in_zp, .out_zp = cc.out_zp, .multiplier = mult_buf, .shift = shift_buf,
         .per_channel = true, .act_min = -128, .act_max = 127};
  for (int32_t& w : c_buf) w = 0x5a5a5a5a;
  for (int32_t& w : ref_buf) w = 0x5a5a5a5a;
  const ctnn::accel::job_status s = drv::run(g, max_polls);
  if (s.res != result::ok) {
    ctnn_console_puts("accel: conv job stopped, ERR_CAUSE ");
    ctnn_console_put_dec(s.cause);
    ctnn_console_putc('\n');
    return 10 + static_cast<int>(s.res);
  }
  if (s.macs != static_cast<uint32_t>(cc.cout * n * k) || s.cycles == 0) return 20;
  // the CPU: activations are ref's A operand (a_zp = input zero point), weights its B (zero point 0)
  const ctnn::ref::gemm_s8_params rq{cc.in_zp, 0, cc.out_zp, mult_buf, shift_buf, true, -128, 127};
  if (ctnn::ref::conv2d_s8(geo, in, a_buf, g.bias, reinterpret_cast<int8_t*>(ref_buf) + cc.out_off, rq) !=
      ctnn::kernels::status::ok)
    return 25;
  for (int i = 0; i < 1024; ++i)
    if (c_buf[i] != ref_buf[i]) return 30;
  ctnn_console_puts("accel: conv ");
  ctnn_console_put_dec(static_cast<uint32_t>(cc.cin));
  ctnn_console_putc('x');
  ctnn_console_put_dec(static_cast<uint32_t>(cc.h));
  ctnn_console_putc('x');
  ctnn_console_put_dec(static_cast<uint32_t>(cc.w));
  ctnn_console_puts(" -> ");
  ctnn_console_put_dec(static_cast<uint32_t>(cc.cout));
  ctnn_console_putc('x');
  ctnn_console_put_dec(static_cast<uint32_t>(oh));
  ctnn_console_putc('x');
  ctnn_console_put_dec(static_cast<uint32_t>(ow));
  ctnn_console_puts(" macs=");
  ctnn_console_put_dec(s.macs);
  ctnn_console_puts(" cycles=");
  ctnn_console_put_dec(s.cycles);
  ctnn_console_puts(" ok\n");
  return 0;
}

using cause = ctnn::regs::accel::err_cause::code;  // its named values, generated from ctnn.toml

// A job the accelerator must refuse with cause; 0 when it does.
int expect_error(ctnn::accel::job g, uint32_t cause) {
  const ctnn::accel::job_status s = drv::run(g, max_polls);
  if (s.res != result::error) return 1;
  if (s.cause != cause) return 2;
  return 0;
}

}  // namespace

extern "C" int ctnn_test_run(void) {
  if (!drv::present()) return 1;
  const uint32_t dim = drv::dim();
  if (dim < 4 || dim > 16 || (dim & (dim - 1)) != 0) return 2;
  ctnn_console_puts("accel: dim=");
  ctnn_console_put_dec(dim);
  ctnn_console_puts(" k_max=");
  ctnn_console_put_dec(drv::k_max());
  ctnn_console_putc('\n');

  int n = 0;
  for (const shape_case& sc : cases) {
    ++n;
    if (const int r = run_case(sc); r != 0) return 100 * n + r;
  }
  if (const int r = run_unaligned_a(); r != 0) return 700 + r;
  n = 0;
  for (const conv_case& cc : conv_cases) {
    ++n;
    if (const int r = run_conv_case(cc); r != 0) return 800 + 10 * n + r;
  }

  // Refused jobs (ERR_CAUSE codes of fpga/regs/ctnn.toml), each from a valid base job.
  const int32_t one_mult[1] = {1 << 30}, one_shift[1] = {0};
  ctnn::accel::job base;
  base.m = 4;
  base.n = 4;
  base.k = 16;
  base.a = a_buf;
  base.lda = 16;
  base.b = b_buf;
  base.ldb = 4;
  base.c = c_buf;
  base.ldc = 4;
  base.q = {.a_zp = 0, .b_zp = 0, .out_zp = 0, .multiplier = one_mult, .shift = one_shift, .per_channel = false,
            .act_min = -128, .act_max = 127};
  ctnn::accel::job g = base;
  g.m = 0;
  if (expect_error(g, cause::zero_size) != 0) return 1001;
  g = base;
  g.k = static_cast<int>(drv::k_max()) + 1;
  g.lda = g.k + 3;
  if (expect_error(g, cause::k_too_big) != 0) return 1002;
  g = base;
  g.b = b_buf + 1;
  if (expect_error(g, cause::align) != 0) return 1003;  // B outside CONV mode
  g = base;
  g.c = reinterpret_cast<void*>(static_cast<uintptr_t>(0x90000000u));
  if (expect_error(g, cause::addr_range) != 0) return 1004;
  const int32_t bad_shift[1] = {40};
  g = base;
  g.q.shift = bad_shift;
  if (expect_error(g, cause::bad_shift) != 0) return 1005;
  g = base;
  g.row_params = true;
  g.m = static_cast<int>(drv::max_row_params()) + 1;
  g.lda = 4;
  g.k = 4;
  if (expect_error(g, cause::rows) != 0) return 1006;
  ctnn::accel::conv_view zero_kernel;
  zero_kernel.h = zero_kernel.w = 4;
  zero_kernel.cstride = 16;
  zero_kernel.kh = 0;
  zero_kernel.out_w = 4;
  g = base;
  g.conv = &zero_kernel;
  if (expect_error(g, cause::conv_geom) != 0) return 1007;
  ctnn_console_puts("accel: refused jobs ok\n");

  // The accelerator still works after the refusals.
  if (const int r = run_case(cases[1]); r != 0) return 2000 + r;
  return 0;
}
