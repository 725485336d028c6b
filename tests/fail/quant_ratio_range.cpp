// expect: real multiplier out of the representable range
// A multiplier ratio of 2^-40 cannot be represented by a Q0.31 multiplier and a shift >= -31.
#include "ctnn/kernels/quant.hpp"
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::static_multiplier_ratio<1, 1099511627776>::value;
#else
constexpr auto r = ctnn::quant::static_multiplier_ratio<1, 1048576>::value;
#endif
static_assert(r.multiplier == 1 << 30);
