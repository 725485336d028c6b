// expect: conv2d: the input's channel count differs from the layer's in_channels.*conv2d_input_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"2"}>, 2>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<32>, ctnn::got<16>|conv2d_input_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"2"}>, 2>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<32>, ctnn::got<16>.*conv2d: the input's channel count differs from the layer's in_channels
// A convolution declared for 32 input channels fed with 16.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{3, 32, 32}, conv2d<3, 16, 3, 1, 1>, relu, conv2d<32, 32, 3, 1, 1>>;
#else
using net = network<"Net", shape{3, 32, 32}, conv2d<3, 16, 3, 1, 1>, relu, conv2d<16, 32, 3, 1, 1>>;
#endif
static_assert(net::params > 0);
