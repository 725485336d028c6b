/* Console on the 16550 UART of QEMU virt / ctnn_soc: poll LSR.THRE, write THR. */
#include "ctnn_platform.h"
#include "ctnn_platform_map.h"

#define UART_THR 0u
#define UART_LSR 5u
#define UART_LSR_THRE 0x20u

void ctnn_console_putc(char c)
{
    volatile uint8_t *uart = (volatile uint8_t *)CTNN_PLATFORM_UART_BASE;
    while ((uart[UART_LSR] & UART_LSR_THRE) == 0u) {
    }
    uart[UART_THR] = (uint8_t)c;
}

void ctnn_console_puts(const char *s)
{
    while (*s != '\0') {
        ctnn_console_putc(*s++);
    }
}

void ctnn_console_put_hex(uint32_t v)
{
    ctnn_console_puts("0x");
    for (int shift = 28; shift >= 0; shift -= 4) {
        uint32_t nibble = (v >> shift) & 0xfu;
        ctnn_console_putc((char)(nibble < 10u ? '0' + nibble : 'a' + nibble - 10u));
    }
}

void ctnn_console_put_dec(uint32_t v)
{
    char buf[10];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    while (n > 0) {
        ctnn_console_putc(buf[--n]);
    }
}
