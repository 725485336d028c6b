// expect: conv2d: the input's channel count differs from the layer's in_channels.*conv2d_input_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<9>{"Mixed_6c"}, [ctn:]*fixed_string<12>{"branch7x7_1"}, [ctn:]*fixed_string<5>{"conv"}>, 135>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<760>, ctnn::got<768>|conv2d_input_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<9>{"Mixed_6c"}, [ctn:]*fixed_string<12>{"branch7x7_1"}, [ctn:]*fixed_string<5>{"conv"}>, 135>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<760>, ctnn::got<768>.*conv2d: the input's channel count differs from the layer's in_channels
// torchvision's Inception-v3 (tests/static/torchvision_models.hpp, named as torchvision names its
// modules) whose Mixed_6c.branch7x7_1 convolution is declared for 760 input channels: the error
// names the path Mixed_6c/branch7x7_1/conv, the leaf (135) and its type, and it is the only error.
#include "../static/torchvision_models.hpp"

using namespace ctnn_test_models;
#ifndef CTNN_FAIL_CONTROL
using net = inception_v3_with<inception_c<768, 160, 760>>;
#else
using net = inception_v3_with<inception_c<768, 160, 768>>;
#endif
static_assert(net::leaf_count > 300);
static_assert(net::layer(135).kind == ctnn::op::conv2d);
