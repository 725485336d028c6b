// What the firmware programs that run a network share (the demos of firmware/tests and the model
// image of ctnn_add_firmware, firmware/apps/model_app.cpp): the executor hook that offers leaves to
// the accelerator and reads the counters around each leaf, the per-leaf CRC callback, console
// number formatting, and the one-line report of a failed run.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "ctnn/accel/offload.hpp"
#include "ctnn/core/crc32.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn_platform.h"

namespace ctnn_fw::report {

namespace rt = ctnn::runtime;
using accel_hook = ctnn::accel::offloader<>;

/// One leaf over the runs that used this sample: cycles and retired instructions of the leaf alone,
/// summed, and the CRC-32 of its outputs one after the other (of a single run: the CRC-32 of its
/// output). Zero before the first run.
struct sample {
  uint64_t cycles = 0;
  uint64_t instret = 0;
  uint64_t busy = 0;   ///< the accelerator's CYCLES over the leaf's jobs (job start to done)
  uint32_t crc = 0;
};

/// The hook of every run: offers each leaf to `inner` (none: the CPU) and, when `samples` is
/// given, adds the counters' advance over each leaf to its sample. One hook type for all runs: one
/// copy of the executor in the image.
struct profiler {
  accel_hook* inner = nullptr;
  sample* samples = nullptr;
  uint64_t c0 = 0, i0 = 0, b0 = 0;
  void leaf_begin(int32_t) {
    if (samples == nullptr) return;
    b0 = inner != nullptr ? inner->device_cycles : 0;
    i0 = ctnn_instret();
    c0 = ctnn_cycles();
  }
  void leaf_end(int32_t i) {
    if (samples == nullptr) return;
    const uint64_t c1 = ctnn_cycles();
    const uint64_t i1 = ctnn_instret();
    samples[i].cycles += c1 - c0;
    samples[i].instret += i1 - i0;
    if (inner != nullptr) samples[i].busy += inner->device_cycles - b0;
  }
  template <class Roles = rt::fusion_roles<true>>
  rt::offload_result offload(const rt::leaf_call<int8_t>& c, Roles roles = {}) {
    return inner != nullptr ? inner->offload(c, roles) : rt::offload_result::declined();
  }
  /// A conv2d/linear leaf and the leaves fused after it (clamp, add, pool) as one set of
  /// accelerator jobs (runs without a layer callback only: the profiled runs keep every leaf's
  /// output for its CRC).
  template <class Roles>
  rt::offload_result offload_fused(const rt::leaf_call<int8_t>* chain, const rt::fusion& f, Roles roles) {
    return inner != nullptr ? inner->offload_fused(chain, f, roles) : rt::offload_result::declined();
  }
  /// The accelerator's job still in flight (a leaf returns with its last job started): waited for
  /// before the CPU touches the arena (runtime::run_with).
  rt::offload_result settle() { return inner != nullptr ? inner->settle() : rt::offload_result::done(); }
  int32_t failed_leaf() const { return inner != nullptr ? inner->failed_leaf() : -1; }
};

/// The executor's layer callback: continues the leaf's CRC-32 with its output (user: sample[]).
inline void record_crc(void* user, int32_t leaf, const void* out, size_t bytes) {
  sample& s = static_cast<sample*>(user)[leaf];
  s.crc = ctnn::crc32_update(s.crc, static_cast<const uint8_t*>(out), bytes);
}

// ---- console helpers -------------------------------------------------------------------------

inline void put(const char* s) { ctnn_console_puts(s); }
inline void put_dec(uint64_t v, int width = 0) {
  char b[21];
  int n = 0;
  do {
    b[n++] = static_cast<char>('0' + static_cast<uint32_t>(v % 10u));
    v /= 10u;
  } while (v != 0);
  for (int i = n; i < width; ++i) ctnn_console_putc(' ');
  while (n > 0) ctnn_console_putc(b[--n]);
}
inline void put_text(const char* s, int width) {
  int n = 0;
  for (; s[n] != '\0'; ++n) ctnn_console_putc(s[n]);
  for (; n < width; ++n) ctnn_console_putc(' ');
}
inline void put_crc(uint32_t v) {
  static const char digits[] = "0123456789abcdef";
  put("0x");
  for (int s = 28; s >= 0; s -= 4) ctnn_console_putc(digits[(v >> s) & 0xFu]);
}
/// a / b with two decimals ("-" when b is 0).
inline void put_ratio(uint64_t a, uint64_t b, int width = 0) {
  if (b == 0) {
    for (int i = 1; i < width; ++i) ctnn_console_putc(' ');
    ctnn_console_putc('-');
    return;
  }
  const uint64_t v = (a * 100u + b / 2u) / b;
  const uint64_t whole = v / 100u;
  const auto frac = static_cast<uint32_t>(v % 100u);
  int digits = 1;
  for (uint64_t w = whole; w >= 10u; w /= 10u) ++digits;
  for (int i = digits + 3; i < width; ++i) ctnn_console_putc(' ');
  put_dec(whole);
  ctnn_console_putc('.');
  ctnn_console_putc(static_cast<char>('0' + frac / 10u));
  ctnn_console_putc(static_cast<char>('0' + frac % 10u));
}
/// 100 a / b with two decimals and a percent sign.
inline void put_percent(uint64_t a, uint64_t b) {
  put_ratio(a * 100u, b);
  put("%");
}

/// Prints "<tag>: accelerator found, DIM d, K max k, rows per job r" (hook.init() read them).
inline void put_accel_found(const char* tag, const accel_hook& hook) {
  put(tag);
  put(": accelerator found, DIM ");
  put_dec(accel_hook::drv::dim());
  put(", K max ");
  put_dec(hook.k_max);
  put(", rows per job ");
  put_dec(hook.max_rows);
  ctnn_console_putc('\n');
}

/// Prints why a run stopped: the leaf, its name and type, and the fault.
template <ctnn::Network Net>
void report_failure(const char* tag, const char* what, const rt::run_status& s, const accel_hook* h) {
  put(tag);
  put(": FAIL ");
  put(what);
  put(" run stopped ");
  if (s.leaf < 0) put("before the first leaf");
  if (s.leaf >= 0) {
    put("at leaf ");
    put_dec(static_cast<uint32_t>(s.leaf));
    const ctnn::row& r = Net::layer(s.leaf);
    put(" (");
    put(r.name != nullptr ? r.name : "-");
    put(" ");
    put(r.type);
    put(")");
  }
  put(": ");
  put(rt::name_of(s.code));
  if (s.code == rt::fault::kernel) {
    put(" ");
    put(ctnn::kernels::name_of(s.kernel));
  }
  if (s.code == rt::fault::offload && h != nullptr) {
    if (s.detail == ctnn::accel::failure_timeout) {
      put(" accelerator timeout (still BUSY after the poll budget)");
    } else if (s.detail == ctnn::accel::failure_bad_value) {
      put(" a job value does not fit its accelerator register field (job not started)");
    } else {
      put(" accelerator ERROR, ERR_CAUSE ");
      put_dec(h->failure.cause);
      put(" ");
      put(ctnn::accel::cause_name(h->failure.cause));
    }
  }
  ctnn_console_putc('\n');
}

}  // namespace ctnn_fw::report
