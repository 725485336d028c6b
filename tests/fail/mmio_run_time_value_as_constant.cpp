// expect: not a constant expression
// F{v} is a constant, checked when compiled; a run-time value goes through F::from(v), which says
// whether it fits (a write of it returns a write_status), and is never cut silently.
#include "ctnn/regs/accel.hpp"
namespace a = ctnn::regs::accel;
bool f(int rows) {
#ifndef CTNN_FAIL_CONTROL
  ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::m::value{rows});
  return true;
#else
  return static_cast<bool>(ctnn::mmio::write<ctnn::mmio::volatile_bus>(a::m::value::from(rows)));
#endif
}
