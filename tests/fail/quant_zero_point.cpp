// expect: zero point out of range of the quantized type
// An int8 zero point of 200 does not fit in [-128, 127].
#include "ctnn/kernels/quant.hpp"
#ifndef CTNN_FAIL_CONTROL
constexpr int zp = ctnn::quant::static_zero_point<200, int8_t>::value;
#else
constexpr int zp = ctnn::quant::static_zero_point<200, uint8_t>::value;
#endif
static_assert(zp == 200);
