// MultiplyByQuantizedMultiplier of one input of the residual add, (d << L) with d = an int8 minus
// its zero point (9 bits signed) and L <= 22: three pipeline stages with a common enable, bit-exact
// with ctnn_accel_mbqm on x = d << L for a shift <= 0 (ctnn::ref::valid(add_s8_params): the add's
// input shifts are <= 0; the controller refuses others with BAD_SHIFT). Since |d << L| < 2^31 the
// product x * multiplier is (d * multiplier) << L: a 9 x 32 multiplier instead of 32 x 32, and
// x never equals INT32_MIN (no saturation case).
//   s1: d, multiplier, L, right = -shift
//   s2: ab = (d * multiplier) << L                      (64-bit)
//   s3: h = (ab + nudge) / 2^31 toward zero, y = RoundingDivideByPOT(h, right)
`default_nettype none

module ctnn_accel_mbqm_in (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        en_i,
  input  wire [8:0]  d_i,         // signed
  input  wire [4:0]  lshift_i,    // L, at most 22
  input  wire [31:0] mult_i,
  input  wire [7:0]  shift_i,     // signed, [-31, 0]
  output reg  [31:0] y_o
);
  // ---- s1 ----
  wire [7:0]  neg_shift = 8'd0 - shift_i;
  reg  [8:0]  d1_q;
  reg  [31:0] m1_q;
  reg  [4:0]  l1_q;
  reg  [5:0]  r1_q, r2_q;
  // ---- s2 ----
  reg  signed [63:0] ab_q;
  wire signed [40:0] prod = $signed(d1_q) * $signed(m1_q);

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      d1_q <= 9'd0; m1_q <= 32'd0; l1_q <= 5'd0; r1_q <= 6'd0; r2_q <= 6'd0;
      ab_q <= 64'sd0;
    end else if (en_i) begin
      d1_q <= d_i;
      m1_q <= mult_i;
      l1_q <= lshift_i;
      r1_q <= neg_shift[5:0];
      ab_q <= {{23{prod[40]}}, prod} <<< l1_q;
      r2_q <= r1_q;
    end
  end

  // ---- s3 (combinational into y_o), as ctnn_accel_mbqm ----
  wire signed [63:0] nudge = ab_q[63] ? (64'sd1 - (64'sd1 <<< 30)) : (64'sd1 <<< 30);
  wire signed [63:0] sum = ab_q + nudge;
  wire signed [63:0] sum_adj = sum[63] ? sum + 64'sh7FFF_FFFF : sum;   // truncate toward zero
  wire signed [63:0] quo = sum_adj >>> 31;
  wire signed [31:0] h = quo[31:0];
  wire        [31:0] mask = (r2_q == 6'd0) ? 32'd0 : (32'hFFFF_FFFF >> (6'd32 - r2_q));
  wire        [31:0] rem = h & mask;
  wire        [31:0] thr = (mask >> 1) + {31'd0, h[31]};
  wire signed [31:0] shr = h >>> r2_q;
  wire signed [31:0] y = shr + ((rem > thr) ? 32'sd1 : 32'sd0);

  always @(posedge clk_i) begin
    if (!rst_ni) y_o <= 32'd0;
    else if (en_i) y_o <= y;
  end
endmodule

`default_nettype wire
