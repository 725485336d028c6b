// Firmware test: LeNet-5 int8 (see lenet5_int8.hpp). One ELF for QEMU and the SoC: when the GEMM
// accelerator answers at its address, the convolutions (im2col) and the fully connected layers run
// on it, else on the CPU through ctnn's optimized kernels. Either way the per-layer hashes and the
// logits must equal the host twin's (the CTest runner compares the lines).
#include "ctnn/regs/soc_map.hpp"
#include "ctnn_accel_driver.hpp"
#include "ctnn_platform.h"
#include "lenet5_int8.hpp"

namespace {

namespace l = ctnn_fw::lenet5;
using drv = ctnn_fw::accel::driver<>;

l::tensors t;
l::activations act;
alignas(64) uint8_t scratch[l::scratch_bytes];

// ---- the accelerator path: C[P x N] = A[P x K] . B[K x N] + bias, per output channel columns ----
constexpr int round4(int v) { return (v + 3) & ~3; }

// Weights transposed to [K][N] (N = output channels, row stride round4(N)).
alignas(4) int8_t wt_conv1[25 * 8];
alignas(4) int8_t wt_conv2[150 * 16];
alignas(4) int8_t wt_fc1[l::fc1_in * l::fc1_out];
alignas(4) int8_t wt_fc2[l::fc1_out * l::fc2_out];
alignas(4) int8_t wt_fc3[l::fc2_out * 12];
alignas(4) int8_t col[784 * 28];      // im2col, one row per output pixel (row stride round4(K))
alignas(4) int8_t gemm_out[784 * 8];  // [P][round4(N)] before the move to CHW
alignas(4) int8_t vec_in[l::fc1_in];
alignas(4) int8_t vec_out[128];

void transpose(const int8_t* w, int n, int k, int8_t* wt) {
  const int ldb = round4(n);
  for (int o = 0; o < n; ++o)
    for (int i = 0; i < k; ++i) wt[i * ldb + o] = w[o * k + i];
}

// Valid convolution, stride 1: rows (oy, ox), columns (ic, ky, kx).
void im2col_rows(const ctnn::kernels::conv_geometry& g, const int8_t* in, int8_t* c) {
  const int oh = static_cast<int>(g.out_h()), ow = static_cast<int>(g.out_w());
  const int kh = static_cast<int>(g.kh), kw = static_cast<int>(g.kw), ih = static_cast<int>(g.in_h),
            iw = static_cast<int>(g.in_w), ic_n = static_cast<int>(g.in_c);
  const int lda = round4(ic_n * kh * kw);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox) {
      int8_t* row = c + (oy * ow + ox) * lda;
      int j = 0;
      for (int ic = 0; ic < ic_n; ++ic)
        for (int ky = 0; ky < kh; ++ky)
          for (int kx = 0; kx < kw; ++kx) row[j++] = in[(ic * ih + oy + ky) * iw + ox + kx];
    }
}

ctnn_fw::accel::job_status gemm(int m, int n, int k, const int8_t* a, const int8_t* b, const int32_t* bias,
                                int8_t* c, const ctnn::ref::gemm_s8_params& q) {
  ctnn_fw::accel::gemm g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.lda = round4(k);
  g.b = b;
  g.ldb = round4(n);
  g.c = c;
  g.ldc = round4(n);
  g.bias = bias;
  g.q = q;
  return drv::run(g, 5'000'000);
}

// conv as GEMM on the accelerator, then [P][N] -> CHW.
int conv(const ctnn::kernels::conv_geometry& g, const int8_t* in, const int8_t* wt, const int32_t* bias,
         int8_t* out, const ctnn::ref::gemm_s8_params& q, uint32_t& cycles) {
  im2col_rows(g, in, col);
  const int p = static_cast<int>(g.out_h() * g.out_w()), n = static_cast<int>(g.out_c);
  const ctnn_fw::accel::job_status s = gemm(p, n, static_cast<int>(g.gemm_k()), col, wt, bias, gemm_out, q);
  if (s.res != ctnn_fw::accel::result::ok) return 1;
  cycles += s.cycles;
  for (int i = 0; i < p; ++i)
    for (int o = 0; o < n; ++o) out[o * p + i] = gemm_out[i * round4(n) + o];
  return 0;
}

