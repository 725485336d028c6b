// expect: a field is written twice in one write
// The same field twice in one write() is a mistake, not a merge.
#include "ctnn/regs/accel.hpp"
void f() {
  namespace a = ctnn::regs::accel;
#ifndef CTNN_FAIL_CONTROL
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::cfg::relu{1}, a::cfg::relu{0});
#else
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::cfg::relu{1});
#endif
}
