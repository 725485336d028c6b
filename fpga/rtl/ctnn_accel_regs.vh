// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// ctnn GEMM accelerator: C[MxN] = requant(A[MxK] . B[KxN] + bias), int8 in, int8 or int32 out.
// Register offsets (byte, inside the accel region), field positions and reset values.
// Include once inside the register-file module body.

localparam integer CTNN_ACCEL_OFFSET_BITS = 12;

// ID: Identification
localparam [11:0] CTNN_ACCEL_ID_OFFSET = 12'h000;
localparam [31:0] CTNN_ACCEL_ID_RESET = 32'hc7aa0001;
localparam integer CTNN_ACCEL_ID_VERSION_LSB = 0;  // ro, bits 15:0
localparam integer CTNN_ACCEL_ID_VERSION_MSB = 15;
localparam integer CTNN_ACCEL_ID_MAGIC_LSB = 16;  // ro, bits 31:16
localparam integer CTNN_ACCEL_ID_MAGIC_MSB = 31;

// HWCFG: Build parameters of this instance
localparam [11:0] CTNN_ACCEL_HWCFG_OFFSET = 12'h004;
localparam [31:0] CTNN_ACCEL_HWCFG_RESET = 32'h04040c08;
localparam integer CTNN_ACCEL_HWCFG_DIM_LSB = 0;  // ro, bits 7:0
localparam integer CTNN_ACCEL_HWCFG_DIM_MSB = 7;
localparam integer CTNN_ACCEL_HWCFG_LOG2_KMAX_LSB = 8;  // ro, bits 15:8
localparam integer CTNN_ACCEL_HWCFG_LOG2_KMAX_MSB = 15;
localparam integer CTNN_ACCEL_HWCFG_BUS_BYTES_LSB = 16;  // ro, bits 19:16
localparam integer CTNN_ACCEL_HWCFG_BUS_BYTES_MSB = 19;
localparam integer CTNN_ACCEL_HWCFG_BLOCK_COLS_LSB = 20;  // ro, bits 31:20
localparam integer CTNN_ACCEL_HWCFG_BLOCK_COLS_MSB = 31;

// CTRL: Command
localparam [11:0] CTNN_ACCEL_CTRL_OFFSET = 12'h008;
localparam [31:0] CTNN_ACCEL_CTRL_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_CTRL_START_LSB = 0;  // wo, bits 0:0
localparam integer CTNN_ACCEL_CTRL_START_MSB = 0;

// STATUS: Job status; DONE and ERROR drive the interrupt when enabled in IRQ_EN
localparam [11:0] CTNN_ACCEL_STATUS_OFFSET = 12'h00c;
localparam [31:0] CTNN_ACCEL_STATUS_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_STATUS_BUSY_LSB = 0;  // ro, bits 0:0
localparam integer CTNN_ACCEL_STATUS_BUSY_MSB = 0;
localparam integer CTNN_ACCEL_STATUS_DONE_LSB = 1;  // w1c, bits 1:1
localparam integer CTNN_ACCEL_STATUS_DONE_MSB = 1;
localparam integer CTNN_ACCEL_STATUS_ERROR_LSB = 2;  // w1c, bits 2:2
localparam integer CTNN_ACCEL_STATUS_ERROR_MSB = 2;

// ERR_CAUSE: Why the last job stopped; cleared by a new start
localparam [11:0] CTNN_ACCEL_ERR_CAUSE_OFFSET = 12'h010;
localparam [31:0] CTNN_ACCEL_ERR_CAUSE_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_ERR_CAUSE_CODE_LSB = 0;  // ro, bits 3:0
localparam integer CTNN_ACCEL_ERR_CAUSE_CODE_MSB = 3;

// IRQ_EN: Interrupt enables: irq_o = (DONE & IRQ_EN.DONE) | (ERROR & IRQ_EN.ERROR)
localparam [11:0] CTNN_ACCEL_IRQ_EN_OFFSET = 12'h014;
localparam [31:0] CTNN_ACCEL_IRQ_EN_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_IRQ_EN_DONE_LSB = 0;  // rw, bits 0:0
localparam integer CTNN_ACCEL_IRQ_EN_DONE_MSB = 0;
localparam integer CTNN_ACCEL_IRQ_EN_ERROR_LSB = 1;  // rw, bits 1:1
localparam integer CTNN_ACCEL_IRQ_EN_ERROR_MSB = 1;

