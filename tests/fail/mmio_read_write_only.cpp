// expect: this field is write-only.*accel\.CTRL\.START
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
