// Plans at the compilers' default constant-evaluation limits: SqueezeNet 1.0 and MNASNet 1.0
// (torchvision_models.hpp), a synthetic network of more than 600 leaves (residual blocks and
// two-way concats), and the CIFAR-style ResNet whose im2col scratch goes into the largest free
// hole at its step, so that its arena reaches the lower bound (it was 1.104x the bound when
// scratch was sized against all the free bytes at its step).
#include "ctnn/zoo/cifar_resnet.hpp"
#include "plan_checks.hpp"
#include "torchvision_models.hpp"

namespace ctnn_test_models {
static_assert(plans_to_bound<squeezenet1_0, ctnn::dtype::int8, 1'420'512>());
static_assert(plans_to_bound<mnasnet1_0, ctnn::dtype::int8, 802'816>());

static_assert(plans_to_bound<ctnn::zoo::cifar_resnet, ctnn::dtype::int8, 11'264>());
static_assert(plans_to_bound<ctnn::zoo::cifar_resnet, ctnn::dtype::float32, 45'056>());
static_assert(ctnn::memory::plan_of<ctnn::zoo::cifar_resnet, ctnn::dtype::int8>.scratch_total_bytes > 0);

// 6 leaves per unit: conv, relu, add; conv, conv, concat
template <int64_t C>
using synthetic_unit = sequential<residual<sequential<conv2d<C, C, 3, 1, 1>, relu>>,
                                  concat<conv2d<C, C / 2, 1>, conv2d<C, C - C / 2, 1>>>;
using synthetic_600 = network<"Synthetic600", shape{3, 16, 16}, conv2d<3, 8, 3, 1, 1>,
                              repeat<100, synthetic_unit<8>>, global_avg_pool2d, flatten, linear<8, 10>>;
static_assert(synthetic_600::leaf_count >= 600);
static_assert(plans_to_bound<synthetic_600, ctnn::dtype::int8, 4'096>());
}  // namespace ctnn_test_models
