// Firmware test: LeNet-5 int8 through ctnn's optimized kernels (see lenet5_int8.hpp); prints the
// per-layer hashes and the logits (compared with the host twin's by the runner) and the cycles.
#include "lenet5_int8.hpp"

#include "ctnn_platform.h"

namespace {
ctnn_fw::lenet5::tensors t;
ctnn_fw::lenet5::activations opt;
alignas(64) uint8_t scratch[ctnn_fw::lenet5::scratch_bytes];
}  // namespace

extern "C" int ctnn_test_run(void) {
  namespace l = ctnn_fw::lenet5;
  l::make_tensors(t);
  const uint64_t c0 = ctnn_cycles();
  const uint64_t i0 = ctnn_instret();
  if (const int r = l::run<true>(t, opt, scratch); r != 0) return r;
  const uint64_t c1 = ctnn_cycles();
  const uint64_t i1 = ctnn_instret();
  if (!l::logits_vary(opt)) return 300;

  uint32_t h[7];
  l::layer_hashes(opt, h);
  for (int i = 0; i < 7; ++i) {
    ctnn_console_puts("lenet5: ");
    ctnn_console_puts(l::layer_names[i]);
    ctnn_console_puts(" fnv1a=");
    ctnn_console_put_hex(h[i]);
    ctnn_console_putc('\n');
  }

  ctnn_console_puts("lenet5: logits");
  for (int8_t v : opt.fc3) {
    ctnn_console_putc(' ');
    if (v < 0) ctnn_console_putc('-');
    ctnn_console_put_dec(static_cast<uint32_t>(v < 0 ? -v : v));
  }
  ctnn_console_putc('\n');
  ctnn_console_puts("lenet5: cycles=");
  ctnn_console_put_dec(static_cast<uint32_t>(c1 - c0));
  ctnn_console_puts(" instret=");
  ctnn_console_put_dec(static_cast<uint32_t>(i1 - i0));
  ctnn_console_putc('\n');
  return 0;
}