// CFG: Job options
localparam [11:0] CTNN_ACCEL_CFG_OFFSET = 12'h018;
localparam [31:0] CTNN_ACCEL_CFG_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_CFG_OUT_RAW_LSB = 0;  // rw, bits 0:0
localparam integer CTNN_ACCEL_CFG_OUT_RAW_MSB = 0;
localparam integer CTNN_ACCEL_CFG_RELU_LSB = 1;  // rw, bits 1:1
localparam integer CTNN_ACCEL_CFG_RELU_MSB = 1;
localparam integer CTNN_ACCEL_CFG_PER_CHANNEL_LSB = 2;  // rw, bits 2:2
localparam integer CTNN_ACCEL_CFG_PER_CHANNEL_MSB = 2;
localparam integer CTNN_ACCEL_CFG_BIAS_EN_LSB = 3;  // rw, bits 3:3
localparam integer CTNN_ACCEL_CFG_BIAS_EN_MSB = 3;
localparam integer CTNN_ACCEL_CFG_CONV_LSB = 4;  // rw, bits 4:4
localparam integer CTNN_ACCEL_CFG_CONV_MSB = 4;
localparam integer CTNN_ACCEL_CFG_ROW_PARAMS_LSB = 5;  // rw, bits 5:5
localparam integer CTNN_ACCEL_CFG_ROW_PARAMS_MSB = 5;
localparam integer CTNN_ACCEL_CFG_RES_ADD_LSB = 6;  // rw, bits 6:6
localparam integer CTNN_ACCEL_CFG_RES_ADD_MSB = 6;
localparam integer CTNN_ACCEL_CFG_POOL_LSB = 7;  // rw, bits 8:7
localparam integer CTNN_ACCEL_CFG_POOL_MSB = 8;
localparam integer CTNN_ACCEL_CFG_DW_LSB = 9;  // rw, bits 9:9
localparam integer CTNN_ACCEL_CFG_DW_MSB = 9;

// M: Rows of A and C
localparam [11:0] CTNN_ACCEL_M_OFFSET = 12'h01c;
localparam [31:0] CTNN_ACCEL_M_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_M_VALUE_LSB = 0;  // rw, bits 15:0
localparam integer CTNN_ACCEL_M_VALUE_MSB = 15;

// N: Columns of B and C (output channels)
localparam [11:0] CTNN_ACCEL_N_OFFSET = 12'h020;
localparam [31:0] CTNN_ACCEL_N_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_N_VALUE_LSB = 0;  // rw, bits 15:0
localparam integer CTNN_ACCEL_N_VALUE_MSB = 15;

// K: Columns of A, rows of B (reduction depth)
localparam [11:0] CTNN_ACCEL_K_OFFSET = 12'h024;
localparam [31:0] CTNN_ACCEL_K_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_K_VALUE_LSB = 0;  // rw, bits 15:0
localparam integer CTNN_ACCEL_K_VALUE_MSB = 15;

// A_ADDR: Byte address of A[0][0] (int8, row-major), a multiple of 4
localparam [11:0] CTNN_ACCEL_A_ADDR_OFFSET = 12'h028;
localparam [31:0] CTNN_ACCEL_A_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_A_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_A_ADDR_VALUE_MSB = 31;

// B_ADDR: Byte address of B[0][0] (int8, row-major), a multiple of 4
localparam [11:0] CTNN_ACCEL_B_ADDR_OFFSET = 12'h02c;
localparam [31:0] CTNN_ACCEL_B_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_B_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_B_ADDR_VALUE_MSB = 31;

// C_ADDR: Byte address of C[0][0] (int8 or int32, row-major), a multiple of 4
localparam [11:0] CTNN_ACCEL_C_ADDR_OFFSET = 12'h030;
localparam [31:0] CTNN_ACCEL_C_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_C_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_C_ADDR_VALUE_MSB = 31;

// BIAS_ADDR: Byte address of the int32 bias vector (N entries), used when CFG.BIAS_EN
localparam [11:0] CTNN_ACCEL_BIAS_ADDR_OFFSET = 12'h034;
localparam [31:0] CTNN_ACCEL_BIAS_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_BIAS_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_BIAS_ADDR_VALUE_MSB = 31;

// MULT_ADDR: Byte address of the int32 per-channel multipliers (N entries), used when CFG.PER_CHANNEL
localparam [11:0] CTNN_ACCEL_MULT_ADDR_OFFSET = 12'h038;
localparam [31:0] CTNN_ACCEL_MULT_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_MULT_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_MULT_ADDR_VALUE_MSB = 31;

// SHIFT_ADDR: Byte address of the int32 per-channel shifts (N entries), used when CFG.PER_CHANNEL
localparam [11:0] CTNN_ACCEL_SHIFT_ADDR_OFFSET = 12'h03c;
localparam [31:0] CTNN_ACCEL_SHIFT_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_SHIFT_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_SHIFT_ADDR_VALUE_MSB = 31;

