/* Assembler macros of the ISA tests: each case loads operands, runs one instruction, compares.
   a0 holds the number of the current case; a mismatch branches to ctnn_fail, which returns it. */
#ifndef CTNN_ISA_MACROS_H
#define CTNN_ISA_MACROS_H

.set ctnn_case, 0

/* Branch to ctnn_fail when a != b (through jal: the tests are longer than a branch reaches). */
.macro CHECK_EQ a, b
    beq     \a, \b, .Lok\@
    j       ctnn_fail
.Lok\@:
.endm

.macro NEXT_CASE
    .set ctnn_case, ctnn_case + 1
    li      a0, ctnn_case
.endm

/* rd = op(rs1, rs2) with distinct registers, then with rd == rs1 and rd == rs2. */
.macro TEST_RR op, a, b, exp
    NEXT_CASE
    li      t0, \a
    li      t1, \b
    li      t3, \exp
    \op     t2, t0, t1
    CHECK_EQ t2, t3
    \op     t0, t0, t1
    CHECK_EQ t0, t3
    li      t0, \a
    \op     t1, t0, t1
    CHECK_EQ t1, t3
.endm

/* rd = op(rs1, imm), also with rd == rs1. */
.macro TEST_RI op, a, imm, exp
    NEXT_CASE
    li      t0, \a
    li      t3, \exp
    \op     t2, t0, \imm
    CHECK_EQ t2, t3
    \op     t0, t0, \imm
    CHECK_EQ t0, t3
.endm

/* op with rd = x0 must leave x0 zero. */
.macro TEST_RR_X0 op, a, b
    NEXT_CASE
    li      t0, \a
    li      t1, \b
    \op     x0, t0, t1
    mv      t2, x0
    CHECK_EQ t2, zero
.endm

.macro TEST_BR_TAKEN op, a, b
    NEXT_CASE
    li      t0, \a
    li      t1, \b
    \op     t0, t1, .Ltaken\@
    j       ctnn_fail
.Ltaken\@:
.endm

.macro TEST_BR_NOT_TAKEN op, a, b
    NEXT_CASE
    li      t0, \a
    li      t1, \b
    \op     t0, t1, .Lwrong\@
    j       .Lok\@
.Lwrong\@:
    j       ctnn_fail
.Lok\@:
.endm

/* Prologue / epilogue of ctnn_test_run: the tests clobber s0-s11 and ra. */
.macro TEST_BEGIN
    .text
    .globl  ctnn_test_run
    .balign 4
ctnn_test_run:
    addi    sp, sp, -64
    sw      ra, 0(sp)
    sw      s0, 4(sp)
    sw      s1, 8(sp)
    sw      s2, 12(sp)
    sw      s3, 16(sp)
    sw      s4, 20(sp)
    sw      s5, 24(sp)
    sw      s6, 28(sp)
    sw      s7, 32(sp)
    sw      s8, 36(sp)
    sw      s9, 40(sp)
    sw      s10, 44(sp)
    sw      s11, 48(sp)
.endm

.macro TEST_END
    li      a0, 0
ctnn_fail:
    lw      ra, 0(sp)
    lw      s0, 4(sp)
    lw      s1, 8(sp)
    lw      s2, 12(sp)
    lw      s3, 16(sp)
    lw      s4, 20(sp)
    lw      s5, 24(sp)
    lw      s6, 28(sp)
    lw      s7, 32(sp)
    lw      s8, 36(sp)
    lw      s9, 40(sp)
    lw      s10, 44(sp)
    lw      s11, 48(sp)
    addi    sp, sp, 64
    ret
.endm


/* TRAP_CASE: run insn, which must trap with cause; the vector records mcause/mepc/mtval/mstatus in s1/s2/s3/s5
   and resumes at s4. mepc must be the address of insn. */
.macro TRAP_CASE cause, insn:vararg
    NEXT_CASE
    la      s4, .Lresume\@
    li      s1, -1
.Lsite\@:
    \insn
    j       ctnn_fail
.Lresume\@:
    li      t3, \cause
    CHECK_EQ s1, t3
    la      t3, .Lsite\@
    CHECK_EQ s2, t3
.endm

#endif
