/* Base addresses used by the platform layer (QEMU virt layout, mirrored by ctnn_soc).
   TODO(issue 6): take these from the generated address map header once fpga/regs/ provides it. */
#ifndef CTNN_PLATFORM_MAP_H
#define CTNN_PLATFORM_MAP_H

#define CTNN_PLATFORM_UART_BASE 0x10000000u
#define CTNN_PLATFORM_EXIT_BASE 0x00100000u

#endif
