/* Harness of the firmware tests: run the test, print the agreed pass line, exit via the exit device. */
#include "ctnn_platform.h"

#ifndef CTNN_TEST_NAME
#error "CTNN_TEST_NAME must name the test"
#endif
#define CTNN_STR2(x) #x
#define CTNN_STR(x) CTNN_STR2(x)

/* Returns 0 when every case passed, else the number of the first failing case. */
int ctnn_test_run(void);

int main(void)
{
    const int failed = ctnn_test_run();
    if (failed == 0) {
        ctnn_console_puts("ctnn-test: PASS " CTNN_STR(CTNN_TEST_NAME) "\n");
        return 0;
    }
    ctnn_console_puts("ctnn-test: FAIL " CTNN_STR(CTNN_TEST_NAME) " case ");
    ctnn_console_put_dec((uint32_t)failed);
    ctnn_console_putc('\n');
    return failed;
}
