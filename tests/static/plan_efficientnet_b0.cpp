// The plan of torchvision's efficientnet_b0 (torchvision_models.hpp) in int8 and float32, at the
// compilers' default constant-evaluation limits.
#include "plan_checks.hpp"
#include "torchvision_models.hpp"

namespace ctnn_test_models {
static_assert(efficientnet_b0::leaf_count > 150);
static_assert(plans_to_bound<efficientnet_b0, ctnn::dtype::int8, 1'505'280>());
static_assert(plans_to_bound<efficientnet_b0, ctnn::dtype::float32, 6'021'120>());
}  // namespace ctnn_test_models
