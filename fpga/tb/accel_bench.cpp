// ctnn-accel-bench: GEMMs and convolutions on the Verilated accelerator through the real bus
// and DMA, with a RAM model on the bus. One line per case, measured cycles from the CYCLES
// register (start to done, DMA included) next to the compile-time model's prediction; every
// result is also checked bit-exact against ctnn::ref::gemm_s8 / ctnn::ref::conv2d_s8.
// Convolutions run as one CFG.CONV job (implicit im2col, per-row parameters), as the firmware
// driver starts them; the "+add" cases add a residual to the output in the same job (CFG.RES_ADD,
// ResNet's conv + shortcut), checked against ctnn::ref::add_s8_one of the conv's output.
//
//   ctnn-accel-bench [--quick]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "accel_sim.hpp"
#include "ctnn/accel/perf_model.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"

namespace {

namespace a = ctnn::regs::accel;
using ctnn::tb::accel_sim;
using ctnn::tb::gemm_job;
using ctnn::tb::sim_bus;

constexpr ctnn::accel::config hw{CTNN_TB_DIM, 1, 8 * CTNN_TB_DIM, 1 << CTNN_TB_LOG2_KMAX, 4};

struct shape {
  const char* name;
  int m, n, k;
  bool residual = false;
};

// ResNet-50 v1.5 (torchvision, 224x224, batch 1) convolutions as im2col GEMMs:
// M = output pixels, N = output channels, K = input channels x kernel area. Each distinct shape once.
constexpr shape resnet50[] = {
    {"resnet50.conv1", 12544, 64, 147},
    {"resnet50.l1.1x1a", 3136, 64, 64},     {"resnet50.l1.3x3", 3136, 64, 576},
    {"resnet50.l1.1x1b", 3136, 256, 64},    {"resnet50.l1.1x1c", 3136, 64, 256},
    {"resnet50.l2.1x1a", 3136, 128, 256},   {"resnet50.l2.3x3", 784, 128, 1152},
    {"resnet50.l2.1x1b", 784, 512, 128},    {"resnet50.l2.down", 784, 512, 256},
    {"resnet50.l2.1x1c", 784, 128, 512},    {"resnet50.l3.1x1a", 784, 256, 512},
    {"resnet50.l3.3x3", 196, 256, 2304},    {"resnet50.l3.1x1b", 196, 1024, 256},
    {"resnet50.l3.down", 196, 1024, 512},   {"resnet50.l3.1x1c", 196, 256, 1024},
    {"resnet50.l4.1x1a", 196, 512, 1024},   {"resnet50.l4.3x3", 49, 512, 4608},
    {"resnet50.l4.1x1b", 49, 2048, 512},    {"resnet50.l4.down", 49, 2048, 1024},
    {"resnet50.l4.1x1c", 49, 512, 2048},
};

struct conv_case {
  const char* name;
  ctnn::accel::conv g;
};

// The convolution and linear layers of the firmware demos (LeNet-5, the CIFAR net) and two of
// ResNet-18's, each as the single CFG.CONV job the driver starts (linear = 1x1 on a 1x1 input).
constexpr conv_case convs[] = {
    {"lenet5.conv1", {1, 32, 32, 6, 5, 5, 1, 1, 0, 0, 0, 0, true, true}},
    {"lenet5.conv2", {6, 14, 14, 16, 5, 5, 1, 1, 0, 0, 0, 0, true, true}},
    {"lenet5.fc1", {400, 1, 1, 120, 1, 1, 1, 1, 0, 0, 0, 0, true, true}},
    {"cifar.stem", {3, 32, 32, 8, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"cifar.res", {8, 16, 16, 8, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"resnet18.l1.3x3", {64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"resnet18.l2.down", {64, 56, 56, 128, 1, 1, 2, 2, 0, 0, 0, 0, true, true}},
    {"cifar.res+add", {8, 16, 16, 8, 3, 3, 1, 1, 1, 1, 1, 1, true, true, true}},
    {"resnet18.l1.3x3+add", {64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 1, 1, true, true, true}},
    {"lenet5.conv1+maxpool", {1, 32, 32, 6, 5, 5, 1, 1, 0, 0, 0, 0, true, true, false, 1}},
    {"lenet5.conv2+maxpool", {6, 14, 14, 16, 5, 5, 1, 1, 0, 0, 0, 0, true, true, false, 1}},
    {"cifar.res+add+avgpool", {8, 16, 16, 8, 3, 3, 1, 1, 1, 1, 1, 1, true, true, true, 2}},
};

struct dw_case {
  const char* name;
  ctnn::accel::depthwise g;
};

// Depthwise convolutions as single CFG.DW jobs: MobileNetV2's (224x224 input, 3x3, TF "same"
// padding: 1 on each side at stride 1, 0 before and 1 after at stride 2), full size, a 5x5 one
// (MnasNet / EfficientNet), and the trained DS-CNN's (fmnist_dscnn).
constexpr dw_case dws[] = {
    {"mnv2.dw32_112_s1", {32, 112, 112, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"mnv2.dw96_112_s2", {96, 112, 112, 3, 3, 2, 2, 0, 1, 0, 1, true, true}},
    {"mnv2.dw144_56_s1", {144, 56, 56, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"mnv2.dw192_28_s1", {192, 28, 28, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"mnv2.dw576_14_s1", {576, 14, 14, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"mnv2.dw960_7_s1", {960, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"mnas.dw240_28_5x5", {240, 28, 28, 5, 5, 1, 1, 2, 2, 2, 2, true, true}},
    {"mnas.dw480_14_5x5_s2", {480, 14, 14, 5, 5, 2, 2, 1, 2, 1, 2, true, true}},
    {"dscnn.dw32_14_s1", {32, 14, 14, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"dscnn.dw32_14_s2", {32, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1, true, true}},
    {"dscnn.dw64_7_s1", {64, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
};
// --quick: the same kinds of layers scaled down (fewer channels, smaller planes), two of DS-CNN's
constexpr dw_case dws_quick[] = {
    {"dw32_28_s1", {32, 28, 28, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"dw24_28_s2", {24, 28, 28, 3, 3, 2, 2, 0, 1, 0, 1, true, true}},
    {"dw960_7_s1", {960, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
    {"dw16_14_5x5", {16, 14, 14, 5, 5, 1, 1, 2, 2, 2, 2, true, true}},
    {"dscnn.dw32_14_s2", {32, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1, true, true}},
    {"dscnn.dw64_7_s1", {64, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, true, true}},
};

/// CFG.RES_ADD on a job whose int8 C holds `rows` rows of `cols` at a stride of j.ldc: a random
/// residual after `at`, TFLite-made add parameters; expect becomes add_s8_one(expect, R).
void add_residual(accel_sim& sim, std::mt19937& rng, gemm_job& j, uint32_t at, int rows, int cols,
                  std::vector<int8_t>& expect_rows) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  j.res = true;
  j.res_addr = (at + 3u) & ~3u;
  const size_t bytes = static_cast<size_t>(rows) * j.ldc;
  if (j.res_addr - accel_sim::ram_base + bytes > sim.ram_size()) throw std::runtime_error("residual does not fit");
  auto* R = reinterpret_cast<int8_t*>(sim.ram(j.res_addr));
  for (size_t i = 0; i < bytes; ++i) R[i] = static_cast<int8_t>(rnd(-128, 127));
  ctnn::ref::add_s8_params q{};
  if (ctnn::ref::make_add_s8_params(q, 0.05, j.out_zp, 0.03, -4, 0.06, 2, 2, 127) != ctnn::kernels::status::ok)
    throw std::runtime_error("make_add_s8_params refused");
  j.res_y_zp = q.a_zp; j.res_r_zp = q.b_zp; j.res_out_zp = q.out_zp; j.res_left = q.left_shift;
  j.res_min = q.act_min; j.res_max = q.act_max;
  j.res_mult_y = q.a.multiplier; j.res_shift_y = q.a.shift;
  j.res_mult_r = q.b.multiplier; j.res_shift_r = q.b.shift;
  j.res_mult_out = q.out.multiplier; j.res_shift_out = q.out.shift;
  for (int m = 0; m < rows; ++m)
    for (int n = 0; n < cols; ++n) {
      const size_t i = static_cast<size_t>(m) * j.ldc + static_cast<size_t>(n);
      expect_rows[i] = ctnn::ref::add_s8_one(expect_rows[i], R[i], q);
    }
}

constexpr uint32_t round4(uint32_t v) { return (v + 3u) & ~3u; }

struct result {
  uint64_t cycles, macs, predicted;
  bool exact;
};

/// Per-channel bias, multiplier and shift vectors (n entries), written to RAM at the job's addresses.
struct channel_params {
  std::vector<int32_t> bias, mult, shift;
};
channel_params write_params(accel_sim& sim, std::mt19937& rng, const gemm_job& j, int n, int shift_lo, int shift_hi) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const auto un = static_cast<size_t>(n);
  channel_params p{std::vector<int32_t>(un), std::vector<int32_t>(un), std::vector<int32_t>(un)};
  for (size_t i = 0; i < un; ++i) {
    p.bias[i] = rnd(-5000, 5000);
    p.mult[i] = rnd(1 << 30, 0x7FFFFFFF);
    p.shift[i] = rnd(shift_lo, shift_hi);
  }
  std::memcpy(sim.ram(j.bias), p.bias.data(), 4 * un);
  std::memcpy(sim.ram(j.mult), p.mult.data(), 4 * un);
  std::memcpy(sim.ram(j.shift), p.shift.data(), 4 * un);
  return p;
}

/// Runs the programmed job to its interrupt; the measured cycles and MACs, and STATUS.
result run_job(accel_sim& sim, const gemm_job& j, uint64_t predicted, uint32_t& status) {
  ctnn::tb::program(j);
  status = ctnn::tb::run_to_irq(sim, 2'000'000'000ull);
  result r{};
  r.cycles = ctnn::mmio::read<sim_bus, a::cycles>();
  r.macs = ctnn::mmio::read<sim_bus, a::macs>();
  r.predicted = predicted;
  return r;
}

result run(accel_sim& sim, std::mt19937& rng, int M, int N, int K, bool residual) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  gemm_job j;
  j.M = M; j.N = N; j.K = K;
  j.lda = round4(static_cast<uint32_t>(K));
  j.ldb = round4(static_cast<uint32_t>(N));
  j.ldc = round4(static_cast<uint32_t>(N));
  j.bias_en = true;
  j.per_channel = true;
  j.a_zp = -3; j.out_zp = 5;
  uint32_t at = accel_sim::ram_base;
  auto take = [&](uint64_t bytes) { const uint32_t p = at; at = round4(static_cast<uint32_t>(at + bytes)); return p; };
  j.a = take(uint64_t{j.lda} * static_cast<uint32_t>(M));
  j.b = take(uint64_t{j.ldb} * static_cast<uint32_t>(K));
  j.c = take(uint64_t{j.ldc} * static_cast<uint32_t>(M));
  j.bias = take(4u * static_cast<uint32_t>(N));
  j.mult = take(4u * static_cast<uint32_t>(N));
  j.shift = take(4u * static_cast<uint32_t>(N));
  if (at - accel_sim::ram_base > sim.ram_size()) throw std::runtime_error("shape does not fit in RAM");
  auto* A = reinterpret_cast<int8_t*>(sim.ram(j.a));
  auto* B = reinterpret_cast<int8_t*>(sim.ram(j.b));
  for (uint32_t i = 0; i < j.lda * static_cast<uint32_t>(M); ++i) A[i] = static_cast<int8_t>(rnd(-128, 127));
  for (uint32_t i = 0; i < j.ldb * static_cast<uint32_t>(K); ++i) B[i] = static_cast<int8_t>(rnd(-128, 127));
  const channel_params cp = write_params(sim, rng, j, N, -14, -8);
  const std::vector<int32_t>& bias = cp.bias;
  std::vector<int8_t> expect(static_cast<size_t>(j.ldc) * static_cast<size_t>(M));
  const ctnn::ref::gemm_s8_params q{j.a_zp, j.b_zp, j.out_zp, cp.mult.data(), cp.shift.data(), true, -128, 127};
  ctnn::ref::gemm_s8(M, N, K, A, static_cast<int>(j.lda), B, static_cast<int>(j.ldb), bias.data(),
                     expect.data(), static_cast<int>(j.ldc), q);
  if (residual) add_residual(sim, rng, j, at, M, N, expect);
  ctnn::accel::gemm pg{M, N, K, false, true, true};
  pg.residual = residual;
  uint32_t status = 0;
  result r = run_job(sim, j, ctnn::accel::predict(hw, pg).cycles, status);
  const auto* C = reinterpret_cast<const int8_t*>(sim.ram(j.c));
  r.exact = a::status::done::get(status) == 1;
  for (int m = 0; m < M && r.exact; ++m)
    r.exact = std::memcmp(C + static_cast<size_t>(m) * j.ldc, expect.data() + static_cast<size_t>(m) * j.ldc,
                          static_cast<size_t>(N)) == 0;
  return r;
}

/// Lays out a convolution job's A (M x K weights), B (channels CHW planes, cstride apart), C and
/// the three vectors in RAM from its base, fills A and B with random int8; returns the first
/// free (4-aligned) address after them.
uint32_t place_conv(accel_sim& sim, std::mt19937& rng, gemm_job& j, int channels) {
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  uint32_t at = accel_sim::ram_base;
  auto take = [&](uint64_t bytes) { const uint32_t p = at; at = round4(static_cast<uint32_t>(at + bytes)); return p; };
  j.a = take(static_cast<uint64_t>(j.M) * static_cast<uint64_t>(j.K));
  j.b = take(static_cast<uint64_t>(channels) * j.cstride);
  j.c = take(static_cast<uint64_t>(j.M) * static_cast<uint64_t>(j.N));
  j.bias = take(4u * static_cast<uint32_t>(j.M));
  j.mult = take(4u * static_cast<uint32_t>(j.M));
  j.shift = take(4u * static_cast<uint32_t>(j.M));
  if (at - accel_sim::ram_base > sim.ram_size()) throw std::runtime_error("conv does not fit in RAM");
  auto* W = reinterpret_cast<int8_t*>(sim.ram(j.a));
  auto* X = reinterpret_cast<int8_t*>(sim.ram(j.b));
  for (int i = 0; i < j.M * j.K; ++i) W[i] = static_cast<int8_t>(rnd(-127, 127));
  for (uint32_t i = 0; i < static_cast<uint32_t>(channels) * j.cstride; ++i) X[i] = static_cast<int8_t>(rnd(-128, 127));
  return at;
}

result run_conv(accel_sim& sim, std::mt19937& rng, const ctnn::accel::conv& v) {
  ctnn::kernels::conv_geometry g;
  g.in_c = v.in_c; g.in_h = v.in_h; g.in_w = v.in_w; g.out_c = v.out_c;
  g.kh = v.kh; g.kw = v.kw; g.sh = v.sh; g.sw = v.sw;
  g.pt = v.pt; g.pb = v.pb; g.pl = v.pl; g.pr = v.pr;
  gemm_job j;
  ctnn::tb::set_conv(j, g, static_cast<uint32_t>(v.in_h * v.in_w));
  j.bias_en = v.bias;
  j.per_channel = v.per_channel;
  j.b_zp = -7; j.out_zp = 3;
  uint32_t at = place_conv(sim, rng, j, v.in_c);
  const auto* W = reinterpret_cast<const int8_t*>(sim.ram(j.a));
  const auto* X = reinterpret_cast<const int8_t*>(sim.ram(j.b));
  const channel_params cp = write_params(sim, rng, j, j.M, -12, -6);
  std::vector<int8_t> expect(static_cast<size_t>(j.M) * static_cast<size_t>(j.N));
  const ctnn::ref::gemm_s8_params q{j.b_zp, 0, j.out_zp, cp.mult.data(), cp.shift.data(), true, -128, 127};
  const bool ref_ok = ctnn::ref::conv2d_s8(g, X, W, cp.bias.data(), expect.data(), q) == ctnn::kernels::status::ok;
  if (v.residual) add_residual(sim, rng, j, at, j.M, j.N, expect);
  // CFG.POOL: the pooled tensor after everything else, expected = the reference pool of C
  std::vector<int8_t> pooled;
  if (v.pool != 0) {
    j.pool = static_cast<uint32_t>(v.pool);
    j.pool_addr = round4(at + static_cast<uint32_t>(j.M * j.N) + 64u);  // clear of a residual
    ctnn::kernels::pool_geometry pg;
    pg.c = j.M; pg.in_h = v.out_h(); pg.in_w = v.out_w();
    pg.kh = pg.kw = pg.sh = pg.sw = 2;
    pooled.resize(static_cast<size_t>(pg.out_elems()));
    const auto st = v.pool == 2 ? ctnn::ref::avg_pool2d_s8(pg, expect.data(), pooled.data(), j.out_zp)
                                : ctnn::ref::max_pool2d<int8_t>(pg, expect.data(), pooled.data());
    if (st != ctnn::kernels::status::ok) throw std::runtime_error("reference pool refused");
    if (j.pool_addr + pooled.size() - accel_sim::ram_base > sim.ram_size()) throw std::runtime_error("pool does not fit");
  }
  uint32_t status = 0;
  result r = run_job(sim, j, ctnn::accel::predict_conv(hw, v).cycles, status);
  r.exact = a::status::done::get(status) == 1 && ref_ok &&
            std::memcmp(sim.ram(j.c), expect.data(), expect.size()) == 0 &&
            (pooled.empty() || std::memcmp(sim.ram(j.pool_addr), pooled.data(), pooled.size()) == 0);
  return r;
}

result run_dw(accel_sim& sim, std::mt19937& rng, const ctnn::accel::depthwise& v) {
  ctnn::kernels::conv_geometry g;
  g.in_c = g.out_c = g.groups = v.channels;
  g.in_h = v.in_h; g.in_w = v.in_w;
  g.kh = v.kh; g.kw = v.kw; g.sh = v.sh; g.sw = v.sw;
  g.pt = v.pt; g.pb = v.pb; g.pl = v.pl; g.pr = v.pr;
  gemm_job j;
  ctnn::tb::set_conv(j, g, static_cast<uint32_t>(v.in_h * v.in_w));
  j.dw = true;
  j.row_params = false;
  j.K = v.kh * v.kw;
  j.lda = static_cast<uint32_t>(j.K);
  j.bias_en = v.bias;
  j.per_channel = v.per_channel;
  j.b_zp = -7; j.out_zp = 3;
  place_conv(sim, rng, j, v.channels);
  const auto* W = reinterpret_cast<const int8_t*>(sim.ram(j.a));
  const auto* X = reinterpret_cast<const int8_t*>(sim.ram(j.b));
  const channel_params cp = write_params(sim, rng, j, j.M, -10, -4);
  std::vector<int8_t> expect(static_cast<size_t>(j.M) * static_cast<size_t>(j.N));
  const ctnn::ref::gemm_s8_params q{j.b_zp, 0, j.out_zp, cp.mult.data(), cp.shift.data(), true, -128, 127};
  const bool ref_ok = ctnn::ref::conv2d_s8(g, X, W, cp.bias.data(), expect.data(), q) == ctnn::kernels::status::ok;
  uint32_t status = 0;
  result r = run_job(sim, j, ctnn::accel::predict_dw(hw, v).cycles, status);
  r.exact = a::status::done::get(status) == 1 && ref_ok && std::memcmp(sim.ram(j.c), expect.data(), expect.size()) == 0;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  accel_sim sim(CTNN_TB_RAM_BYTES, 7);
  sim_bus::sim = &sim;
  std::mt19937 rng(7);
  std::vector<shape> cases = {{"cube64", 64, 64, 64}, {"cube256", 256, 256, 256}, {"cube64+add", 64, 64, 64, true}};
  if (quick) cases = {{"cube64", 64, 64, 64}, {"small", 40, 72, 100}, {"small+add", 40, 72, 100, true}};
  else cases.insert(cases.end(), std::begin(resnet50), std::end(resnet50));

  std::printf("# ctnn accelerator DIM=%d, B block %d columns, K <= %d, %d-byte words on 16-byte DMA lines; utilization = MACs / (DIM^2 x cycles)\n",
              hw.dim, hw.nb, hw.kmax, hw.bus_bytes);
  int bad = 0;
  double worst = 0;
  for (const shape& s : cases) {
    const result r = run(sim, rng, s.m, s.n, s.k, s.residual);
    const double util = static_cast<double>(r.macs) / (static_cast<double>(hw.dim * hw.dim) * static_cast<double>(r.cycles));
    const double err = (static_cast<double>(r.predicted) - static_cast<double>(r.cycles)) / static_cast<double>(r.cycles);
    worst = std::max(worst, std::fabs(err));
    std::printf("gemm %d %d %d cycles=%llu macs=%llu utilization=%.4f predicted=%llu model_error=%+.2f%% %s %s\n",
                s.m, s.n, s.k, static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.macs),
                util, static_cast<unsigned long long>(r.predicted), 100.0 * err, r.exact ? "exact" : "MISMATCH", s.name);
    if (!r.exact || r.macs != static_cast<uint64_t>(s.m) * static_cast<uint64_t>(s.n) * static_cast<uint64_t>(s.k)) ++bad;
    std::fflush(stdout);
  }
  // convolutions as single CFG.CONV jobs; utilization is bounded by the one-byte-per-request
  // im2col gather (K x N requests), so it is low by design: the bus, not the array, is the limit
  for (const conv_case& s : convs) {
    if (quick && s.g.in_h > 32) continue;
    const result r = run_conv(sim, rng, s.g);
    const int M = s.g.out_c, N = s.g.out_h() * s.g.out_w(), K = s.g.in_c * s.g.kh * s.g.kw;
    const double util = static_cast<double>(r.macs) / (static_cast<double>(hw.dim * hw.dim) * static_cast<double>(r.cycles));
    const double err = (static_cast<double>(r.predicted) - static_cast<double>(r.cycles)) / static_cast<double>(r.cycles);
    worst = std::max(worst, std::fabs(err));
    std::printf("conv %d %d %d cycles=%llu macs=%llu utilization=%.4f predicted=%llu model_error=%+.2f%% %s %s\n", M, N,
                K, static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.macs), util,
                static_cast<unsigned long long>(r.predicted), 100.0 * err, r.exact ? "exact" : "MISMATCH", s.name);
    if (!r.exact || r.macs != static_cast<uint64_t>(M) * static_cast<uint64_t>(N) * static_cast<uint64_t>(K)) ++bad;
    std::fflush(stdout);
  }
  // depthwise convolutions as single CFG.DW jobs (the depthwise unit, not the array): memory
  // bound, so two utilizations: MACs against the unit's peak (4 lanes x KH x KW per cycle) and
  // the DMA bound (their bytes at 4 per cycle) against the cycles
  double worst_dw = 0;
  const dw_case* dw_begin = quick ? std::begin(dws_quick) : std::begin(dws);
  const dw_case* dw_end = quick ? std::end(dws_quick) : std::end(dws);
  for (const dw_case* s = dw_begin; s != dw_end; ++s) {
    const ctnn::accel::depthwise& v = s->g;
    const result r = run_dw(sim, rng, v);
    const uint64_t macs = static_cast<uint64_t>(v.channels) * static_cast<uint64_t>(v.out_h() * v.out_w()) *
                          static_cast<uint64_t>(v.kh * v.kw);
    const double peak = static_cast<double>(ctnn::accel::dw_lanes * static_cast<uint64_t>(v.kh * v.kw));
    const double util = static_cast<double>(r.macs) / (peak * static_cast<double>(r.cycles));
    const double dma = static_cast<double>(ctnn::accel::dw_dma_bound(hw, v)) / static_cast<double>(r.cycles);
    const double err = (static_cast<double>(r.predicted) - static_cast<double>(r.cycles)) / static_cast<double>(r.cycles);
    worst_dw = std::max(worst_dw, std::fabs(err));
    std::printf("dw %d %dx%d k%dx%d s%d cycles=%llu macs=%llu mac_utilization=%.4f dma_bound_share=%.4f "
                "macs_per_cycle=%.2f predicted=%llu model_error=%+.2f%% %s %s\n",
                v.channels, v.in_h, v.in_w, v.kh, v.kw, v.sh, static_cast<unsigned long long>(r.cycles),
                static_cast<unsigned long long>(r.macs), util, dma,
                static_cast<double>(r.macs) / static_cast<double>(r.cycles),
                static_cast<unsigned long long>(r.predicted), 100.0 * err, r.exact ? "exact" : "MISMATCH", s->name);
    if (!r.exact || r.macs != macs) ++bad;
    std::fflush(stdout);
  }
  std::printf("# worst model error %.2f%% (depthwise %.2f%%)\n", 100.0 * std::max(worst, worst_dw), 100.0 * worst_dw);
  return bad == 0 && worst <= 0.10 && worst_dw <= 0.05 ? 0 : 1;
}
