// Runtime test: crt0 (.data, .bss, constructors), memcpy/memset/memmove/memcmp, the counters.
#include <stddef.h>
#include <stdint.h>
#include "ctnn_platform.h"
#include "ctnn_string.h"

namespace {

volatile int ctor_seed = 41;

struct ctor_probe {
  int value;
  ctor_probe() : value(ctor_seed + 1) {}
};

ctor_probe probe;                               // needs .init_array: not constant-initialized
int data_word = 0x1234567;                       // .data
uint8_t bss_buf[333];                            // .bss
uint8_t src_buf[64];
uint8_t dst_buf[64];
uint8_t ref_buf[64];

void fill(uint8_t* p, size_t n, uint8_t seed) {
  for (size_t i = 0; i < n; ++i) {
    p[i] = static_cast<uint8_t>(seed + i * 7u);
  }
}

bool same(const uint8_t* a, const uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) {
      return false;
    }
  }
  return true;
}

// Copies through volatile pointers so the compiler cannot replace the reference with memcpy.
void ref_copy(uint8_t* d, const uint8_t* s, size_t n) {
  volatile uint8_t* vd = d;
  const volatile uint8_t* vs = s;
  for (size_t i = 0; i < n; ++i) {
    vd[i] = vs[i];
  }
}

}  // namespace

extern "C" int ctnn_test_run(void) {
  int c = 0;
  ++c;  // 1: constructors ran
  if (probe.value != 42) return c;
  ++c;  // 2: .data initialized
  if (data_word != 0x1234567) return c;
  ++c;  // 3: .bss zeroed
  for (uint8_t b : bss_buf) {
    if (b != 0) return c;
  }

  ++c;  // 4: memcpy, every source/destination alignment and length 0..40
  for (size_t so = 0; so < 4; ++so) {
    for (size_t dof = 0; dof < 4; ++dof) {
      for (size_t n = 0; n <= 40; ++n) {
        fill(src_buf, sizeof src_buf, static_cast<uint8_t>(n));
        fill(dst_buf, sizeof dst_buf, 0xa5);
        fill(ref_buf, sizeof ref_buf, 0xa5);
        ref_copy(ref_buf + dof, src_buf + so, n);
        if (memcpy(dst_buf + dof, src_buf + so, n) != dst_buf + dof) return c;
        if (!same(dst_buf, ref_buf, sizeof dst_buf)) return c;
      }
    }
  }
  ++c;  // 5: memset, every alignment and length 0..40, only the low byte of the value counts
  for (size_t dof = 0; dof < 4; ++dof) {
    for (size_t n = 0; n <= 40; ++n) {
      fill(dst_buf, sizeof dst_buf, 3);
      fill(ref_buf, sizeof ref_buf, 3);
      volatile uint8_t* r = ref_buf + dof;
      for (size_t i = 0; i < n; ++i) r[i] = 0x5c;
      if (memset(dst_buf + dof, 0x125c, n) != dst_buf + dof) return c;
      if (!same(dst_buf, ref_buf, sizeof dst_buf)) return c;
    }
  }
  ++c;  // 6: memmove with overlap in both directions
  for (size_t shift = 1; shift < 9; ++shift) {
    fill(dst_buf, sizeof dst_buf, 9);
    fill(ref_buf, sizeof ref_buf, 9);
    memmove(dst_buf + shift, dst_buf, 40);          // forward overlap: copy from the end
    for (size_t i = 0; i < 40; ++i) {
      if (dst_buf[shift + i] != static_cast<uint8_t>(9 + i * 7u)) return c;
    }
    fill(dst_buf, sizeof dst_buf, 9);
    memmove(dst_buf, dst_buf + shift, 40);          // backward overlap
    for (size_t i = 0; i < 40; ++i) {
      if (dst_buf[i] != ref_buf[shift + i]) return c;
    }
  }
  ++c;  // 7: memcmp sign and equality
  fill(src_buf, sizeof src_buf, 1);
  fill(dst_buf, sizeof dst_buf, 1);
  if (memcmp(src_buf, dst_buf, sizeof src_buf) != 0) return c;
  dst_buf[17] = static_cast<uint8_t>(dst_buf[17] + 1);
  if (memcmp(src_buf, dst_buf, sizeof src_buf) >= 0) return c;
  if (memcmp(dst_buf, src_buf, sizeof src_buf) <= 0) return c;
  if (memcmp(src_buf, dst_buf, 17) != 0) return c;

  ++c;  // 8: the 64-bit counters advance, instret by at least the work done in between
  const uint64_t c0 = ctnn_cycles();
  const uint64_t i0 = ctnn_instret();
  volatile uint32_t sink = 0;
  for (uint32_t i = 0; i < 100; ++i) sink = sink + i;
  const uint64_t c1 = ctnn_cycles();
  const uint64_t i1 = ctnn_instret();
  if (sink != 4950u) return c;
  if (i1 - i0 < 100 || c1 <= c0) return c;
  if (i1 - i0 > 10000) return c;

  ++c;  // 9: the trap-safe probe reads RAM and reports an unmapped address without trapping
  uint32_t probed = 0;
  if (ctnn_probe_load32(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(&data_word)), &probed) != 0) return c;
  if (probed != 0x1234567u) return c;
  probed = 77;
  if (ctnn_probe_load32(0x90000000u, &probed) != -1 || probed != 77) return c;
  if (ctnn_probe_load32(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(&data_word)), &probed) != 0) return c;

  ++c;  // 10: decimal and hex console output (checked by the runner: see tests.cmake)
  ctnn_console_puts("runtime: ");
  ctnn_console_put_dec(0);
  ctnn_console_putc(' ');
  ctnn_console_put_dec(4294967295u);
  ctnn_console_putc(' ');
  ctnn_console_put_hex(0xdeadbeefu);
  ctnn_console_putc('\n');
  return 0;
}
