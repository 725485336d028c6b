// expect: requant shift must be in \[-31, 30\]
// A shift outside TFLite's bounds is rejected at compile time.
#include "ctnn/kernels/quant.hpp"
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::static_requant<1 << 30, -40>::value;
#else
constexpr auto r = ctnn::quant::static_requant<1 << 30, -31>::value;
#endif
static_assert(r.multiplier == 1 << 30);
