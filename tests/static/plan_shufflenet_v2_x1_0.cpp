// The plan of torchvision's shufflenet_v2_x1_0 (torchvision_models.hpp) in int8 and float32, at the
// compilers' default constant-evaluation limits.
#include "plan_checks.hpp"
#include "torchvision_models.hpp"

namespace ctnn_test_models {
static_assert(shufflenet_v2_x1_0::leaf_count > 150);
static_assert(plans_to_bound<shufflenet_v2_x1_0, ctnn::dtype::int8, 451'584>());
static_assert(plans_to_bound<shufflenet_v2_x1_0, ctnn::dtype::float32, 1'806'336>());
}  // namespace ctnn_test_models
