/* Program exit through the sifive_test-style exit device, and the default trap report. */
#include "ctnn_platform.h"
#include "ctnn_platform_map.h"

#define EXIT_PASS 0x5555u
#define EXIT_FAIL 0x3333u

void ctnn_exit(int code)
{
    volatile uint32_t *dev = (volatile uint32_t *)CTNN_PLATFORM_EXIT_BASE;
    *dev = code == 0 ? EXIT_PASS : (((uint32_t)code & 0xffffu) << 16) | EXIT_FAIL;
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
