// ctnn GEMM accelerator: C[MxN] = requant(A[MxK] . B[KxN] + bias), int8 in, int8 or int32 out.
// A ctnn-bus slave (registers, fpga/regs/ctnn.toml) and a ctnn-bus master (DMA), an interrupt.
//
//        s_* (MMIO) --> regs --> job control (checks, run/abort, counters) --> irq_o
//                                  |
//   m_* (DMA) <--> ctnn_dma <--+-- load (A panels, B blocks + params) --> A/B scratchpads
//                              |                                            | feed (skew)
//                              +-- store (FIFO, requant, C writes) <-- mesh (DIM x DIM PEs)
//
// Bad use is detected before or during the job and stops it cleanly with STATUS.ERROR and a
// cause in ERR_CAUSE: 1 zero size, 2 start while busy, 3 DMA range outside RAM, 4 unaligned
// address or stride (or a stride shorter than a row), 5 bus error response, 6 K above 2^Log2KMax,
// 7 shift outside [-31, 30], 8 row parameters for more than 2 x NB rows, 9 a convolution
// geometry with a zero. Dim is any value from 4 to 16; when it is not a multiple of 4 the B
// rows are read one byte per request and int8 C is written one byte per column (the tiles'
// columns do not start on bus words), so such arrays are correct but slower per PE.
//
// CFG.CONV makes B the implicit im2col of a CHW tensor (ctnn_accel_load gathers it byte by byte),
// so a convolution is one job: A = OIHW weights (M = out channels), C = the CHW output, with
// CFG.ROW_PARAMS for per-output-channel bias and requantization. A may have any alignment
// (byte reads), and an int8 C too (byte writes).
`default_nettype none

module ctnn_accel #(
  parameter integer Dim      = 8,
  parameter integer TileDim  = 1,           // PEs per tile side (combinational inside a tile)
  parameter integer NbTiles  = 8,           // B block = NbTiles * Dim columns, a power of two
  parameter integer Log2KMax = 12,          // largest K = 2^Log2KMax
  parameter [31:0]  RamBase  = 32'h8000_0000,
  parameter [31:0]  RamSize  = 32'h0010_0000
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // MMIO slave
  input  wire        s_req_valid_i,
  output wire        s_req_ready_o,
  input  wire [31:0] s_req_addr_i,
  input  wire        s_req_we_i,
  input  wire [31:0] s_req_wdata_i,
  input  wire [3:0]  s_req_wstrb_i,
  output wire        s_rsp_valid_o,
  output wire [31:0] s_rsp_rdata_o,
  output wire        s_rsp_err_o,
  // DMA master
  output wire        m_req_valid_o,
  input  wire        m_req_ready_i,
  output wire [31:0] m_req_addr_o,
  output wire        m_req_we_o,
  output wire [31:0] m_req_wdata_o,
  output wire [3:0]  m_req_wstrb_o,
  input  wire        m_rsp_valid_i,
  input  wire [31:0] m_rsp_rdata_i,
  input  wire        m_rsp_err_i,
  output wire        irq_o
);
  localparam integer TILES = Dim / TileDim;
  localparam integer NB = NbTiles * Dim;
  localparam integer KMIN = 2 * TILES + Dim;
  localparam [15:0] KMIN16 = KMIN[15:0];
  localparam integer TB = $clog2(NbTiles);
  localparam integer ADEPTH = 1 << (Log2KMax - 1);             // 2 slots x KMax/4 words
  localparam integer BDEPTH = 1 << (Log2KMax + TB + 1);        // 2 slots x NbTiles x KMax
  // ERR_CAUSE codes: the field's named values in fpga/regs/ctnn.toml
  `include "ctnn_accel_values.vh"
  localparam [3:0] E_ZERO = CTNN_ACCEL_ERR_CAUSE_CODE_ZERO_SIZE, E_BUSY = CTNN_ACCEL_ERR_CAUSE_CODE_START_BUSY,
                   E_RANGE = CTNN_ACCEL_ERR_CAUSE_CODE_ADDR_RANGE, E_ALIGN = CTNN_ACCEL_ERR_CAUSE_CODE_ALIGN,
                   E_BUS = CTNN_ACCEL_ERR_CAUSE_CODE_BUS_ERR, E_KBIG = CTNN_ACCEL_ERR_CAUSE_CODE_K_TOO_BIG,
                   E_SHIFT = CTNN_ACCEL_ERR_CAUSE_CODE_BAD_SHIFT, E_ROWS = CTNN_ACCEL_ERR_CAUSE_CODE_ROWS,
                   E_GEOM = CTNN_ACCEL_ERR_CAUSE_CODE_CONV_GEOM;
  localparam integer ROWS_MAX_I = 2 * NB;
  localparam [16:0] ROWS_MAX = ROWS_MAX_I[16:0];
  localparam integer DQ = (Dim + 3) / 4;             // B scratchpad banks (4 columns each) per tile
  localparam [31:0] DIM32 = Dim;

  // Verilog-2005 has no static_assert: an impossible configuration leaves a port unconnected
  // by making this generate block instantiate a module that does not exist.
  generate
    if (Dim < 4 || Dim > 16 || Dim % TileDim != 0 ||
        (NbTiles & (NbTiles - 1)) != 0 || KMIN > (1 << Log2KMax) || Log2KMax > 14 ||
        Log2KMax < 4 || Log2KMax + TB > 16) begin : g_bad_parameters
      ctnn_accel_unsupported_parameters u_bad ();
    end
  endgenerate

  // ---- registers ---------------------------------------------------------------------------
  wire        start;
  wire [5:0]  cfg;
  wire [15:0] r_m, r_n, r_k;
  wire [31:0] r_a, r_b, r_c, r_bias, r_mult_addr, r_shift_addr, r_mult;
  wire [19:0] r_lda, r_ldb, r_ldc;
  wire [23:0] r_zp;
  wire [15:0] r_clamp;
  wire [7:0]  r_shift;
  wire [31:0] r_cv_in, r_cv_kernel, r_cv_out;
  wire [23:0] r_cv_cstride;
  reg         busy_q, done_set_q, err_set_q;
  reg  [3:0]  err_code_q;
  reg  [31:0] cycles_q, macs_q;

  ctnn_accel_regs #(.Dim(Dim), .NbTiles(NbTiles), .Log2KMax(Log2KMax)) u_regs (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (s_req_valid_i),
    .req_ready_o (s_req_ready_o),
    .req_addr_i  (s_req_addr_i),
    .req_we_i    (s_req_we_i),
    .req_wdata_i (s_req_wdata_i),
    .req_wstrb_i (s_req_wstrb_i),
    .rsp_valid_o (s_rsp_valid_o),
    .rsp_rdata_o (s_rsp_rdata_o),
    .rsp_err_o   (s_rsp_err_o),
    .start_o     (start),
    .cfg_o       (cfg),
    .m_o         (r_m),
    .n_o         (r_n),
    .k_o         (r_k),
    .a_addr_o    (r_a),
    .b_addr_o    (r_b),
    .c_addr_o    (r_c),
    .bias_addr_o (r_bias),
    .mult_addr_o (r_mult_addr),
    .shift_addr_o(r_shift_addr),
    .lda_o       (r_lda),
    .ldb_o       (r_ldb),
    .ldc_o       (r_ldc),
    .zp_o        (r_zp),
    .clamp_o     (r_clamp),
    .mult_o      (r_mult),
    .shift_o     (r_shift),
    .conv_in_o   (r_cv_in),
    .conv_cstride_o(r_cv_cstride),
    .conv_kernel_o(r_cv_kernel),
    .conv_out_o  (r_cv_out),
    .busy_i      (busy_q),
    .done_set_i  (done_set_q),
    .err_set_i   (err_set_q),
    .err_code_i  (err_code_q),
    .cycles_i    (cycles_q),
    .macs_i      (macs_q),
    .irq_o       (irq_o)
  );

  // ---- job snapshot (registers may change while a job runs) ----------------------------------
  reg  [5:0]  j_cfg;
  reg  [15:0] j_m, j_n, j_k;
  reg  [31:0] j_a, j_b, j_c, j_bias, j_mult_addr, j_shift_addr, j_mult;
  reg  [19:0] j_lda, j_ldb, j_ldc;
  reg  [23:0] j_zp;
  reg  [15:0] j_clamp;
  reg  [7:0]  j_shift;
  reg  [31:0] j_cv_in, j_cv_kernel, j_cv_out;
  reg  [23:0] j_cv_cstride;
  wire        j_raw = j_cfg[0], j_relu = j_cfg[1], j_perch = j_cfg[2], j_bias_en = j_cfg[3];
  wire        j_conv = j_cfg[4], j_rowp = j_cfg[5];
  wire [15:0] cv_h = j_cv_in[15:0], cv_w = j_cv_in[31:16], cv_ow = j_cv_out[15:0];
  wire [7:0]  cv_kh = j_cv_kernel[7:0], cv_kw = j_cv_kernel[15:8];
  wire [7:0]  cv_sh = j_cv_kernel[23:16], cv_sw = j_cv_kernel[31:24];
  wire [7:0]  cv_pt = j_cv_out[23:16], cv_pl = j_cv_out[31:24];
  wire [23:0] cv_shw24 = cv_sh * cv_w;
  wire [23:0] cv_ptw24 = cv_pt * cv_w;
  wire [31:0] cv_shw = {8'd0, cv_shw24}, cv_ptw = {8'd0, cv_ptw24};
  // byte-granular A (any alignment) and int8 C (unaligned address or stride)
  wire        a_byte = (j_a[1:0] != 2'd0) || (j_lda[1:0] != 2'd0);
  wire        c_byte = !j_raw && ((j_c[1:0] != 2'd0) || (j_ldc[1:0] != 2'd0) || (Dim % 4 != 0));

  wire [15:0] kp = (j_k > KMIN16) ? j_k : KMIN16;
  wire [31:0] dim_lda = {12'd0, j_lda} * DIM32;   // below 2^20 * 16
  wire [31:0] dim_ldc = {12'd0, j_ldc} * DIM32;
  wire signed [7:0] act_min = j_clamp[7:0];
  wire signed [7:0] out_zp = j_zp[23:16];
  wire [7:0]  lo = (j_relu && out_zp > act_min) ? out_zp : act_min;

  wire              push, push_pslot, push_plast, pop, mac_add;
  wire [15:0]       push_row, push_col0, push_coloff;
  wire [31:0]       push_caddr, mac_inc;

  // ---- job control -------------------------------------------------------------------------
  localparam [2:0] S_IDLE = 3'd0, S_CHECK = 3'd1, S_RANGE = 3'd2, S_RUN = 3'd3, S_STOP = 3'd4;
  reg  [2:0]  state_q;
  reg  [1:0]  rstep_q;               // range check step: A, B, C
  reg  [3:0]  stop_code_q;
  wire        run = (state_q == S_RUN);
  wire        dma_idle, feed_done, store_idle, dma_err, shift_err, gather_range_err;

  wire [19:0] row_c = j_raw ? {2'd0, j_n, 2'b00} : {4'd0, j_n};   // bytes of a C row
  wire        misaligned = (!j_conv && (j_b[1:0] != 2'd0 || j_ldb[1:0] != 2'd0 || j_ldb < {4'd0, j_n})) ||
                           (j_raw && (j_c[1:0] != 2'd0 || j_ldc[1:0] != 2'd0)) ||
                           (j_bias_en && j_bias[1:0] != 2'd0) ||
                           (j_perch && (j_mult_addr[1:0] != 2'd0 || j_shift_addr[1:0] != 2'd0)) ||
                           (j_lda < {4'd0, j_k}) || (j_ldc < row_c);
  wire        bad_rows = j_rowp && ({1'b0, j_m} > ROWS_MAX);
  wire        bad_geom = j_conv && (cv_h == 16'd0 || cv_w == 16'd0 || cv_ow == 16'd0 || cv_kh == 8'd0 ||
                                    cv_kw == 8'd0 || cv_sh == 8'd0 || cv_sw == 8'd0);
  wire signed [7:0] shift_s = j_shift;
  wire        bad_shift = !j_perch && (shift_s < -8'sd31 || shift_s > 8'sd30);

  // one multiplier for the three extents: (rows - 1) * stride + row bytes
  reg  [15:0] ext_rows;
  reg  [19:0] ext_ld;
  reg  [31:0] ext_base;
  reg  [19:0] ext_row;
  always @(*) begin
    case (rstep_q)
      2'd0: begin ext_rows = j_m - 16'd1; ext_ld = j_lda; ext_base = j_a; ext_row = {4'd0, j_k}; end
      2'd1: begin ext_rows = j_k - 16'd1; ext_ld = j_ldb; ext_base = j_b; ext_row = {4'd0, j_n}; end
      default: begin ext_rows = j_m - 16'd1; ext_ld = j_ldc; ext_base = j_c; ext_row = row_c; end
    endcase
  end
  wire [35:0] ext_prod = ext_rows * ext_ld;
  wire [36:0] ram_end = {5'd0, RamBase} + {5'd0, RamSize};
  function automatic in_ram(input [31:0] base, input [36:0] bytes);
    in_ram = (base >= RamBase) && ({5'd0, base} + bytes <= ram_end);
  endfunction
  wire [36:0] vec_bytes = {19'd0, j_rowp ? j_m : j_n, 2'b00};
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
      j_cfg <= 6'd0; j_m <= 16'd0; j_n <= 16'd0; j_k <= 16'd0;
      j_a <= 32'd0; j_b <= 32'd0; j_c <= 32'd0; j_bias <= 32'd0;
      j_mult_addr <= 32'd0; j_shift_addr <= 32'd0; j_mult <= 32'd0;
      j_lda <= 20'd0; j_ldb <= 20'd0; j_ldc <= 20'd0;
      j_zp <= 24'd0; j_clamp <= 16'd0; j_shift <= 8'd0;
      j_cv_in <= 32'd0; j_cv_kernel <= 32'd0; j_cv_out <= 32'd0; j_cv_cstride <= 24'd0;
    end else begin
      done_set_q <= 1'b0;
      err_set_q <= 1'b0;
      if (busy_q) cycles_q <= cycles_q + 32'd1;
      if (mac_add) macs_q <= macs_q + mac_inc;
      case (state_q)
        S_IDLE: if (start) begin
          state_q <= S_CHECK;
          busy_q <= 1'b1;
          cycles_q <= 32'd0;
          macs_q <= 32'd0;
          j_cfg <= cfg; j_m <= r_m; j_n <= r_n; j_k <= r_k;
          j_a <= r_a; j_b <= r_b; j_c <= r_c; j_bias <= r_bias;
          j_mult_addr <= r_mult_addr; j_shift_addr <= r_shift_addr; j_mult <= r_mult;
          j_lda <= r_lda; j_ldb <= r_ldb; j_ldc <= r_ldc;
          j_zp <= r_zp; j_clamp <= r_clamp; j_shift <= r_shift;
          j_cv_in <= r_cv_in; j_cv_kernel <= r_cv_kernel; j_cv_out <= r_cv_out;
          j_cv_cstride <= r_cv_cstride;
        end
        S_CHECK: begin
          rstep_q <= 2'd0;
          if (start) begin stop_code_q <= E_BUSY; state_q <= S_STOP; end
          else if (j_m == 16'd0 || j_n == 16'd0 || j_k == 16'd0) begin stop_code_q <= E_ZERO; state_q <= S_STOP; end
          else if ({1'b0, j_k} > (17'd1 << Log2KMax)) begin stop_code_q <= E_KBIG; state_q <= S_STOP; end
          else if (misaligned) begin stop_code_q <= E_ALIGN; state_q <= S_STOP; end
          else if (bad_shift) begin stop_code_q <= E_SHIFT; state_q <= S_STOP; end
          else if (bad_rows) begin stop_code_q <= E_ROWS; state_q <= S_STOP; end
          else if (bad_geom) begin stop_code_q <= E_GEOM; state_q <= S_STOP; end
          else if (!vec_ok) begin stop_code_q <= E_RANGE; state_q <= S_STOP; end
          else state_q <= S_RANGE;
        end
        S_RANGE: begin
          if (start) begin stop_code_q <= E_BUSY; state_q <= S_STOP; end
          else if (!ext_ok) begin stop_code_q <= E_RANGE; state_q <= S_STOP; end
          else if (rstep_q == 2'd2) state_q <= S_RUN;
          else rstep_q <= rstep_q + 2'd1;
        end
        S_RUN: begin
          if (start) begin stop_code_q <= E_BUSY; state_q <= S_STOP; end
          else if (dma_err) begin stop_code_q <= E_BUS; state_q <= S_STOP; end
          else if (shift_err) begin stop_code_q <= E_SHIFT; state_q <= S_STOP; end
          else if (gather_range_err) begin stop_code_q <= E_RANGE; state_q <= S_STOP; end
          else if (feed_done && store_idle && dma_idle) begin
            state_q <= S_IDLE;
            busy_q <= 1'b0;
            done_set_q <= 1'b1;
          end
        end
        default: begin  // S_STOP: units are cleared; let the DMA finish what it offered
          if (start && stop_code_q != E_BUSY) stop_code_q <= E_BUSY;
          if (dma_idle) begin
            state_q <= S_IDLE;
            busy_q <= 1'b0;
            err_set_q <= 1'b1;
            err_code_q <= stop_code_q;
          end
        end
      endcase
    end
  end

  // ---- DMA -----------------------------------------------------------------------------------
  wire        w_valid, a_valid, b_valid;
  wire [31:0] w_addr, w_data, a_req_addr, b_req_addr, a_tag, b_tag;
  wire [3:0]  w_strb;
  wire [2:0]  grant;
  wire        r_valid, r_err;
  wire [1:0]  r_stream;
  wire [31:0] r_tag, r_rdata;

  ctnn_dma #(.TagWidth(32)) u_dma (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .stop_i      (!run),
    .s_valid_i   ({b_valid, a_valid, w_valid}),
    .s_addr_i    ({b_req_addr, a_req_addr, w_addr}),
    .s_we_i      (3'b001),
    .s_wdata_i   ({32'd0, 32'd0, w_data}),
    .s_wstrb_i   ({4'd0, 4'd0, w_strb}),
    .s_tag_i     ({b_tag, a_tag, 32'd0}),
    .s_grant_o   (grant),
    .r_valid_o   (r_valid),
    .r_stream_o  (r_stream),
    .r_tag_o     (r_tag),
    .r_rdata_o   (r_rdata),
    .r_err_o     (r_err),
    .idle_o      (dma_idle),
    .req_valid_o (m_req_valid_o),
    .req_ready_i (m_req_ready_i),
    .req_addr_o  (m_req_addr_o),
    .req_we_o    (m_req_we_o),
    .req_wdata_o (m_req_wdata_o),
    .req_wstrb_o (m_req_wstrb_o),
    .rsp_valid_i (m_rsp_valid_i),
    .rsp_rdata_i (m_rsp_rdata_i),
    .rsp_err_i   (m_rsp_err_i)
  );
  assign dma_err = r_err && run;

  // ---- load -> scratchpads -------------------------------------------------------------------
  wire [1:0]  a_full, b_full, a_free, b_free, p_free;
  wire [Dim-1:0]   a_we;
  wire [Log2KMax-2:0] a_waddr;
  wire [DQ-1:0]    b_we;
  wire [Log2KMax+TB:0] b_waddr;
  wire [31:0] spad_wdata;
  wire [3:0]  p_we;
  wire [1:0]  p_kind;
  wire [$clog2((NB+3)/4):0] p_waddr;

  ctnn_accel_load #(.Dim(Dim), .NbTiles(NbTiles), .Log2KMax(Log2KMax), .RamBase(RamBase),
                    .RamSize(RamSize)) u_load (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .run_i        (run),
    .m_i          (j_m),
    .n_i          (j_n),
    .k_i          (j_k),
    .a_addr_i     (j_a),
    .b_addr_i     (j_b),
    .bias_addr_i  (j_bias),
    .mult_addr_i  (j_mult_addr),
    .shift_addr_i (j_shift_addr),
    .lda_i        (j_lda),
    .ldb_i        (j_ldb),
    .bias_en_i    (j_bias_en),
    .per_channel_i(j_perch),
    .dim_lda_i    (dim_lda),
    .a_byte_i     (a_byte),
    .conv_i       (j_conv),
    .row_params_i (j_rowp),
    .b_zp_i       (j_zp[15:8]),
    .cv_h_i       (cv_h),
    .cv_w_i       (cv_w),
    .cv_cstride_i (j_cv_cstride),
    .cv_kh_i      (cv_kh),
    .cv_kw_i      (cv_kw),
    .cv_sh_i      (cv_sh),
    .cv_sw_i      (cv_sw),
    .cv_ow_i      (cv_ow),
    .cv_pt_i      (cv_pt),
    .cv_pl_i      (cv_pl),
    .cv_shw_i     (cv_shw),
    .cv_ptw_i     (cv_ptw),
    .range_err_o  (gather_range_err),
    .a_free_i     (a_free),
    .b_free_i     (b_free),
    .p_free_i     (p_free),
    .a_full_o     (a_full),
    .b_full_o     (b_full),
    .a_valid_o    (a_valid),
    .a_req_addr_o (a_req_addr),
    .a_tag_o      (a_tag),
    .a_grant_i    (grant[1]),
    .b_valid_o    (b_valid),
    .b_req_addr_o (b_req_addr),
    .b_tag_o      (b_tag),
    .b_grant_i    (grant[2]),
    .r_valid_i    (r_valid),
    .r_stream_i   (r_stream),
    .r_tag_i      (r_tag),
    .r_rdata_i    (r_rdata),
    .a_we_o       (a_we),
    .a_waddr_o    (a_waddr),
    .b_we_o       (b_we),
    .b_waddr_o    (b_waddr),
    .wdata_o      (spad_wdata),
    .p_we_o       (p_we),
    .p_kind_o     (p_kind),
    .p_waddr_o    (p_waddr),
    .shift_err_o  (shift_err)
  );

  wire                 rd;
  wire [Log2KMax-2:0]  a_raddr;
  wire [Log2KMax+TB:0] b_raddr;
  wire [Dim*32-1:0]    a_rdata;
  wire [DQ*32-1:0]    b_rdata;

  genvar gi;
  generate
    for (gi = 0; gi < Dim; gi = gi + 1) begin : g_aspad
      ctnn_accel_spad #(.Width(32), .Depth(ADEPTH)) u_a (
        .clk_i(clk_i), .we_i(a_we[gi]), .waddr_i(a_waddr), .wdata_i(spad_wdata),
        .re_i(rd), .raddr_i(a_raddr), .rdata_o(a_rdata[32*gi +: 32]));
    end
    for (gi = 0; gi < DQ; gi = gi + 1) begin : g_bspad
      ctnn_accel_spad #(.Width(32), .Depth(BDEPTH)) u_b (
        .clk_i(clk_i), .we_i(b_we[gi]), .waddr_i(b_waddr), .wdata_i(spad_wdata),
        .re_i(rd), .raddr_i(b_raddr), .rdata_o(b_rdata[32*gi +: 32]));
    end
  endgenerate

  // ---- feed -> mesh -> store -----------------------------------------------------------------
  wire [Dim*9-1:0]  mesh_a, mesh_b;
  wire [Dim-1:0]    mesh_first;
  wire              mesh_shift;
  wire [Dim*32-1:0] mesh_res;

  ctnn_accel_feed #(.Dim(Dim), .TileDim(TileDim), .NbTiles(NbTiles), .Log2KMax(Log2KMax)) u_feed (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .run_i        (run),
    .m_i          (j_m),
    .n_i          (j_n),
    .k_i          (j_k),
    .kp_i         (kp),
    .a_zp_i       (j_zp[7:0]),
    .b_zp_i       (j_zp[15:8]),
    .c_addr_i     (j_c),
    .dim_ldc_i    (dim_ldc),
    .ldc_i        (j_ldc),
    .a_full_i     (a_full),
    .b_full_i     (b_full),
    .a_free_o     (a_free),
    .b_free_o     (b_free),
    .rd_o         (rd),
    .a_raddr_o    (a_raddr),
    .a_rdata_i    (a_rdata),
    .b_raddr_o    (b_raddr),
    .b_rdata_i    (b_rdata[Dim*8-1:0]),
    .mesh_a_o     (mesh_a),
    .mesh_b_o     (mesh_b),
    .mesh_first_o (mesh_first),
    .mesh_shift_o (mesh_shift),
    .push_o       (push),
    .push_row_o   (push_row),
    .push_caddr_o (push_caddr),
    .push_col0_o  (push_col0),
    .push_coloff_o(push_coloff),
    .push_pslot_o (push_pslot),
    .push_plast_o (push_plast),
    .pop_i        (pop),
    .mac_add_o    (mac_add),
    .mac_inc_o    (mac_inc),
    .done_o       (feed_done)
  );

  ctnn_mesh #(.Dim(Dim), .TileDim(TileDim)) u_mesh (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .a_i    (mesh_a),
    .b_i    (mesh_b),
    .first_i(mesh_first),
    .shift_i(mesh_shift),
    .res_o  (mesh_res)
  );

  ctnn_accel_store #(.Dim(Dim), .NbTiles(NbTiles)) u_store (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .run_i        (run),
    .m_i          (j_m),
    .n_i          (j_n),
    .raw_i        (j_raw),
    .c_byte_i     (c_byte),
    .row_params_i (j_rowp),
    .bias_en_i    (j_bias_en),
    .per_channel_i(j_perch),
    .mult_i       (j_mult),
    .shift_i      (j_shift),
    .out_zp_i     (j_zp[23:16]),
    .lo_i         (lo),
    .hi_i         (j_clamp[15:8]),
    .push_i       (push),
    .push_data_i  (mesh_res),
    .push_row_i   (push_row),
    .push_caddr_i (push_caddr),
    .push_col0_i  (push_col0),
    .push_coloff_i(push_coloff),
    .push_pslot_i (push_pslot),
    .push_plast_i (push_plast),
    .pop_o        (pop),
    .p_free_o     (p_free),
    .p_we_i       (p_we),
    .p_kind_i     (p_kind),
    .p_waddr_i    (p_waddr),
    .p_wdata_i    (spad_wdata),
    .w_valid_o    (w_valid),
    .w_addr_o     (w_addr),
    .w_data_o     (w_data),
    .w_strb_o     (w_strb),
    .w_grant_i    (grant[0]),
    .idle_o       (store_idle)
  );
endmodule

`default_nettype wire
