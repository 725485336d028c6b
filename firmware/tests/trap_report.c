/* Default trap vector test: an ecall without a handler of its own reaches crt0's vector, which
   reports mcause/mepc/mtval and exits with CTNN_EXIT_TRAP (0x7ff: exit status 255). */
#include "ctnn_platform.h"

int main(void)
{
    ctnn_console_puts("ctnn-test: trapping\n");
    __asm__ volatile("ecall");
    ctnn_console_puts("ctnn-test: ecall returned\n");
    return 0;
}