int fc(int in_f, int out_f, const int8_t* x, const int8_t* wt, const int32_t* bias, int8_t* y,
       const ctnn::ref::gemm_s8_params& q, uint32_t& cycles) {
  for (int i = 0; i < in_f; ++i) vec_in[i] = x[i];
  const ctnn_fw::accel::job_status s = gemm(1, out_f, in_f, vec_in, wt, bias, vec_out, q);
  if (s.res != ctnn_fw::accel::result::ok) return 1;
  cycles += s.cycles;
  for (int o = 0; o < out_f; ++o) y[o] = vec_out[o];
  return 0;
}

int run_accel(uint32_t& accel_cycles) {
  transpose(t.w_conv1, 6, 25, wt_conv1);
  transpose(t.w_conv2, 16, 150, wt_conv2);
  transpose(t.w_fc1, l::fc1_out, l::fc1_in, wt_fc1);
  transpose(t.w_fc2, l::fc2_out, l::fc1_out, wt_fc2);
  transpose(t.w_fc3, l::fc3_out, l::fc2_out, wt_fc3);
  const l::layer_params p = l::params_of_layers();
  if (conv(l::conv1_g, t.input, wt_conv1, t.b_conv1, act.conv1, p.conv1, accel_cycles) != 0) return 401;
  if (ctnn::kernels::max_pool2d(l::pool1_g, act.conv1, act.pool1) != ctnn::kernels::status::ok) return 402;
  if (conv(l::conv2_g, act.pool1, wt_conv2, t.b_conv2, act.conv2, p.conv2, accel_cycles) != 0) return 403;
  if (ctnn::kernels::max_pool2d(l::pool2_g, act.conv2, act.pool2) != ctnn::kernels::status::ok) return 404;
  if (fc(l::fc1_in, l::fc1_out, act.pool2, wt_fc1, t.b_fc1, act.fc1, p.fc1, accel_cycles) != 0) return 405;
  if (fc(l::fc1_out, l::fc2_out, act.fc1, wt_fc2, t.b_fc2, act.fc2, p.fc2, accel_cycles) != 0) return 406;
  if (fc(l::fc2_out, l::fc3_out, act.fc2, wt_fc3, t.b_fc3, act.fc3, p.fc3, accel_cycles) != 0) return 407;
  return 0;
}

bool accelerator_present() {
  uint32_t id = 0;
  return ctnn_probe_load32(ctnn::regs::accel::id::address, &id) == 0 && (id >> 16) == 0xc7aau;
}

}  // namespace

extern "C" int ctnn_test_run(void) {
  l::make_tensors(t);
  const bool accel = accelerator_present();
  uint32_t accel_cycles = 0;
  const uint64_t c0 = ctnn_cycles();
  const uint64_t i0 = ctnn_instret();
  if (accel) {
    if (const int r = run_accel(accel_cycles); r != 0) return r;
  } else {
    if (const int r = l::run<true>(t, act, scratch); r != 0) return r;
  }
  const uint64_t c1 = ctnn_cycles();
  const uint64_t i1 = ctnn_instret();
  if (!l::logits_vary(act)) return 300;

  uint32_t h[7];
  l::layer_hashes(act, h);
  for (int i = 0; i < 7; ++i) {
    ctnn_console_puts("lenet5: ");
    ctnn_console_puts(l::layer_names[i]);
    ctnn_console_puts(" fnv1a=");
    ctnn_console_put_hex(h[i]);
    ctnn_console_putc('\n');
  }
  ctnn_console_puts("lenet5: logits");
  for (int8_t v : act.fc3) {
    ctnn_console_putc(' ');
    if (v < 0) ctnn_console_putc('-');
    ctnn_console_put_dec(static_cast<uint32_t>(v < 0 ? -v : v));
  }
  ctnn_console_putc('\n');
  ctnn_console_puts(accel ? "lenet5: on the accelerator" : "lenet5: on the CPU");
  ctnn_console_puts(" cycles=");
  ctnn_console_put_dec(static_cast<uint32_t>(c1 - c0));
  ctnn_console_puts(" instret=");
  ctnn_console_put_dec(static_cast<uint32_t>(i1 - i0));
  if (accel) {
    ctnn_console_puts(" accel_busy_cycles=");
    ctnn_console_put_dec(accel_cycles);
  }
  ctnn_console_putc('\n');
  return 0;
}
