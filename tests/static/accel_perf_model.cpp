// Compile-time facts of the accelerator performance model (include/ctnn/accel/perf_model.hpp).
#include "ctnn/accel/perf_model.hpp"

namespace acc = ctnn::accel;

constexpr acc::config dim8{8, 1, 64, 8192, 4};
constexpr acc::gemm cube256{256, 256, 256, false, true, true};
constexpr acc::prediction p256 = acc::predict(dim8, cube256);

// 256^3 on DIM = 8: 32 x 32 tiles of 256 cycles, compute-bound, >= 95 % utilization.
static_assert(p256.compute == 32u * 32u * 256u);
static_assert(p256.compute > p256.bus_words);
static_assert(acc::utilization_ppm(dim8, p256.macs, p256.cycles) >= 950'000);
// Small K is padded to KMIN = 2 * DIM / tile + DIM cycles per tile.
static_assert(acc::predict(dim8, {8, 8, 4, false, false, false}).compute == 24);
// A narrow bus makes a GEMM bus-bound: the prediction follows the words, not the MACs.
constexpr acc::config narrow{8, 1, 64, 8192, 1};
static_assert(acc::predict(narrow, {64, 64, 64, true, false, false}).cycles >
              acc::predict(narrow, {64, 64, 64, true, false, false}).compute);
// K above the scratchpad is reported.
static_assert(!acc::predict(dim8, {8, 8, 9000, false, false, false}).fits);
// A larger array is faster on a large GEMM.
static_assert(acc::predict({16, 1, 128, 8192, 4}, cube256).cycles < p256.cycles);

// A convolution runs as one CFG.CONV job: M = out channels, N = pixels, K = in x kernel.
constexpr acc::conv lenet_conv1{1, 32, 32, 6, 5, 5, 1, 1, 0, 0, 0, 0, true, true};
constexpr acc::prediction pc1 = acc::predict_conv(dim8, lenet_conv1);
static_assert(lenet_conv1.out_h() == 28 && lenet_conv1.out_w() == 28);
static_assert(pc1.macs == 6u * 784u * 25u);
// A stride-1 im2col gather reads runs of up to 16 columns per 16-byte line, cut at the 28-pixel
// output rows: conv1's 25 x 784 B elements take between 1/16 and 1/8 as many requests.
constexpr uint64_t conv1_b_items() {
  acc::gather_hold h;
  uint64_t n = 0;
  for (uint64_t col0 = 0; col0 < 784; col0 += 64) n += acc::conv_b_items(lenet_conv1, 1024, col0, 784 - col0 < 64 ? 784 - col0 : 64, 0, h);
  return n;
}
static_assert(conv1_b_items() < 25u * 784u / 8u && conv1_b_items() > 25u * 784u / 16u);
static_assert(pc1.cycles >= pc1.compute && pc1.cycles >= pc1.bus_words);
// A horizontal stride of 2 gathers one byte per request (K x N); so does a DIM not a multiple of 4.
constexpr acc::conv strided{8, 16, 16, 16, 3, 3, 2, 2, 1, 1, 1, 1, true, true};
static_assert(acc::predict_conv(dim8, strided).bus_words >= 72u * 64u);
static_assert(acc::predict_conv({6, 1, 48, 8192, 4}, lenet_conv1).bus_words >= 25u * 784u);
// A 1x1 stride-1 conv on 8 aligned pixels: one run of 8 columns from one line. A 1x2 kernel:
// row kx = 1 starts one byte on, still inside the line: one request each.
constexpr uint64_t b_items(const acc::conv& v, uint64_t cstride, uint64_t cols, uint64_t base = 0) {
  acc::gather_hold h;
  return acc::conv_b_items(v, cstride, 0, cols, base, h);
}
static_assert(b_items({1, 1, 8, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, true}, 8, 8) == 1);
static_assert(b_items({1, 1, 9, 1, 1, 2, 1, 1, 0, 0, 0, 0, true, true}, 9, 8) == 1 + 1);
// The same convs on an input at byte 12 of a line: the run crosses into the next line, whose
// low line is read first (a prefetch); row kx = 1 crosses too, and the hold is the high line
// of row kx = 0, so it prefetches again. 20 pixels from byte 0: 16 columns (one group, one
// line), then 4 from the next line.
static_assert(b_items({1, 1, 8, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, true}, 8, 8, 12) == 2);
static_assert(b_items({1, 1, 9, 1, 1, 2, 1, 1, 0, 0, 0, 0, true, true}, 9, 8, 12) == 2 + 2);
static_assert(b_items({1, 1, 20, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, true}, 20, 20) == 2);
// Padding runs: a 1x3 input padded by 1 all round, 3x3 kernel, one output row of 3 columns:
// rows ky = 0, 2 are all padding (one run each); ky = 1 cuts [pad][2 real] for kx = 0,
// [3 real] for kx = 1 and [2 real][pad] for kx = 2.
static_assert(b_items({1, 1, 3, 1, 3, 3, 1, 1, 1, 1, 1, 1, true, true}, 3, 3) ==
              3 * 1 /* ky = 0, 2: padding */ * 2 + (2 + 1 + 2));
// Row parameters are loaded once (3 x M words), not per block of columns.
constexpr acc::gemm rows{6, 784, 25, false, true, true, true, true, true};
constexpr acc::gemm cols{6, 784, 25, false, true, true, true, true, false};
static_assert(acc::predict(dim8, rows).bus_words < acc::predict(dim8, cols).bus_words);
// An array whose DIM is not a multiple of 4 reads B by bytes: more bus words than DIM = 8.
static_assert(acc::predict({6, 1, 48, 8192, 4}, cube256).bus_words > p256.bus_words);
// A residual add (CFG.RES_ADD) reads one word per C word: 256 rows of 64 words more, and a longer
// tail; an int32 C takes no residual (the hardware refuses it), so nothing changes there.
constexpr acc::gemm cube256_res{256, 256, 256, false, true, true, false, false, false, true};
static_assert(acc::predict(dim8, cube256_res).bus_words == p256.bus_words + 256u * 64u);
static_assert(acc::predict(dim8, cube256_res).cycles > p256.cycles);
constexpr acc::conv lenet_conv1_res{1, 32, 32, 6, 5, 5, 1, 1, 0, 0, 0, 0, true, true, true};
static_assert(acc::predict_conv(dim8, lenet_conv1_res).bus_words == pc1.bus_words + 6u * 784u / 4u);  // words of C
constexpr acc::gemm raw_res{64, 64, 64, true, true, true, false, false, false, true};
static_assert(acc::predict(dim8, raw_res).cycles == acc::predict(dim8, {64, 64, 64, true, true, true}).cycles);

// A rows are read as 16-byte lines at any alignment: ceil(K / 16) lines, one more when the row
// does not start on a line (that line only fills the funnel); fc1's 400-byte rows from a line
// boundary take 25 reads, 120-byte rows 8 or 9 by their offset, a 1-byte row at offset 15 two.
static_assert(acc::a_row_lines(0, 400) == 25 && acc::a_row_lines(0, 120) == 8 && acc::a_row_lines(8, 120) == 9);
static_assert(acc::a_row_lines(5, 25) == 3 && acc::a_row_lines(15, 1) == 2 && acc::a_row_lines(16, 16) == 1);
// LeNet-5's fc1 (N = 1, K = 400): 120 rows of 25 lines, against 100 words each before.
constexpr acc::gemm fc1{120, 1, 400, false, true, true, false, false, true};
static_assert(acc::predict(dim8, fc1).bus_words == 120u * 25u + 3u * 120u + 400u + 120u);  // A, parameters, B, C
// An A at an odd address costs one line more per row.
constexpr acc::gemm fc1_odd{120, 1, 400, false, true, true, false, false, true, false, 3, 400};
static_assert(acc::predict(dim8, fc1_odd).bus_words == acc::predict(dim8, fc1).bus_words + 120u);
