// expect: all fields of one write must belong to the same register
// One write() cannot mix fields of two registers (they would need two stores).
#include "ctnn/regs/accel.hpp"
void f() {
  namespace a = ctnn::regs::accel;
#ifndef CTNN_FAIL_CONTROL
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::cfg::relu{1}, a::zp::a_zp{3});
#else
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::cfg::relu{1}, a::cfg::bias_en{1});
#endif
}
