// Ordering between RAM and a device that reads and writes RAM by DMA, under the RISC-V memory
// model (RVWMO). A hart may make its accesses visible out of program order; the FENCE
// instruction's predecessor and successor sets name what must be ordered: device input (I),
// device output (O), memory reads (R) and memory writes (W). A compiler barrier alone orders only
// the compiler's view, not what another agent on the bus observes.
//
//   CPU: write A, B, params to RAM ... fence orw,o ... write CTRL.START          (job starts)
//   CPU: read STATUS until done ...... fence i,iorw ... read C from RAM, reuse A, B
//
// Freestanding: no header, compiler builtins only. Off RISC-V (host builds of the same drivers,
// whose "device" is a fake bus in the same program) the compiler's full fence stands in.
#pragma once

namespace ctnn::mmio {

/// @brief Before the device write that starts a DMA job: every earlier RAM write (the job's
/// inputs) and RAM read (of a buffer the job will overwrite), and every earlier device write (the
/// job's registers, also on an I/O region without strong ordering) is observed before the start.
inline void fence_before_dma_start() {
#if defined(__riscv)
  __asm__ volatile("fence orw, o" ::: "memory");
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/// @brief After the device read that reported a DMA job finished: no later RAM read (the job's
/// results), RAM write (a buffer the job read) or device access is performed before that read.
inline void fence_after_dma_done() {
#if defined(__riscv)
  __asm__ volatile("fence i, iorw" ::: "memory");
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

}  // namespace ctnn::mmio
