// The GEMMs of a network and their fixed-tile splitting are constants that agree with the
// network's MAC count; the lab's 64×64 tiles of LeNet-5 and ResNet-50, checked by hand.
#include "ctnn/analysis/gemm.hpp"
#include "ctnn/zoo/zoo.hpp"

namespace {
using namespace ctnn;
using analysis::gemms;
using analysis::tiling_of;

template <class Net>
constexpr uint64_t gemm_macs() {
  uint64_t s = 0;
  for (const auto& g : gemms<Net>) s += g.macs();
  return s;
}
static_assert(gemm_macs<zoo::lenet5>() == zoo::lenet5::macs);
static_assert(gemm_macs<zoo::resnet50>() == zoo::resnet50::macs);
static_assert(gemm_macs<zoo::mobilenet_v2>() == zoo::mobilenet_v2::macs);
static_assert(gemm_macs<zoo::googlenet>() == zoo::googlenet::macs);

// LeNet-5 conv1: M = 6, N = 28·28 = 784, K = 25 -> 1 × 13 × 1 tiles of 64.
static_assert(gemms<zoo::lenet5>.size() == 5);
static_assert(gemms<zoo::lenet5>[0].m == 6 && gemms<zoo::lenet5>[0].n == 784 && gemms<zoo::lenet5>[0].k == 25);
static_assert(tiling_of<zoo::lenet5>.layers[0].plan.tiles_n == 13);
static_assert(tiling_of<zoo::lenet5>.layers[0].sub_gemms() == 13);
// fc1: 120 × 1 × 400 -> 2 × 1 × 7 sub-GEMMs.
static_assert(tiling_of<zoo::lenet5>.layers[2].sub_gemms() == 14);
static_assert(tiling_of<zoo::lenet5>.useful_macs == static_cast<int64_t>(zoo::lenet5::macs));

// MobileNetV2's depthwise convs are `groups` GEMMs of M = 1, K = 9: almost all padding on 64³ tiles.
static_assert(tiling_of<zoo::mobilenet_v2>.waste_ppm() > tiling_of<zoo::resnet50>.waste_ppm());
static_assert(tiling_of<zoo::resnet50, 16>.waste_ppm() < tiling_of<zoo::resnet50, 64>.waste_ppm());
}  // namespace
