// The torchvision models of torchvision_models.hpp leaf by leaf against PyTorch: every leaf's
// type, output shape, MACs and drop probability equal torchvision_leaves.hpp's (written by
// torchvision_leaves.py from torchvision's models), and Inception-v3's paths equal its module
// names. A static_assert names the first leaf that differs.
#include "leaves_check.hpp"
#include "torchvision_models.hpp"

namespace {
using ctnn_test_leaves::first_mismatch;
namespace models = ctnn_test_models;
namespace torch = ctnn_test_leaves;

static_assert(first_mismatch<models::shufflenet_v2_x1_0>(torch::shufflenet_v2_x1_0) == -1);
static_assert(first_mismatch<models::efficientnet_b0>(torch::efficientnet_b0) == -1);
static_assert(first_mismatch<models::densenet121>(torch::densenet121) == -1);
static_assert(first_mismatch<models::convnext_tiny>(torch::convnext_tiny) == -1);
static_assert(first_mismatch<models::inception_v3>(torch::inception_v3) == -1);
// Inception-v3 is named as torchvision names its modules: the path of each of the 193 leaves
// torchvision runs in a module of their own is that module's name (Mixed_6c.branch7x7_1.conv).
static_assert(torch::module_leaves(torch::inception_v3) == 193);
static_assert(first_path_mismatch<models::inception_v3>(torch::inception_v3) == -1);
static_assert(first_mismatch<models::squeezenet1_0>(torch::squeezenet1_0) == -1);
static_assert(first_mismatch<models::mnasnet1_0>(torch::mnasnet1_0) == -1);
}  // namespace
