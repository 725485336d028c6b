// expect: real multiplier must be positive
// A compile-time multiplier ratio of zero (a zero scale written as an integer ratio) is refused,
// with one error, instead of becoming the multiplier {0, 0}.
#include "ctnn/kernels/quant.hpp"
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::static_multiplier_ratio<0, 1024>::value;
#else
constexpr auto r = ctnn::quant::static_multiplier_ratio<1, 1024>::value;
#endif
static_assert(r.multiplier == 1 << 30);
