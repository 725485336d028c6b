// expect: field_value_does_not_fit_in_its_bits
// A constant that does not fit its field does not compile.
#include "ctnn/regs/accel.hpp"
namespace a = ctnn::regs::accel;
#ifndef CTNN_FAIL_CONTROL
constexpr a::conv_kernel::kh v{0x1FFu};
#else
constexpr a::conv_kernel::kh v{0xFFu};
#endif
