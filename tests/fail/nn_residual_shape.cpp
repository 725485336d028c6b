// expect: residual: the body's output shape differs from the shortcut's.*residual_shape_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<12>{"Residual.0."}, [ctn:]*fixed_string<2>{"3"}>, 3>, ctnn::layer_type<[ctn:]*fixed_string<4>{"Add"}>, ctnn::expected_shape<[ctn:]*shape{16, 32, 32, 3}>, ctnn::got_shape<[ctn:]*shape{32, 16, 16, 3}>|residual_shape_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<12>{"Residual.0."}, [ctn:]*fixed_string<2>{"3"}>, 3>, ctnn::layer_type<[ctn:]*fixed_string<4>{"Add"}>, ctnn::expected_shape<[ctn:]*shape{16, 32, 32, 3}>, ctnn::got_shape<[ctn:]*shape{32, 16, 16, 3}>.*residual: the body's output shape differs from the shortcut's
// A residual whose body changes the shape while the shortcut is the identity.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using body = sequential<conv2d<16, 32, 3, 2, 1>, batch_norm2d<32>, relu>;
#else
using body = sequential<conv2d<16, 16, 3, 1, 1>, batch_norm2d<16>, relu>;
#endif
using net = network<"Net", shape{16, 32, 32}, residual<body>>;
static_assert(net::params > 0);
