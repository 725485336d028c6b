// One processing element of the output-stationary GEMM array: a 9x9-bit signed multiplier, an
// int32 accumulator and a result register that is part of a column shift chain.
//
//   a_i --> [PE] --> a_o        first_i marks the first k of a new output tile: the finished
//   b_i     |   |    (same        sum moves to res_q and the accumulator restarts with a*b.
//           v   |    cycle)     shift_i moves res_q one PE up the column (res_i from below).
//          b_o  res_o
`default_nettype none

module ctnn_pe (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire signed [8:0]  a_i,      // A value minus its zero point
  input  wire signed [8:0]  b_i,      // B value minus its zero point
  input  wire               first_i,  // first k of a new tile (travels with a)
  input  wire               shift_i,  // move the result chain up by one PE
  input  wire        [31:0] res_i,    // result of the PE below (0 at the bottom row)
  output wire signed [8:0]  a_o,
  output wire signed [8:0]  b_o,
  output wire               first_o,
  output wire        [31:0] res_o
);
  wire signed [17:0] prod = a_i * b_i;
  wire        [31:0] prod_ext = {{14{prod[17]}}, prod};

  reg [31:0] acc_q;
  reg [31:0] res_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      acc_q <= 32'd0;
      res_q <= 32'd0;
    end else begin
      acc_q <= first_i ? prod_ext : acc_q + prod_ext;  // wraps mod 2^32, like the reference
      if (first_i) res_q <= acc_q;
      else if (shift_i) res_q <= res_i;
    end
  end

  assign a_o = a_i;
  assign b_o = b_i;
  assign first_o = first_i;
  assign res_o = res_q;
endmodule

`default_nettype wire
