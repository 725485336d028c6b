/* ISA test: misaligned loads, stores and jump targets trap (mcause 4 / 6 / 0, mtval = the address),
   and the 64-bit counters carry from the low into the high half after a write.
   The spec lets a core perform misaligned accesses instead of trapping (QEMU does); ctnn_core traps. */
#include "isa_macros.h"

    .data
    .balign 4
word: .word 0x11223344
    .word 0x55667788

    TEST_BEGIN
    la      t0, test_trap_vector
    csrw    mtvec, t0
    la      t0, word

    TRAP_CASE 4, lw t2, 1(t0)
    addi    t1, t0, 1
    CHECK_EQ s3, t1
    TRAP_CASE 4, lw t2, 2(t0)
    TRAP_CASE 4, lw t2, 3(t0)
    TRAP_CASE 4, lh t2, 1(t0)
    TRAP_CASE 4, lhu t2, 3(t0)
    addi    t1, t0, 3
    CHECK_EQ s3, t1
    TRAP_CASE 6, sw t2, 2(t0)
    addi    t1, t0, 2
    CHECK_EQ s3, t1
    TRAP_CASE 6, sh t2, 1(t0)
    /* a trapped store changes nothing */
    NEXT_CASE
    lw      t2, 0(t0)
    li      t3, 0x11223344
    CHECK_EQ t2, t3
    lw      t2, 4(t0)
    li      t3, 0x55667788
    CHECK_EQ t2, t3
    /* aligned halves and bytes at the same word still work */
    NEXT_CASE
    lhu     t2, 2(t0)
    li      t3, 0x1122
    CHECK_EQ t2, t3
    lb      t2, 3(t0)
    li      t3, 0x11
    CHECK_EQ t2, t3

    /* jump to a target that is not 4-byte aligned: the jump traps, mepc = the jump, mtval = target */
    NEXT_CASE
    la      s4, 1f
    li      s1, -1
    la      t0, 1f + 2
.Ljalr_site:
    jalr    t1, 0(t0)
    j       ctnn_fail
1:  li      t3, 0
    CHECK_EQ s1, t3
    la      t3, .Ljalr_site
    CHECK_EQ s2, t3
    CHECK_EQ s3, t0
    NEXT_CASE                                   /* the trapping jump writes no link */
    li      t1, 1234
    la      s4, 2f
    la      t0, 2f + 2
    jalr    t1, 0(t0)
    j       ctnn_fail
2:  li      t3, 1234
    CHECK_EQ t1, t3
    NEXT_CASE                                   /* a misaligned branch target traps only when taken */
    la      s4, 3f
    li      s1, -1
    li      t1, 1
.Lbr_site:
    beq     t1, t1, .Lbr_site + 6
    j       ctnn_fail
3:  li      t3, 0
    CHECK_EQ s1, t3
    la      t3, .Lbr_site
    CHECK_EQ s2, t3
    NEXT_CASE
    li      s1, -1
    beq     t1, zero, .Lbr_site + 6
    li      t3, -1
    CHECK_EQ s1, t3

    /* 64-bit counters: the low half carries into the high half (QEMU 7.2 does not carry after a write) */
    NEXT_CASE
    csrw    minstreth, zero
    li      t0, 0xfffffff0
    csrw    minstret, t0
    .rept 20
    nop
    .endr
    rdinstreth t2
    li      t3, 1
    CHECK_EQ t2, t3
    rdinstret t2
    li      t3, 16
    bgeu    t2, t3, ctnn_fail_far
    csrw    minstreth, zero
    NEXT_CASE
    csrw    mcycleh, zero
    li      t0, 0xfffffff0
    csrw    mcycle, t0
    .rept 20
    nop
    .endr
    rdcycleh t2
    li      t3, 1
    CHECK_EQ t2, t3
    csrw    mcycleh, zero

    la      t0, ctnn_trap_entry
    csrw    mtvec, t0
    TEST_END

ctnn_fail_far:
    j       ctnn_fail

    .balign 4
test_trap_vector:
    csrr    s1, mcause
    csrr    s2, mepc
    csrr    s3, mtval
    csrw    mepc, s4
    mret
