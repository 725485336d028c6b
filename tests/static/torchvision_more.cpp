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
