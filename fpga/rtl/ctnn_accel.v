// ctnn GEMM accelerator: C[MxN] = requant(A[MxK] . B[KxN] + bias), int8 in, int8 or int32 out.
// A ctnn-bus slave (registers, fpga/regs/ctnn.toml) and a ctnn-bus master (DMA), an interrupt.
//
//        s_* (MMIO) --> regs <--> ctrl (job snapshot, checks, run/abort, counters); regs --> irq_o
//                                  |
//   m_* (DMA) <--> ctnn_dma <--+-- load (A panels, B blocks + params) --> A/B scratchpads
//                              |                                            | feed (skew)
//                              +-- store (FIFO, requant, C writes) <-- mesh (DIM x DIM PEs)
//                              +-- resadd (CFG.RES_ADD: residual reads, int8 add) <-- store
//                              +-- pool (CFG.POOL: reads C back, writes the 2x2 pooled tensor)
//                              +-- dw (CFG.DW: depthwise convolution, instead of load/feed/mesh/store)
//
// Bad use is detected before or during the job and stops it cleanly with STATUS.ERROR and a
// cause in ERR_CAUSE: 1 zero size, 2 start while busy, 3 DMA range outside RAM, 4 unaligned
// address or stride (or a stride shorter than a row), 5 bus error response, 6 K above 2^Log2KMax,
// 7 shift outside [-31, 30], 8 row parameters for more than 2 x NB rows, 9 a convolution
// geometry with a zero, 10 CFG.RES_ADD with an int32 C, 11 a bad CFG.POOL. Dim is any value from 4 to 16; when it is not a multiple of 4 the B
// rows are read one byte per request and int8 C is written one byte per column (the tiles'
// columns do not start on bus words), so such arrays are correct but slower per PE.
//
// CFG.CONV makes B the implicit im2col of a CHW tensor (ctnn_accel_load gathers it byte by byte),
// so a convolution is one job: A = OIHW weights (M = out channels), C = the CHW output, with
// CFG.ROW_PARAMS for per-output-channel bias and requantization. A may have any alignment
// (it is read as 16-byte lines and shifted into place), and an int8 C too (byte writes).
//
// CFG.RES_ADD adds an int8 residual R (at RES_ADDR, laid out as C) to the requantized int8
// result before it is written: C = ctnn::ref::add_s8_one(y, R) with the RES_* parameters, the
// residual read on a fourth DMA stream by ctnn_accel_resadd (cause 10 with an int32 C).
//
// CFG.POOL (max or average, 2x2 stride 2) pools the int8 CHW output of a CFG.CONV job: when C is
// written, ctnn_accel_pool reads it back on the fourth stream and writes the pooled tensor at
// POOL_ADDR (cause 11 with an int32 C, without CFG.CONV or with the reserved mode 3).
//
// CFG.DW (with CFG.CONV) runs a depthwise convolution of M channels in one job on ctnn_accel_dw
// (a line buffer and 4 x KH x KW MACs, one output word per cycle) while the array stays idle:
// it takes DMA streams 0, 1 and 2 (cause 12 for a job it cannot run).
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_accel #(
  parameter integer Dim      = 8,
  parameter integer TileDim  = 1,           // PEs per tile side (combinational inside a tile)
  parameter integer NbTiles  = 8,           // B block = NbTiles * Dim columns, a power of two
  parameter integer Log2KMax = 12,          // largest K = 2^Log2KMax
  parameter [31:0]  RamBase  = `CTNN_SOC_RAM_BASE,
  parameter [31:0]  RamSize  = `CTNN_SOC_RAM_SIZE
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
  // DMA master: 16-byte lines (BUS.md "The DMA's line port")
  output wire         m_req_valid_o,
  input  wire         m_req_ready_i,
  output wire [31:0]  m_req_addr_o,
  output wire         m_req_we_o,
  output wire [127:0] m_req_wdata_o,
  output wire [15:0]  m_req_wstrb_o,
  input  wire         m_rsp_valid_i,
  input  wire [127:0] m_rsp_rdata_i,
  input  wire        m_rsp_err_i,
  output wire        irq_o
);
  localparam integer TILES = Dim / TileDim;
  localparam integer NB = NbTiles * Dim;
  localparam integer KMIN = 2 * TILES + Dim;
  localparam integer TB = $clog2(NbTiles);
  localparam integer ADEPTH = 1 << (Log2KMax - 3);             // 2 slots x KMax/16 entries of 16 bytes
  localparam integer BDEPTH = 1 << (Log2KMax + 1);             // 2 slots x KMax, per bank
  localparam integer DQ = (Dim + 3) / 4;             // B scratchpad banks (4 columns each) per tile
  localparam integer DW_KMAX = 5;                    // CFG.DW: largest kernel side (DWCFG.KMAX)
  localparam integer DW_LINE = 256;                  // CFG.DW: largest input width (DWCFG.LINE)
  localparam integer DW_SMAX = 3;                    // CFG.DW: largest horizontal stride (DWCFG.SMAX)

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
  wire [9:0]  cfg;
  wire [15:0] r_m, r_n, r_k;
  wire [31:0] r_a, r_b, r_c, r_bias, r_mult_addr, r_shift_addr, r_mult;
  wire [19:0] r_lda, r_ldb, r_ldc;
  wire [23:0] r_zp;
  wire [15:0] r_clamp;
  wire [7:0]  r_shift;
  wire [31:0] r_cv_in, r_cv_kernel, r_cv_out;
  wire [31:0] r_res_addr, r_res_mult_y, r_res_mult_r, r_res_mult_out;
  wire [28:0] r_res_zp;
  wire [15:0] r_res_clamp;
  wire [23:0] r_res_shift;
  wire [31:0] r_pool_addr;
  wire [23:0] r_cv_cstride;
  wire        busy, done_set, err_set;
  wire [3:0]  err_code;
  wire [31:0] cycles, macs;

  ctnn_accel_regs #(.Dim(Dim), .NbTiles(NbTiles), .Log2KMax(Log2KMax), .DwKMax(DW_KMAX),
                    .DwLine(DW_LINE), .DwSMax(DW_SMAX)) u_regs (
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
    .res_addr_o  (r_res_addr),
    .res_zp_o    (r_res_zp),
    .res_clamp_o (r_res_clamp),
    .res_mult_y_o(r_res_mult_y),
    .res_mult_r_o(r_res_mult_r),
    .res_mult_out_o(r_res_mult_out),
    .res_shift_o (r_res_shift),
    .pool_addr_o (r_pool_addr),
    .busy_i      (busy),
    .done_set_i  (done_set),
    .err_set_i   (err_set),
    .err_code_i  (err_code),
    .cycles_i    (cycles),
    .macs_i      (macs),
    .irq_o       (irq_o)
  );

  // ---- job control: snapshot, checks, run/abort, counters (ctnn_accel_ctrl) ------------------
  wire              run;
  wire              dma_idle, r_err, feed_done, store_idle, shift_err, gather_range_err;
  wire              push, push_pslot, push_plast, pop, mac_add;
  wire [15:0]       push_row, push_col0, push_coloff;
  wire [31:0]       push_caddr, mac_inc;
  wire [15:0]       job_m, job_n, job_k, job_kp;
  wire [31:0]       job_a_addr, job_b_addr, job_c_addr, job_bias_addr, job_mult_addr, job_shift_addr;
  wire [19:0]       job_lda, job_ldb, job_ldc;
  wire [31:0]       job_dim_lda, job_dim_ldc;
  wire              job_c_byte, job_raw, job_bias_en, job_per_channel, job_conv, job_row_params;
  wire [7:0]        job_a_zp, job_b_zp, job_out_zp, job_lo, job_hi;
  wire [31:0]       job_mult;
  wire [7:0]        job_shift;
  wire [15:0]       job_cv_h, job_cv_w, job_cv_ow;
  wire [23:0]       job_cv_cstride;
  wire [7:0]        job_cv_kh, job_cv_kw, job_cv_sh, job_cv_sw, job_cv_pt, job_cv_pl;
  wire [31:0]       job_cv_shw, job_cv_ptw;
  wire              job_res;
  wire [31:0]       job_res_addr, job_res_mult_y, job_res_mult_r, job_res_mult_out;
  wire [28:0]       job_res_zp;
  wire [15:0]       job_res_clamp;
  wire [23:0]       job_res_shift;
  wire [1:0]        job_pool;
  wire [31:0]       job_pool_addr;
  wire              pool_range_err;
  wire              job_dw;
  wire              dw_range_err, dw_shift_err, dw_mac_add, dw_done;
  wire [31:0]       dw_mac_inc;
  wire              job_mv;
  wire              mv_range_err, mv_shift_err, mv_mac_add, mv_done;
  wire [31:0]       mv_mac_inc;
  wire              mv_r_valid, mv_w_valid;
  wire [31:0]       mv_r_addr, mv_r_tag, mv_w_addr;
  wire [127:0]      mv_w_data;
  wire [15:0]       mv_w_strb;
  wire              run_gemm = run && !job_dw && !job_mv;   // CFG.DW, a linear layer: load and feed stay idle

  ctnn_accel_ctrl #(.Dim(Dim), .TileDim(TileDim), .NbTiles(NbTiles), .Log2KMax(Log2KMax),
                    .RamBase(RamBase), .RamSize(RamSize), .DwKMax(DW_KMAX), .DwLine(DW_LINE),
                    .DwSMax(DW_SMAX)) u_ctrl (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .start_i          (start),
    .cfg_i            (cfg),
    .m_i              (r_m),
    .n_i              (r_n),
    .k_i              (r_k),
    .a_addr_i         (r_a),
    .b_addr_i         (r_b),
    .c_addr_i         (r_c),
    .bias_addr_i      (r_bias),
    .mult_addr_i      (r_mult_addr),
    .shift_addr_i     (r_shift_addr),
    .lda_i            (r_lda),
    .ldb_i            (r_ldb),
    .ldc_i            (r_ldc),
    .zp_i             (r_zp),
    .clamp_i          (r_clamp),
    .mult_i           (r_mult),
    .shift_i          (r_shift),
    .conv_in_i        (r_cv_in),
    .conv_cstride_i   (r_cv_cstride),
    .conv_kernel_i    (r_cv_kernel),
    .conv_out_i       (r_cv_out),
    .res_addr_i       (r_res_addr),
    .res_zp_i         (r_res_zp),
    .res_clamp_i      (r_res_clamp),
    .res_mult_y_i     (r_res_mult_y),
    .res_mult_r_i     (r_res_mult_r),
    .res_mult_out_i   (r_res_mult_out),
    .res_shift_i      (r_res_shift),
    .pool_addr_i      (r_pool_addr),
    .busy_o           (busy),
    .done_set_o       (done_set),
    .err_set_o        (err_set),
    .err_code_o       (err_code),
    .cycles_o         (cycles),
    .macs_o           (macs),
    .dma_idle_i       (dma_idle),
    .dma_err_i        (r_err),
    .shift_err_i      (shift_err || dw_shift_err || mv_shift_err),
    .range_err_i      (gather_range_err || pool_range_err || dw_range_err || mv_range_err),
    .feed_done_i      (job_dw ? dw_done : (job_mv ? mv_done : feed_done)),
    .store_idle_i     (store_idle),
    .mac_add_i        (mac_add || dw_mac_add || mv_mac_add),
    .mac_inc_i        (job_dw ? dw_mac_inc : (job_mv ? mv_mac_inc : mac_inc)),
    .run_o            (run),
    .job_m_o          (job_m),
    .job_n_o          (job_n),
    .job_k_o          (job_k),
    .job_kp_o         (job_kp),
    .job_a_addr_o     (job_a_addr),
    .job_b_addr_o     (job_b_addr),
    .job_c_addr_o     (job_c_addr),
    .job_bias_addr_o  (job_bias_addr),
    .job_mult_addr_o  (job_mult_addr),
    .job_shift_addr_o (job_shift_addr),
    .job_lda_o        (job_lda),
    .job_ldb_o        (job_ldb),
    .job_ldc_o        (job_ldc),
    .job_dim_lda_o    (job_dim_lda),
    .job_dim_ldc_o    (job_dim_ldc),
    .job_c_byte_o     (job_c_byte),
    .job_raw_o        (job_raw),
    .job_bias_en_o    (job_bias_en),
    .job_per_channel_o(job_per_channel),
    .job_conv_o       (job_conv),
    .job_row_params_o (job_row_params),
    .job_a_zp_o       (job_a_zp),
    .job_b_zp_o       (job_b_zp),
    .job_out_zp_o     (job_out_zp),
    .job_lo_o         (job_lo),
    .job_hi_o         (job_hi),
    .job_mult_o       (job_mult),
    .job_shift_o      (job_shift),
    .job_cv_h_o       (job_cv_h),
    .job_cv_w_o       (job_cv_w),
    .job_cv_cstride_o (job_cv_cstride),
    .job_cv_kh_o      (job_cv_kh),
    .job_cv_kw_o      (job_cv_kw),
    .job_cv_sh_o      (job_cv_sh),
    .job_cv_sw_o      (job_cv_sw),
    .job_cv_ow_o      (job_cv_ow),
    .job_cv_pt_o      (job_cv_pt),
    .job_cv_pl_o      (job_cv_pl),
    .job_cv_shw_o     (job_cv_shw),
    .job_cv_ptw_o     (job_cv_ptw),
    .job_res_o        (job_res),
    .job_res_addr_o   (job_res_addr),
    .job_res_zp_o     (job_res_zp),
    .job_res_clamp_o  (job_res_clamp),
    .job_res_mult_y_o (job_res_mult_y),
    .job_res_mult_r_o (job_res_mult_r),
    .job_res_mult_out_o(job_res_mult_out),
    .job_res_shift_o  (job_res_shift),
    .job_pool_o       (job_pool),
    .job_pool_addr_o  (job_pool_addr),
    .job_dw_o         (job_dw),
    .job_mv_o         (job_mv)
  );

  // ---- DMA -----------------------------------------------------------------------------------
  wire        w_valid, a_valid, b_valid, rs_valid;
  wire [31:0] w_addr, w_data, a_req_addr, b_req_addr, a_tag, rs_addr;
  wire [39:0] b_tag;                // the B loader's tags are 40 bits (wide runs)
  wire [3:0]  w_strb;
  wire [127:0] w_line;             // stream 0's write as a line: the pool's, or a word in its lane
  wire [15:0] w_lstrb;
  wire [3:0]  grant;
  wire        r_valid;
  wire [1:0]  r_stream;
  wire [39:0] r_tag;
  wire [31:0] r_rdata;
  wire [127:0] r_line;

  ctnn_dma #(.TagWidth(40)) u_dma (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .stop_i      (!run),
    .s_valid_i   ({rs_valid, b_valid || dw_x_valid, a_valid || dw_p_valid || mv_r_valid, w_valid}),
    .s_addr_i    ({rs_addr, job_dw ? dw_x_addr : b_req_addr,
                   job_dw ? dw_p_addr : (job_mv ? mv_r_addr : a_req_addr), w_addr}),
    .s_we0_i     (1'b1),
    .s_wdata0_i  (w_line),
    .s_wstrb0_i  (w_lstrb),
    .s_tag_i     ({30'd0, pl_r_tag, job_dw ? {8'd0, dw_x_tag} : b_tag,
                   8'd0, job_dw ? dw_p_tag : (job_mv ? mv_r_tag : a_tag), 40'd0}),
    .s_grant_o   (grant),
    .r_valid_o   (r_valid),
    .r_stream_o  (r_stream),
    .r_tag_o     (r_tag),
    .r_rdata_o   (r_rdata),
    .r_line_o    (r_line),
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

  // ---- load -> scratchpads -------------------------------------------------------------------
  wire [1:0]  a_full, b_full, a_free, b_free, p_free;
  wire [Dim-1:0]   a_we;
  wire [Log2KMax-4:0] a_waddr;
  wire [127:0]        a_wdata;
  wire [NbTiles*DQ-1:0] b_we;
  wire [Log2KMax:0] b_waddr;
  wire [31:0] spad_wdata;
  wire [127:0] b_wdata;
  wire [3:0]  p_we;
  wire [1:0]  p_kind;
  wire [$clog2((NB+3)/4):0] p_waddr;

  ctnn_accel_load #(.Dim(Dim), .NbTiles(NbTiles), .Log2KMax(Log2KMax), .RamBase(RamBase),
                    .RamSize(RamSize)) u_load (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .run_i        (run_gemm),
    .m_i          (job_m),
    .n_i          (job_n),
    .k_i          (job_k),
    .a_addr_i     (job_a_addr),
    .b_addr_i     (job_b_addr),
    .bias_addr_i  (job_bias_addr),
    .mult_addr_i  (job_mult_addr),
    .shift_addr_i (job_shift_addr),
    .lda_i        (job_lda),
    .ldb_i        (job_ldb),
    .bias_en_i    (job_bias_en),
    .per_channel_i(job_per_channel),
    .dim_lda_i    (job_dim_lda),
    .conv_i       (job_conv),
    .row_params_i (job_row_params),
    .b_zp_i       (job_b_zp),
    .cv_h_i       (job_cv_h),
    .cv_w_i       (job_cv_w),
    .cv_cstride_i (job_cv_cstride),
    .cv_kh_i      (job_cv_kh),
    .cv_kw_i      (job_cv_kw),
    .cv_sh_i      (job_cv_sh),
    .cv_sw_i      (job_cv_sw),
    .cv_ow_i      (job_cv_ow),
    .cv_pt_i      (job_cv_pt),
    .cv_pl_i      (job_cv_pl),
    .cv_shw_i     (job_cv_shw),
    .cv_ptw_i     (job_cv_ptw),
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
    .r_valid_i    (r_valid && !job_dw && !job_mv),
    .r_stream_i   (r_stream),
    .r_tag_i      (r_tag),
    .r_rdata_i    (r_rdata),
    .r_line_i     (r_line),
    .a_we_o       (a_we),
    .a_waddr_o    (a_waddr),
    .a_wdata_o    (a_wdata),
    .b_we_o       (b_we),
    .b_waddr_o    (b_waddr),
    .wdata_o      (spad_wdata),
    .b_wdata_o    (b_wdata),
    .p_we_o       (p_we),
    .p_kind_o     (p_kind),
    .p_waddr_o    (p_waddr),
    .shift_err_o  (shift_err)
  );

  wire                 rd;
  wire [Log2KMax-4:0]  a_raddr;
  wire [Log2KMax:0]    b_raddr;
  wire [15:0]          b_tile;
  wire [Dim*128-1:0]   a_rdata;
  wire [NbTiles*DQ*32-1:0] b_rdata_all;   // bank t * DQ + q: tile t's columns 4q ..
  reg  [15:0]         b_tile_q;             // the tile of the read in flight
  always @(posedge clk_i) begin
    if (!rst_ni) b_tile_q <= 16'd0;
    else if (rd) b_tile_q <= b_tile;
  end
  wire [15:0]         b_tsel = b_tile_q & ((16'd1 << TB) - 16'd1);
  wire [DQ*32-1:0]    b_rdata = b_rdata_all[b_tsel * (DQ * 32) +: DQ * 32];
  // DIM not a multiple of 4: the last B bank of a tile is only partly used (DIM bytes of 4 x DQ)
  wire unused_b_rdata = ^b_rdata;

  genvar gi;
  generate
    for (gi = 0; gi < Dim; gi = gi + 1) begin : g_aspad
      ctnn_accel_spad #(.Width(128), .Depth(ADEPTH)) u_a (
        .clk_i(clk_i), .we_i(a_we[gi]), .waddr_i(a_waddr), .wdata_i(a_wdata),
        .re_i(rd), .raddr_i(a_raddr), .rdata_o(a_rdata[128*gi +: 128]));
    end
    for (gi = 0; gi < NbTiles * DQ; gi = gi + 1) begin : g_bspad
      ctnn_accel_spad #(.Width(32), .Depth(BDEPTH)) u_b (
        .clk_i(clk_i), .we_i(b_we[gi]), .waddr_i(b_waddr), .wdata_i(b_wdata[32*(gi%4) +: 32]),
        .re_i(rd), .raddr_i(b_raddr), .rdata_o(b_rdata_all[32*gi +: 32]));
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
    .run_i        (run_gemm),
    .m_i          (job_m),
    .n_i          (job_n),
    .k_i          (job_k),
    .kp_i         (job_kp),
    .a_zp_i       (job_a_zp),
    .b_zp_i       (job_b_zp),
    .c_addr_i     (job_c_addr),
    .dim_ldc_i    (job_dim_ldc),
    .ldc_i        (job_ldc),
    .a_full_i     (a_full),
    .b_full_i     (b_full),
    .a_free_o     (a_free),
    .b_free_o     (b_free),
    .rd_o         (rd),
    .a_raddr_o    (a_raddr),
    .a_rdata_i    (a_rdata),
    .b_raddr_o    (b_raddr),
    .b_tile_o     (b_tile),
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

  wire        st_valid, st_grant, st_idle, rs_idle;
  wire        ra_w_valid, ra_r_valid;
  wire [31:0] ra_w_addr, ra_w_data, ra_r_addr;
  wire [3:0]  ra_w_strb;
  wire [31:0] st_addr, st_data;
  wire [3:0]  st_strb;

  ctnn_accel_store #(.Dim(Dim), .NbTiles(NbTiles)) u_store (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .run_i        (run),
    .m_i          (job_m),
    .n_i          (job_n),
    .raw_i        (job_raw),
    .c_byte_i     (job_c_byte),
    .row_params_i (job_row_params),
    .bias_en_i    (job_bias_en),
    .per_channel_i(job_per_channel),
    .mult_i       (job_mult),
    .shift_i      (job_shift),
    .out_zp_i     (job_out_zp),
    .lo_i         (job_lo),
    .hi_i         (job_hi),
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
    .w_valid_o    (st_valid),
    .w_addr_o     (st_addr),
    .w_data_o     (st_data),
    .w_strb_o     (st_strb),
    .w_grant_i    (st_grant),
    .idle_o       (st_idle)
  );

  ctnn_accel_resadd #(.Depth(8)) u_resadd (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .run_i       (run),
    .en_i        (job_res),
    .c_byte_i    (job_c_byte),
    .c_addr_i    (job_c_addr),
    .res_addr_i  (job_res_addr),
    .y_zp_i      (job_res_zp[7:0]),
    .r_zp_i      (job_res_zp[15:8]),
    .out_zp_i    (job_res_zp[23:16]),
    .lshift_i    (job_res_zp[28:24]),
    .lo_i        (job_res_clamp[7:0]),
    .hi_i        (job_res_clamp[15:8]),
    .mult_y_i    (job_res_mult_y),
    .mult_r_i    (job_res_mult_r),
    .mult_out_i  (job_res_mult_out),
    .shift_y_i   (job_res_shift[7:0]),
    .shift_r_i   (job_res_shift[15:8]),
    .shift_out_i (job_res_shift[23:16]),
    .in_valid_i  (st_valid),
    .in_addr_i   (st_addr),
    .in_data_i   (st_data),
    .in_strb_i   (st_strb),
    .in_grant_o  (st_grant),
    .w_valid_o   (ra_w_valid),
    .w_addr_o    (ra_w_addr),
    .w_data_o    (ra_w_data),
    .w_strb_o    (ra_w_strb),
    .w_grant_i   (grant[0] && !pl_active),
    .r_valid_o   (ra_r_valid),
    .r_addr_o    (ra_r_addr),
    .r_grant_i   (grant[3] && !pl_active),
    .rsp_valid_i (r_valid && r_stream == 2'd3 && !pl_active),
    .rsp_rdata_i (r_rdata),
    .idle_o      (rs_idle)
  );

  // CFG.POOL: after C is written (and the residual add is done) the pool unit owns streams 0 and 3
  wire        pl_active, pl_done, pl_r_valid, pl_w_valid;
  wire [31:0] pl_r_addr, pl_w_addr;
  wire [127:0] pl_w_data;
  wire [9:0]  pl_r_tag;
  wire [15:0] pl_w_strb;

  ctnn_accel_pool #(.RamBase(RamBase), .RamSize(RamSize), .Depth(4)) u_pool (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .run_i       (run),
    .mode_i      (job_pool),
    .go_i        (feed_done && st_idle && rs_idle && dma_idle),
    .m_i         (job_m),
    .n_i         (job_n),
    .ow_i        (job_cv_ow),
    .c_addr_i    (job_c_addr),
    .ldc_i       (job_ldc),
    .p_addr_i    (job_pool_addr),
    .r_valid_o   (pl_r_valid),
    .r_addr_o    (pl_r_addr),
    .r_tag_o     (pl_r_tag),
    .r_grant_i   (grant[3] && pl_active),
    .rsp_valid_i (r_valid && r_stream == 2'd3 && pl_active),
    .rsp_tag_i   (r_tag[9:0]),
    .rsp_line_i  (r_line),
    .w_valid_o   (pl_w_valid),
    .w_addr_o    (pl_w_addr),
    .w_data_o    (pl_w_data),
    .w_strb_o    (pl_w_strb),
    .w_grant_i   (grant[0] && pl_active),
    .range_err_o (pool_range_err),
    .active_o    (pl_active),
    .done_o      (pl_done)
  );
  // CFG.DW: the depthwise unit owns streams 0, 1 and 2 for the whole job
  wire        dw_p_valid, dw_x_valid, dw_w_valid;
  wire [31:0] dw_p_addr, dw_p_tag, dw_x_addr, dw_x_tag, dw_w_addr, dw_w_data;
  wire [3:0]  dw_w_strb;

  ctnn_accel_dw #(.RamBase(RamBase), .RamSize(RamSize), .KMax(DW_KMAX), .SMax(DW_SMAX), .Line(DW_LINE),
                  .Slots(8)) u_dw (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .run_i        (run),
    .en_i         (job_dw),
    .m_i          (job_m),
    .n_i          (job_n),
    .k_i          (job_k),
    .a_addr_i     (job_a_addr),
    .lda_i        (job_lda),
    .b_addr_i     (job_b_addr),
    .cstride_i    (job_cv_cstride),
    .c_addr_i     (job_c_addr),
    .ldc_i        (job_ldc),
    .bias_addr_i  (job_bias_addr),
    .mult_addr_i  (job_mult_addr),
    .shift_addr_i (job_shift_addr),
    .bias_en_i    (job_bias_en),
    .per_channel_i(job_per_channel),
    .mult_i       (job_mult),
    .shift_i      (job_shift),
    .a_zp_i       (job_a_zp),
    .b_zp_i       (job_b_zp),
    .out_zp_i     (job_out_zp),
    .lo_i         (job_lo),
    .hi_i         (job_hi),
    .h_i          (job_cv_h),
    .w_i          (job_cv_w),
    .kh_i         (job_cv_kh),
    .kw_i         (job_cv_kw),
    .sh_i         (job_cv_sh),
    .sw_i         (job_cv_sw),
    .ow_i         (job_cv_ow),
    .pt_i         (job_cv_pt),
    .pl_i         (job_cv_pl),
    .p_valid_o    (dw_p_valid),
    .p_addr_o     (dw_p_addr),
    .p_tag_o      (dw_p_tag),
    .p_grant_i    (grant[1]),
    .x_valid_o    (dw_x_valid),
    .x_addr_o     (dw_x_addr),
    .x_tag_o      (dw_x_tag),
    .x_grant_i    (grant[2]),
    .rsp_valid_i  (r_valid && job_dw),
    .rsp_stream_i (r_stream),
    .rsp_tag_i    (r_tag[31:0]),
    .rsp_rdata_i  (r_rdata),
    .w_valid_o    (dw_w_valid),
    .w_addr_o     (dw_w_addr),
    .w_data_o     (dw_w_data),
    .w_strb_o     (dw_w_strb),
    .w_grant_i    (grant[0] && job_dw),
    .range_err_o  (dw_range_err),
    .shift_err_o  (dw_shift_err),
    .mac_add_o    (dw_mac_add),
    .mac_inc_o    (dw_mac_inc),
    .done_o       (dw_done)
  );

  // a linear layer: the matrix-vector unit owns streams 1 and 0 for the whole job

  ctnn_accel_mv #(.RamBase(RamBase), .RamSize(RamSize), .Log2KMax(Log2KMax), .Depth(4)) u_mv (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .run_i        (run),
    .en_i         (job_mv),
    .m_i          (job_m),
    .k_i          (job_k),
    .a_addr_i     (job_a_addr),
    .lda_i        (job_lda),
    .b_addr_i     (job_b_addr),
    .c_addr_i     (job_c_addr),
    .bias_addr_i  (job_bias_addr),
    .mult_addr_i  (job_mult_addr),
    .shift_addr_i (job_shift_addr),
    .bias_en_i    (job_bias_en),
    .per_channel_i(job_per_channel),
    .row_params_i (job_row_params),
    .mult_i       (job_mult),
    .shift_i      (job_shift),
    .a_zp_i       (job_a_zp),
    .b_zp_i       (job_b_zp),
    .out_zp_i     (job_out_zp),
    .lo_i         (job_lo),
    .hi_i         (job_hi),
    .r_valid_o    (mv_r_valid),
    .r_addr_o     (mv_r_addr),
    .r_tag_o      (mv_r_tag),
    .r_grant_i    (grant[1] && job_mv),
    .rsp_valid_i  (r_valid && job_mv && r_stream == 2'd1),
    .rsp_tag_i    (r_tag[31:0]),
    .rsp_rdata_i  (r_rdata),
    .rsp_line_i   (r_line),
    .w_valid_o    (mv_w_valid),
    .w_addr_o     (mv_w_addr),
    .w_data_o     (mv_w_data),
    .w_strb_o     (mv_w_strb),
    .w_grant_i    (grant[0] && job_mv),
    .range_err_o  (mv_range_err),
    .shift_err_o  (mv_shift_err),
    .mac_add_o    (mv_mac_add),
    .mac_inc_o    (mv_mac_inc),
    .done_o       (mv_done)
  );

  assign w_valid = pl_active ? pl_w_valid : (job_dw ? dw_w_valid : (job_mv ? mv_w_valid : ra_w_valid));
  assign w_addr = pl_active ? pl_w_addr : (job_dw ? dw_w_addr : (job_mv ? mv_w_addr : ra_w_addr));
  assign w_data = job_dw ? dw_w_data : ra_w_data;
  assign w_strb = job_dw ? dw_w_strb : ra_w_strb;
  assign w_line = pl_active ? pl_w_data : (job_mv ? mv_w_data : {4{w_data}});
  assign w_lstrb = pl_active ? pl_w_strb : (job_mv ? mv_w_strb : ({12'd0, w_strb} << {w_addr[3:2], 2'b00}));
  assign rs_valid = pl_active ? pl_r_valid : ra_r_valid;
  assign rs_addr = pl_active ? pl_r_addr : ra_r_addr;
  assign store_idle = st_idle && rs_idle && pl_done;
endmodule

`default_nettype wire
