// Program exit through the sifive_test-style exit device, and the default trap report.
#include "ctnn_platform.h"

#include "ctnn/regs/exit.hpp"

void ctnn_exit(int code)
{
    using fin = ctnn::regs::exit::finisher;
    auto *dev = reinterpret_cast<volatile uint32_t *>(fin::address);
    *dev = code == 0 ? uint32_t{fin::status::pass}
                     : ((static_cast<uint32_t>(code) & fin::code::max_value) << fin::code::lo) | fin::status::fail;
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
