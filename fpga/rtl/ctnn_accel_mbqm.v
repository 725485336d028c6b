// TFLite MultiplyByQuantizedMultiplier on one int32, three pipeline stages with a common enable
// (the first two stages of ctnn_accel_requant, without the zero point and the clamp):
//   s1: x' = x << max(shift, 0)                         (wraps mod 2^32)
//   s2: ab = x' * multiplier                            (64-bit)
//   s3: h = SaturatingRoundingDoublingHighMul(x', multiplier), y = RoundingDivideByPOT(h, max(-shift, 0))
// y_o is registered: it holds the result of the x_i seen three enables earlier.
// Bit-exact with ctnn::quant::multiply_by_quantized_multiplier (used by the residual add).
`default_nettype none

module ctnn_accel_mbqm (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        en_i,
  input  wire [31:0] x_i,
  input  wire [31:0] mult_i,
  input  wire [7:0]  shift_i,     // signed, [-31, 30]
  output reg  [31:0] y_o
);
  // ---- s1 ----
  wire        shift_pos = !shift_i[7] && (shift_i != 8'd0);
  wire [4:0]  left = shift_pos ? shift_i[4:0] : 5'd0;
  wire [7:0]  neg_shift = 8'd0 - shift_i;
  wire [5:0]  right = shift_pos ? 6'd0 : neg_shift[5:0];
  reg  [31:0] xs_q, m1_q;
  reg  [5:0]  r1_q, r2_q;
  // ---- s2 ----
  reg  signed [63:0] ab_q;
  reg                ovf_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      xs_q <= 32'd0; m1_q <= 32'd0; r1_q <= 6'd0; r2_q <= 6'd0;
      ab_q <= 64'sd0; ovf_q <= 1'b0;
    end else if (en_i) begin
      xs_q <= x_i << left;
      m1_q <= mult_i;
      r1_q <= right;
      ab_q <= $signed(xs_q) * $signed(m1_q);
      ovf_q <= (xs_q == 32'h8000_0000) && (m1_q == 32'h8000_0000);
      r2_q <= r1_q;
    end
  end

  // ---- s3 (combinational into y_o) ----
  wire signed [63:0] nudge = ab_q[63] ? (64'sd1 - (64'sd1 <<< 30)) : (64'sd1 <<< 30);
  wire signed [63:0] sum = ab_q + nudge;
  wire signed [63:0] sum_adj = sum[63] ? sum + 64'sh7FFF_FFFF : sum;   // truncate toward zero
  wire signed [63:0] quo = sum_adj >>> 31;
  wire signed [31:0] h = ovf_q ? 32'sh7FFF_FFFF : quo[31:0];
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
