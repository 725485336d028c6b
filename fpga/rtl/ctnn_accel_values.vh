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
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_POOL = 4'd11;  // CFG.POOL with CFG.OUT_RAW, without CFG.CONV, or the reserved mode 3
localparam [3:0] CTNN_ACCEL_ERR_CAUSE_CODE_DW = 4'd12;  // CFG.DW without CFG.CONV, with CFG.OUT_RAW, RES_ADD, POOL or ROW_PARAMS, K not KH x KW, KH or KW above DWCFG.KMAX, SW above DWCFG.SMAX, or W above DWCFG.LINE

// CFG.POOL: 2x2 stride-2 pool of the int8 CHW C (CFG.CONV, C row = channel of OUT_W-wide rows, N = OH x OUT_W) after the GEMM (and RES_ADD): the accelerator reads C back (DMA stream 3) and writes the pooled M x floor(OH/2) x floor(OUT_W/2) CHW tensor, dense, at POOL_ADDR (ctnn::ref::max_pool2d / avg_pool2d_s8 without padding, bit-exact)
localparam [1:0] CTNN_ACCEL_CFG_POOL_NONE = 2'd0;  // no pool
localparam [1:0] CTNN_ACCEL_CFG_POOL_MAX = 2'd1;  // max of the 2x2 window
localparam [1:0] CTNN_ACCEL_CFG_POOL_AVG = 2'd2;  // average of the 2x2 window, rounded half away from zero (ctnn::ref::rounded_average)
