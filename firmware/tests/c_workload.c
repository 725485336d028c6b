/* Firmware test: the C workload of c_workload.h; the runner compares every line with the host twin. */
#include "c_workload.h"
#include "ctnn_platform.h"

static void report(const char *name, uint32_t value)
{
    ctnn_console_puts("work: ");
    ctnn_console_puts(name);
    ctnn_console_putc(' ');
    ctnn_console_put_hex(value);
    ctnn_console_putc('\n');
}

int ctnn_test_run(void)
{
    workload_run(report);
    return 0;
}
