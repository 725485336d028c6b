// Program exit through the sifive_test-style exit device, and the default trap report.
#include "ctnn_platform.h"

#include "ctnn/regs/soc_map.hpp"

namespace {
constexpr uint32_t exit_pass = 0x5555;
constexpr uint32_t exit_fail = 0x3333;
}  // namespace

void ctnn_exit(int code)
{
    auto *dev = reinterpret_cast<volatile uint32_t *>(ctnn::regs::soc::exit.base);
    *dev = code == 0 ? exit_pass : ((static_cast<uint32_t>(code) & 0xffffu) << 16) | exit_fail;
    for (;;) {
    }
}

void ctnn_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
    ctnn_console_puts("ctnn: unexpected trap mcause=");
    ctnn_console_put_hex(mcause);
    ctnn_console_puts(" mepc=");
    ctnn_console_put_hex(mepc);
    ctnn_console_puts(" mtval=");
    ctnn_console_put_hex(mtval);
    ctnn_console_putc('\n');
    ctnn_exit(CTNN_EXIT_TRAP);
}
