// expect: memory_budget_exceeded_required_bytes_at_peak_layer.*RequiredBytes = 37632. long int PeakAtLayer = 1. .*PeakLayerType = ctnn::fixed_string<5>{"ReLU"}
// LeNet-5 in float32 needs more than 16 KiB of activation memory: the user's budget check fails.
#include "ctnn/analysis/budget.hpp"
#include "ctnn/zoo/lenet5.hpp"

#ifndef CTNN_FAIL_CONTROL
static_assert(ctnn::fits<ctnn::zoo::lenet5, float>(16 * 1024));
#else
static_assert(ctnn::fits<ctnn::zoo::lenet5, float>(64 * 1024));
#endif
