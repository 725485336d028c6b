// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// The SoC map and the devices' registers as `defines, for what a module body's localparams
// cannot reach: parameter defaults (parameter [31:0] RamBase = `CTNN_SOC_RAM_BASE) and the
// constants of the UART and exit device. Include at the top of a file, outside the module.
`ifndef CTNN_SOC_DEFAULTS_VH
`define CTNN_SOC_DEFAULTS_VH

// exit: Exit device, QEMU sifive_test semantics (register FINISHER below)
`define CTNN_SOC_EXIT_BASE 32'h0010_0000
`define CTNN_SOC_EXIT_SIZE 32'h0000_1000
`define CTNN_SOC_EXIT_ADDR_BITS 12

// uart: 16550-style UART (QEMU virt UART0), byte registers on word addresses (below)
`define CTNN_SOC_UART_BASE 32'h1000_0000
`define CTNN_SOC_UART_SIZE 32'h0000_0100
`define CTNN_SOC_UART_ADDR_BITS 8

// accel: GEMM accelerator registers (below); clear of QEMU virt's virtio-mmio at 0x1000_1000-0x1000_8fff
`define CTNN_SOC_ACCEL_BASE 32'h1002_0000
`define CTNN_SOC_ACCEL_SIZE 32'h0000_1000
`define CTNN_SOC_ACCEL_ADDR_BITS 12

// ram: System RAM (1 MiB by default; the size is a parameter of the SoC and the accelerator)
`define CTNN_SOC_RAM_BASE 32'h8000_0000
`define CTNN_SOC_RAM_SIZE 32'h0010_0000
`define CTNN_SOC_RAM_ADDR_BITS 20

// uart.THR: Transmit holding register (LCR.DLAB = 0; with DLAB = 1 offset 0 is the divisor latch low byte)
`define CTNN_SOC_UART_THR_OFFSET 0
`define CTNN_SOC_UART_THR_DATA_LSB 0  // wo, bits 7:0
`define CTNN_SOC_UART_THR_DATA_MSB 7

// uart.LCR: Line control
`define CTNN_SOC_UART_LCR_OFFSET 3
`define CTNN_SOC_UART_LCR_DLAB_LSB 7  // rw, bits 7:7
`define CTNN_SOC_UART_LCR_DLAB_MSB 7

// uart.LSR: Line status (the model has no receiver and sends at once: THRE and TEMT always read 1)
`define CTNN_SOC_UART_LSR_OFFSET 5
`define CTNN_SOC_UART_LSR_THRE_LSB 5  // ro, bits 5:5
`define CTNN_SOC_UART_LSR_THRE_MSB 5
`define CTNN_SOC_UART_LSR_TEMT_LSB 6  // ro, bits 6:6
`define CTNN_SOC_UART_LSR_TEMT_MSB 6

// exit.FINISHER: Write STATUS = PASS to pass, (CODE << 16) | FAIL to fail with CODE; reads 0
`define CTNN_SOC_EXIT_FINISHER_OFFSET 0
`define CTNN_SOC_EXIT_FINISHER_STATUS_LSB 0  // wo, bits 15:0
`define CTNN_SOC_EXIT_FINISHER_STATUS_MSB 15
`define CTNN_SOC_EXIT_FINISHER_STATUS_FAIL 16'h3333  // the program failed with CODE
`define CTNN_SOC_EXIT_FINISHER_STATUS_PASS 16'h5555  // the program passed (CODE 0)
`define CTNN_SOC_EXIT_FINISHER_CODE_LSB 16  // wo, bits 31:16
`define CTNN_SOC_EXIT_FINISHER_CODE_MSB 31

`endif
