// The depthwise unit (CFG.DW): one job runs a depthwise convolution over M channels without the
// array. Three streams work side by side on the DMA while the array's load and feed stay idle:
//
//   params (stream 1): channel c's KH x KW weights (A + c * LDA, words, any alignment) into the
//                      KMax x KMax weight registers of one of two channel slots (c & 1), its bias,
//                      multiplier and shift beside them
//   rows   (stream 2): the input planes, row after row (B + c * CONV_CSTRIDE + y * W, words, any
//                      alignment), into a ring of Slots line-buffer banks (row number & (Slots-1)),
//                      each response one masked word write (a row sits at its RAM alignment r:
//                      byte x of the row at bank column r + x, mod Line)
//   compute + store (stream 0): one output word per cycle: Lanes = 4 output pixels of a row, the
//                      bytes of one word of C, each a KH x KW window (padding reads B_ZP), plus
//                      the bias, through 4 requantization lanes (ctnn_accel_requant, the output
//                      clamp) into one word write with a byte strobe
//
// The window (no computed reads in the products):
//
//   reader: per cycle one word of each bank (sync read, address = the row's next word), the KH
//           banks of the output row's input rows rotated to window rows 0..KH-1, funnel-shifted
//           against the row's previous word so that a chunk holds input columns x .. x+3 of the
//           group walk (the first read of a row only primes the funnel), bytes outside the plane
//           replaced by B_ZP
//   FIFO:   per window row Cap chunks of 4 bytes; the head group (its lanes span 3*SW + KW
//           columns: Need chunks) is what the products read, at fixed byte positions l*SW + kx
//   issue:  when the FIFO holds the head group's Need chunks (and the channel's parameters are
//           in): the group's sums, then drop SW chunks (the row's last group: Need chunks). The
//           reader walks the same rows and groups and runs up to Cap chunks ahead, into the next
//           output row, so a row change costs no issue cycle once the next row is in the ring
//
//   row y of channel c is fetched once into the ring; output row oy needs input rows
//   oy*SH-PT .. oy*SH-PT+KH-1, so the fetcher runs up to Slots rows ahead of the lowest row the
//   reader still needs (a row is never overwritten while needed; KH <= Slots)
//
// The fetcher reads every word of the input planes (each address checked against RAM:
// range_err_o; A, C and the vectors are checked by ctnn_accel_ctrl before the job, SW <= SMax
// too). A shift read from the per-channel vector outside [-31, 30] raises shift_err_o. Responses
// have no back-pressure (BUS.md rule 2): they are written to the slots as they come.
`default_nettype none

module ctnn_accel_dw #(
  parameter [31:0]  RamBase = 32'd0,
  parameter [31:0]  RamSize = 32'd0,
  parameter integer KMax    = 5,               // largest KH and KW
  parameter integer SMax    = 3,               // largest SW (the window's width: 3*SMax + KMax)
  parameter integer Line    = 256,             // largest W, a power of two
  parameter integer Slots   = 8                // line-buffer rows, a power of two, >= KMax, <= 16
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
  localparam integer LWW = $clog2(Line) - 2;   // word index of a bank
  localparam integer SB = $clog2(Slots);
  localparam integer NEEDMAX = (3 * SMax + KMax + 3) / 4;   // chunks of a group's span
  localparam integer CAP = NEEDMAX + 1;        // FIFO chunks: one more lets stride 1 run ahead
  localparam integer AB = 4 * CAP;             // FIFO bytes per window row
  localparam [31:0]  SLOTS32 = Slots;
  localparam [4:0]   CAP5 = CAP[4:0];
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

  // ======== reader state (declared here: the fetcher's limit follows it) =========================
  reg  [31:0] rcbase_q;                        // reader: its channel's ring number of row 0
  reg  signed [17:0] rlor_q;                   // reader: oy * SH - PT, the first input row it needs

  // ======== rows fetcher (stream 2) ============================================================
  reg  [15:0] fc_q, fy_q;
  reg  [31:0] fch_q, frow_q, fwa_q, fseq_q;
  reg  [31:0] xarr_q;                          // rows arrived (all channels, in order)
  wire [31:0] frlast = frow_q + {16'd0, w_i} - 32'd1;
  wire        f_end = {fwa_q[31:2], 2'b11} >= frlast;          // the word holds the row's last byte
  wire        f_last_row = (fy_q + 16'd1) == h_i;
  wire        f_todo = fc_q < m_i;
  wire [31:0] lo_clamped = rlor_q[17] ? 32'd0 : {14'd0, rlor_q};
  wire [31:0] f_lim = rcbase_q + lo_clamped + SLOTS32;
  wire [31:0] x_addr = {fwa_q[31:2], 2'b00};
  wire        x_ok = (x_addr >= RamBase) && ({5'd0, x_addr} < ram_end);
  wire        x_want = go && f_todo && fseq_q < f_lim;
  assign x_valid_o = x_want && x_ok;
  assign range_err_o = x_want && !x_ok;
  assign x_addr_o = x_addr;
  wire [15:0] x_off = {fwa_q[15:2], 2'b00} - frow_q[15:0];   // word - first byte of the row (-3 .. W-1)
  wire [SB-1:0] f_slot = fseq_q[SB-1:0];
  // the word's bank word (the row's first word at bank word 0), mod Line/4
  wire [LWW-1:0] x_word = fwa_q[LWW+1:2] - frow_q[LWW+1:2];
  // tag: x_off, the bank word, the row's alignment, the row's last word, the slot
  assign x_tag_o = {x_off, {(9-LWW){1'b0}}, x_word, frow_q[1:0], f_end, {(4-SB){1'b0}}, f_slot};
  wire        xgo = x_valid_o && x_grant_i;

  // ======== responses: parameters into the slot registers ========================================
  reg  [8*2*KK-1:0] wgt_q;                     // weights: slot s, (ky, kx) at byte s*KK + ky*KMax + kx
  reg  [31:0] bias_q [0:1];
  reg  [31:0] mult_q [0:1];
  reg  [7:0]  shift_q [0:1];
  wire        rsp_p = go && rsp_valid_i && rsp_stream_i == 2'd1;
  wire        rsp_x = go && rsp_valid_i && rsp_stream_i == 2'd2;
  wire [1:0]  rp_kind = rsp_tag_i[1:0];
  wire        rp_slot = rsp_tag_i[3];
  wire signed [7:0]  rp_off = rsp_tag_i[15:8];
  wire signed [31:0] rp_shift = rsp_rdata_i;
  assign shift_err_o = rsp_p && rp_kind == K_SHIFT && (rp_shift < -32'sd31 || rp_shift > 32'sd30);
  // byte bi of a weight response: its weight index p, written at (p / KW, p % KW)
  wire [2:0]  kw3 = (kw_i[2:0] == 3'd0) ? 3'd1 : kw_i[2:0];   // KW <= KMax <= 7 (checked); 0 only idle
  reg  [3:0]  pok;                             // byte bi holds a weight of the channel (index < K)
  reg  [23:0] ppos;                            // its register: 6 bits per byte
  reg  signed [8:0] pp;
  reg  [4:0]  pky, pkx;                        // pkx < KW <= KMax
  integer pb;
  always @(*) begin
    pp = 9'sd0; pky = 5'd0; pkx = 5'd0;
    for (pb = 0; pb < 4; pb = pb + 1) begin
      pp = {rp_off[7], rp_off} + pb[8:0];
      pok[pb] = pp >= 0 && pp < $signed({1'b0, k_i[7:0]});
      pky = pp[4:0] / {2'd0, kw3};
      pkx = pp[4:0] - pky * {2'd0, kw3};
      ppos[6*pb +: 6] = (rp_slot ? KK[5:0] : 6'd0) + pky[2:0] * KMax[5:0] + {1'b0, pkx};
    end
  end
  integer bi, wi;
  always @(posedge clk_i) begin
    if (rsp_p) begin
      case (rp_kind)
        K_W: for (wi = 0; wi < 2 * KK; wi = wi + 1)
          for (bi = 0; bi < 4; bi = bi + 1)
            if (pok[bi] && ppos[6*bi +: 6] == wi[5:0]) wgt_q[8*wi +: 8] <= rsp_rdata_i[8*bi +: 8];
        K_BIAS: bias_q[rp_slot] <= rsp_rdata_i;
        K_MULT: mult_q[rp_slot] <= rsp_rdata_i;
        default: shift_q[rp_slot] <= rsp_rdata_i[7:0];
      endcase
    end
  end

  // ======== line buffer: Slots banks of Line/4 words, one masked write and one read per cycle ====
  wire signed [15:0] rx_off = rsp_tag_i[31:16];
  wire [1:0]  rx_r = rsp_tag_i[6:5];
  wire [SB-1:0] rx_slot = rsp_tag_i[SB-1:0];
  wire [LWW-1:0] rx_word = rsp_tag_i[LWW+6:7];
  reg  [3:0]  rx_mask;                                          // the bytes inside the row
  integer mb;
  always @(*)
    for (mb = 0; mb < 4; mb = mb + 1)
      rx_mask[mb] = (rx_off + mb[15:0]) < w_i;                  // (x_off >= -3: negative wraps high)
  reg  [2*Slots-1:0] lbr_q;                                     // each slot's row alignment r
  integer ls;
  always @(posedge clk_i)
    for (ls = 0; ls < Slots; ls = ls + 1)
      if (rsp_x && rx_slot == ls[SB-1:0]) lbr_q[2*ls +: 2] <= rx_r;

  wire [LWW*Slots-1:0] rd_addr;
  wire [32*Slots-1:0] rd_word;
  genvar gs;
  generate
    for (gs = 0; gs < Slots; gs = gs + 1) begin : g_bank
      reg  [31:0] mem [0:(Line/4)-1];
      reg  [31:0] rd_q;
      integer bb;
      always @(posedge clk_i) begin
        if (rsp_x && rx_slot == gs)
          for (bb = 0; bb < 4; bb = bb + 1)
            if (rx_mask[bb]) mem[rx_word][8*bb +: 8] <= rsp_rdata_i[8*bb +: 8];
        rd_q <= mem[rd_addr[LWW*gs +: LWW]];
      end
      assign rd_word[32*gs +: 32] = rd_q;
    end
  endgenerate

  // ======== reader: walks rows and chunks like the issue below walks rows and groups =============
  reg  [31:0] rcch_q, rcrow_q;                 // C of the reader's channel, of its row
  reg  [16:0] rrem_q;                          // outputs of the channel from the reader's row on
  reg  [15:0] rcc_q;                           // reader's channel
  reg         rdone_q;
  reg  [17:0] rk_q;                            // read of the row: 0 primes, k >= 1 gives chunk k-1
  reg  signed [19:0] rx_q;                     // input column of the chunk read k gives
  wire [4:0]  need = ({3'd0, sw_i[1:0]} * 5'd3 + {1'b0, kw_i[3:0]} + 5'd3) >> 2;  // chunks of a group
  wire [16:0] rrow_n = (rrem_q < {1'b0, ow_i}) ? rrem_q : {1'b0, ow_i};
  wire [17:0] rgroups = ({1'b0, rrow_n} + {16'd0, rcrow_q[1:0]} + 18'd3) >> 2;
  wire [17:0] rnch = rgroups * {16'd0, sw_i[1:0]} - {16'd0, sw_i[1:0]} + {13'd0, need};   // chunks of the row
  wire signed [17:0] rhi_end = rlor_q + {10'd0, kh_i};          // one past the last input row needed
  wire [31:0] rneed = rcbase_q + (rhi_end[17] ? 32'd0 :
                                  (rhi_end > {2'd0, h_i} ? {16'd0, h_i} : {14'd0, rhi_end}));
  reg  [4:0]  acnt_q;                          // FIFO chunks
  reg         rv_q, rch_q;                     // a read's word is in the banks' rd_q; it gives a chunk
  wire        r_room = rk_q == 18'd0 || (acnt_q + {4'd0, rv_q && rch_q}) < CAP5;
  wire        r_go = go && !rdone_q && xarr_q >= rneed && r_room;
  wire        r_last = rk_q == rnch;
  wire        r_ch_end = rrem_q <= {1'b0, ow_i};
  wire [31:0] r_nx_cch = rcch_q + {12'd0, ldc_i};
  wire [31:0] r_nx_crow = r_ch_end ? r_nx_cch : rcrow_q + {16'd0, ow_i};
  // input column of a row's group 0: ox0 * SW - PL, ox0 = -(row's C address & 3)
  function automatic signed [19:0] ixb0(input [1:0] ca);
    ixb0 = -$signed({18'd0, ca}) * $signed({12'd0, sw_i}) - $signed({12'd0, pl_i});
  endfunction
  // bank s reads the word of its row that holds column rx + 4 (bank column r + x: the next word)
  wire [SB-1:0] rbase = rcbase_q[SB-1:0] + rlor_q[SB-1:0];     // slot of window row 0
  reg  [2*Slots-1:0] ral_q;                    // each bank's funnel offset: (r + x) & 3
  generate
    for (gs = 0; gs < Slots; gs = gs + 1) begin : g_raddr
      wire [LWW+1:0] col = rx_q[LWW+1:0] + {{LWW{1'b0}}, lbr_q[2*gs +: 2]};
      assign rd_addr[LWW*gs +: LWW] = col[LWW+1:2] + {{(LWW-1){1'b0}}, 1'b1};
      always @(posedge clk_i) ral_q[2*gs +: 2] <= col[1:0];
    end
  endgenerate
  // what travels with a read to the cycle its words are in rd_q
  reg  [SB-1:0] rsel_q;
  reg  [KMax-1:0] rrow_ok_q;
  reg  signed [19:0] rx1_q;
  reg  [KMax-1:0] rrow_ok;
  integer rr;
  always @(*)
    for (rr = 0; rr < KMax; rr = rr + 1)
      rrow_ok[rr] = (rlor_q + $signed(rr[17:0])) >= 0 && (rlor_q + $signed(rr[17:0])) < $signed({2'd0, h_i});

  // the chunk of each window row: funnel of its previous and current words, B_ZP outside the plane
  reg  [32*KMax-1:0] prev_q;
  reg  [32*KMax-1:0] cur;
  reg  [32*KMax-1:0] chunk;
  reg  [63:0] pair;
  reg  [SB-1:0] rs;
  reg  [1:0]  ra;
  reg  signed [19:0] cx;
  integer ck, cj;
  always @(*) begin
    cur = {32*KMax{1'b0}};
    chunk = {32*KMax{1'b0}};
    pair = 64'd0; rs = {SB{1'b0}}; ra = 2'd0; cx = 20'sd0;
    for (ck = 0; ck < KMax; ck = ck + 1) begin
      rs = rsel_q + ck[SB-1:0];
      cur[32*ck +: 32] = rd_word[32*rs +: 32];
      ra = ral_q[2*rs +: 2];
      pair = {cur[32*ck +: 32], prev_q[32*ck +: 32]} >> {ra, 3'b000};
      for (cj = 0; cj < 4; cj = cj + 1) begin
        cx = rx1_q + cj[19:0];
        chunk[32*ck + 8*cj +: 8] = (rrow_ok_q[ck] && cx >= 0 && cx < $signed({4'd0, w_i}))
                                   ? pair[8*cj +: 8] : b_zp_i;
      end
    end
  end

  // ======== FIFO and issue: one output word per cycle ============================================
  reg  [8*AB*KMax-1:0] fa_q;                   // window row ky: bytes ky*AB .. ky*AB+AB-1
  reg  [31:0] cch_q, crow_q, wa_q;             // C of the channel, of the row, the word written
  reg  [16:0] rem_q;                           // outputs of the channel from this row on
  reg  signed [17:0] ox0_q;                    // output column of lane 0
  reg         cdone_q;
  reg         v1_q, v2_q, v3_q;   // (v0_q below: the sums)
  reg  [31:0] wa1_q, wa2_q, wa3_q;
  reg  [3:0]  st1_q, st2_q, st3_q;
  wire        en_pipe = !v3_q || w_grant_i;
  wire        ready = go && !cdone_q && parr_q > cc_q && acnt_q >= need;
  wire        issue = ready && en_pipe;
  wire [16:0] row_n = (rem_q < {1'b0, ow_i}) ? rem_q : {1'b0, ow_i};
  wire signed [18:0] ox4 = {ox0_q[17], ox0_q} + 19'sd4;
  wire        row_end = ox4 >= $signed({2'b00, row_n});
  wire        ch_end = row_end && rem_q <= {1'b0, ow_i};
  wire        slot_c = cc_q[0];
  wire [4:0]  drop = issue ? (row_end ? need : {3'd0, sw_i[1:0]}) : 5'd0;
  wire        app = rv_q && rch_q;
  wire [4:0]  apos = acnt_q - drop;            // chunk position of the appended chunk

  // the FIFO after this cycle: shifted by the dropped chunks, the new chunk appended
  reg  [8*AB*KMax-1:0] fa_d;
  integer fk, fj;
  always @(*) begin
    fa_d = fa_q;
    for (fk = 0; fk < KMax; fk = fk + 1)
      for (fj = 0; fj < AB; fj = fj + 1) begin
        case (drop)
          5'd1: if (fj + 4 < AB) fa_d[8*(fk*AB + fj) +: 8] = fa_q[8*(fk*AB + fj + 4) +: 8];
          5'd2: if (fj + 8 < AB) fa_d[8*(fk*AB + fj) +: 8] = fa_q[8*(fk*AB + fj + 8) +: 8];
          5'd3: if (fj + 12 < AB) fa_d[8*(fk*AB + fj) +: 8] = fa_q[8*(fk*AB + fj + 12) +: 8];
          5'd4: if (fj + 16 < AB) fa_d[8*(fk*AB + fj) +: 8] = fa_q[8*(fk*AB + fj + 16) +: 8];
          default: ;
        endcase
        if (app && apos == fj[6:2]) fa_d[8*(fk*AB + fj) +: 8] = chunk[32*fk + 8*(fj % 4) +: 8];
      end
  end

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

  // lane ln's sum of KH x KW products, from registers only: window byte ln*SW + kx of row ky (a
  // padding position holds B_ZP, so it adds 0) and the slot's weight (ky, kx), plus the bias
  function automatic [31:0] lane_acc(input integer ln);
    integer ky, kx;
    reg  [7:0]  xb, wb;
    reg  signed [8:0]  xv, wv;
    reg  signed [17:0] prod;
    reg  [31:0] sum;
    begin
      sum = bias_en_i ? bias_q[slot_c] : 32'd0;
      for (ky = 0; ky < KMax; ky = ky + 1)
        for (kx = 0; kx < KMax; kx = kx + 1) begin
          case (sw_i[1:0])
            2'd2:    xb = (2 * ln + kx < AB) ? fa_q[8*(ky*AB + 2*ln + kx) +: 8] : 8'd0;
            2'd3:    xb = (3 * ln + kx < AB) ? fa_q[8*(ky*AB + 3*ln + kx) +: 8] : 8'd0;
            default: xb = fa_q[8*(ky*AB + ln + kx) +: 8];
          endcase
          xv = $signed({xb[7], xb}) - $signed({b_zp_i[7], b_zp_i});
          wb = slot_c ? wgt_q[8*(KK + ky*KMax + kx) +: 8] : wgt_q[8*(ky*KMax + kx) +: 8];
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
      for (al = 0; al < 4; al = al + 1) acc_q[al] <= lane_acc(al);
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

  // the window's data path: no reset needed (a job starts with an empty FIFO and a priming read)
  always @(posedge clk_i) begin
    fa_q <= fa_d;
    if (rv_q) prev_q <= cur;
    rsel_q <= rbase;
    rrow_ok_q <= rrow_ok;
    rx1_q <= rx_q;
  end

  always @(posedge clk_i) begin
    if (!rst_ni || !go) begin
      pc_q <= 16'd0; pk_q <= K_W; pwbase_q <= a_addr_i; pwa_q <= a_addr_i; parr_q <= 16'd0;
      fc_q <= 16'd0; fy_q <= 16'd0; fch_q <= b_addr_i; frow_q <= b_addr_i; fwa_q <= b_addr_i;
      fseq_q <= 32'd0; xarr_q <= 32'd0;
      rcc_q <= 16'd0; rdone_q <= 1'b0; rcbase_q <= 32'd0; rlor_q <= -$signed({10'd0, pt_i});
      rcch_q <= c_addr_i; rcrow_q <= c_addr_i; rrem_q <= {1'b0, n_i};
      rk_q <= 18'd0; rx_q <= ixb0(c_addr_i[1:0]) - 20'sd4;
      rv_q <= 1'b0; rch_q <= 1'b0; acnt_q <= 5'd0;
      cc_q <= 16'd0;
      cch_q <= c_addr_i; crow_q <= c_addr_i; wa_q <= {c_addr_i[31:2], 2'b00}; rem_q <= {1'b0, n_i};
      ox0_q <= -$signed({16'd0, c_addr_i[1:0]});
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
      // reader
      rv_q <= r_go;
      rch_q <= rk_q != 18'd0;
      if (r_go) begin
        if (!r_last) begin
          rk_q <= rk_q + 18'd1;
          rx_q <= rx_q + 20'sd4;
        end else begin
          rk_q <= 18'd0;
          rcrow_q <= r_nx_crow;
          rx_q <= ixb0(r_nx_crow[1:0]) - 20'sd4;
          if (r_ch_end) begin
            rcc_q <= rcc_q + 16'd1;
            rdone_q <= (rcc_q + 16'd1) == m_i;
            rcbase_q <= rcbase_q + {16'd0, h_i};
            rlor_q <= -$signed({10'd0, pt_i});
            rcch_q <= r_nx_cch;
            rrem_q <= {1'b0, n_i};
          end else begin
            rlor_q <= rlor_q + $signed({10'd0, sh_i});
            rrem_q <= rrem_q - {1'b0, ow_i};
          end
        end
      end
      acnt_q <= acnt_q - drop + {4'd0, app};
      // compute
      if (issue) begin
        if (!row_end) begin
          ox0_q <= ox0_q + 18'sd4;
          wa_q <= wa_q + 32'd4;
        end else begin
          crow_q <= nx_crow;
          wa_q <= {nx_crow[31:2], 2'b00};
          ox0_q <= -$signed({16'd0, nx_crow[1:0]});
          if (nx_ch) begin
            cc_q <= cc_q + 16'd1;
            cdone_q <= (cc_q + 16'd1) == m_i;
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
