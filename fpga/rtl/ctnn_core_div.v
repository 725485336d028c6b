// ctnn_core_div: iterative RV32M divider (DIV/DIVU/REM/REMU), one quotient bit per cycle.
`default_nettype none

module ctnn_core_div (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        start_i,     // one-cycle pulse: latch the operands and begin
  input  wire        signed_i,    // DIV / REM
  input  wire        rem_i,       // REM / REMU: return the remainder
  input  wire [31:0] a_i,         // dividend
  input  wire [31:0] b_i,         // divisor
  output wire        done_o,      // one-cycle pulse: result_o is valid
  output wire [31:0] result_o
);
  // Division by zero and INT_MIN / -1 follow the spec without a trap:
  //   x / 0 = all ones, x % 0 = x; INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0
  // (the second falls out of the unsigned algorithm on |a| and |b|).
  reg [5:0]  count_q;        // remaining iterations; 0 = idle
  reg        busy_q;
  reg        done_q;
  reg [31:0] quo_q;          // dividend shifting out / quotient shifting in
  reg [31:0] rem_q;          // partial remainder
  reg [31:0] div_q;          // |divisor|
  reg        neg_quo_q;
  reg        neg_rem_q;
  reg        want_rem_q;
  reg [31:0] result_q;

  wire        a_neg = signed_i & a_i[31];
  wire        b_neg = signed_i & b_i[31];
  wire [31:0] a_abs = a_neg ? (~a_i + 32'd1) : a_i;
  wire [31:0] b_abs = b_neg ? (~b_i + 32'd1) : b_i;

  // One restoring step: shift the next dividend bit into the remainder, subtract if it fits.
  wire [32:0] shifted = {rem_q, quo_q[31]};
  wire [32:0] trial   = shifted - {1'b0, div_q};
  wire        fits    = ~trial[32];
  wire [31:0] rem_next = fits ? trial[31:0] : shifted[31:0];
  wire [31:0] quo_next = {quo_q[30:0], fits};

  wire [31:0] quo_final = neg_quo_q ? (~quo_next + 32'd1) : quo_next;
  wire [31:0] rem_final = neg_rem_q ? (~rem_next + 32'd1) : rem_next;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      count_q    <= 6'd0;
      busy_q     <= 1'b0;
      done_q     <= 1'b0;
      quo_q      <= 32'd0;
      rem_q      <= 32'd0;
      div_q      <= 32'd0;
      neg_quo_q  <= 1'b0;
      neg_rem_q  <= 1'b0;
      want_rem_q <= 1'b0;
      result_q   <= 32'd0;
    end else begin
      done_q <= 1'b0;
      if (start_i) begin
        if (b_i == 32'd0) begin
          result_q <= rem_i ? a_i : 32'hffff_ffff;
          done_q   <= 1'b1;
          busy_q   <= 1'b0;
        end else begin
          busy_q     <= 1'b1;
          count_q    <= 6'd32;
          quo_q      <= a_abs;
          rem_q      <= 32'd0;
          div_q      <= b_abs;
          neg_quo_q  <= a_neg ^ b_neg;
          neg_rem_q  <= a_neg;
          want_rem_q <= rem_i;
        end
      end else if (busy_q) begin
        quo_q   <= quo_next;
        rem_q   <= rem_next;
        count_q <= count_q - 6'd1;
        if (count_q == 6'd1) begin
          busy_q   <= 1'b0;
          done_q   <= 1'b1;
          result_q <= want_rem_q ? rem_final : quo_final;
        end
      end
    end
  end

  assign done_o   = done_q;
  assign result_o = result_q;
endmodule

`default_nettype wire
