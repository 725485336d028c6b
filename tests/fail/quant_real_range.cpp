// expect: real multiplier must be positive
// A negative real multiplier cannot be quantized.
#include "ctnn/kernels/quant.hpp"
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::static_multiplier<-0.5>::value;
#else
constexpr auto r = ctnn::quant::static_multiplier<0.5>::value;
#endif
static_assert(r.multiplier == 1 << 30);
