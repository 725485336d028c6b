// expect: batch_norm2d / layer_norm2d / channel_scale: the input's channel count differs from the layer's.*batch_norm_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<12>{"BatchNorm2d"}>, ctnn::expected<32>, ctnn::got<16>|batch_norm_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<12>{"BatchNorm2d"}>, ctnn::expected<32>, ctnn::got<16>.*batch_norm2d / layer_norm2d / channel_scale: the input's channel count differs from the layer's
// A batch norm for 32 channels after a conv producing 16.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{3, 8, 8}, conv2d<3, 16, 3>, batch_norm2d<32>>;
#else
using net = network<"Net", shape{3, 8, 8}, conv2d<3, 16, 3>, batch_norm2d<16>>;
#endif
static_assert(net::params > 0);
