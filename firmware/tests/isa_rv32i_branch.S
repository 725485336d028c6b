/* ISA test: RV32I branches taken and not taken (signed/unsigned), JAL/JALR link values and target alignment. */
#include "isa_macros.h"

    TEST_BEGIN
    TEST_BR_TAKEN      beq, 5, 5
    TEST_BR_NOT_TAKEN  beq, 5, 6
    TEST_BR_TAKEN      beq, 0x80000000, 0x80000000
    TEST_BR_NOT_TAKEN  beq, 0x80000000, 0
    TEST_BR_TAKEN      bne, 5, 6
    TEST_BR_NOT_TAKEN  bne, 5, 5
    TEST_BR_TAKEN      bne, 0, 0x80000000
    TEST_BR_TAKEN      blt, -1, 1
    TEST_BR_NOT_TAKEN  blt, 1, -1
    TEST_BR_NOT_TAKEN  blt, 5, 5
    TEST_BR_TAKEN      blt, 0x80000000, 0x7fffffff
    TEST_BR_TAKEN      bge, 1, -1
    TEST_BR_TAKEN      bge, 5, 5
    TEST_BR_NOT_TAKEN  bge, -1, 1
    TEST_BR_NOT_TAKEN  bge, 0x80000000, 0x7fffffff
    TEST_BR_TAKEN      bltu, 1, -1
    TEST_BR_NOT_TAKEN  bltu, -1, 1
    TEST_BR_NOT_TAKEN  bltu, 5, 5
    TEST_BR_TAKEN      bltu, 0x7fffffff, 0x80000000
    TEST_BR_TAKEN      bgeu, -1, 1
    TEST_BR_TAKEN      bgeu, 5, 5
    TEST_BR_NOT_TAKEN  bgeu, 1, -1
    TEST_BR_TAKEN      bgeu, 0x80000000, 0x7fffffff

    /* x0 as a branch operand */
    TEST_BR_TAKEN      beq, 0, 0
    NEXT_CASE
    li      t0, 1
    bltu    x0, t0, 1f          /* 0 < 1 unsigned */
    j       ctnn_fail
1:  bge     x0, x0, 2f
    j       ctnn_fail
2:

    /* backward taken branch: a loop of 5 */
    NEXT_CASE
    li      t0, 5
    li      t2, 0
3:  addi    t2, t2, 3
    addi    t0, t0, -1
    bnez    t0, 3b
    li      t3, 15
    CHECK_EQ t2, t3

    /* jal links pc + 4 */
    NEXT_CASE
    jal     t2, 5f
.Ljal_ret:
    j       ctnn_fail
5:  la      t3, .Ljal_ret
    CHECK_EQ t2, t3

    /* jal backward, and jal with rd = x0 (plain jump) */
    NEXT_CASE
    j       7f
6:  j       8f
7:  jal     x0, 6b
    j       ctnn_fail
8:

    /* jalr: target rs1 + imm, link pc + 4 */
    NEXT_CASE
    la      t0, 9f
    jalr    t2, 0(t0)
.Ljalr_ret0:
    j       ctnn_fail
9:  la      t3, .Ljalr_ret0
    CHECK_EQ t2, t3

    /* jalr with positive and negative offsets */
    NEXT_CASE
    la      t0, 10f - 8
    jalr    t2, 8(t0)
    j       ctnn_fail
10: la      t0, 11f + 12
    jalr    t2, -12(t0)
.Ljalr_ret1:
    j       ctnn_fail
11: la      t3, .Ljalr_ret1
    CHECK_EQ t2, t3

    /* jalr clears bit 0 of the target */
    NEXT_CASE
    la      t0, 12f
    addi    t0, t0, 1
    jalr    t2, 0(t0)
    j       ctnn_fail
12:

    /* jalr with rd == rs1: the target uses the old rs1 */
    NEXT_CASE
    la      t0, 13f
    jalr    t0, 0(t0)
.Ljalr_ret2:
    j       ctnn_fail
13: la      t3, .Ljalr_ret2
    CHECK_EQ t0, t3

    /* call / ret through ra, nested once */
    NEXT_CASE
    li      t2, 0
    call    .Lfunc_outer
    li      t3, 11
    CHECK_EQ t2, t3

    TEST_END

.Lfunc_outer:
    mv      s0, ra
    addi    t2, t2, 1
    call    .Lfunc_inner
    mv      ra, s0
    ret
.Lfunc_inner:
    addi    t2, t2, 10
    ret