// LDA: Row stride of A in bytes, a multiple of 4
localparam [11:0] CTNN_ACCEL_LDA_OFFSET = 12'h040;
localparam [31:0] CTNN_ACCEL_LDA_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_LDA_VALUE_LSB = 0;  // rw, bits 19:0
localparam integer CTNN_ACCEL_LDA_VALUE_MSB = 19;

// LDB: Row stride of B in bytes, a multiple of 4
localparam [11:0] CTNN_ACCEL_LDB_OFFSET = 12'h044;
localparam [31:0] CTNN_ACCEL_LDB_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_LDB_VALUE_LSB = 0;  // rw, bits 19:0
localparam integer CTNN_ACCEL_LDB_VALUE_MSB = 19;

// LDC: Row stride of C in bytes, a multiple of 4
localparam [11:0] CTNN_ACCEL_LDC_OFFSET = 12'h048;
localparam [31:0] CTNN_ACCEL_LDC_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_LDC_VALUE_LSB = 0;  // rw, bits 19:0
localparam integer CTNN_ACCEL_LDC_VALUE_MSB = 19;

// ZP: Zero points, signed int8
localparam [11:0] CTNN_ACCEL_ZP_OFFSET = 12'h04c;
localparam [31:0] CTNN_ACCEL_ZP_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_ZP_A_ZP_LSB = 0;  // rw, bits 7:0
localparam integer CTNN_ACCEL_ZP_A_ZP_MSB = 7;
localparam integer CTNN_ACCEL_ZP_B_ZP_LSB = 8;  // rw, bits 15:8
localparam integer CTNN_ACCEL_ZP_B_ZP_MSB = 15;
localparam integer CTNN_ACCEL_ZP_OUT_ZP_LSB = 16;  // rw, bits 23:16
localparam integer CTNN_ACCEL_ZP_OUT_ZP_MSB = 23;

// CLAMP: Output clamp, signed int8 (act_min, act_max)
localparam [11:0] CTNN_ACCEL_CLAMP_OFFSET = 12'h050;
localparam [31:0] CTNN_ACCEL_CLAMP_RESET = 32'h00007f80;
localparam integer CTNN_ACCEL_CLAMP_ACT_MIN_LSB = 0;  // rw, bits 7:0
localparam integer CTNN_ACCEL_CLAMP_ACT_MIN_MSB = 7;
localparam integer CTNN_ACCEL_CLAMP_ACT_MAX_LSB = 8;  // rw, bits 15:8
localparam integer CTNN_ACCEL_CLAMP_ACT_MAX_MSB = 15;

// MULT: Per-tensor requantization multiplier (Q0.31), used unless CFG.PER_CHANNEL
localparam [11:0] CTNN_ACCEL_MULT_OFFSET = 12'h054;
localparam [31:0] CTNN_ACCEL_MULT_RESET = 32'h40000000;
localparam integer CTNN_ACCEL_MULT_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_MULT_VALUE_MSB = 31;

// SHIFT: Per-tensor requantization shift, signed, TFLite convention (> 0 left, < 0 right)
localparam [11:0] CTNN_ACCEL_SHIFT_OFFSET = 12'h058;
localparam [31:0] CTNN_ACCEL_SHIFT_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_SHIFT_VALUE_LSB = 0;  // rw, bits 7:0
localparam integer CTNN_ACCEL_SHIFT_VALUE_MSB = 7;

// CYCLES: Cycles from start to done of the last job (counts while BUSY)
localparam [11:0] CTNN_ACCEL_CYCLES_OFFSET = 12'h05c;
localparam [31:0] CTNN_ACCEL_CYCLES_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_CYCLES_VALUE_LSB = 0;  // ro, bits 31:0
localparam integer CTNN_ACCEL_CYCLES_VALUE_MSB = 31;

// MACS: Useful multiply-accumulates of the last job (M x N x K when it completes)
localparam [11:0] CTNN_ACCEL_MACS_OFFSET = 12'h060;
localparam [31:0] CTNN_ACCEL_MACS_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_MACS_VALUE_LSB = 0;  // ro, bits 31:0
localparam integer CTNN_ACCEL_MACS_VALUE_MSB = 31;

