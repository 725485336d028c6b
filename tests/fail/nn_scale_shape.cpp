// expect: scale: the gate must output \(C, 1, 1\) or the input's shape.*scale_shape_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<9>{"Scale.0."}, [ctn:]*fixed_string<2>{"1"}>, 5>, ctnn::layer_type<[ctn:]*fixed_string<4>{"Mul"}>, ctnn::expected_shape<[ctn:]*shape{16, 1, 1, 3}>, ctnn::got_shape<[ctn:]*shape{8, 1, 1, 3}>|scale_shape_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<9>{"Scale.0."}, [ctn:]*fixed_string<2>{"1"}>, 5>, ctnn::layer_type<[ctn:]*fixed_string<4>{"Mul"}>, ctnn::expected_shape<[ctn:]*shape{16, 1, 1, 3}>, ctnn::got_shape<[ctn:]*shape{8, 1, 1, 3}>.*scale: the gate must output \(C, 1, 1\) or the input's shape
// A squeeze-and-excitation gate that forgets to expand back to the input's channels.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using gate = sequential<global_avg_pool2d, conv2d<16, 4, 1>, relu, conv2d<4, 8, 1>, sigmoid>;
#else
using gate = sequential<global_avg_pool2d, conv2d<16, 4, 1>, relu, conv2d<4, 16, 1>, sigmoid>;
#endif
using net = network<"Net", shape{16, 8, 8}, scale<gate>>;
static_assert(net::params > 0);
