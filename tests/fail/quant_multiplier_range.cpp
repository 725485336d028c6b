// expect: requant multiplier must be 0 or in \[2\^30, 2\^31\)
// A requant multiplier that is not normalized to [2^30, 2^31) is rejected at compile time.
#include "ctnn/kernels/quant.hpp"
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::static_requant<12345, -3>::value;
#else
constexpr auto r = ctnn::quant::static_requant<(1 << 30) + 12345, -3>::value;
#endif
static_assert(r.shift == -3);
