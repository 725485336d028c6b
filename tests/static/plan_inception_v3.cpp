// The plan of torchvision's inception_v3 (torchvision_models.hpp) in int8 and float32, at the
// compilers' default constant-evaluation limits.
#include "plan_checks.hpp"
#include "torchvision_models.hpp"

namespace ctnn_test_models {
static_assert(inception_v3::leaf_count > 150);
static_assert(plans_to_bound<inception_v3, ctnn::dtype::int8, 2'074'464>());
static_assert(plans_to_bound<inception_v3, ctnn::dtype::float32, 8'297'856>());
}  // namespace ctnn_test_models
