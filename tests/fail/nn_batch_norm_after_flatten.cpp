// expect: batch_norm2d / layer_norm2d / channel_scale: input must be a \(C, H, W\) feature map, not a flat vector.*batch_norm_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<12>{"BatchNorm2d"}>|batch_norm_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<12>{"BatchNorm2d"}>.*batch_norm2d / layer_norm2d / channel_scale: input must be a \(C, H, W\) feature map, not a flat vector
// BatchNorm2d after flatten: PyTorch rejects a 2-D input, and so does ctnn (not a silent pass).
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{120, 1, 1}, flatten, batch_norm2d<120>>;
#else
using net = network<"Net", shape{120, 1, 1}, batch_norm2d<120>, flatten>;
#endif
static_assert(net::leaf_count == 2);
