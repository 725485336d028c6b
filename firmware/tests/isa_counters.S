/* ISA test: writes to the 64-bit counters minstret/minstreth and mcycle/mcycleh (RV32).
   A CSR write replaces the 32 bits it names, keeps the other 32, and suppresses that cycle's
   increment of the whole 64-bit counter: the writing instruction is not counted and no carry
   crosses into the other half (riscv-tests rv32mi instret_overflow, privileged spec: the value
   written is the value the next instruction reads). Each case writes a half while the low half is
   all ones, where a core that still increments the other half is caught.
   minstret counts retired instructions: its cases are exact on every model. mcycle depends on the
   bus (ctnn-core-sim refuses requests at random), so its cases first measure A, the fewest cycles
   counted between two back-to-back CSR instructions, then repeat each sequence TRIES times and
   require one run with exactly the values of an unstalled run: a core that lets the write cycle
   count, or carries into the other half, never produces them. */
#include "isa_macros.h"

#define TRIES 128

    TEST_BEGIN
    /* ---- minstret / minstreth ---- */
    NEXT_CASE                           /* riscv-tests instret_overflow 3 and 4: both halves all ones,
                                           one instruction later the 64-bit counter is 0 */
    li      t0, -1
    csrw    minstret, t0
    csrw    minstreth, t0
    nop
    csrr    t1, minstret
    csrr    t2, minstreth
    CHECK_EQ t1, zero
    CHECK_EQ t2, zero

    NEXT_CASE                           /* the written value is what the next instruction reads */
    csrw    minstreth, zero
    li      t0, 100
    csrw    minstret, t0
    csrr    t1, minstret
    CHECK_EQ t1, t0

    NEXT_CASE                           /* a minstreth write keeps the low half and does not count */
    li      t0, 200
    li      t1, 7
    csrw    minstret, t0                /* low 200 */
    nop                                 /* low 201 */
    csrw    minstreth, t1               /* high 7, low still 201 */
    csrr    t2, minstret
    csrr    t3, minstreth
    li      t4, 201
    CHECK_EQ t2, t4
    CHECK_EQ t3, t1

    NEXT_CASE                           /* minstret written while its low half is all ones: no carry
                                           into minstreth */
    li      t0, 5
    li      t1, -1
    li      t2, 0x10
    csrw    minstreth, t0               /* 5 : ? */
    csrw    minstret, t1                /* 5 : 0xffffffff */
    csrw    minstret, t2                /* 5 : 0x10, not 6 : 0x10 */
    csrr    t3, minstreth               /* 5 (then low 0x11) */
    csrr    t4, minstret                /* 0x11 */
    CHECK_EQ t3, t0
    li      t5, 0x11
    CHECK_EQ t4, t5

    NEXT_CASE                           /* minstreth written while the low half is all ones: the low
                                           half keeps its value, the carry comes one instruction later */
    li      t0, 9
    li      t1, -1
    csrw    minstret, t1                /* ? : 0xffffffff */
    csrw    minstreth, t0               /* 9 : 0xffffffff, not 9 : 0 */
    csrr    t2, minstret                /* 0xffffffff (then 10 : 0) */
    csrr    t3, minstreth               /* 10 */
    CHECK_EQ t2, t1
    li      t4, 10
    CHECK_EQ t3, t4

    NEXT_CASE                           /* CSRRS and CSRRC with a nonzero mask are writes as well */
    li      t0, 0x40
    li      t1, -1
    li      t5, 0x0f
    csrw    minstreth, t0               /* 0x40 : ? */
    csrw    minstret, t1                /* 0x40 : 0xffffffff */
    csrrc   t2, minstret, t5            /* reads 0xffffffff, writes 0xfffffff0; 0x40 stays */
    csrr    t3, minstreth               /* 0x40 (then low 0xfffffff1) */
    csrr    t4, minstret                /* 0xfffffff1 */
    CHECK_EQ t2, t1
    CHECK_EQ t3, t0
    li      t6, 0xfffffff1
    CHECK_EQ t4, t6
    NEXT_CASE
    li      t0, 0x40
    li      t1, -1
    li      t5, 0x03
    csrw    minstreth, t0               /* 0x40 : ? */
    csrw    minstret, t1                /* 0x40 : 0xffffffff */
    csrrs   t2, minstreth, t5           /* reads 0x40, writes 0x43; low stays 0xffffffff */
    csrr    t3, minstret                /* 0xffffffff (then 0x44 : 0) */
    csrr    t4, minstreth               /* 0x44 */
    CHECK_EQ t2, t0
    CHECK_EQ t3, t1
    li      t6, 0x44
    CHECK_EQ t4, t6

    NEXT_CASE                           /* a read (CSRRS with x0) is no write: it counts, and carries */
    li      t0, 0x70
    li      t1, -1
    csrw    minstreth, t0               /* 0x70 : ? */
    csrw    minstret, t1                /* 0x70 : 0xffffffff */
    csrrs   t2, minstreth, x0           /* reads 0x70, retires: 0x71 : 0 */
    csrr    t3, minstreth               /* 0x71 (then 0x71 : 1) */
    csrr    t4, minstret                /* 1 */
    CHECK_EQ t2, t0
    addi    t0, t0, 1
    CHECK_EQ t3, t0
    li      t5, 1
    CHECK_EQ t4, t5
    csrw    minstreth, zero

    /* ---- mcycle / mcycleh ---- */
    /* s6 = A: the fewest cycles counted between the write of mcycle and the read just after it
       (the write's own cycle is not counted, the read sees the count before its cycle; 0 on the
       SoC, where an instruction executes in the cycle its fetch returns). */
    NEXT_CASE
    li      s6, -1
    li      s7, TRIES
