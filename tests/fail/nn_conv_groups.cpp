// expect: conv2d: groups must divide both in_channels and out_channels.*conv2d_groups_do_not_divide_channels<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<3>, ctnn::got<16>|conv2d_groups_do_not_divide_channels<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<3>, ctnn::got<16>.*conv2d: groups must divide both in_channels and out_channels
// A grouped convolution whose groups (3) do not divide its 16 input channels.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{3, 32, 32}, conv2d<3, 16, 3>, conv2d<16, 24, 3, 1, 1, 1, 3>>;
#else
using net = network<"Net", shape{3, 32, 32}, conv2d<3, 16, 3>, conv2d<16, 24, 3, 1, 1, 1, 4>>;
#endif
static_assert(net::params > 0);
