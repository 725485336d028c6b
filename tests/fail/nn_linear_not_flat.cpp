// expect: linear: input is a feature map. insert flatten before linear.*linear_input_not_flattened<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Linear"}>|linear_input_not_flattened<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Linear"}>.*linear: input is a feature map. insert flatten before linear
// A linear layer applied to a feature map without flatten.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{3, 8, 8}, global_avg_pool2d, linear<3, 10>>;
#else
using net = network<"Net", shape{3, 8, 8}, global_avg_pool2d, flatten, linear<3, 10>>;
#endif
static_assert(net::output_shape == features(10));
