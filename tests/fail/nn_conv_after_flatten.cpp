// expect: conv2d: input must be a \(C, H, W\) feature map, not a flat vector.*conv2d_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>|conv2d_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>.*conv2d: input must be a \(C, H, W\) feature map, not a flat vector
// Conv2d after flatten: the flat vector has 256 "channels" but no height or width; PyTorch
// rejects it, and the error names the fault, not a channel count or an empty output.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{16, 4, 4}, flatten, conv2d<256, 8, 1>>;
#else
using net = network<"Net", shape{16, 4, 4}, conv2d<16, 8, 1>, flatten>;
#endif
static_assert(net::leaf_count == 2);
