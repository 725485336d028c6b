// The plan of torchvision's convnext_tiny (torchvision_models.hpp) in int8 and float32, at the
// compilers' default constant-evaluation limits.
#include "plan_checks.hpp"
#include "torchvision_models.hpp"

namespace ctnn_test_models {
static_assert(convnext_tiny::leaf_count > 130);
static_assert(plans_to_bound<convnext_tiny, ctnn::dtype::int8, 1'806'336>());
static_assert(plans_to_bound<convnext_tiny, ctnn::dtype::float32, 7'225'344>());
}  // namespace ctnn_test_models
