/* Cycle-limit test: the program never exits; ctnn-soc-sim must stop it at --max-cycles with status 125. */
#include "ctnn_platform.h"

int main(void)
{
    ctnn_console_puts("ctnn-test: hang\n");
    for (;;) {
        __asm__ volatile("");
    }
}
