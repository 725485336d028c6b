// expect: a field of a register is expected here
// read_signed() reads one field; a register given instead is one readable error.
#include "ctnn/regs/accel.hpp"
namespace a = ctnn::regs::accel;
int f() {
#ifndef CTNN_FAIL_CONTROL
  return ctnn::mmio::read_signed<ctnn::mmio::volatile_bus, a::zp>();
#else
  return ctnn::mmio::read_signed<ctnn::mmio::volatile_bus, a::zp::a_zp>();
#endif
}
