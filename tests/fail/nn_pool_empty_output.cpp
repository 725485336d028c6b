// expect: pool: the output would be empty.*pool_output_is_empty<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"3"}>, 3>, ctnn::layer_type<[ctn:]*fixed_string<10>{"MaxPool2d"}>, ctnn::expected_shape<[ctn:]*shape{4, 2, 2, 3}>, ctnn::got_shape<[ctn:]*shape{4, 0, 0, 3}>|pool_output_is_empty<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"3"}>, 3>, ctnn::layer_type<[ctn:]*fixed_string<10>{"MaxPool2d"}>, ctnn::expected_shape<[ctn:]*shape{4, 2, 2, 3}>, ctnn::got_shape<[ctn:]*shape{4, 0, 0, 3}>.*pool: the output would be empty
// A 3×3 max pool on a 2×2 map leaves nothing.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{1, 8, 8}, conv2d<1, 4, 3, 1, 1>, max_pool2d<2>, max_pool2d<2>, max_pool2d<3>>;
#else
using net = network<"Net", shape{1, 8, 8}, conv2d<1, 4, 3, 1, 1>, max_pool2d<2>, max_pool2d<2>, max_pool2d<2>>;
#endif
static_assert(net::params > 0);
