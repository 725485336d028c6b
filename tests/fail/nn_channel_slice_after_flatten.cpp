// expect: channel_slice: input must be a \(C, H, W\) feature map, not a flat vector.*channel_slice_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>|channel_slice_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>.*channel_slice: input must be a \(C, H, W\) feature map, not a flat vector
// A channel split after flatten: it said "the slice ends beyond the input's channels" (expected
// 2, got 32) although the slice lies within the 32 features.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{8, 2, 2}, flatten, channel_slice<0, 2>>;
#else
using net = network<"Net", shape{8, 2, 2}, channel_slice<0, 2>, flatten>;
#endif
static_assert(net::params == 0);
