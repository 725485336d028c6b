/* Exit-code test: the program fails on purpose with code 42; the runner expects exactly that status
   (QEMU and the SoC simulator both pass the exit device's code through). */
#include "ctnn_platform.h"

int main(void)
{
    ctnn_console_puts("ctnn-test: exit 42\n");
    return 42;
}
