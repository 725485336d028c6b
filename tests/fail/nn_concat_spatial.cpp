// expect: concat: branches disagree on height/width.*concat_spatial_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<10>{"Concat.0."}, [ctn:]*fixed_string<2>{"2"}>, 2>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Concat"}>, ctnn::expected_shape<[ctn:]*shape{8, 16, 16, 3}>, ctnn::got_shape<[ctn:]*shape{8, 8, 8, 3}>|concat_spatial_mismatch<ctnn::at<ctnn::path<[ctn:]*fixed_string<10>{"Concat.0."}, [ctn:]*fixed_string<2>{"2"}>, 2>, ctnn::layer_type<[ctn:]*fixed_string<7>{"Concat"}>, ctnn::expected_shape<[ctn:]*shape{8, 16, 16, 3}>, ctnn::got_shape<[ctn:]*shape{8, 8, 8, 3}>.*concat: branches disagree on height/width
// Two branches of a concat with different spatial sizes.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{4, 16, 16}, concat<conv2d<4, 8, 3, 1, 1>, conv2d<4, 8, 3, 2, 1>>>;
#else
using net = network<"Net", shape{4, 16, 16}, concat<conv2d<4, 8, 3, 1, 1>, conv2d<4, 8, 5, 1, 2>>>;
#endif
static_assert(net::output_shape == shape{16, 16, 16});
