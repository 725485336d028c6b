// The Dim x Dim PE array as a grid of (Dim/TileDim)^2 tiles with a register between tiles
// (Gemmini's Mesh). Element k of row i meets element k of column j in PE (i, j) at cycle
// k + i/TileDim + j/TileDim after injection, so the feeder delays row i by i/TileDim cycles and
// column j by j/TileDim cycles. Results leave through the top row (res_o) when shift_i is high.
`default_nettype none

module ctnn_mesh #(
  parameter integer Dim     = 8,
  parameter integer TileDim = 1
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire [Dim*9-1:0]     a_i,      // row i: a_i[i*9 +: 9], skewed by i/TileDim
  input  wire [Dim*9-1:0]     b_i,      // column j: b_i[j*9 +: 9], skewed by j/TileDim
  input  wire [Dim-1:0]       first_i,  // per row, skewed like a
  input  wire                 shift_i,
  output wire [Dim*32-1:0]    res_o     // top row, column j: res_o[j*32 +: 32]
);
  localparam integer TILES = Dim / TileDim;
  localparam integer TW = TileDim;

  // Per tile (tr, tc): inputs and outputs, flattened by tile index tr*TILES+tc.
  wire [TILES*TILES*TW*9-1:0]  ta_in, tb_in;
  wire [TILES*TILES*TW*9-1:0]  ta_out;   // the last tile column's a leaves the mesh unused
  wire [TILES*TILES*TW*9-1:0]  tb_out;   // the last tile row's b leaves the mesh unused
  wire [TILES*TILES*TW-1:0]    tf_in;
  wire [TILES*TILES*TW-1:0]    tf_out;   // as ta_out
  wire [TILES*TILES*TW*32-1:0] tr_in, tr_out;

  genvar tr, tc;
  generate
    for (tr = 0; tr < TILES; tr = tr + 1) begin : g_tr
      for (tc = 0; tc < TILES; tc = tc + 1) begin : g_tc
        localparam integer T = tr * TILES + tc;
        // a and first: from the mesh input at column 0, else registered from the left tile.
        if (tc == 0) begin : g_a_in
          assign ta_in[T*TW*9 +: TW*9] = a_i[tr*TW*9 +: TW*9];
          assign tf_in[T*TW +: TW] = first_i[tr*TW +: TW];
        end else begin : g_a_reg
          reg [TW*9-1:0] a_q;
          reg [TW-1:0]   f_q;
          always @(posedge clk_i) begin
            if (!rst_ni) begin
              a_q <= {TW*9{1'b0}};
              f_q <= {TW{1'b0}};
            end else begin
              a_q <= ta_out[(T-1)*TW*9 +: TW*9];
              f_q <= tf_out[(T-1)*TW +: TW];
            end
          end
          assign ta_in[T*TW*9 +: TW*9] = a_q;
          assign tf_in[T*TW +: TW] = f_q;
        end
        // b: from the mesh input at row 0, else registered from the tile above.
        if (tr == 0) begin : g_b_in
          assign tb_in[T*TW*9 +: TW*9] = b_i[tc*TW*9 +: TW*9];
        end else begin : g_b_reg
          reg [TW*9-1:0] b_q;
          always @(posedge clk_i) begin
            if (!rst_ni) b_q <= {TW*9{1'b0}};
            else b_q <= tb_out[(T-TILES)*TW*9 +: TW*9];
          end
          assign tb_in[T*TW*9 +: TW*9] = b_q;
        end
        // Result chain: from the tile below (zeros under the bottom row), not registered
        // between tiles: every PE's res_q is already a register of the chain.
        if (tr == TILES - 1) begin : g_r_bottom
          assign tr_in[T*TW*32 +: TW*32] = {TW*32{1'b0}};
        end else begin : g_r_chain
          assign tr_in[T*TW*32 +: TW*32] = tr_out[(T+TILES)*TW*32 +: TW*32];
        end
        if (tr == 0) begin : g_res_out
          assign res_o[tc*TW*32 +: TW*32] = tr_out[T*TW*32 +: TW*32];
        end

        ctnn_tile #(.TileDim(TW)) u_tile (
          .clk_i  (clk_i),
          .rst_ni (rst_ni),
          .a_i    (ta_in[T*TW*9 +: TW*9]),
          .b_i    (tb_in[T*TW*9 +: TW*9]),
          .first_i(tf_in[T*TW +: TW]),
          .shift_i(shift_i),
          .res_i  (tr_in[T*TW*32 +: TW*32]),
          .a_o    (ta_out[T*TW*9 +: TW*9]),
          .b_o    (tb_out[T*TW*9 +: TW*9]),
          .first_o(tf_out[T*TW +: TW]),
          .res_o  (tr_out[T*TW*32 +: TW*32])
        );
      end
    end
  endgenerate
endmodule

`default_nettype wire
