/* crt0 for ctnn firmware: stack, gp, trap vector, .data copy, .bss clear, constructors, main, exit. */
    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      t0, ctnn_trap_entry
    csrw    mtvec, t0

    /* .data: copy from its load address when that differs from its run address. */
    la      t0, __data_load
    la      t1, __data_start
    la      t2, __data_end
    beq     t0, t1, 2f
1:  bgeu    t1, t2, 2f
    lw      t3, 0(t0)
    sw      t3, 0(t1)
    addi    t0, t0, 4
    addi    t1, t1, 4
    j       1b
2:
    /* .bss: zero (word aligned by the linker script). */
    la      t0, __bss_start
    la      t1, __bss_end
3:  bgeu    t0, t1, 4f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       3b
4:
    /* Static constructors (C++ globals). */
    la      s0, __init_array_start
    la      s1, __init_array_end
5:  bgeu    s0, s1, 6f
    lw      t0, 0(s0)
    jalr    t0
    addi    s0, s0, 4
    j       5b
6:
    li      a0, 0
    li      a1, 0
    call    main
    tail    ctnn_exit

/* Default trap vector: save the caller-saved registers and report the trap in C.
   ctnn_trap_handler does not return (an unexpected trap ends the program with a failure code). */
    .section .text.trap, "ax"
    .globl ctnn_trap_entry
    .balign 4
ctnn_trap_entry:
    addi    sp, sp, -64
    sw      ra, 0(sp)
    sw      t0, 4(sp)
    sw      t1, 8(sp)
    sw      t2, 12(sp)
    sw      a0, 16(sp)
    sw      a1, 20(sp)
    sw      a2, 24(sp)
    sw      a3, 28(sp)
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    ctnn_trap_handler
    /* not reached */
7:  j       7b