// CONV_IN: CFG.CONV: height and width of the input tensor
localparam [11:0] CTNN_ACCEL_CONV_IN_OFFSET = 12'h064;
localparam [31:0] CTNN_ACCEL_CONV_IN_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_CONV_IN_H_LSB = 0;  // rw, bits 15:0
localparam integer CTNN_ACCEL_CONV_IN_H_MSB = 15;
localparam integer CTNN_ACCEL_CONV_IN_W_LSB = 16;  // rw, bits 31:16
localparam integer CTNN_ACCEL_CONV_IN_W_MSB = 31;

// CONV_CSTRIDE: CFG.CONV: bytes from one input channel to the next (H x W for a dense CHW tensor)
localparam [11:0] CTNN_ACCEL_CONV_CSTRIDE_OFFSET = 12'h068;
localparam [31:0] CTNN_ACCEL_CONV_CSTRIDE_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_CONV_CSTRIDE_VALUE_LSB = 0;  // rw, bits 23:0
localparam integer CTNN_ACCEL_CONV_CSTRIDE_VALUE_MSB = 23;

// CONV_KERNEL: CFG.CONV: kernel size and stride
localparam [11:0] CTNN_ACCEL_CONV_KERNEL_OFFSET = 12'h06c;
localparam [31:0] CTNN_ACCEL_CONV_KERNEL_RESET = 32'h01010101;
localparam integer CTNN_ACCEL_CONV_KERNEL_KH_LSB = 0;  // rw, bits 7:0
localparam integer CTNN_ACCEL_CONV_KERNEL_KH_MSB = 7;
localparam integer CTNN_ACCEL_CONV_KERNEL_KW_LSB = 8;  // rw, bits 15:8
localparam integer CTNN_ACCEL_CONV_KERNEL_KW_MSB = 15;
localparam integer CTNN_ACCEL_CONV_KERNEL_SH_LSB = 16;  // rw, bits 23:16
localparam integer CTNN_ACCEL_CONV_KERNEL_SH_MSB = 23;
localparam integer CTNN_ACCEL_CONV_KERNEL_SW_LSB = 24;  // rw, bits 31:24
localparam integer CTNN_ACCEL_CONV_KERNEL_SW_MSB = 31;

// CONV_OUT: CFG.CONV: output width and the top and left padding
localparam [11:0] CTNN_ACCEL_CONV_OUT_OFFSET = 12'h070;
localparam [31:0] CTNN_ACCEL_CONV_OUT_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_CONV_OUT_OUT_W_LSB = 0;  // rw, bits 15:0
localparam integer CTNN_ACCEL_CONV_OUT_OUT_W_MSB = 15;
localparam integer CTNN_ACCEL_CONV_OUT_PT_LSB = 16;  // rw, bits 23:16
localparam integer CTNN_ACCEL_CONV_OUT_PT_MSB = 23;
localparam integer CTNN_ACCEL_CONV_OUT_PL_LSB = 24;  // rw, bits 31:24
localparam integer CTNN_ACCEL_CONV_OUT_PL_MSB = 31;

// RES_ADDR: CFG.RES_ADD: byte address of the residual R[0][0] (int8, laid out as C with LDC; a multiple of 4 unless C is written by bytes)
localparam [11:0] CTNN_ACCEL_RES_ADDR_OFFSET = 12'h074;
localparam [31:0] CTNN_ACCEL_RES_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_RES_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_RES_ADDR_VALUE_MSB = 31;

// RES_ZP: CFG.RES_ADD: the add's zero points (signed int8) and its left shift
localparam [11:0] CTNN_ACCEL_RES_ZP_OFFSET = 12'h078;
localparam [31:0] CTNN_ACCEL_RES_ZP_RESET = 32'h14000000;
localparam integer CTNN_ACCEL_RES_ZP_Y_ZP_LSB = 0;  // rw, bits 7:0
localparam integer CTNN_ACCEL_RES_ZP_Y_ZP_MSB = 7;
localparam integer CTNN_ACCEL_RES_ZP_R_ZP_LSB = 8;  // rw, bits 15:8
localparam integer CTNN_ACCEL_RES_ZP_R_ZP_MSB = 15;
localparam integer CTNN_ACCEL_RES_ZP_OUT_ZP_LSB = 16;  // rw, bits 23:16
localparam integer CTNN_ACCEL_RES_ZP_OUT_ZP_MSB = 23;
localparam integer CTNN_ACCEL_RES_ZP_LEFT_SHIFT_LSB = 24;  // rw, bits 28:24
localparam integer CTNN_ACCEL_RES_ZP_LEFT_SHIFT_MSB = 28;

