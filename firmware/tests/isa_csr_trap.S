/* ISA test: Zicsr instructions, the counters (cycle, instret, their m- and h-versions), and the
   machine traps ecall / ebreak / illegal instruction / access fault with mepc, mcause, mtval, mret. */
#include "isa_macros.h"

/* An address no device claims on QEMU virt nor on ctnn_soc. */
#define UNMAPPED_ADDR 0x90000000


    TEST_BEGIN
    /* ---- CSR instructions on mscratch ---- */
    NEXT_CASE
    li      t0, 0x12345678
    csrw    mscratch, t0
    csrr    t2, mscratch
    CHECK_EQ t2, t0
    NEXT_CASE
    li      t1, 0xf0f0f0f0
    csrrw   t2, mscratch, t1            /* returns the old value */
    CHECK_EQ t2, t0
    csrr    t2, mscratch
    CHECK_EQ t2, t1
    NEXT_CASE
    li      t1, 0x0000ffff
    csrrs   t2, mscratch, t1
    li      t3, 0xf0f0f0f0
    CHECK_EQ t2, t3
    csrr    t2, mscratch
    li      t3, 0xf0f0ffff
    CHECK_EQ t2, t3
    NEXT_CASE
    li      t1, 0xff0000ff
    csrrc   t2, mscratch, t1
    li      t3, 0xf0f0ffff
    CHECK_EQ t2, t3
    csrr    t2, mscratch
    li      t3, 0x00f0ff00
    CHECK_EQ t2, t3
    NEXT_CASE
    csrrwi  t2, mscratch, 0x15
    li      t3, 0x00f0ff00
    CHECK_EQ t2, t3
    csrrsi  t2, mscratch, 0x0a
    li      t3, 0x15
    CHECK_EQ t2, t3
    csrrci  t2, mscratch, 0x1
    li      t3, 0x1f
    CHECK_EQ t2, t3
    csrr    t2, mscratch
    li      t3, 0x1e
    CHECK_EQ t2, t3
    NEXT_CASE
    csrrs   t2, mscratch, x0            /* read only, no write */
    csrrci  t1, mscratch, 0             /* read only, no write */
    CHECK_EQ t1, t2
    csrrw   x0, mscratch, zero          /* write without read */
    csrr    t2, mscratch
    CHECK_EQ t2, zero

    /* ---- mtvec and mepc hold what is written ---- */
    NEXT_CASE
    la      t0, test_trap_vector
    csrw    mtvec, t0
    csrr    t2, mtvec
    CHECK_EQ t2, t0
    NEXT_CASE
    la      t0, 0x80000100
    csrw    mepc, t0
    csrr    t2, mepc
    CHECK_EQ t2, t0

    /* ---- counters ---- */
    NEXT_CASE                           /* cycle advances */
    rdcycle t0
    nop
    nop
    rdcycle t1
    sub     t2, t1, t0
    beqz    t2, ctnn_fail_far
    NEXT_CASE                           /* instret counts exactly the retired instructions */
    rdinstret t0
    addi    t2, t2, 1
    addi    t2, t2, 1
    rdinstret t1
    sub     t2, t1, t0
    li      t3, 3
    CHECK_EQ t2, t3
    NEXT_CASE                           /* minstret is instret */
    csrr    t0, minstret
    rdinstret t1
    sub     t2, t1, t0
    li      t3, 1
    CHECK_EQ t2, t3
    NEXT_CASE                           /* mcycle is cycle: a few cycles apart */
    csrr    t0, mcycle
    rdcycle t1
    sub     t2, t1, t0
    beqz    t2, ctnn_fail_far
    li      t3, 100
    bgeu    t2, t3, ctnn_fail_far
    NEXT_CASE                           /* minstret is writable */
    li      t0, 1000
    csrw    minstret, t0
    csrr    t1, minstret
    sub     t2, t1, t0
    li      t3, 3
    bgeu    t2, t3, ctnn_fail_far
    NEXT_CASE                           /* mcycle is writable */
    li      t0, 0x100000
    csrw    mcycle, t0
    csrr    t1, mcycle
    sub     t2, t1, t0
    li      t3, 100
    bgeu    t2, t3, ctnn_fail_far
    NEXT_CASE                           /* high halves: mcycleh / cycleh, minstreth / instreth */
    li      t0, 5
    csrw    mcycleh, t0
    csrr    t2, mcycleh
    CHECK_EQ t2, t0
    rdcycleh t2
    CHECK_EQ t2, t0
    li      t0, 7
    csrw    minstreth, t0
    csrr    t2, minstreth
    CHECK_EQ t2, t0
    rdinstreth t2
    CHECK_EQ t2, t0
    csrw    mcycleh, zero
    csrw    minstreth, zero

    /* ---- traps ---- */
    la      t0, test_trap_vector
    csrw    mtvec, t0
    TRAP_CASE 11, ecall
    TRAP_CASE 3, ebreak
    TRAP_CASE 2, .word 0x00000000
    TRAP_CASE 2, .word 0xffffffff
    TRAP_CASE 2, .word 0x40001033           /* sll with funct7 0100000 */
    TRAP_CASE 2, .word 0x0000707f           /* reserved major opcode */
    TRAP_CASE 2, csrr t0, 0x7c0             /* no such CSR */
    TRAP_CASE 2, csrw cycle, t0             /* read-only CSR */
    TRAP_CASE 2, csrw mhartid, t0           /* read-only CSR */

    /* the trapping instruction has no effect on its rd */
    NEXT_CASE
    li      t0, 99
    la      s4, 1f
    csrrw   t0, cycle, zero                 /* illegal: write to read-only */
    j       ctnn_fail_far
1:  li      t3, 99
    CHECK_EQ t0, t3

    /* mstatus: the trap saves MIE into MPIE and clears MIE; mret restores it */
    NEXT_CASE
    csrsi   mstatus, 8
    TRAP_CASE 11, ecall
    andi    t2, s5, 0x88
    li      t3, 0x80
    CHECK_EQ t2, t3
    csrr    t2, mstatus
    andi    t2, t2, 0x88
    li      t3, 0x88
    CHECK_EQ t2, t3
    csrci   mstatus, 8

    /* bus errors: access faults with mtval = the address */
    li      t0, UNMAPPED_ADDR
    TRAP_CASE 5, lw t2, 0(t0)
    CHECK_EQ s3, t0
    TRAP_CASE 5, lbu t2, 3(t0)
    addi    t1, t0, 3
    CHECK_EQ s3, t1
    TRAP_CASE 7, sw t2, 0(t0)
    CHECK_EQ s3, t0
    TRAP_CASE 7, sh t2, 2(t0)
    addi    t1, t0, 2
    CHECK_EQ s3, t1

    /* instruction access fault: mepc = mtval = the fetched address */
    NEXT_CASE
    la      s4, 2f
    li      s1, -1
    li      t0, UNMAPPED_ADDR
    jalr    t1, 0(t0)
    j       ctnn_fail_far
2:  li      t3, 1
    CHECK_EQ s1, t3
    CHECK_EQ s2, t0
    CHECK_EQ s3, t0

    /* a trap with the default vector back in place would end the test: restore it */
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
    csrr    s5, mstatus
    csrw    mepc, s4
    mret
