// A TileDim x TileDim block of PEs wired combinationally (Gemmini's Tile): a and first flow
// right through a row in the same cycle, b flows down a column in the same cycle. The result
// chains run up the columns and leave at the top row.
`default_nettype none

module ctnn_tile #(
  parameter integer TileDim = 1
) (
  input  wire                      clk_i,
  input  wire                      rst_ni,
  input  wire [TileDim*9-1:0]      a_i,      // row r: a_i[r*9 +: 9]
  input  wire [TileDim*9-1:0]      b_i,      // column c: b_i[c*9 +: 9]
  input  wire [TileDim-1:0]        first_i,  // per row
  input  wire                      shift_i,
  input  wire [TileDim*32-1:0]     res_i,    // from the tile below, per column
  output wire [TileDim*9-1:0]      a_o,
  output wire [TileDim*9-1:0]      b_o,
  output wire [TileDim-1:0]        first_o,
  output wire [TileDim*32-1:0]     res_o     // top row results, per column
);
  // Internal nets: a/first between columns (TileDim+1 per row), b/res between rows.
  wire [9*TileDim*(TileDim+1)-1:0]  a_w;
  wire [TileDim*(TileDim+1)-1:0]    f_w;
  wire [9*TileDim*(TileDim+1)-1:0]  b_w;
  wire [32*TileDim*(TileDim+1)-1:0] r_w;

  genvar r, c;
  generate
    for (r = 0; r < TileDim; r = r + 1) begin : g_row_io
      assign a_w[9*(r*(TileDim+1)) +: 9] = a_i[9*r +: 9];
      assign f_w[r*(TileDim+1)] = first_i[r];
      assign a_o[9*r +: 9] = a_w[9*(r*(TileDim+1)+TileDim) +: 9];
      assign first_o[r] = f_w[r*(TileDim+1)+TileDim];
    end
    for (c = 0; c < TileDim; c = c + 1) begin : g_col_io
      // b enters at row 0 and leaves below the last row; res enters below and leaves at row 0.
      assign b_w[9*(c*(TileDim+1)) +: 9] = b_i[9*c +: 9];
      assign b_o[9*c +: 9] = b_w[9*(c*(TileDim+1)+TileDim) +: 9];
      assign r_w[32*(c*(TileDim+1)+TileDim) +: 32] = res_i[32*c +: 32];
      assign res_o[32*c +: 32] = r_w[32*(c*(TileDim+1)) +: 32];
    end
    for (r = 0; r < TileDim; r = r + 1) begin : g_r
      for (c = 0; c < TileDim; c = c + 1) begin : g_c
        ctnn_pe u_pe (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .a_i    (a_w[9*(r*(TileDim+1)+c) +: 9]),
          .b_i    (b_w[9*(c*(TileDim+1)+r) +: 9]),
          .first_i(f_w[r*(TileDim+1)+c]),
          .shift_i(shift_i),
          .res_i  (r_w[32*(c*(TileDim+1)+r+1) +: 32]),
          .a_o    (a_w[9*(r*(TileDim+1)+c+1) +: 9]),
          .b_o    (b_w[9*(c*(TileDim+1)+r+1) +: 9]),
          .first_o(f_w[r*(TileDim+1)+c+1]),
          .res_o  (r_w[32*(c*(TileDim+1)+r) +: 32])
        );
      end
    end
  endgenerate
endmodule

`default_nettype wire
