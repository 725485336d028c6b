// expect: this field is read-only.*write_check<ctnn::regs::accel::status::busy>|write_check<ctnn::regs::accel::status::busy>.*this field is read-only
// Writing a read-only field does not compile; the diagnostic names the field.
#include "ctnn/regs/accel.hpp"
void f() {
  namespace a = ctnn::regs::accel;
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::status::done{1});
#ifndef CTNN_FAIL_CONTROL
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::status::busy{1});
#endif
}
