// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// The ctnn SoC address map. Include inside a module body (localparams, no include
// guard on purpose: every module that decodes addresses includes it once).
// A region claims addr when addr[31:ADDR_BITS] == BASE[31:ADDR_BITS].

// exit: Exit device, QEMU sifive_test semantics (register FINISHER below)
localparam [31:0] CTNN_MAP_EXIT_BASE = 32'h0010_0000;
localparam [31:0] CTNN_MAP_EXIT_SIZE = 32'h0000_1000;
localparam integer CTNN_MAP_EXIT_ADDR_BITS = 12;

// uart: 16550-style UART (QEMU virt UART0), byte registers on word addresses (below)
localparam [31:0] CTNN_MAP_UART_BASE = 32'h1000_0000;
localparam [31:0] CTNN_MAP_UART_SIZE = 32'h0000_0100;
localparam integer CTNN_MAP_UART_ADDR_BITS = 8;

// accel: GEMM accelerator registers (below); clear of QEMU virt's virtio-mmio at 0x1000_1000-0x1000_8fff
localparam [31:0] CTNN_MAP_ACCEL_BASE = 32'h1002_0000;
localparam [31:0] CTNN_MAP_ACCEL_SIZE = 32'h0000_1000;
localparam integer CTNN_MAP_ACCEL_ADDR_BITS = 12;

// ram: System RAM (1 MiB by default; the size is a parameter of the SoC and the accelerator)
localparam [31:0] CTNN_MAP_RAM_BASE = 32'h8000_0000;
localparam [31:0] CTNN_MAP_RAM_SIZE = 32'h0010_0000;
localparam integer CTNN_MAP_RAM_ADDR_BITS = 20;
