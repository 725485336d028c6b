// expect: conv2d: the input's channel count differs from the layer's in_channels.*conv2d_input_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<5>{"body"}, [ctn:]*fixed_string<6>{"first"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<8>, ctnn::got<16>|conv2d_input_channels_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<5>{"body"}, [ctn:]*fixed_string<6>{"first"}>, 1>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Conv2d"}>, ctnn::expected<8>, ctnn::got<16>.*conv2d: the input's channel count differs from the layer's in_channels
// Two faults: body/first is declared for 8 channels (it gets 16), and body/second for 4 (it gets
// first's 8). Only the first is reported, once: the walk records the first fault and does not
// blame the leaves after it (a second "error: " fails the nn_* tests, tests/CMakeLists.txt).
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{3, 16, 16}, named<"stem", conv2d<3, 16, 3, 1, 1>>,
                    named<"body", sequential<named<"first", conv2d<8, 8, 3, 1, 1>>, relu,
                                             named<"second", conv2d<4, 4, 3, 1, 1>>>>>;
#else
using net = network<"Net", shape{3, 16, 16}, named<"stem", conv2d<3, 16, 3, 1, 1>>,
                    named<"body", sequential<named<"first", conv2d<16, 8, 3, 1, 1>>, relu,
                                             named<"second", conv2d<8, 4, 3, 1, 1>>>>>;
#endif
static_assert(net::leaf_count == 4);
