// The zoo reproduces the published figures exactly: parameters (torchvision / torchinfo) and
// conv + linear MACs (torchvision's "GFLOPS" column, which counts multiply-accumulates).
#include "ctnn/zoo/zoo.hpp"

namespace {
using namespace ctnn;
using namespace ctnn::zoo;

static_assert(lenet5::params == 61'706);
static_assert(alexnet::params == 61'100'840);
static_assert(vgg16::params == 138'357'544);
static_assert(googlenet::params == 6'624'904);
static_assert(resnet18::params == 11'689'512);
static_assert(resnet50::params == 25'557'032);
static_assert(mobilenet_v2::params == 3'504'872);

static_assert(lenet5::macs == 416'520);
static_assert(alexnet::macs == 714'188'480);

/// torchvision publishes GFLOPS rounded to two decimals: the exact count must round to it.
constexpr bool rounds_to(uint64_t macs, uint64_t centi_gmacs) {
  return macs >= centi_gmacs * 10'000'000 - 5'000'000 && macs < centi_gmacs * 10'000'000 + 5'000'000;
}
static_assert(rounds_to(vgg16::macs, 1547));
static_assert(rounds_to(googlenet::macs, 150));
static_assert(rounds_to(resnet18::macs, 181));
static_assert(rounds_to(resnet50::macs, 409));
static_assert(rounds_to(mobilenet_v2::macs, 30));

static_assert(lenet5::output_shape == features(10));
static_assert(resnet50::output_shape == features(1000));
static_assert(googlenet::layer(googlenet::leaf_count - 1).out == features(1000));
}  // namespace
