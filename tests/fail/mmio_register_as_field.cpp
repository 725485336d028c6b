// expect: a field of a register is expected here
// write() takes fields; a register passed instead is one readable error, not "no type named
// 'field_type'".
#include "ctnn/regs/accel.hpp"
namespace a = ctnn::regs::accel;
void f() {
#ifndef CTNN_FAIL_CONTROL
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::cfg{});
#else
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::cfg::relu{1});
#endif
}
