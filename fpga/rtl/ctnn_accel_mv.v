// The matrix-vector unit: a CFG.CONV job whose output is one pixel of a 1x1 kernel over a 1x1
// input (a linear layer, N = 1: the array would use one column of DIM) runs here instead of on
// the array, 16 MACs per cycle, as fast as the DMA brings the weights:
//
//   x (stream 1 first): the K input bytes at B_ADDR (CONV_CSTRIDE = 1), as 16-byte lines at any
//        alignment through the funnel {line t+1, line t} >> 8 off (as the A loader), into the
//        x buffer (entry t = x[16t .. 16t+15])
//   rows (stream 1 then): per row m its bias, multiplier and shift words (when used; entry m with
//        CFG.ROW_PARAMS, else entry 0), then the row's weights A + m * LDA as lines through the
//        funnel; each weight entry t meets x entry t: 16 products (a - A_ZP) * (x - B_ZP) summed
//        into the row's accumulator (the bytes past K masked)
//   C (stream 0): at the row's end, accumulator + bias through one requantization lane
//        (ctnn_accel_requant, the output clamp) into byte m of C (C_ADDR + m, LDC = 1): the bytes
//        are one dense stream, collected per 16-byte line and written once (strobes: C's bytes)
//
// Rows in flight (requested, byte not yet collected) plus queued line writes never exceed Depth,
// so a line a response completes always has a place (responses have no back-pressure, BUS.md
// rule 2). The x lines are checked against RAM before their request (range_err_o; A, C and the
// vectors are checked by ctnn_accel_ctrl before the job). A shift read from the vector outside
// [-31, 30] raises shift_err_o. Bit-exact with ctnn::ref::conv2d_s8 / gemm_s8 (int32 sums, TFLite
// requantization).
`default_nettype none

module ctnn_accel_mv #(
  parameter [31:0]  RamBase  = 32'd0,
  parameter [31:0]  RamSize  = 32'd0,
  parameter integer Log2KMax = 12,
  parameter integer Depth    = 4               // rows in flight + queued writes, a power of two
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         run_i,
  input  wire         en_i,                    // the job runs here
  // job
  input  wire [15:0]  m_i,
  input  wire [15:0]  k_i,
  input  wire [31:0]  a_addr_i,
  input  wire [19:0]  lda_i,
  input  wire [31:0]  b_addr_i,
  input  wire [31:0]  c_addr_i,
  input  wire [31:0]  bias_addr_i,
  input  wire [31:0]  mult_addr_i,
  input  wire [31:0]  shift_addr_i,
  input  wire         bias_en_i,
  input  wire         per_channel_i,
  input  wire         row_params_i,
  input  wire [31:0]  mult_i,
  input  wire [7:0]   shift_i,
  input  wire [7:0]   a_zp_i,
  input  wire [7:0]   b_zp_i,
  input  wire [7:0]   out_zp_i,
  input  wire [7:0]   lo_i,
  input  wire [7:0]   hi_i,
  // reads (DMA stream 1) and their responses
  output wire         r_valid_o,
  output wire [31:0]  r_addr_o,
  output wire [31:0]  r_tag_o,
  input  wire         r_grant_i,
  input  wire         rsp_valid_i,
  input  wire [31:0]  rsp_tag_i,
  input  wire [31:0]  rsp_rdata_i,
  input  wire [127:0] rsp_line_i,
  // C writes (DMA stream 0): lines
  output wire         w_valid_o,
  output wire [31:0]  w_addr_o,
  output wire [127:0] w_data_o,
  output wire [15:0]  w_strb_o,
  input  wire         w_grant_i,
  output wire         range_err_o,
  output wire         shift_err_o,
  output wire         mac_add_o,
  output wire [31:0]  mac_inc_o,
  output wire         done_o
);
  localparam integer KL = Log2KMax - 4;        // x buffer entry index bits (KMax / 16 entries)
  localparam integer QW = $clog2(Depth);
  localparam [QW:0]  DEPTH_C = Depth[QW:0];
  localparam [QW:0]  ONE_C = 1;
  localparam [QW:0]  ZERO_C = 0;
  localparam [2:0]   T_X = 3'd0, T_W = 3'd1, T_BIAS = 3'd2, T_MULT = 3'd3, T_SHIFT = 3'd4;

  wire        go = run_i && en_i;
  wire [36:0] ram_end = {5'd0, RamBase} + {5'd0, RamSize};
  wire [15:0] kc = (k_i + 16'd15) >> 4;        // entries of a K-byte row

  // ======== requests (stream 1): x lines, then per row its vectors and weight lines ==============
  reg         xph_q;                           // 1: x lines, 0: rows
  reg  [15:0] row_q;                           // row being requested (M = all requested)
  reg  [2:0]  item_q;                          // T_BIAS / T_MULT / T_SHIFT / T_W of the row
  reg  [15:0] j_q;                             // line of the x vector or of the row
  reg  [31:0] base_q;                          // first byte of the x vector or of the row
  reg  [31:0] rowaddr_q;                       // next row's first byte
  reg  [QW:0] fly_q, wq_cnt_q;                 // rows in flight, queued line writes
  wire [3:0]  off = base_q[3:0];
  wire [15:0] nreq = kc + {15'd0, off != 4'd0};
  wire [27:0] last_line, want_line;
  wire [3:0]  unused_last_off, unused_want_off;
  assign {last_line, unused_last_off} = base_q + {16'd0, k_i} - 32'd1;
  assign {want_line, unused_want_off} = base_q + {12'd0, j_q, 4'b0000};
  wire [27:0] line = (want_line > last_line) ? last_line : want_line;
  wire        rows_left = row_q != m_i;
  wire [2:0]  first_item = bias_en_i ? T_BIAS : (per_channel_i ? T_MULT : T_W);
  wire [31:0] pidx = row_params_i ? {14'd0, row_q, 2'b00} : 32'd0;
  reg  [31:0] addr;
  always @(*) begin
    case (item_q)
      T_BIAS:  addr = bias_addr_i + pidx;
      T_MULT:  addr = mult_addr_i + pidx;
      T_SHIFT: addr = shift_addr_i + pidx;
      default: addr = {line, 4'b0000};
    endcase
  end
  // a row's first request takes a credit
  wire        row_start = !xph_q && item_q == first_item && (item_q != T_W || j_q == 16'd0);
  wire        credit = fly_q + wq_cnt_q != DEPTH_C;
  wire        x_ok = ({line, 4'b0000} >= RamBase) && ({5'd0, line, 4'b0000} < ram_end);
  wire        want = go && (xph_q || rows_left) && (!row_start || credit);
  assign r_valid_o = want && (!xph_q || x_ok);
  assign range_err_o = want && xph_q && !x_ok;
  assign r_addr_o = xph_q ? {line, 4'b0000} : addr;
  wire        lines = xph_q || item_q == T_W;
  wire        wr = (off == 4'd0) || (j_q != 16'd0);               // the line completes an entry
  wire [KL-1:0] entry = j_q[KL-1:0] - {{(KL-1){1'b0}}, off != 4'd0};
  wire        line_last = j_q == nreq - 16'd1;
  // tag: [31:29] kind, [28] the line completes an entry, [27] the row's last line, [26:23] off,
  //      [KL-1:0] entry
  assign r_tag_o = {xph_q ? T_X : item_q, lines && wr, !xph_q && item_q == T_W && line_last, off,
                    {(23-KL){1'b0}}, entry};
  wire        rgo = r_valid_o && r_grant_i;

  always @(posedge clk_i) begin
    if (!rst_ni || !go) begin
      xph_q <= 1'b1; row_q <= 16'd0; item_q <= T_W; j_q <= 16'd0;
      base_q <= b_addr_i; rowaddr_q <= a_addr_i;
    end else if (rgo) begin
      if (xph_q) begin
        if (line_last) begin
          xph_q <= 1'b0;
          item_q <= first_item;
          j_q <= 16'd0;
          base_q <= rowaddr_q;
          rowaddr_q <= rowaddr_q + {12'd0, lda_i};
        end else j_q <= j_q + 16'd1;
      end else begin
        case (item_q)
          T_BIAS:  item_q <= per_channel_i ? T_MULT : T_W;
          T_MULT:  item_q <= T_SHIFT;
          T_SHIFT: item_q <= T_W;
          default: if (line_last) begin
            row_q <= row_q + 16'd1;
            item_q <= first_item;
            j_q <= 16'd0;
            base_q <= rowaddr_q;
            rowaddr_q <= rowaddr_q + {12'd0, lda_i};
          end else j_q <= j_q + 16'd1;
        endcase
      end
    end
  end

  // ======== responses: the funnel, x buffer writes, vectors ===================================
  wire [2:0]   r_kind = rsp_tag_i[31:29];
  wire         r_wr = rsp_tag_i[28];
  wire         r_last = rsp_tag_i[27];
  wire [3:0]   r_off = rsp_tag_i[26:23];
  wire [KL-1:0] r_entry = rsp_tag_i[KL-1:0];
  wire         rsp = go && rsp_valid_i;
  wire         unused_tag = ^rsp_tag_i[22:KL];   // zero
  reg  [127:0] hold_q;
  wire [127:0] funnel, unused_funnel_high;
  assign {unused_funnel_high, funnel} = {rsp_line_i, hold_q} >> {r_off, 3'b000};
  wire [127:0] chunk = (r_off == 4'd0) ? rsp_line_i : funnel;
  wire         x_we = rsp && r_kind == T_X && r_wr;
  wire         w_in = rsp && r_kind == T_W && r_wr;
  wire [127:0] x_rd;
  ctnn_accel_spad #(.Width(128), .Depth(1 << KL)) u_x (
    .clk_i(clk_i), .we_i(x_we), .waddr_i(r_entry), .wdata_i(chunk),
    .re_i(w_in), .raddr_i(r_entry), .rdata_o(x_rd));
  wire signed [31:0] r_shift = rsp_rdata_i;
  assign shift_err_o = rsp && r_kind == T_SHIFT && (r_shift < -32'sd31 || r_shift > 32'sd30);
  reg  [31:0] bias_st_q, mult_st_q, bias_q, mult_q;   // staged for the next row, the row's
  reg  [7:0]  shift_st_q, shift_q;
  // stage 1: the weight entry waits one cycle for its x entry
  reg          s1_v_q, s1_first_q, s1_last_q;
  reg  [127:0] s1_w_q;
  reg  [15:0]  s1_mask_q;
  wire [15:0]  k_rem = k_i - {{(12-KL){1'b0}}, r_entry, 4'b0000};   // K bytes from this entry on
  reg  [15:0]  mask;
  integer mi;
  always @(*)
    for (mi = 0; mi < 16; mi = mi + 1) mask[mi] = k_rem > mi[15:0];

  always @(posedge clk_i) begin
    if (!rst_ni || !go) begin
      hold_q <= 128'd0;
      bias_st_q <= 32'd0; mult_st_q <= 32'd0; shift_st_q <= 8'd0;
      bias_q <= 32'd0; mult_q <= 32'd0; shift_q <= 8'd0;
      s1_v_q <= 1'b0; s1_first_q <= 1'b0; s1_last_q <= 1'b0; s1_w_q <= 128'd0; s1_mask_q <= 16'd0;
    end else begin
      if (rsp && (r_kind == T_X || r_kind == T_W)) hold_q <= rsp_line_i;
      if (rsp && r_kind == T_BIAS) bias_st_q <= rsp_rdata_i;
      if (rsp && r_kind == T_MULT) mult_st_q <= rsp_rdata_i;
      if (rsp && r_kind == T_SHIFT) shift_st_q <= rsp_rdata_i[7:0];
      // the row's vectors came before its first weight line: take them with it
      if (w_in && r_entry == {KL{1'b0}}) begin
        bias_q <= bias_st_q;
        mult_q <= mult_st_q;
        shift_q <= shift_st_q;
      end
      s1_v_q <= w_in;
      s1_first_q <= r_entry == {KL{1'b0}};
      s1_last_q <= r_last;
      s1_w_q <= chunk;
      s1_mask_q <= mask;
    end
  end

  // ======== stage 2: 16 products into the row's accumulator; the row's end to the requant ========
  reg  signed [31:0] dot;
  reg  signed [8:0]  av, xv;
  integer pi;
  always @(*) begin
    dot = 32'sd0;
    for (pi = 0; pi < 16; pi = pi + 1) begin
      av = $signed({s1_w_q[8*pi+7], s1_w_q[8*pi +: 8]}) - $signed({a_zp_i[7], a_zp_i});
      xv = $signed({x_rd[8*pi+7], x_rd[8*pi +: 8]}) - $signed({b_zp_i[7], b_zp_i});
      if (s1_mask_q[pi]) dot = dot + av * xv;
    end
  end
  reg  [31:0] acc_q;
  wire [31:0] acc_n = (s1_first_q ? 32'd0 : acc_q) + dot;
  reg         s2_v_q;
  reg  [31:0] s2_x_q, s2_mult_q;
  reg  [7:0]  s2_shift_q;
  reg  [2:0]  rq_v_q;                          // the requant's three stages
  always @(posedge clk_i) begin
    if (!rst_ni || !go) begin
      acc_q <= 32'd0;
      s2_v_q <= 1'b0; s2_x_q <= 32'd0; s2_mult_q <= 32'd0; s2_shift_q <= 8'd0;
      rq_v_q <= 3'd0;
    end else begin
      if (s1_v_q) acc_q <= acc_n;
      s2_v_q <= s1_v_q && s1_last_q;
      s2_x_q <= acc_n + (bias_en_i ? bias_q : 32'd0);
      s2_mult_q <= per_channel_i ? mult_q : mult_i;
      s2_shift_q <= per_channel_i ? shift_q : shift_i;
      rq_v_q <= {rq_v_q[1:0], s2_v_q};
    end
  end
  wire [7:0] y;
  ctnn_accel_requant u_rq (
    .clk_i(clk_i), .rst_ni(rst_ni), .en_i(1'b1), .x_i(s2_x_q), .mult_i(s2_mult_q), .shift_i(s2_shift_q),
    .out_zp_i(out_zp_i), .lo_i(lo_i), .hi_i(hi_i), .y_o(y));
  wire        y_v = rq_v_q[2];
  assign mac_add_o = s1_v_q && s1_last_q;
  assign mac_inc_o = {16'd0, k_i};

  // ======== C: the bytes into lines, the line writes ==============================================
  reg  [127:0] ob_q;                           // the line being filled
  reg  [15:0]  os_q;                           // its bytes of C
  reg  [31:0]  pa_q;                           // next byte's address
  reg  [15:0]  done_rows_q;                    // bytes collected
  wire [3:0]   poff = pa_q[3:0];
  wire [15:0]  pbit = 16'd1 << poff;
  wire         fills = poff == 4'd15;           // the byte completes the line
  reg  [127:0] merged;
  integer bi;
  always @(*) begin
    merged = ob_q;
    for (bi = 0; bi < 16; bi = bi + 1)
      if (pbit[bi]) merged[8*bi +: 8] = y;
  end
  reg  [27:0]  wq_line [0:Depth-1];
  reg  [127:0] wq_data [0:Depth-1];
  reg  [15:0]  wq_strb [0:Depth-1];
  reg  [QW-1:0] wp_q, rp_q;
  reg          flushed_q;
  wire         all_in = done_rows_q == m_i;
  wire         flush = go && all_in && !flushed_q && wq_cnt_q != DEPTH_C;
  wire         push_full = y_v && fills;
  wire         push_flush = flush && os_q != 16'd0;
  wire         push = push_full || push_flush;
  assign w_valid_o = go && wq_cnt_q != ZERO_C;
  assign w_addr_o = {wq_line[rp_q], 4'b0000};
  assign w_data_o = wq_data[rp_q];
  assign w_strb_o = wq_strb[rp_q];
  wire         wgo = w_valid_o && w_grant_i;

  always @(posedge clk_i) begin
    if (!rst_ni || !go) begin
      ob_q <= 128'd0; os_q <= 16'd0; pa_q <= c_addr_i; done_rows_q <= 16'd0; flushed_q <= 1'b0;
      wp_q <= {QW{1'b0}}; rp_q <= {QW{1'b0}};
      fly_q <= ZERO_C; wq_cnt_q <= ZERO_C;
    end else begin
      if (y_v) begin
        pa_q <= pa_q + 32'd1;
        done_rows_q <= done_rows_q + 16'd1;
        ob_q <= fills ? 128'd0 : merged;
        os_q <= fills ? 16'd0 : (os_q | pbit);
      end
      if (flush) flushed_q <= 1'b1;
      if (push) begin
        wq_line[wp_q] <= pa_q[31:4];
        wq_data[wp_q] <= push_full ? merged : ob_q;
        wq_strb[wp_q] <= push_full ? (os_q | pbit) : os_q;
        wp_q <= wp_q + 1'b1;
      end
      if (wgo) rp_q <= rp_q + 1'b1;
      fly_q <= fly_q + ((rgo && row_start) ? ONE_C : ZERO_C) - (y_v ? ONE_C : ZERO_C);
      wq_cnt_q <= wq_cnt_q + (push ? ONE_C : ZERO_C) - (wgo ? ONE_C : ZERO_C);
    end
  end

  assign done_o = flushed_q && wq_cnt_q == ZERO_C;
endmodule

`default_nettype wire
