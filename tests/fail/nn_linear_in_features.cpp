// expect: linear: the flattened input size differs from the layer's in_features.*linear_in_features_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"3"}>, 3>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Linear"}>, ctnn::expected<400>, ctnn::got<576>|linear_in_features_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"3"}>, 3>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Linear"}>, ctnn::expected<400>, ctnn::got<576>.*linear: the flattened input size differs from the layer's in_features
// A linear layer whose in_features differs from the flattened size of its input.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{1, 28, 28}, conv2d<1, 16, 5>, max_pool2d<4>, flatten, linear<400, 10>>;
#else
using net = network<"Net", shape{1, 28, 28}, conv2d<1, 16, 5>, max_pool2d<4>, flatten, linear<576, 10>>;
#endif
static_assert(net::params > 0);
