// expect: conv2d: the dilated kernel is larger than the padded input.*conv2d_kernel_larger_than_padded_input<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"2"}>, 2>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected_shape<[ctn:]*shape{8, 5, 5, 3}>, ctnn::got_shape<[ctn:]*shape{8, 4, 4, 3}>|conv2d_kernel_larger_than_padded_input<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"2"}>, 2>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected_shape<[ctn:]*shape{8, 5, 5, 3}>, ctnn::got_shape<[ctn:]*shape{8, 4, 4, 3}>.*conv2d: the dilated kernel is larger than the padded input
// A 5×5 kernel on a 4×4 feature map without padding.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{1, 8, 8}, conv2d<1, 8, 1>, max_pool2d<2>, conv2d<8, 8, 5>>;
#else
using net = network<"Net", shape{1, 8, 8}, conv2d<1, 8, 1>, max_pool2d<2>, conv2d<8, 8, 5, 1, 1>>;
#endif
static_assert(net::params > 0);
