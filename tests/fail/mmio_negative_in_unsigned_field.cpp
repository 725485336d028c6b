// expect: field_value_is_negative_but_the_field_is_unsigned
// A negative constant in an unsigned field does not compile, in a function as in a constant (M is
// 16 bits unsigned: -8 was written as 0xFFF8). Signed fields (zero points, shifts) take it.
#include "ctnn/regs/accel.hpp"
namespace a = ctnn::regs::accel;
void f() {
#ifndef CTNN_FAIL_CONTROL
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::m::value(-8));
#else
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::m::value(8));
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::zp::a_zp(-8));
#endif
}
