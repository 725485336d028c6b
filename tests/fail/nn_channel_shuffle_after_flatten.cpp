// expect: channel_shuffle: input must be a \(C, H, W\) feature map, not a flat vector.*channel_shuffle_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>|channel_shuffle_input_is_not_a_feature_map<ctnn::at<ctnn::path<[ctn:]*fixed_string<2>{"1"}>, 1>.*channel_shuffle: input must be a \(C, H, W\) feature map, not a flat vector
// ChannelShuffle after flatten: PyTorch's channel_shuffle wants at least 3 dimensions (it compiled
// before, shuffling the flat features as if they were channels).
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{8, 2, 2}, flatten, channel_shuffle<2>>;
#else
using net = network<"Net", shape{8, 2, 2}, channel_shuffle<2>, flatten>;
#endif
static_assert(net::params == 0);