// RES_CLAMP: CFG.RES_ADD: the add's output clamp, signed int8 (act_min, act_max; a fused ReLU raises ACT_MIN to RES_ZP.OUT_ZP)
localparam [11:0] CTNN_ACCEL_RES_CLAMP_OFFSET = 12'h07c;
localparam [31:0] CTNN_ACCEL_RES_CLAMP_RESET = 32'h00007f80;
localparam integer CTNN_ACCEL_RES_CLAMP_ACT_MIN_LSB = 0;  // rw, bits 7:0
localparam integer CTNN_ACCEL_RES_CLAMP_ACT_MIN_MSB = 7;
localparam integer CTNN_ACCEL_RES_CLAMP_ACT_MAX_LSB = 8;  // rw, bits 15:8
localparam integer CTNN_ACCEL_RES_CLAMP_ACT_MAX_MSB = 15;

// RES_MULT_Y: CFG.RES_ADD: multiplier (Q0.31) rescaling y (add_s8_params.a)
localparam [11:0] CTNN_ACCEL_RES_MULT_Y_OFFSET = 12'h080;
localparam [31:0] CTNN_ACCEL_RES_MULT_Y_RESET = 32'h40000000;
localparam integer CTNN_ACCEL_RES_MULT_Y_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_RES_MULT_Y_VALUE_MSB = 31;

// RES_MULT_R: CFG.RES_ADD: multiplier (Q0.31) rescaling the residual (add_s8_params.b)
localparam [11:0] CTNN_ACCEL_RES_MULT_R_OFFSET = 12'h084;
localparam [31:0] CTNN_ACCEL_RES_MULT_R_RESET = 32'h40000000;
localparam integer CTNN_ACCEL_RES_MULT_R_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_RES_MULT_R_VALUE_MSB = 31;

// RES_MULT_OUT: CFG.RES_ADD: multiplier (Q0.31) of the sum to the output (add_s8_params.out)
localparam [11:0] CTNN_ACCEL_RES_MULT_OUT_OFFSET = 12'h088;
localparam [31:0] CTNN_ACCEL_RES_MULT_OUT_RESET = 32'h40000000;
localparam integer CTNN_ACCEL_RES_MULT_OUT_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_RES_MULT_OUT_VALUE_MSB = 31;

// RES_SHIFT: CFG.RES_ADD: the three shifts, signed, TFLite convention: Y and R in [-31, 0] (as ctnn::ref::valid(add_s8_params)), OUT in [-31, 30]; others stop the job with BAD_SHIFT
localparam [11:0] CTNN_ACCEL_RES_SHIFT_OFFSET = 12'h08c;
localparam [31:0] CTNN_ACCEL_RES_SHIFT_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_RES_SHIFT_Y_LSB = 0;  // rw, bits 7:0
localparam integer CTNN_ACCEL_RES_SHIFT_Y_MSB = 7;
localparam integer CTNN_ACCEL_RES_SHIFT_R_LSB = 8;  // rw, bits 15:8
localparam integer CTNN_ACCEL_RES_SHIFT_R_MSB = 15;
localparam integer CTNN_ACCEL_RES_SHIFT_OUT_LSB = 16;  // rw, bits 23:16
localparam integer CTNN_ACCEL_RES_SHIFT_OUT_MSB = 23;

// POOL_ADDR: CFG.POOL: byte address of the pooled output (int8 CHW, any alignment; written by bytes, each address checked against RAM)
localparam [11:0] CTNN_ACCEL_POOL_ADDR_OFFSET = 12'h090;
localparam [31:0] CTNN_ACCEL_POOL_ADDR_RESET = 32'h00000000;
localparam integer CTNN_ACCEL_POOL_ADDR_VALUE_LSB = 0;  // rw, bits 31:0
localparam integer CTNN_ACCEL_POOL_ADDR_VALUE_MSB = 31;

// DWCFG: Build parameters of the depthwise unit (CFG.DW): a job beyond them stops with ERR_CAUSE DW
localparam [11:0] CTNN_ACCEL_DWCFG_OFFSET = 12'h094;
localparam [31:0] CTNN_ACCEL_DWCFG_RESET = 32'h03010005;
localparam integer CTNN_ACCEL_DWCFG_KMAX_LSB = 0;  // ro, bits 7:0
localparam integer CTNN_ACCEL_DWCFG_KMAX_MSB = 7;
localparam integer CTNN_ACCEL_DWCFG_LINE_LSB = 8;  // ro, bits 23:8
localparam integer CTNN_ACCEL_DWCFG_LINE_MSB = 23;
localparam integer CTNN_ACCEL_DWCFG_SMAX_LSB = 24;  // ro, bits 31:24
localparam integer CTNN_ACCEL_DWCFG_SMAX_MSB = 31;
