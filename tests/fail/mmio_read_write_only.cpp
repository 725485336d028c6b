// expect: this field is write-only.*read_check<ctnn::regs::accel::ctrl::start>|read_check<ctnn::regs::accel::ctrl::start>.*this field is write-only
// Reading a write-only field does not compile; the diagnostic names the field.
#include "ctnn/regs/accel.hpp"
unsigned f() {
  namespace a = ctnn::regs::accel;
#ifndef CTNN_FAIL_CONTROL
  return ctnn::mmio::read<ctnn::mmio::volatile_bus, a::ctrl::start>();
#else
  return ctnn::mmio::read<ctnn::mmio::volatile_bus, a::status::busy>();
#endif
}
