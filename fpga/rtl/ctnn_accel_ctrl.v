// ctnn_accel_ctrl: the accelerator's job controller. On START it takes a snapshot of the
// registers (they may change while the job runs), checks the job (sizes, K, alignment, shifts,
// row parameters, convolution geometry, every DMA range inside RAM), runs it until the feeder,
// the store unit and the DMA are done, or stops it on an error (START while busy, a bus error,
// a bad shift in a vector, a gathered or pooled address outside RAM), and counts CYCLES and MACS.
// It also derives from the snapshot the values the datapath units share.
//
//   IDLE --START--> CHECK --> RANGE (A, B, C, residual extents, one multiplier) --> RUN --> IDLE (DONE)
//                     |          |                                         |
//                     +----------+--------------> STOP (units cleared, DMA drains) --> IDLE (ERROR)
`default_nettype none

module ctnn_accel_ctrl #(
  parameter integer Dim      = 8,
  parameter integer TileDim  = 1,
  parameter integer NbTiles  = 8,
  parameter integer Log2KMax = 12,
  parameter [31:0]  RamBase  = 32'd0,       // the RAM window of the DMA: ctnn_accel passes its own
  parameter [31:0]  RamSize  = 32'd0,
  parameter integer DwKMax   = 5,           // ctnn_accel_dw: largest KH and KW
  parameter integer DwLine   = 256,         // ctnn_accel_dw: largest W (bytes of a line buffer row)
  parameter integer DwSMax   = 3            // ctnn_accel_dw: largest SW (its window's width)
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // from the register file
  input  wire        start_i,
  input  wire [9:0]  cfg_i,          // {DW, POOL[1:0], RES_ADD, ROW_PARAMS, CONV, BIAS_EN, PER_CHANNEL, RELU, OUT_RAW}
  input  wire [15:0] m_i,
  input  wire [15:0] n_i,
  input  wire [15:0] k_i,
  input  wire [31:0] a_addr_i,
  input  wire [31:0] b_addr_i,
  input  wire [31:0] c_addr_i,
  input  wire [31:0] bias_addr_i,
  input  wire [31:0] mult_addr_i,
  input  wire [31:0] shift_addr_i,
  input  wire [19:0] lda_i,
  input  wire [19:0] ldb_i,
  input  wire [19:0] ldc_i,
  input  wire [23:0] zp_i,           // {OUT_ZP, B_ZP, A_ZP}
  input  wire [15:0] clamp_i,        // {ACT_MAX, ACT_MIN}
  input  wire [31:0] mult_i,
  input  wire [7:0]  shift_i,
  input  wire [31:0] conv_in_i,      // {W, H}
  input  wire [23:0] conv_cstride_i,
  input  wire [31:0] conv_kernel_i,  // {SW, SH, KW, KH}
  input  wire [31:0] conv_out_i,     // {PL, PT, OUT_W}
  input  wire [31:0] res_addr_i,
  input  wire [28:0] res_zp_i,       // {LEFT_SHIFT, OUT_ZP, R_ZP, Y_ZP}
  input  wire [15:0] res_clamp_i,    // {ACT_MAX, ACT_MIN}
  input  wire [31:0] res_mult_y_i,
  input  wire [31:0] res_mult_r_i,
  input  wire [31:0] res_mult_out_i,
  input  wire [23:0] res_shift_i,    // {OUT, R, Y}
  input  wire [31:0] pool_addr_i,
  // to the register file
  output wire        busy_o,
  output wire        done_set_o,
  output wire        err_set_o,
  output wire [3:0]  err_code_o,
  output wire [31:0] cycles_o,
  output wire [31:0] macs_o,
  // from the units
  input  wire        dma_idle_i,
  input  wire        dma_err_i,      // a DMA response with an error
  input  wire        shift_err_i,    // the loader read a shift outside [-31, 30]
  input  wire        range_err_i,    // the loader gathered an address outside RAM
  input  wire        feed_done_i,
  input  wire        store_idle_i,
  input  wire        mac_add_i,
  input  wire [31:0] mac_inc_i,
  // to the units: run (0 clears them), and the job
  output wire        run_o,
  output wire [15:0] job_m_o,
  output wire [15:0] job_n_o,
  output wire [15:0] job_k_o,
  output wire [15:0] job_kp_o,       // K, at least KMIN (array cycles per tile)
  output wire [31:0] job_a_addr_o,
  output wire [31:0] job_b_addr_o,
  output wire [31:0] job_c_addr_o,
  output wire [31:0] job_bias_addr_o,
  output wire [31:0] job_mult_addr_o,
  output wire [31:0] job_shift_addr_o,
  output wire [19:0] job_lda_o,
  output wire [19:0] job_ldb_o,
  output wire [19:0] job_ldc_o,
  output wire [31:0] job_dim_lda_o,  // Dim x LDA: the next A panel
  output wire [31:0] job_dim_ldc_o,  // Dim x LDC: the next C panel
  output wire        job_c_byte_o,   // int8 C written by bytes (unaligned, or Dim not a multiple of 4)
  output wire        job_raw_o,
  output wire        job_bias_en_o,
  output wire        job_per_channel_o,
  output wire        job_conv_o,
  output wire        job_row_params_o,
  output wire [7:0]  job_a_zp_o,
  output wire [7:0]  job_b_zp_o,
  output wire [7:0]  job_out_zp_o,
  output wire [7:0]  job_lo_o,       // lower clamp: ACT_MIN, raised to OUT_ZP by ReLU
  output wire [7:0]  job_hi_o,       // upper clamp: ACT_MAX
  output wire [31:0] job_mult_o,
  output wire [7:0]  job_shift_o,
  output wire [15:0] job_cv_h_o,
  output wire [15:0] job_cv_w_o,
  output wire [23:0] job_cv_cstride_o,
  output wire [7:0]  job_cv_kh_o,
  output wire [7:0]  job_cv_kw_o,
  output wire [7:0]  job_cv_sh_o,
  output wire [7:0]  job_cv_sw_o,
  output wire [15:0] job_cv_ow_o,
  output wire [7:0]  job_cv_pt_o,
  output wire [7:0]  job_cv_pl_o,
  output wire [31:0] job_cv_shw_o,   // SH x W: input bytes per output row
  output wire [31:0] job_cv_ptw_o,   // PT x W
  output wire        job_res_o,      // CFG.RES_ADD
  output wire [31:0] job_res_addr_o,
  output wire [28:0] job_res_zp_o,
  output wire [15:0] job_res_clamp_o,
  output wire [31:0] job_res_mult_y_o,
  output wire [31:0] job_res_mult_r_o,
  output wire [31:0] job_res_mult_out_o,
  output wire [23:0] job_res_shift_o,
  output wire [1:0]  job_pool_o,      // CFG.POOL
  output wire [31:0] job_pool_addr_o,
  output wire        job_dw_o,        // CFG.DW: the depthwise unit runs the job
  output wire        job_mv_o         // a linear layer: the matrix-vector unit runs the job
);
  localparam integer TILES = Dim / TileDim;
  localparam integer NB = NbTiles * Dim;
  localparam integer KMIN = 2 * TILES + Dim;
  localparam [15:0] KMIN16 = KMIN[15:0];
  // ERR_CAUSE codes: the field's named values in fpga/regs/ctnn.toml
  `include "ctnn_accel_values.vh"
  localparam [3:0] E_ZERO = CTNN_ACCEL_ERR_CAUSE_CODE_ZERO_SIZE, E_BUSY = CTNN_ACCEL_ERR_CAUSE_CODE_START_BUSY,
                   E_RANGE = CTNN_ACCEL_ERR_CAUSE_CODE_ADDR_RANGE, E_ALIGN = CTNN_ACCEL_ERR_CAUSE_CODE_ALIGN,
                   E_BUS = CTNN_ACCEL_ERR_CAUSE_CODE_BUS_ERR, E_KBIG = CTNN_ACCEL_ERR_CAUSE_CODE_K_TOO_BIG,
                   E_SHIFT = CTNN_ACCEL_ERR_CAUSE_CODE_BAD_SHIFT, E_ROWS = CTNN_ACCEL_ERR_CAUSE_CODE_ROWS,
                   E_GEOM = CTNN_ACCEL_ERR_CAUSE_CODE_CONV_GEOM, E_RESRAW = CTNN_ACCEL_ERR_CAUSE_CODE_RES_RAW,
                   E_POOL = CTNN_ACCEL_ERR_CAUSE_CODE_POOL, E_DW = CTNN_ACCEL_ERR_CAUSE_CODE_DW;
  localparam integer ROWS_MAX_I = 2 * NB;
  localparam [16:0] ROWS_MAX = ROWS_MAX_I[16:0];
  localparam [31:0] DIM32 = Dim;
  localparam [7:0]  DW_KMAX = DwKMax[7:0];
  localparam [15:0] DW_LINE = DwLine[15:0];
  localparam [7:0]  DW_SMAX = DwSMax[7:0];

  reg         busy_q, done_set_q, err_set_q;
  reg  [3:0]  err_code_q;
  reg  [31:0] cycles_q, macs_q;

  // ---- job snapshot (registers may change while a job runs) ----------------------------------
  reg  [9:0]  j_cfg;
  reg  [31:0] j_pool_addr;
  reg  [31:0] j_res_addr, j_res_mult_y, j_res_mult_r, j_res_mult_out;
  reg  [28:0] j_res_zp;
  reg  [15:0] j_res_clamp;
  reg  [23:0] j_res_shift;
  reg  [15:0] j_m, j_n, j_k;
  reg  [31:0] j_a, j_b, j_c, j_bias, j_mult_addr, j_shift_addr, j_mult;
  reg  [19:0] j_lda, j_ldb, j_ldc;
  reg  [23:0] j_zp;
  reg  [15:0] j_clamp;
  reg  [7:0]  j_shift;
  reg  [31:0] j_cv_in, j_cv_kernel, j_cv_out;
  reg  [23:0] j_cv_cstride;
  wire        j_raw = j_cfg[0], j_relu = j_cfg[1], j_perch = j_cfg[2], j_bias_en = j_cfg[3];
  wire        j_conv = j_cfg[4], j_rowp = j_cfg[5], j_res = j_cfg[6];
  wire [1:0]  j_pool = j_cfg[8:7];
  wire        j_dw = j_cfg[9];
  // CFG.POOL pools the int8 CHW output of a convolution; mode 3 is reserved
  wire        bad_pool = (j_pool != CTNN_ACCEL_CFG_POOL_NONE) &&
                         (j_raw || !j_conv || (j_pool != CTNN_ACCEL_CFG_POOL_MAX && j_pool != CTNN_ACCEL_CFG_POOL_AVG));
  // CFG.DW (ctnn_accel_dw): a CFG.CONV job with an int8 C, nothing after the requantization,
  // per-channel vectors (M entries without ROW_PARAMS), K = KH x KW, a kernel within DwKMax, SW
  // within DwSMax (the window's width) and rows within the line buffer
  wire [15:0] dw_k = {8'd0, j_cv_kernel[7:0]} * {8'd0, j_cv_kernel[15:8]};
  wire        bad_dw = j_dw && (!j_conv || j_raw || j_res || j_rowp || j_pool != CTNN_ACCEL_CFG_POOL_NONE ||
                                j_k != dw_k || j_cv_kernel[7:0] > DW_KMAX || j_cv_kernel[15:8] > DW_KMAX ||
                                j_cv_kernel[31:24] > DW_SMAX || j_cv_in[31:16] > DW_LINE);
  wire [15:0] cv_h = j_cv_in[15:0], cv_w = j_cv_in[31:16], cv_ow = j_cv_out[15:0];
  wire [7:0]  cv_kh = j_cv_kernel[7:0], cv_kw = j_cv_kernel[15:8];
  wire [7:0]  cv_sh = j_cv_kernel[23:16], cv_sw = j_cv_kernel[31:24];
  wire [7:0]  cv_pt = j_cv_out[23:16], cv_pl = j_cv_out[31:24];
  // a CFG.CONV job that is a linear layer (N = 1: one output pixel of a 1x1 kernel over a 1x1
  // input, CONV_CSTRIDE = 1, LDC = 1) with an int8 C and nothing after the requantization runs on
  // ctnn_accel_mv instead of the array
  wire        mv = j_conv && !j_dw && !j_raw && !j_res && j_pool == CTNN_ACCEL_CFG_POOL_NONE &&
                   j_n == 16'd1 && cv_h == 16'd1 && cv_w == 16'd1 && cv_kh == 8'd1 && cv_kw == 8'd1 &&
                   cv_pt == 8'd0 && cv_pl == 8'd0 && j_cv_cstride == 24'd1 && j_ldc == 20'd1;
  wire [23:0] cv_shw24 = cv_sh * cv_w;
  wire [23:0] cv_ptw24 = cv_pt * cv_w;
  wire [31:0] cv_shw = {8'd0, cv_shw24}, cv_ptw = {8'd0, cv_ptw24};
  // byte-granular int8 C (unaligned address or stride); A has any alignment (16-byte lines)
  wire        c_byte = !j_raw && ((j_c[1:0] != 2'd0) || (j_ldc[1:0] != 2'd0) || (Dim % 4 != 0));

  wire [15:0] kp = (j_k > KMIN16) ? j_k : KMIN16;
  wire [31:0] dim_lda = {12'd0, j_lda} * DIM32;   // below 2^20 * 16
  wire [31:0] dim_ldc = {12'd0, j_ldc} * DIM32;
  wire signed [7:0] act_min = j_clamp[7:0];
  wire signed [7:0] out_zp = j_zp[23:16];
  wire [7:0]  lo = (j_relu && out_zp > act_min) ? out_zp : act_min;

  // ---- job control -------------------------------------------------------------------------
  localparam [2:0] S_IDLE = 3'd0, S_CHECK = 3'd1, S_RANGE = 3'd2, S_RUN = 3'd3, S_STOP = 3'd4;
  reg  [2:0]  state_q;
  reg  [1:0]  rstep_q;               // range check step: A, B, C
  reg  [3:0]  stop_code_q;
  wire        run = (state_q == S_RUN);
  wire        dma_err = dma_err_i && run;

  wire [19:0] row_c = j_raw ? {2'd0, j_n, 2'b00} : {4'd0, j_n};   // bytes of a C row
  wire        misaligned = (!j_conv && (j_b[1:0] != 2'd0 || j_ldb[1:0] != 2'd0 || j_ldb < {4'd0, j_n})) ||
                           (j_raw && (j_c[1:0] != 2'd0 || j_ldc[1:0] != 2'd0)) ||
                           (j_bias_en && j_bias[1:0] != 2'd0) ||
                           (j_perch && (j_mult_addr[1:0] != 2'd0 || j_shift_addr[1:0] != 2'd0)) ||
                           (j_lda < {4'd0, j_k}) || (j_ldc < row_c) || res_misaligned;
  wire        bad_rows = j_rowp && ({1'b0, j_m} > ROWS_MAX);
  wire        bad_geom = j_conv && (cv_h == 16'd0 || cv_w == 16'd0 || cv_ow == 16'd0 || cv_kh == 8'd0 ||
                                    cv_kw == 8'd0 || cv_sh == 8'd0 || cv_sw == 8'd0);
  wire signed [7:0] shift_s = j_shift;
  function automatic shift_ok(input [7:0] sh);
    shift_ok = $signed(sh) >= -8'sd31 && $signed(sh) <= 8'sd30;
  endfunction
  // CFG.RES_ADD (ctnn::ref::valid(add_s8_params)): the inputs' shifts in [-31, 0], the output's
  // in [-31, 30], a left shift of at most 22
  wire        bad_res_shift = j_res && (!shift_ok(j_res_shift[7:0]) || $signed(j_res_shift[7:0]) > 8'sd0 ||
                                        !shift_ok(j_res_shift[15:8]) || $signed(j_res_shift[15:8]) > 8'sd0 ||
                                        !shift_ok(j_res_shift[23:16]) || j_res_zp[28:24] > 5'd22);
  wire        bad_shift = (!j_perch && (shift_s < -8'sd31 || shift_s > 8'sd30)) || bad_res_shift;
  // the residual is read as C is written: by words (aligned like C) unless C is written by bytes
  wire        res_misaligned = j_res && !c_byte && (j_res_addr[1:0] != 2'd0);

  // one multiplier for the three extents: (rows - 1) * stride + row bytes
  reg  [15:0] ext_rows;
  reg  [19:0] ext_ld;
  reg  [31:0] ext_base;
  reg  [19:0] ext_row;
  always @(*) begin
    case (rstep_q)
      2'd0: begin ext_rows = j_m - 16'd1; ext_ld = j_lda; ext_base = j_a; ext_row = {4'd0, j_k}; end
      2'd1: begin ext_rows = j_k - 16'd1; ext_ld = j_ldb; ext_base = j_b; ext_row = {4'd0, j_n}; end
      2'd3: begin ext_rows = j_m - 16'd1; ext_ld = j_ldc; ext_base = j_res_addr; ext_row = row_c; end
      default: begin ext_rows = j_m - 16'd1; ext_ld = j_ldc; ext_base = j_c; ext_row = row_c; end
    endcase
  end
  wire [35:0] ext_prod = ext_rows * ext_ld;
  wire [36:0] ram_end = {5'd0, RamBase} + {5'd0, RamSize};
  function automatic in_ram(input [31:0] base, input [36:0] bytes);
    in_ram = (base >= RamBase) && ({5'd0, base} + bytes <= ram_end);
  endfunction
  wire [36:0] vec_bytes = {19'd0, (j_rowp || j_dw) ? j_m : j_n, 2'b00};
  // CFG.CONV: the gathered B addresses are checked one by one; B_ADDR itself is read for padding
  wire        ext_ok = (rstep_q == 2'd1 && j_conv) ? in_ram(j_b, 37'd1)
                                                  : in_ram(ext_base, {1'd0, ext_prod} + {17'd0, ext_row});
  wire        vec_ok = (!j_bias_en || in_ram(j_bias, vec_bytes)) &&
                       (!j_perch || (in_ram(j_mult_addr, vec_bytes) && in_ram(j_shift_addr, vec_bytes)));

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      rstep_q <= 2'd0;
      stop_code_q <= CTNN_ACCEL_ERR_CAUSE_CODE_NONE;
      busy_q <= 1'b0;
      done_set_q <= 1'b0;
      err_set_q <= 1'b0;
      err_code_q <= CTNN_ACCEL_ERR_CAUSE_CODE_NONE;
      cycles_q <= 32'd0;
      macs_q <= 32'd0;
      j_cfg <= 10'd0; j_pool_addr <= 32'd0; j_m <= 16'd0; j_n <= 16'd0; j_k <= 16'd0;
      j_a <= 32'd0; j_b <= 32'd0; j_c <= 32'd0; j_bias <= 32'd0;
      j_mult_addr <= 32'd0; j_shift_addr <= 32'd0; j_mult <= 32'd0;
      j_lda <= 20'd0; j_ldb <= 20'd0; j_ldc <= 20'd0;
      j_zp <= 24'd0; j_clamp <= 16'd0; j_shift <= 8'd0;
      j_cv_in <= 32'd0; j_cv_kernel <= 32'd0; j_cv_out <= 32'd0; j_cv_cstride <= 24'd0;
      j_res_addr <= 32'd0; j_res_zp <= 29'd0; j_res_clamp <= 16'd0;
      j_res_mult_y <= 32'd0; j_res_mult_r <= 32'd0; j_res_mult_out <= 32'd0; j_res_shift <= 24'd0;
    end else begin
      done_set_q <= 1'b0;
      err_set_q <= 1'b0;
      if (busy_q) cycles_q <= cycles_q + 32'd1;
      if (mac_add_i) macs_q <= macs_q + mac_inc_i;
      case (state_q)
        S_IDLE: if (start_i) begin
          state_q <= S_CHECK;
          busy_q <= 1'b1;
          cycles_q <= 32'd0;
          macs_q <= 32'd0;
          j_cfg <= cfg_i; j_pool_addr <= pool_addr_i; j_m <= m_i; j_n <= n_i; j_k <= k_i;
          j_a <= a_addr_i; j_b <= b_addr_i; j_c <= c_addr_i; j_bias <= bias_addr_i;
          j_mult_addr <= mult_addr_i; j_shift_addr <= shift_addr_i; j_mult <= mult_i;
          j_lda <= lda_i; j_ldb <= ldb_i; j_ldc <= ldc_i;
          j_zp <= zp_i; j_clamp <= clamp_i; j_shift <= shift_i;
          j_cv_in <= conv_in_i; j_cv_kernel <= conv_kernel_i; j_cv_out <= conv_out_i;
          j_cv_cstride <= conv_cstride_i;
          j_res_addr <= res_addr_i; j_res_zp <= res_zp_i; j_res_clamp <= res_clamp_i;
          j_res_mult_y <= res_mult_y_i; j_res_mult_r <= res_mult_r_i; j_res_mult_out <= res_mult_out_i;
          j_res_shift <= res_shift_i;
        end
        S_CHECK: begin
          rstep_q <= 2'd0;
          if (start_i) begin stop_code_q <= E_BUSY; state_q <= S_STOP; end
          else if (j_m == 16'd0 || j_n == 16'd0 || j_k == 16'd0) begin stop_code_q <= E_ZERO; state_q <= S_STOP; end
          else if ({1'b0, j_k} > (17'd1 << Log2KMax)) begin stop_code_q <= E_KBIG; state_q <= S_STOP; end
          else if (j_res && j_raw) begin stop_code_q <= E_RESRAW; state_q <= S_STOP; end
          else if (bad_pool) begin stop_code_q <= E_POOL; state_q <= S_STOP; end
          else if (bad_dw) begin stop_code_q <= E_DW; state_q <= S_STOP; end
          else if (misaligned) begin stop_code_q <= E_ALIGN; state_q <= S_STOP; end
          else if (bad_shift) begin stop_code_q <= E_SHIFT; state_q <= S_STOP; end
          else if (bad_rows) begin stop_code_q <= E_ROWS; state_q <= S_STOP; end
          else if (bad_geom) begin stop_code_q <= E_GEOM; state_q <= S_STOP; end
          else if (!vec_ok) begin stop_code_q <= E_RANGE; state_q <= S_STOP; end
          else state_q <= S_RANGE;
        end
        S_RANGE: begin
          if (start_i) begin stop_code_q <= E_BUSY; state_q <= S_STOP; end
          else if (!ext_ok) begin stop_code_q <= E_RANGE; state_q <= S_STOP; end
          else if (rstep_q == 2'd3 || (rstep_q == 2'd2 && !j_res)) state_q <= S_RUN;
          else rstep_q <= rstep_q + 2'd1;
        end
        S_RUN: begin
          if (start_i) begin stop_code_q <= E_BUSY; state_q <= S_STOP; end
          else if (dma_err) begin stop_code_q <= E_BUS; state_q <= S_STOP; end
          else if (shift_err_i) begin stop_code_q <= E_SHIFT; state_q <= S_STOP; end
          else if (range_err_i) begin stop_code_q <= E_RANGE; state_q <= S_STOP; end
          else if (feed_done_i && store_idle_i && dma_idle_i) begin
            state_q <= S_IDLE;
            busy_q <= 1'b0;
            done_set_q <= 1'b1;
          end
        end
        default: begin  // S_STOP: units are cleared; let the DMA finish what it offered
          if (start_i && stop_code_q != E_BUSY) stop_code_q <= E_BUSY;
          if (dma_idle_i) begin
            state_q <= S_IDLE;
            busy_q <= 1'b0;
            err_set_q <= 1'b1;
            err_code_q <= stop_code_q;
          end
        end
      endcase
    end
  end

  assign busy_o     = busy_q;
  assign done_set_o = done_set_q;
  assign err_set_o  = err_set_q;
  assign err_code_o = err_code_q;
  assign cycles_o   = cycles_q;
  assign macs_o     = macs_q;
  assign run_o      = run;

  assign job_m_o           = j_m;
  assign job_n_o           = j_n;
  assign job_k_o           = j_k;
  assign job_kp_o          = kp;
  assign job_a_addr_o      = j_a;
  assign job_b_addr_o      = j_b;
  assign job_c_addr_o      = j_c;
  assign job_bias_addr_o   = j_bias;
  assign job_mult_addr_o   = j_mult_addr;
  assign job_shift_addr_o  = j_shift_addr;
  assign job_lda_o         = j_lda;
  assign job_ldb_o         = j_ldb;
  assign job_ldc_o         = j_ldc;
  assign job_dim_lda_o     = dim_lda;
  assign job_dim_ldc_o     = dim_ldc;
  assign job_c_byte_o      = c_byte;
  assign job_raw_o         = j_raw;
  assign job_bias_en_o     = j_bias_en;
  assign job_per_channel_o = j_perch;
  assign job_conv_o        = j_conv;
  assign job_row_params_o  = j_rowp;
  assign job_a_zp_o        = j_zp[7:0];
  assign job_b_zp_o        = j_zp[15:8];
  assign job_out_zp_o      = j_zp[23:16];
  assign job_lo_o          = lo;
  assign job_hi_o          = j_clamp[15:8];
  assign job_mult_o        = j_mult;
  assign job_shift_o       = j_shift;
  assign job_cv_h_o        = cv_h;
  assign job_cv_w_o        = cv_w;
  assign job_cv_cstride_o  = j_cv_cstride;
  assign job_cv_kh_o       = cv_kh;
  assign job_cv_kw_o       = cv_kw;
  assign job_cv_sh_o       = cv_sh;
  assign job_cv_sw_o       = cv_sw;
  assign job_cv_ow_o       = cv_ow;
  assign job_cv_pt_o       = cv_pt;
  assign job_cv_pl_o       = cv_pl;
  assign job_cv_shw_o      = cv_shw;
  assign job_cv_ptw_o      = cv_ptw;
  assign job_res_o         = j_res;
  assign job_res_addr_o    = j_res_addr;
  assign job_res_zp_o      = j_res_zp;
  assign job_res_clamp_o   = j_res_clamp;
  assign job_res_mult_y_o  = j_res_mult_y;
  assign job_res_mult_r_o  = j_res_mult_r;
  assign job_res_mult_out_o = j_res_mult_out;
  assign job_res_shift_o   = j_res_shift;
  assign job_pool_o        = j_pool;
  assign job_pool_addr_o   = j_pool_addr;
  assign job_dw_o          = j_dw;
  assign job_mv_o          = mv;
endmodule

`default_nettype wire
