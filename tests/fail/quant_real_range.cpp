// expect: real multiplier must be positive
// A negative real multiplier cannot be quantized. static_multiplier<Real> needs floating-point
// template arguments (g++ 11+, clang 18+); a compiler without them (clang 14 and 16) checks the
// same negative multiplier written as a ratio, -1/2, which must give the same error.
#include "ctnn/kernels/quant.hpp"
#if defined(__cpp_nontype_template_args) && __cpp_nontype_template_args >= 201911L
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::static_multiplier<-0.5>::value;
#else
constexpr auto r = ctnn::quant::static_multiplier<0.5>::value;
#endif
#else
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::static_multiplier_ratio<-1, 2>::value;
#else
constexpr auto r = ctnn::quant::static_multiplier_ratio<1, 2>::value;
#endif
#endif
static_assert(r.multiplier == 1 << 30);
