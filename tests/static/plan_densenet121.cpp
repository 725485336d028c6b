// The plan of torchvision's densenet121 (torchvision_models.hpp) in int8 and float32, at the
// compilers' default constant-evaluation limits.
#include "plan_checks.hpp"
#include "torchvision_models.hpp"

namespace ctnn_test_models {
static_assert(densenet121::leaf_count > 150);
static_assert(plans_to_bound<densenet121, ctnn::dtype::int8, 1'906'688>());
static_assert(plans_to_bound<densenet121, ctnn::dtype::float32, 7'626'752>());
}  // namespace ctnn_test_models
