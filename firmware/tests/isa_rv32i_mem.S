/* ISA test: RV32I loads (sign/zero extension, all byte offsets, negative offsets) and byte/half/word stores. */
#include "isa_macros.h"

.macro TEST_LD op, base, off, exp
    NEXT_CASE
    la      t0, \base
    li      t3, \exp
    \op     t2, \off(t0)
    CHECK_EQ t2, t3
.endm

/* Store op of value at scratch + off, then the word at scratch must be exp. */
.macro TEST_ST op, val, off, exp
    NEXT_CASE
    la      t0, scratch
    li      t1, \val
    \op     t1, \off(t0)
    lw      t2, 0(t0)
    li      t3, \exp
    CHECK_EQ t2, t3
.endm

    .data
    .balign 4
d0: .byte 0x81, 0x02, 0xf3, 0x74        /* word 0x74f30281 */
d1: .byte 0x34, 0x92, 0x78, 0xa5        /* word 0xa5789234 */
d2: .word 0x80000000
scratch:
    .word 0
    .word 0

    TEST_BEGIN
    TEST_LD lb,  d0, 0, 0xffffff81
    TEST_LD lb,  d0, 1, 0x00000002
    TEST_LD lb,  d0, 2, 0xfffffff3
    TEST_LD lb,  d0, 3, 0x00000074
    TEST_LD lbu, d0, 0, 0x81
    TEST_LD lbu, d0, 1, 0x02
    TEST_LD lbu, d0, 2, 0xf3
    TEST_LD lbu, d0, 3, 0x74
    TEST_LD lh,  d0, 0, 0x00000281
    TEST_LD lh,  d0, 2, 0x000074f3
    TEST_LD lh,  d1, 0, 0xffff9234
    TEST_LD lh,  d1, 2, 0xffffa578
    TEST_LD lhu, d1, 0, 0x9234
    TEST_LD lhu, d1, 2, 0xa578
    TEST_LD lw,  d0, 0, 0x74f30281
    TEST_LD lw,  d1, 0, 0xa5789234
    TEST_LD lw,  d2, 0, 0x80000000
    TEST_LD lw,  d1, -4, 0x74f30281
    TEST_LD lb,  d1, -1, 0x00000074
    TEST_LD lbu, d1, -3, 0x02
    TEST_LD lh,  d2, -2, 0xffffa578
    TEST_LD lhu, d2, 2, 0x8000
    TEST_LD lh,  d2, 2, 0xffff8000

    /* load into x0 is dropped */
    NEXT_CASE
    la      t0, d1
    lw      x0, 0(t0)
    mv      t2, x0
    CHECK_EQ t2, zero

    /* load with rd == rs1 */
    NEXT_CASE
    la      t0, d1
    lw      t0, 0(t0)
    li      t3, 0xa5789234
    CHECK_EQ t0, t3

    /* stores touch only their bytes */
    TEST_ST sw, 0xffffffff, 0, 0xffffffff
    TEST_ST sb, 0x12, 1, 0xffff12ff
    TEST_ST sh, 0xabcd, 2, 0xabcd12ff
    TEST_ST sb, 0x00, 0, 0xabcd1200
    TEST_ST sb, 0x1234565a, 3, 0x5acd1200
    TEST_ST sh, 0xdeadbeef, 0, 0x5acdbeef
    TEST_ST sb, 0x77, 2, 0x5a77beef
    TEST_ST sw, 0x01234567, 0, 0x01234567

    /* the neighbouring word is untouched, stores with negative offsets */
    NEXT_CASE
    la      t0, scratch + 4
    li      t1, 0x55aa55aa
    sw      t1, 0(t0)
    li      t1, 0x99
    sb      t1, -1(t0)
    li      t1, 0x8877
    sh      t1, -4(t0)
    lw      t2, -4(t0)
    li      t3, 0x99238877
    CHECK_EQ t2, t3
    lw      t2, 0(t0)
    li      t3, 0x55aa55aa
    CHECK_EQ t2, t3

    /* store x0, then load back through every width */
    NEXT_CASE
    la      t0, scratch
    sw      x0, 0(t0)
    lw      t2, 0(t0)
    CHECK_EQ t2, zero

    /* store then immediately load the same byte */
    NEXT_CASE
    la      t0, scratch
    li      t1, -2
    sb      t1, 1(t0)
    lb      t2, 1(t0)
    CHECK_EQ t2, t1
    lbu     t2, 1(t0)
    li      t3, 0xfe
    CHECK_EQ t2, t3

    TEST_END
