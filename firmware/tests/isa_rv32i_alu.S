/* ISA test: RV32I register-register and register-immediate ALU, LUI, AUIPC, x0 as source and destination. */
#include "isa_macros.h"

    TEST_BEGIN
    /* add */
    TEST_RR add, 0x1, 0x2, 0x3
    TEST_RR add, 0x7fffffff, 0x1, 0x80000000
    TEST_RR add, 0xffffffff, 0x1, 0x0
    TEST_RR add, 0xfffffffb, 0x3, 0xfffffffe
    TEST_RR add, 0x80000000, 0x80000000, 0x0
    /* sub */
    TEST_RR sub, 0x3, 0x5, 0xfffffffe
    TEST_RR sub, 0x80000000, 0x1, 0x7fffffff
    TEST_RR sub, 0x0, 0x1, 0xffffffff
    TEST_RR sub, 0x5, 0x5, 0x0
    /* sll */
    TEST_RR sll, 0x1, 0x0, 0x1
    TEST_RR sll, 0x1, 0x1f, 0x80000000
    TEST_RR sll, 0xffffffff, 0x20, 0xffffffff
    TEST_RR sll, 0x1, 0x21, 0x2
    TEST_RR sll, 0x12345678, 0x4, 0x23456780
    TEST_RR sll, 0x12345678, 0xffffffe1, 0x2468acf0
    /* srl */
    TEST_RR srl, 0x80000000, 0x1f, 0x1
    TEST_RR srl, 0x80000000, 0x0, 0x80000000
    TEST_RR srl, 0xffffffff, 0x4, 0xfffffff
    TEST_RR srl, 0x80000000, 0x21, 0x40000000
    TEST_RR srl, 0xffffffff, 0xffffffff, 0x1
    /* sra */
    TEST_RR sra, 0x80000000, 0x1f, 0xffffffff
    TEST_RR sra, 0x80000000, 0x1, 0xc0000000
    TEST_RR sra, 0x7fffffff, 0x1e, 0x1
    TEST_RR sra, 0x80000000, 0x0, 0x80000000
    TEST_RR sra, 0xf0000000, 0x24, 0xff000000
    TEST_RR sra, 0x81234567, 0xffffffff, 0xffffffff
    /* slt */
    TEST_RR slt, 0xffffffff, 0x1, 0x1
    TEST_RR slt, 0x1, 0xffffffff, 0x0
    TEST_RR slt, 0x5, 0x5, 0x0
    TEST_RR slt, 0x80000000, 0x7fffffff, 0x1
    TEST_RR slt, 0x7fffffff, 0x80000000, 0x0
    /* sltu */
    TEST_RR sltu, 0xffffffff, 0x1, 0x0
    TEST_RR sltu, 0x1, 0xffffffff, 0x1
    TEST_RR sltu, 0x0, 0x0, 0x0
    TEST_RR sltu, 0x0, 0x1, 0x1
    TEST_RR sltu, 0x80000000, 0x7fffffff, 0x0
    /* xor */
    TEST_RR xor, 0xff00ff00, 0xff00ff0, 0xf0f0f0f0
    TEST_RR xor, 0xffffffff, 0x12345678, 0xedcba987
    /* or */
    TEST_RR or, 0xff00ff00, 0xff00ff0, 0xfff0fff0
    TEST_RR or, 0x0, 0x0, 0x0
    /* and */
    TEST_RR and, 0xff00ff00, 0xff00ff0, 0xf000f00
    TEST_RR and, 0xffffffff, 0x80000001, 0x80000001
    /* addi */
    TEST_RI addi, 0x1, -1, 0x0
    TEST_RI addi, 0x7fffffff, 1, 0x80000000
    TEST_RI addi, 0x0, 2047, 0x7ff
    TEST_RI addi, 0x0, -2048, 0xfffff800
    TEST_RI addi, 0xfffff800, 2047, 0xffffffff
    /* slti */
    TEST_RI slti, 0xffffffff, 0, 0x1
    TEST_RI slti, 0x0, -1, 0x0
    TEST_RI slti, 0x5, 5, 0x0
    TEST_RI slti, 0x4, 5, 0x1
    TEST_RI slti, 0x80000000, -2048, 0x1
    TEST_RI slti, 0xfffff800, -2047, 0x1
    /* sltiu */
    TEST_RI sltiu, 0x0, -1, 0x1
    TEST_RI sltiu, 0xffffffff, -1, 0x0
    TEST_RI sltiu, 0x0, 1, 0x1
    TEST_RI sltiu, 0x1, 1, 0x0
    TEST_RI sltiu, 0xfffff800, -2048, 0x0
    TEST_RI sltiu, 0xfffff7ff, -2048, 0x1
    /* xori */
    TEST_RI xori, 0xff00ff, -1, 0xff00ff00
    TEST_RI xori, 0xff00ff, 240, 0xff000f
    /* ori */
    TEST_RI ori, 0xff0000, 2047, 0xff07ff
    TEST_RI ori, 0x0, -2048, 0xfffff800
    TEST_RI ori, 0x12345678, 0, 0x12345678
    /* andi */
    TEST_RI andi, 0xffffffff, 2047, 0x7ff
    TEST_RI andi, 0x12345678, -16, 0x12345670
    TEST_RI andi, 0x12345678, 0, 0x0
    /* slli */
    TEST_RI slli, 0x1, 0, 0x1
    TEST_RI slli, 0x1, 31, 0x80000000
    TEST_RI slli, 0x12345678, 8, 0x34567800
    TEST_RI slli, 0xffffffff, 31, 0x80000000
    /* srli */
    TEST_RI srli, 0x80000000, 31, 0x1
    TEST_RI srli, 0x80000000, 0, 0x80000000
    TEST_RI srli, 0xffffffff, 1, 0x7fffffff
    TEST_RI srli, 0x12345678, 31, 0x0
    /* srai */
    TEST_RI srai, 0x80000000, 31, 0xffffffff
    TEST_RI srai, 0x80000000, 0, 0x80000000
    TEST_RI srai, 0x7fffffff, 1, 0x3fffffff
    TEST_RI srai, 0x81234567, 4, 0xf8123456
    TEST_RI srai, 0x7fffffff, 31, 0x0

    /* x0 as destination: the write is dropped */
    TEST_RR_X0 add, 1, 2
    TEST_RR_X0 sub, 1, 2
    TEST_RR_X0 sll, 1, 4
    TEST_RR_X0 or, 0x55, 0xaa
    NEXT_CASE
    addi    x0, x0, 5
    mv      t2, x0
    CHECK_EQ t2, zero
    NEXT_CASE
    lui     x0, 0x12345
    auipc   x0, 0x1
    mv      t2, x0
    CHECK_EQ t2, zero

    /* x0 as source reads zero */
    NEXT_CASE
    li      t1, 0x1234
    add     t2, x0, t1
    CHECK_EQ t2, t1
    sub     t2, x0, t1
    li      t3, -0x1234
    CHECK_EQ t2, t3
    sltu    t2, x0, t1          /* snez */
    li      t3, 1
    CHECK_EQ t2, t3

    /* lui: upper 20 bits, low 12 bits zero */
    NEXT_CASE
    lui     t2, 0xfffff
    li      t3, 0xfffff000
    CHECK_EQ t2, t3
    NEXT_CASE
    lui     t2, 0x80000
    li      t3, 0x80000000
    CHECK_EQ t2, t3
    NEXT_CASE
    lui     t2, 0
    CHECK_EQ t2, zero
    NEXT_CASE
    lui     t2, 0x12345
    addi    t2, t2, -1          /* lui + negative addi, the li idiom */
    li      t3, 0x12344fff
    CHECK_EQ t2, t3

    /* auipc: pc + (imm << 12), checked against the absolute address of its label */
    NEXT_CASE
.Lauipc0:
    auipc   t2, 0
    lui     t3, %hi(.Lauipc0)
    addi    t3, t3, %lo(.Lauipc0)
    CHECK_EQ t2, t3
    NEXT_CASE
.Lauipc1:
    auipc   t2, 0x1
    lui     t3, %hi(.Lauipc1 + 0x1000)
    addi    t3, t3, %lo(.Lauipc1 + 0x1000)
    CHECK_EQ t2, t3
    NEXT_CASE
.Lauipc2:
    auipc   t2, 0xfffff
    lui     t3, %hi(.Lauipc2 - 0x1000)
    addi    t3, t3, %lo(.Lauipc2 - 0x1000)
    CHECK_EQ t2, t3

    /* nop, fence and fence.i change no register; also the I/O fences of the accelerator driver
       (include/ctnn/mmio/fence.hpp): any pred/succ bits decode as FENCE */
    NEXT_CASE
    li      t2, 77
    nop
    fence
    fence   rw, rw
    fence   orw, o
    fence   i, iorw
    fence.i
    li      t3, 77
    CHECK_EQ t2, t3

    TEST_END
