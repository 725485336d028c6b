// The residual add of the store path (CFG.RES_ADD): between ctnn_accel_store's C write items and
// DMA stream 0. Each item (a word of 4 requantized int8 y, or one byte of an unaligned C) first
// reads its residual word on DMA stream 3 (read address = its C address - C_ADDR + RES_ADDR) and
// waits in a small queue for the response; then 4 lanes compute ctnn::ref::add_s8_one and the
// item is written:
//
//   items ──► read R (stream 3) ──► queue (Depth items, R filled in request order)
//                                     │ head has its R
//                                     ▼
//     ya = (y - Y_ZP) << L ─► MBQM(MULT_Y, SHIFT_Y) ─┐
//     rb = (r - R_ZP) << L ─► MBQM(MULT_R, SHIFT_R) ─┴─ + ─► MBQM(MULT_OUT, SHIFT_OUT)
//                                      ─► clamp(+ OUT_ZP, ACT_MIN, ACT_MAX) ─► C write (stream 0)
//
// The queue never holds more items than it has room for, so every read response has a slot
// (responses have no back-pressure, BUS.md rule 2). With CFG.RES_ADD = 0 the items go straight
// through (same signals, same cycles as without this unit).
`default_nettype none

module ctnn_accel_resadd #(
  parameter integer Depth = 8                 // a power of two
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        run_i,
  // job
  input  wire        en_i,                    // CFG.RES_ADD
  input  wire        c_byte_i,                // items are single bytes (data = 4 copies, one-hot strobe)
  input  wire [31:0] c_addr_i,
  input  wire [31:0] res_addr_i,
  input  wire [7:0]  y_zp_i,
  input  wire [7:0]  r_zp_i,
  input  wire [7:0]  out_zp_i,
  input  wire [4:0]  lshift_i,
  input  wire [7:0]  lo_i,
  input  wire [7:0]  hi_i,
  input  wire [31:0] mult_y_i,
  input  wire [31:0] mult_r_i,
  input  wire [31:0] mult_out_i,
  input  wire [7:0]  shift_y_i,
  input  wire [7:0]  shift_r_i,
  input  wire [7:0]  shift_out_i,
  // items from the store unit
  input  wire        in_valid_i,
  input  wire [31:0] in_addr_i,
  input  wire [31:0] in_data_i,
  input  wire [3:0]  in_strb_i,
  output wire        in_grant_o,
  // write stream (DMA stream 0)
  output wire        w_valid_o,
  output wire [31:0] w_addr_o,
  output wire [31:0] w_data_o,
  output wire [3:0]  w_strb_o,
  input  wire        w_grant_i,
  // read stream (DMA stream 3) and its responses
  output wire        r_valid_o,
  output wire [31:0] r_addr_o,
  input  wire        r_grant_i,
  input  wire        rsp_valid_i,
  input  wire [31:0] rsp_rdata_i,
  output wire        idle_o
);
  localparam integer QW = $clog2(Depth);
  localparam [QW:0] DEPTH_C = Depth[QW:0];

  // ---- read request: the residual word of the offered item -----------------------------------
  wire [1:0]  lane = in_strb_i[1] ? 2'd1 : (in_strb_i[2] ? 2'd2 : (in_strb_i[3] ? 2'd3 : 2'd0));
  wire [31:0] c_byte_addr = in_addr_i + (c_byte_i ? {30'd0, lane} : 32'd0);
  wire [31:0] r_byte_addr = c_byte_addr - c_addr_i + res_addr_i;

  reg  [31:0] q_y [0:Depth-1];
  reg  [31:0] q_addr [0:Depth-1];
  reg  [3:0]  q_strb [0:Depth-1];
  reg  [1:0]  q_rsel [0:Depth-1];
  reg  [31:0] q_r [0:Depth-1];
  reg  [QW-1:0] wp_q, dp_q, rp_q;
  reg  [QW:0]   cnt_q, dcnt_q;              // items issued and not popped; of those, with R

  wire        room = cnt_q != DEPTH_C;
  assign r_valid_o = en_i && in_valid_i && room;
  assign r_addr_o = {r_byte_addr[31:2], 2'b00};
  wire        issue = en_i && r_grant_i;    // the read is granted: the item enters the queue

  // ---- add pipeline --------------------------------------------------------------------------
  reg  [6:1]  v_q;
  reg  [31:0] addr_q [1:6];
  reg  [3:0]  strb_q [1:6];
  wire        en = !v_q[6] || w_grant_i;
  wire        pop = (dcnt_q != {(QW+1){1'b0}}) && en;

  wire [31:0] h_y = q_y[rp_q];
  wire [31:0] h_rw = q_r[rp_q];
  wire [1:0]  h_rsel = q_rsel[rp_q];
  wire [7:0]  h_rbyte = h_rw[8*h_rsel +: 8];
  wire [31:0] h_r = c_byte_i ? {4{h_rbyte}} : h_rw;

  wire [31:0] out_word;
  genvar gl;
  generate
    for (gl = 0; gl < 4; gl = gl + 1) begin : g_lane
      // y - Y_ZP and r - R_ZP fit 9 bits; the inputs' MBQM multiply them 9 x 32, then shift by L
      wire [8:0]  yd = {h_y[8*gl+7], h_y[8*gl +: 8]} - {y_zp_i[7], y_zp_i};
      wire [8:0]  rd = {h_r[8*gl+7], h_r[8*gl +: 8]} - {r_zp_i[7], r_zp_i};
      wire [31:0] sa, sb, so;
      ctnn_accel_mbqm_in u_a (
        .clk_i(clk_i), .rst_ni(rst_ni), .en_i(en), .d_i(yd), .lshift_i(lshift_i), .mult_i(mult_y_i),
        .shift_i(shift_y_i), .y_o(sa));
      ctnn_accel_mbqm_in u_b (
        .clk_i(clk_i), .rst_ni(rst_ni), .en_i(en), .d_i(rd), .lshift_i(lshift_i), .mult_i(mult_r_i),
        .shift_i(shift_r_i), .y_o(sb));
      ctnn_accel_mbqm u_o (
        .clk_i(clk_i), .rst_ni(rst_ni), .en_i(en), .x_i(sa + sb), .mult_i(mult_out_i),
        .shift_i(shift_out_i), .y_o(so));
      wire signed [32:0] yz = {so[31], so} + {{25{out_zp_i[7]}}, out_zp_i};
      wire signed [32:0] lo33 = {{25{lo_i[7]}}, lo_i};
      wire signed [32:0] hi33 = {{25{hi_i[7]}}, hi_i};
      wire signed [32:0] yc = (yz < lo33) ? lo33 : ((yz > hi33) ? hi33 : yz);
      assign out_word[8*gl +: 8] = yc[7:0];
    end
  endgenerate

  integer s;
  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      wp_q <= {QW{1'b0}}; dp_q <= {QW{1'b0}}; rp_q <= {QW{1'b0}};
      cnt_q <= {(QW+1){1'b0}}; dcnt_q <= {(QW+1){1'b0}};
      v_q <= 6'd0;
      for (s = 1; s <= 6; s = s + 1) begin addr_q[s] <= 32'd0; strb_q[s] <= 4'd0; end
    end else begin
      if (issue) begin
        q_y[wp_q] <= in_data_i;
        q_addr[wp_q] <= in_addr_i;
        q_strb[wp_q] <= in_strb_i;
        q_rsel[wp_q] <= r_byte_addr[1:0];
        wp_q <= wp_q + 1'b1;
      end
      if (rsp_valid_i) begin
        q_r[dp_q] <= rsp_rdata_i;
        dp_q <= dp_q + 1'b1;
      end
      if (pop) rp_q <= rp_q + 1'b1;
      cnt_q <= cnt_q + {{QW{1'b0}}, issue} - {{QW{1'b0}}, pop};
      dcnt_q <= dcnt_q + {{QW{1'b0}}, rsp_valid_i} - {{QW{1'b0}}, pop};
      if (en) begin
        v_q <= {v_q[5:1], pop};
        addr_q[1] <= q_addr[rp_q];
        strb_q[1] <= q_strb[rp_q];
        for (s = 2; s <= 6; s = s + 1) begin addr_q[s] <= addr_q[s-1]; strb_q[s] <= strb_q[s-1]; end
      end
    end
  end

  assign w_valid_o = en_i ? v_q[6] : in_valid_i;
  assign w_addr_o = en_i ? addr_q[6] : in_addr_i;
  assign w_data_o = !en_i ? in_data_i : (c_byte_i ? {4{out_word[7:0]}} : out_word);
  assign w_strb_o = en_i ? strb_q[6] : in_strb_i;
  assign in_grant_o = en_i ? issue : w_grant_i;
  assign idle_o = (cnt_q == {(QW+1){1'b0}}) && (v_q == 6'd0);
endmodule

`default_nettype wire
