// Console on the 16550 UART of QEMU virt / ctnn_soc: poll LSR.THRE, write THR.
#include "ctnn_platform.h"

#include "ctnn/regs/uart.hpp"

void ctnn_console_putc(char c)
{
    namespace u = ctnn::regs::uart;
    auto *uart = reinterpret_cast<volatile uint8_t *>(u::base);
    while ((uart[u::lsr::offset] & u::lsr::thre::mask) == 0u) {
    }
    uart[u::thr::offset] = static_cast<uint8_t>(c);
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
        ctnn_console_putc(static_cast<char>(nibble < 10u ? '0' + nibble : 'a' + nibble - 10u));
    }
}

void ctnn_console_put_dec(uint32_t v)
{
    char buf[10];
    int n = 0;
    do {
        buf[n++] = static_cast<char>('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    while (n > 0) {
        ctnn_console_putc(buf[--n]);
    }
}
