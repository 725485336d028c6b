// expect: pool: input must be a \(C, H, W\) feature map, not a flat vector.*pool_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"2"}>, 2>|pool_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"2"}>, 2>.*pool: input must be a \(C, H, W\) feature map, not a flat vector
// Max pooling after flatten (pooling put after the classifier's flatten): there is no window to
// pool over. Average and adaptive pooling report the same fault.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{3, 8, 8}, conv2d<3, 8, 3, 1, 1>, flatten, max_pool2d<2>>;
#else
using net = network<"Net", shape{3, 8, 8}, conv2d<3, 8, 3, 1, 1>, max_pool2d<2>, flatten>;
#endif
static_assert(net::params > 0);
