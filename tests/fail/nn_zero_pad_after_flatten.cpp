// expect: zero_pad2d: input must be a \(C, H, W\) feature map, not a flat vector.*zero_pad_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>|zero_pad_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>.*zero_pad2d: input must be a \(C, H, W\) feature map, not a flat vector
// ZeroPad2d pads height and width: after flatten there are none. The error says so (it said
// "negative padding leaves an empty output").
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{3, 8, 8}, flatten, zero_pad2d<1>>;
#else
using net = network<"Net", shape{3, 8, 8}, zero_pad2d<1>, flatten>;
#endif
static_assert(net::params == 0);
