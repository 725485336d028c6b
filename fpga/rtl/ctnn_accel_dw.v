// The depthwise unit (CFG.DW): one job runs a depthwise convolution over M channels without the
// array. Three streams work side by side on the DMA while the array's load and feed stay idle:
//
//   params (stream 1): channel c's KH x KW weights (A + c * LDA, words, any alignment), its bias,
//                      multiplier and shift, into one of two channel slots (c & 1)
//   rows   (stream 2): the input planes, row after row (B + c * CONV_CSTRIDE + y * W, words, any
//                      alignment), into a ring of Slots line-buffer rows (row number & (Slots-1))
//   compute + store (stream 0): one output word per cycle: Lanes = 4 output pixels of a row, the
//                      bytes of one word of C, each a KH x KW window (padding reads B_ZP), plus
//                      the bias, through 4 requantization lanes (ctnn_accel_requant, the output
//                      clamp) into one word write with a byte strobe
//
//   row y of channel c is fetched once into the ring; output row oy needs input rows
//   oy*SH-PT .. oy*SH-PT+KH-1, so the fetcher runs up to Slots rows ahead of the lowest row the
//   compute still needs (a row is never overwritten while needed; KH <= Slots)
//
// The fetcher reads every word of the input planes (each address checked against RAM:
// range_err_o; A, C and the vectors are checked by ctnn_accel_ctrl before the job). A shift read
// from the per-channel vector outside [-31, 30] raises shift_err_o. Responses have no
// back-pressure (BUS.md rule 2): they are written to the slots as they come.
`default_nettype none

module ctnn_accel_dw #(
  parameter [31:0]  RamBase = 32'd0,
  parameter [31:0]  RamSize = 32'd0,
  parameter integer KMax    = 5,               // largest KH and KW
  parameter integer Line    = 256,             // largest W, a power of two
  parameter integer Slots   = 8                // line-buffer rows, a power of two, >= KMax
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        run_i,
  input  wire        en_i,                     // CFG.DW
  // job
  input  wire [15:0] m_i,
  input  wire [15:0] n_i,
  input  wire [15:0] k_i,
  input  wire [31:0] a_addr_i,
  input  wire [19:0] lda_i,
  input  wire [31:0] b_addr_i,
  input  wire [23:0] cstride_i,
  input  wire [31:0] c_addr_i,
  input  wire [19:0] ldc_i,
  input  wire [31:0] bias_addr_i,
  input  wire [31:0] mult_addr_i,
  input  wire [31:0] shift_addr_i,
  input  wire        bias_en_i,
  input  wire        per_channel_i,
  input  wire [31:0] mult_i,
  input  wire [7:0]  shift_i,
  input  wire [7:0]  a_zp_i,
  input  wire [7:0]  b_zp_i,
  input  wire [7:0]  out_zp_i,
  input  wire [7:0]  lo_i,
  input  wire [7:0]  hi_i,
  input  wire [15:0] h_i,
  input  wire [15:0] w_i,
  input  wire [7:0]  kh_i,
  input  wire [7:0]  kw_i,
  input  wire [7:0]  sh_i,
  input  wire [7:0]  sw_i,
  input  wire [15:0] ow_i,
  input  wire [7:0]  pt_i,
  input  wire [7:0]  pl_i,
  // params stream (DMA stream 1), rows stream (DMA stream 2), their responses
  output wire        p_valid_o,
  output wire [31:0] p_addr_o,
  output wire [31:0] p_tag_o,
  input  wire        p_grant_i,
  output wire        x_valid_o,
  output wire [31:0] x_addr_o,
  output wire [31:0] x_tag_o,
  input  wire        x_grant_i,
  input  wire        rsp_valid_i,
  input  wire [1:0]  rsp_stream_i,
  input  wire [31:0] rsp_tag_i,
  input  wire [31:0] rsp_rdata_i,
  // C writes (DMA stream 0)
  output wire        w_valid_o,
  output wire [31:0] w_addr_o,
  output wire [31:0] w_data_o,
  output wire [3:0]  w_strb_o,
  input  wire        w_grant_i,
  output wire        range_err_o,
  output wire        shift_err_o,
  output wire        mac_add_o,
  output wire [31:0] mac_inc_o,
  output wire        done_o
);
  localparam integer KK = KMax * KMax;
  localparam integer LW = $clog2(Line);
  localparam integer SW = $clog2(Slots);
  localparam [31:0]  SLOTS32 = Slots;
  localparam [5:0]   KK6 = KK[5:0];
  localparam [1:0]   K_W = 2'd0, K_BIAS = 2'd1, K_MULT = 2'd2, K_SHIFT = 2'd3;

  wire        go = run_i && en_i;
  wire [36:0] ram_end = {5'd0, RamBase} + {5'd0, RamSize};

  // ======== params fetcher (stream 1) =========================================================
  reg  [15:0] pc_q;                            // channel being fetched
  reg  [1:0]  pk_q;                            // what: weights, bias, multiplier, shift
  reg  [31:0] pwbase_q, pwa_q;                 // channel's first weight byte, current word
  reg  [15:0] cc_q;                            // compute: current channel
  reg  [15:0] parr_q;                          // channels whose parameters all arrived
  wire [31:0] pwlast = pwbase_q + {16'd0, k_i} - 32'd1;
  wire        pw_end = {pwa_q[31:2], 2'b11} >= pwlast;         // the word holds the last weight
  // the last item of a channel: the last weight word, the bias or the shift
  wire        p_last = (pk_q == K_W && pw_end && !bias_en_i && !per_channel_i) ||
                       (pk_q == K_BIAS && !per_channel_i) || pk_q == K_SHIFT;
  wire [31:0] pc4 = {14'd0, pc_q, 2'b00};
  reg  [31:0] p_addr;
  always @(*) begin
    case (pk_q)
      K_W:     p_addr = {pwa_q[31:2], 2'b00};
      K_BIAS:  p_addr = bias_addr_i + pc4;
      K_MULT:  p_addr = mult_addr_i + pc4;
      default: p_addr = shift_addr_i + pc4;
    endcase
  end
  wire [7:0]  p_off = {pwa_q[7:2], 2'b00} - pwbase_q[7:0];   // word - first weight byte (-3 .. KK+3)
  assign p_valid_o = go && pc_q < m_i && pc_q <= cc_q + 16'd1;
  assign p_addr_o = p_addr;
  assign p_tag_o = {16'd0, p_off, 4'd0, pc_q[0], p_last, pk_q};
  wire        pgo = p_valid_o && p_grant_i;

  // ======== rows fetcher (stream 2) ============================================================
  reg  [15:0] fc_q, fy_q;
  reg  [31:0] fch_q, frow_q, fwa_q, fseq_q;
  reg  [31:0] xarr_q;                          // rows arrived (all channels, in order)
  reg  [31:0] cbase_q;                         // compute: cc * H, the ring number of its row 0
  reg  signed [17:0] lor_q;                    // compute: oy * SH - PT, the first input row it needs
  wire [31:0] frlast = frow_q + {16'd0, w_i} - 32'd1;
  wire        f_end = {fwa_q[31:2], 2'b11} >= frlast;          // the word holds the row's last byte
  wire        f_last_row = (fy_q + 16'd1) == h_i;
  wire        f_todo = fc_q < m_i;
  wire [31:0] lo_clamped = lor_q[17] ? 32'd0 : {14'd0, lor_q};
  wire [31:0] f_lim = cbase_q + lo_clamped + SLOTS32;
  wire [31:0] x_addr = {fwa_q[31:2], 2'b00};
  wire        x_ok = (x_addr >= RamBase) && ({5'd0, x_addr} < ram_end);
  wire        x_want = go && f_todo && fseq_q < f_lim;
  assign x_valid_o = x_want && x_ok;
  assign range_err_o = x_want && !x_ok;
  assign x_addr_o = x_addr;
  wire [15:0] x_off = {fwa_q[15:2], 2'b00} - frow_q[15:0];   // word - first byte of the row (-3 .. W-1)
  wire [SW-1:0] f_slot = fseq_q[SW-1:0];
  assign x_tag_o = {x_off, 11'd0, f_end, {(4-SW){1'b0}}, f_slot};
  wire        xgo = x_valid_o && x_grant_i;

  // ======== responses ============================================================================
  reg  [7:0]  wq [0:2*KK-1];                   // weights of the two channel slots
  reg  [31:0] bias_q [0:1];
  reg  [31:0] mult_q [0:1];
  reg  [7:0]  shift_q [0:1];
  reg  [7:0]  lb [0:Slots*Line-1];             // line buffer: Slots rows of Line bytes
  wire        rsp_p = go && rsp_valid_i && rsp_stream_i == 2'd1;
  wire        rsp_x = go && rsp_valid_i && rsp_stream_i == 2'd2;
  wire [1:0]  rp_kind = rsp_tag_i[1:0];
  wire        rp_slot = rsp_tag_i[3];
  wire signed [7:0]  rp_off = rsp_tag_i[15:8];
  wire signed [15:0] rx_off = rsp_tag_i[31:16];
  wire [SW-1:0] rx_slot = rsp_tag_i[SW-1:0];
  wire signed [31:0] rp_shift = rsp_rdata_i;
  assign shift_err_o = rsp_p && rp_kind == K_SHIFT && (rp_shift < -32'sd31 || rp_shift > 32'sd30);
  // byte bi of a response: its weight index, its line-buffer column
  wire signed [8:0]  pp [0:3];
  wire signed [16:0] px [0:3];
  wire [SW+LW-1:0]   lbw [0:3];
  genvar gb;
  generate
    for (gb = 0; gb < 4; gb = gb + 1) begin : g_rbyte
      assign pp[gb] = {rp_off[7], rp_off} + gb;
      assign px[gb] = {rx_off[15], rx_off} + gb;
      assign lbw[gb] = {rx_slot, px[gb][LW-1:0]};
    end
  endgenerate
  localparam signed [8:0] KK9 = KK[8:0];
  integer bi;
  always @(posedge clk_i) begin
    if (rsp_p) begin
      case (rp_kind)
        K_W: for (bi = 0; bi < 4; bi = bi + 1)
          if (pp[bi] >= 0 && pp[bi] < KK9) wq[(rp_slot ? KK6 : 6'd0) + pp[bi][5:0]] <= rsp_rdata_i[8*bi +: 8];
        K_BIAS: bias_q[rp_slot] <= rsp_rdata_i;
        K_MULT: mult_q[rp_slot] <= rsp_rdata_i;
        default: shift_q[rp_slot] <= rsp_rdata_i[7:0];
      endcase
    end
    if (rsp_x)
      for (bi = 0; bi < 4; bi = bi + 1)
        if (px[bi] >= 0 && px[bi] < $signed({1'b0, w_i})) lb[lbw[bi]] <= rsp_rdata_i[8*bi +: 8];
  end

  // ======== compute: one output word per cycle ===================================================
  reg  [31:0] cch_q, crow_q, wa_q;             // C of the channel, of the row, the word written
  reg  [16:0] rem_q;                           // outputs of the channel from this row on
  reg  signed [17:0] ox0_q;                    // output column of lane 0
  reg  signed [19:0] ixb_q;                    // ox0 * SW - PL: input column of lane 0, kx = 0
  reg         cdone_q;
  reg         v1_q, v2_q, v3_q;   // (v0_q below: the sums)
  reg  [31:0] wa1_q, wa2_q, wa3_q;
  reg  [3:0]  st1_q, st2_q, st3_q;
  wire        en_pipe = !v3_q || w_grant_i;
  wire signed [17:0] hi_end = lor_q + {10'd0, kh_i};   // one past the last input row needed
  wire [31:0] need = cbase_q + (hi_end[17] ? 32'd0 : (hi_end > {2'd0, h_i} ? {16'd0, h_i} : {14'd0, hi_end}));
  wire        ready = go && !cdone_q && parr_q > cc_q && xarr_q >= need;
  wire        issue = ready && en_pipe;
  wire [16:0] row_n = (rem_q < {1'b0, ow_i}) ? rem_q : {1'b0, ow_i};
  wire signed [18:0] ox4 = {ox0_q[17], ox0_q} + 19'sd4;
  wire        row_end = ox4 >= $signed({2'b00, row_n});
  wire        ch_end = row_end && rem_q <= {1'b0, ow_i};
  wire        slot_c = cc_q[0];

  // the lanes of the group: inside the row (and inside N)
  reg  [3:0]  lane_ok;
  reg  [2:0]  nlanes;
  reg  signed [18:0] ox;
  integer l;
  always @(*) begin
    nlanes = 3'd0;
    for (l = 0; l < 4; l = l + 1) begin
      ox = {ox0_q[17], ox0_q} + l[18:0];
      lane_ok[l] = ox >= 0 && ox < $signed({2'b00, row_n});
      nlanes = nlanes + {2'd0, lane_ok[l]};
    end
  end

  // lane ln's sum of KH x KW products (a padding position reads B_ZP, so it adds 0), plus the
  // bias: evaluated in the clocked stage below, on an issue only
  function automatic [31:0] lane_acc(input [1:0] ln);
    integer ky, kx;
    reg  signed [17:0] iy;
    reg  signed [19:0] ix;
    reg  [SW-1:0] rs;
    reg  [7:0]  xb, wb;
    reg  [5:0]  wi;
    reg  signed [8:0]  xv, wv;
    reg  signed [17:0] prod;
    reg  [31:0] sum;
    begin
      sum = bias_en_i ? bias_q[slot_c] : 32'd0;
      for (ky = 0; ky < KMax; ky = ky + 1)
        for (kx = 0; kx < KMax; kx = kx + 1) begin
          iy = lor_q + ky[17:0];
          ix = ixb_q + {18'd0, ln} * {12'd0, sw_i} + kx[19:0];
          rs = cbase_q[SW-1:0] + iy[SW-1:0];
          xb = lb[{rs, ix[LW-1:0]}];
          xv = (iy >= 0 && iy < $signed({2'b00, h_i}) && ix >= 0 && ix < $signed({4'd0, w_i}))
               ? $signed({xb[7], xb}) - $signed({b_zp_i[7], b_zp_i}) : 9'sd0;
          wi = (slot_c ? KK6 : 6'd0) + ky[5:0] * kw_i[5:0] + kx[5:0];
          wb = wq[wi];
          wv = $signed({wb[7], wb}) - $signed({a_zp_i[7], a_zp_i});
          prod = xv * wv;
          if (ky < kh_i && kx < kw_i) sum = sum + {{14{prod[17]}}, prod};
        end
      lane_acc = sum;
    end
  endfunction

  // ---- pipeline: issue (sums) -> requant s1 -> s2 -> y (the write) -----------------------------
  wire [31:0] mult_c = per_channel_i ? mult_q[slot_c] : mult_i;
  wire [7:0]  shift_c = per_channel_i ? shift_q[slot_c] : shift_i;
  reg  [31:0] acc_q [0:3];
  reg  [31:0] mult0_q;
  reg  [7:0]  shift0_q;
  reg         v0_q;
  reg  [31:0] wa0_q;
  reg  [3:0]  st0_q;
  integer al;
  always @(posedge clk_i) begin
    if (en_pipe && issue) begin
      for (al = 0; al < 4; al = al + 1) acc_q[al] <= lane_acc(al[1:0]);
      mult0_q <= mult_c;
      shift0_q <= shift_c;
    end
  end
  wire [31:0] y;
  genvar gl;
  generate
    for (gl = 0; gl < 4; gl = gl + 1) begin : g_lane
      ctnn_accel_requant u_rq (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .en_i    (go && en_pipe),   // idle outside CFG.DW jobs
        .x_i     (acc_q[gl]),
        .mult_i  (mult0_q),
        .shift_i (shift0_q),
        .out_zp_i(out_zp_i),
        .lo_i    (lo_i),
        .hi_i    (hi_i),
        .y_o     (y[8*gl +: 8])
      );
    end
  endgenerate

  // next row start (C address of the row): lane 0 at the word's first byte
  wire        nx_ch = ch_end;
  wire [31:0] nx_cch = cch_q + {12'd0, ldc_i};
  wire [31:0] nx_crow = nx_ch ? nx_cch : crow_q + {16'd0, ow_i};
  wire signed [17:0] nx_lor = nx_ch ? -$signed({10'd0, pt_i}) : lor_q + $signed({10'd0, sh_i});

  always @(posedge clk_i) begin
    if (!rst_ni || !go) begin
      pc_q <= 16'd0; pk_q <= K_W; pwbase_q <= a_addr_i; pwa_q <= a_addr_i; parr_q <= 16'd0;
      fc_q <= 16'd0; fy_q <= 16'd0; fch_q <= b_addr_i; frow_q <= b_addr_i; fwa_q <= b_addr_i;
      fseq_q <= 32'd0; xarr_q <= 32'd0;
      cc_q <= 16'd0; cbase_q <= 32'd0; lor_q <= -$signed({10'd0, pt_i});
      cch_q <= c_addr_i; crow_q <= c_addr_i; wa_q <= {c_addr_i[31:2], 2'b00}; rem_q <= {1'b0, n_i};
      ox0_q <= -$signed({16'd0, c_addr_i[1:0]});
      ixb_q <= -$signed({18'd0, c_addr_i[1:0]}) * $signed({12'd0, sw_i}) - $signed({12'd0, pl_i});
      cdone_q <= 1'b0;
      v0_q <= 1'b0; v1_q <= 1'b0; v2_q <= 1'b0; v3_q <= 1'b0;
      wa0_q <= 32'd0; wa1_q <= 32'd0; wa2_q <= 32'd0; wa3_q <= 32'd0;
      st0_q <= 4'd0; st1_q <= 4'd0; st2_q <= 4'd0; st3_q <= 4'd0;
    end else begin
      // params
      if (pgo) begin
        if (pk_q == K_W && !pw_end) pwa_q <= pwa_q + 32'd4;
        else if (p_last) begin
          pc_q <= pc_q + 16'd1;
          pk_q <= K_W;
          pwbase_q <= pwbase_q + {12'd0, lda_i};
          pwa_q <= pwbase_q + {12'd0, lda_i};
        end else pk_q <= (pk_q == K_W && bias_en_i) ? K_BIAS : pk_q + ((pk_q == K_W) ? 2'd2 : 2'd1);
      end
      if (rsp_p && rsp_tag_i[2]) parr_q <= parr_q + 16'd1;
      // rows
      if (xgo) begin
        if (!f_end) fwa_q <= fwa_q + 32'd4;
        else begin
          fseq_q <= fseq_q + 32'd1;
          if (f_last_row) begin
            fc_q <= fc_q + 16'd1; fy_q <= 16'd0;
            fch_q <= fch_q + {8'd0, cstride_i};
            frow_q <= fch_q + {8'd0, cstride_i};
            fwa_q <= fch_q + {8'd0, cstride_i};
          end else begin
            fy_q <= fy_q + 16'd1;
            frow_q <= frow_q + {16'd0, w_i};
            fwa_q <= frow_q + {16'd0, w_i};
          end
        end
      end
      if (rsp_x && rsp_tag_i[4]) xarr_q <= xarr_q + 32'd1;
      // compute
      if (issue) begin
        if (!row_end) begin
          ox0_q <= ox0_q + 18'sd4;
          ixb_q <= ixb_q + 20'sd4 * $signed({12'd0, sw_i});
          wa_q <= wa_q + 32'd4;
        end else begin
          crow_q <= nx_crow;
          wa_q <= {nx_crow[31:2], 2'b00};
          ox0_q <= -$signed({16'd0, nx_crow[1:0]});
          ixb_q <= -$signed({18'd0, nx_crow[1:0]}) * $signed({12'd0, sw_i}) - $signed({12'd0, pl_i});
          lor_q <= nx_lor;
          if (nx_ch) begin
            cc_q <= cc_q + 16'd1;
            cdone_q <= (cc_q + 16'd1) == m_i;
            cbase_q <= cbase_q + {16'd0, h_i};
            cch_q <= nx_cch;
            rem_q <= {1'b0, n_i};
          end else rem_q <= rem_q - {1'b0, ow_i};
        end
      end
      if (en_pipe) begin
        v0_q <= issue; v1_q <= v0_q; v2_q <= v1_q; v3_q <= v2_q;
        wa0_q <= wa_q; wa1_q <= wa0_q; wa2_q <= wa1_q; wa3_q <= wa2_q;
        st0_q <= lane_ok; st1_q <= st0_q; st2_q <= st1_q; st3_q <= st2_q;
      end
    end
  end

  assign w_valid_o = v3_q;
  assign w_addr_o = wa3_q;
  assign w_data_o = y;
  assign w_strb_o = st3_q;
  assign mac_add_o = issue;
  assign mac_inc_o = {29'd0, nlanes} * {16'd0, k_i};
  assign done_o = !en_i || (cdone_q && !v0_q && !v1_q && !v2_q && !v3_q && !f_todo && pc_q == m_i);
endmodule

`default_nettype wire
