/* ctnn firmware platform layer: console, cycle counter, exit (QEMU virt / ctnn_soc memory map). */
#ifndef CTNN_PLATFORM_H
#define CTNN_PLATFORM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- console: 16550 UART transmitter ---- */
void ctnn_console_putc(char c);
void ctnn_console_puts(const char *s);
void ctnn_console_put_hex(uint32_t v);
void ctnn_console_put_dec(uint32_t v);

/* ---- cycle counter: the Zicsr counters (mcycle / minstret, 64 bit) ---- */
uint64_t ctnn_cycles(void);
uint64_t ctnn_instret(void);

/* ---- exit: the sifive_test-style exit device; 0 = pass, else fail with the code ---- */
__attribute__((noreturn)) void ctnn_exit(int code);

/* Loads the 32-bit word at addr; 0 on success, -1 when the access traps (nothing there). */
int ctnn_probe_load32(uint32_t addr, uint32_t *value);

/* Called by the default trap vector; reports the trap and exits with CTNN_EXIT_TRAP. */
__attribute__((noreturn)) void ctnn_trap_handler(uint32_t mcause, uint32_t mepc, uint32_t mtval);

#define CTNN_EXIT_TRAP 0x7ff

#ifdef __cplusplus
}
#endif

#endif
