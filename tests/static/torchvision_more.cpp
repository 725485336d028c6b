// More torchvision classifiers (torchvision_models.hpp), checked against their published
// parameter counts and GFLOPS (conv + linear MACs, rounded to two decimals).
#include "torchvision_models.hpp"

namespace {
using namespace ctnn_test_models;

// ---- ShuffleNetV2 x1.0 ---------------------------------------------------------
static_assert(shufflenet_v2_x1_0::params == 2'278'604);
static_assert(rounds_to(shufflenet_v2_x1_0::macs, 14));
// ---- EfficientNet-B0 -------------------------------------------------------------
static_assert(efficientnet_b0::params == 5'288'548);
static_assert(rounds_to(efficientnet_b0::macs, 39));
// torchvision's StochasticDepth leaves: one at the end of each of the 9 residual MBConv blocks
// (blocks 2, 4, 6, 7, 9, 10, 12, 13 and 14 of 16), drop probability 0.2 * block / 16.
constexpr int stochastic_depth_leaves(int64_t* blocks) {
  int n = 0;
  for (int32_t i = 0; i < efficientnet_b0::leaf_count; ++i) {
    const ctnn::row& r = efficientnet_b0::layer(i);
    if (r.type[0] != 'S' || r.type[1] != 't') continue;  // "StochasticDepth"
    blocks[n++] = static_cast<int64_t>(r.geometry.alpha * 80.0f + 0.5f);
  }
  return n;
}
static_assert([] {
  int64_t blocks[16] = {};
  const int n = stochastic_depth_leaves(blocks);
  const int64_t want[9] = {2, 4, 6, 7, 9, 10, 12, 13, 14};
  bool same = n == 9;
  for (int k = 0; same && k < 9; ++k) same = blocks[k] == want[k];
  return same;
}());
// ---- DenseNet-121 ----------------------------------------------------------------
static_assert(densenet121::params == 7'978'856);
static_assert(rounds_to(densenet121::macs, 283));
// ---- ConvNeXt-Tiny ---------------------------------------------------------------
static_assert(convnext_tiny::params == 28'589'128);
static_assert(rounds_to(convnext_tiny::macs, 446));
// ---- Inception-v3 (eval: no auxiliary classifier) -----------------------------------
static_assert(inception_v3::params == 23'834'568);
static_assert(inception_v3::buffers == 34'526 - 94);  // torch also counts num_batches_tracked: 94 BatchNorms
static_assert(rounds_to(inception_v3::macs, 571));
// ---- SqueezeNet 1.0 -----------------------------------------------------------------
static_assert(squeezenet1_0::params == 1'248'424);
static_assert(rounds_to(squeezenet1_0::macs, 82));
// ---- MNASNet 1.0 ----------------------------------------------------------------------
static_assert(mnasnet1_0::params == 4'383'312);
static_assert(mnasnet1_0::buffers == 37'972 - 52);  // torch also counts num_batches_tracked: 52 BatchNorms
static_assert(rounds_to(mnasnet1_0::macs, 31));

}  // namespace
