/* int ctnn_probe_load32(uint32_t addr, uint32_t *value): loads the word at addr with a private
   trap vector in place; returns 0 and stores the word, or -1 when the load trapped (no device
   there: QEMU has no accelerator, for example). mtvec is restored either way. */
    .text
    .globl  ctnn_probe_load32
    .balign 4
ctnn_probe_load32:
    csrr    t0, mtvec
    la      t1, .Lprobe_trap
    csrw    mtvec, t1
    li      t2, 0
    lw      t3, 0(a0)
.Lprobe_resume:
    csrw    mtvec, t0
    bnez    t2, .Lprobe_fault
    sw      t3, 0(a1)
    li      a0, 0
    ret
.Lprobe_fault:
    li      a0, -1
    ret

    .balign 4
.Lprobe_trap:
    li      t2, 1
    la      t1, .Lprobe_resume
    csrw    mepc, t1
    mret
