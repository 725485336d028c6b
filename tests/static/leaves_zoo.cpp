// The zoo (and the firmware demo's CIFAR ResNet) leaf by leaf against PyTorch: every leaf's type,
// output shape, MACs and drop probability equal torchvision_leaves.hpp's (written by
// torchvision_leaves.py from torchvision's models and, for LeNet-5 and the CIFAR ResNet, from
// PyTorch definitions of them). A static_assert names the first leaf that differs.
#include "ctnn/zoo/cifar_resnet.hpp"
#include "ctnn/zoo/zoo.hpp"
#include "leaves_check.hpp"

namespace {
using ctnn_test_leaves::first_mismatch;
namespace zoo = ctnn::zoo;
namespace torch = ctnn_test_leaves;

static_assert(first_mismatch<zoo::lenet5>(torch::lenet5) == -1);
static_assert(first_mismatch<zoo::cifar_resnet>(torch::cifar_resnet) == -1);
static_assert(first_mismatch<zoo::alexnet>(torch::alexnet) == -1);
static_assert(first_mismatch<zoo::vgg16>(torch::vgg16) == -1);
static_assert(first_mismatch<zoo::googlenet>(torch::googlenet) == -1);
static_assert(first_mismatch<zoo::resnet18>(torch::resnet18) == -1);
static_assert(first_mismatch<zoo::resnet50>(torch::resnet50) == -1);
static_assert(first_mismatch<zoo::mobilenet_v2>(torch::mobilenet_v2) == -1);
}  // namespace
