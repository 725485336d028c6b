// expect: weight zero point must be 0
// int8 weights are symmetric per channel: a non-zero weight zero point is rejected.
#include "ctnn/kernels/quant.hpp"
#ifndef CTNN_FAIL_CONTROL
constexpr int zp = ctnn::quant::static_weight_zero_point<3>::value;
#else
constexpr int zp = ctnn::quant::static_weight_zero_point<0>::value;
#endif
static_assert(zp == 0);
