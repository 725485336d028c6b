// expect: memory_budget_exceeded_required_bytes_at_peak_layer.*ctnn::required_bytes<23520>.*ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"2"}>, 2>.*ctnn::layer_type<[ctn:]*fixed_string<10>{"MaxPool2d"}>
// LeNet-5 in float32 needs a 23,520-byte arena: a 16 KiB budget check fails, naming the peak layer.
#include "ctnn/analysis/budget.hpp"
#include "ctnn/zoo/lenet5.hpp"

#ifndef CTNN_FAIL_CONTROL
static_assert(ctnn::fits<ctnn::zoo::lenet5, float>(16 * 1024));
#else
static_assert(ctnn::fits<ctnn::zoo::lenet5, float>(24 * 1024));
#endif