1:  csrw    mcycle, zero
    csrr    t0, mcycle
    bgeu    t0, s6, 2f
    mv      s6, t0
2:  addi    s7, s7, -1
    bnez    s7, 1b
    li      t0, 100                     /* 0 when the core executes one instruction per cycle */
    bgeu    s6, t0, ctnn_fail_far
    li      s9, 0x55                    /* the high half written below */
    li      t0, -1
    sub     s10, t0, s6                 /* a low half that is all ones one CSR instruction later */

    NEXT_CASE                           /* mcycleh written while the low half is all ones: the low half
                                           keeps 0xffffffff (the write cycle does not count), then
                                           carries into the new high half */
    addi    s11, s6, -1                 /* expected low: 0xffffffff + A wraps to A - 1 */
    li      s8, 0
    li      s7, TRIES
1:  csrw    mcycle, s10
    csrw    mcycleh, s9                 /* 0x55 : 0xffffffff, not 0x55 : 0 */
    csrr    t1, mcycle                  /* A - 1: the carry made the high half 0x56 */
    csrr    t2, mcycleh                 /* 0x56 */
    bne     t1, s11, 2f
    addi    t3, s9, 1
    bne     t2, t3, 2f
    li      s8, 1
2:  addi    s7, s7, -1
    bnez    s7, 1b
    li      t3, 1
    CHECK_EQ s8, t3

    NEXT_CASE                           /* mcycle written while its low half is all ones: no carry
                                           into mcycleh, and the new low half counts from its value */
    li      s11, 0x1000
    add     s5, s11, s6                 /* expected low: 0x1000 + A */
    li      s8, 0
    li      s7, TRIES
1:  csrw    mcycleh, s9                 /* 0x55 : ? */
    csrw    mcycle, s10                 /* 0x55 : 0xffffffff - A */
    csrw    mcycle, s11                 /* 0x55 : 0x1000, not 0x56 : 0x1000 */
    csrr    t1, mcycle                  /* 0x1000 + A */
    csrr    t2, mcycleh                 /* 0x55 */
    bne     t1, s5, 2f
    bne     t2, s9, 2f
    li      s8, 1
2:  addi    s7, s7, -1
    bnez    s7, 1b
    li      t3, 1
    CHECK_EQ s8, t3
    csrw    mcycleh, zero
    TEST_END

ctnn_fail_far:
    j       ctnn_fail
