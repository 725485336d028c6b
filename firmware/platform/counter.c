/* Cycle and retired-instruction counters from the Zicsr machine counters. */
#include "ctnn_platform.h"

/* Read a 64-bit counter as hi/lo/hi and retry when the low half wrapped in between. */
#define CTNN_READ_COUNTER64(lo_csr, hi_csr)                                   \
    do {                                                                      \
        uint32_t hi, lo, hi2;                                                 \
        do {                                                                  \
            __asm__ volatile("csrr %0, " #hi_csr : "=r"(hi));                 \
            __asm__ volatile("csrr %0, " #lo_csr : "=r"(lo));                 \
            __asm__ volatile("csrr %0, " #hi_csr : "=r"(hi2));                \
        } while (hi != hi2);                                                  \
        return ((uint64_t)hi << 32) | lo;                                     \
    } while (0)

uint64_t ctnn_cycles(void)
{
    CTNN_READ_COUNTER64(mcycle, mcycleh);
}

uint64_t ctnn_instret(void)
{
    CTNN_READ_COUNTER64(minstret, minstreth);
}
