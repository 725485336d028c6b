// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// The named values of the accelerator's register fields (error causes, ...), for the RTL that
// produces them. Include inside a module body.

// ERR_CAUSE.CODE: The cause
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_NONE = 4'd0;  // no error
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_ZERO_SIZE = 4'd1;  // M, N or K is 0
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_START_BUSY = 4'd2;  // START while a job runs (the running job is aborted)
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_ADDR_RANGE = 4'd3;  // a DMA address outside RAM: checked before the job for A, C and the vectors, and per access for the implicit im2col B (never requested)
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_ALIGN = 4'd4;  // B, an int32 C, a vector or LDB, LDC not a multiple of 4 (A and an int8 C may have any alignment), or a stride shorter than a row
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_BUS_ERR = 4'd5;  // a DMA access got an error response
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_K_TOO_BIG = 4'd6;  // K above 2^LOG2_KMAX
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_BAD_SHIFT = 4'd7;  // a shift outside [-31, 30] (per tensor, or read from the per-channel vector)
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_ROWS = 4'd8;  // CFG.ROW_PARAMS with M above 2 x HWCFG.BLOCK_COLS
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_CONV_GEOM = 4'd9;  // CFG.CONV with a zero kernel size, stride, output width, H or W
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_RES_RAW = 4'd10;  // CFG.RES_ADD with CFG.OUT_RAW: the residual add needs an int8 C
