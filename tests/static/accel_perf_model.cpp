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
