// Store side of the accelerator: the output FIFO of drained tile rows, bias and
// requantization (4 lanes, one bus word per cycle), and the C write request stream.
//
//   int8 out: word g of a row = columns col0+4g .. col0+4g+3, wstrb masks columns >= N
//   int32 out (OUT_RAW): one word per column, acc + bias
//   int8 out to an unaligned C (C_ADDR or LDC not a multiple of 4): one byte write per column
// Rows >= M are dropped. Per-channel bias, multiplier and shift come from the parameter RAMs
// (written by ctnn_accel_load, slot per N block); the last row of a block frees its slot. With
// row parameters (CFG.ROW_PARAMS) entry r sits at address r / 4 of lane r % 4 for the whole job
// and every column of row r uses it.
`default_nettype none

module ctnn_accel_store #(
  parameter integer Dim     = 8,
  parameter integer NbTiles = 8
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  input  wire              run_i,
  // job
  input  wire [15:0]       m_i,
  input  wire [15:0]       n_i,
  input  wire              raw_i,
  input  wire              c_byte_i,      // int8 C written one byte per request
  input  wire              row_params_i,
  input  wire              bias_en_i,
  input  wire              per_channel_i,
  input  wire [31:0]       mult_i,
  input  wire [7:0]        shift_i,
  input  wire [7:0]        out_zp_i,
  input  wire [7:0]        lo_i,
  input  wire [7:0]        hi_i,
  // rows from the drain
  input  wire              push_i,
  input  wire [Dim*32-1:0] push_data_i,
  input  wire [15:0]       push_row_i,
  input  wire [31:0]       push_caddr_i,
  input  wire [15:0]       push_col0_i,
  input  wire [15:0]       push_coloff_i,
  input  wire              push_pslot_i,
  input  wire              push_plast_i,
  output reg               pop_o,
  output reg  [1:0]        p_free_o,
  // parameter RAM writes
  input  wire [3:0]        p_we_i,
  input  wire [1:0]        p_kind_i,
  input  wire [$clog2((NbTiles*Dim+3)/4):0] p_waddr_i,
  input  wire [31:0]       p_wdata_i,
  // write stream to the DMA (stream 0)
  output wire              w_valid_o,
  output wire [31:0]       w_addr_o,
  output wire [31:0]       w_data_o,
  output wire [3:0]        w_strb_o,
  input  wire              w_grant_i,
  output wire              idle_o
);
  localparam integer DEPTH = 2 * Dim;
  localparam integer AW = $clog2(DEPTH);
  localparam integer LAST_I = DEPTH - 1;  // the pointers wrap here (DEPTH need not be a power of 2)
  localparam [AW-1:0] LAST = LAST_I[AW-1:0];
  localparam integer PW = $clog2((NbTiles * Dim + 3) / 4) + 1;  // parameter RAM address bits
  localparam [15:0] DIM16 = Dim[15:0];

  // ---- FIFO --------------------------------------------------------------------------------
  reg [Dim*32-1:0] f_data_q  [0:DEPTH-1];
  reg [15:0]       f_row_q   [0:DEPTH-1];
  reg [31:0]       f_caddr_q [0:DEPTH-1];
  reg [15:0]       f_col0_q  [0:DEPTH-1];
  reg [15:0]       f_coloff_q[0:DEPTH-1];
  reg              f_pslot_q [0:DEPTH-1];
  reg              f_plast_q [0:DEPTH-1];
  reg [AW-1:0]     wr_q, rd_q;
  reg [AW:0]       cnt_q;
  wire             nonempty = cnt_q != {(AW+1){1'b0}};

  wire [Dim*32-1:0] h_data = f_data_q[rd_q];
  wire [15:0]       h_row = f_row_q[rd_q];
  wire [31:0]       h_caddr = f_caddr_q[rd_q];
  wire [15:0]       h_col0 = f_col0_q[rd_q];
  wire [15:0]       h_coloff = f_coloff_q[rd_q];
  wire              h_pslot = f_pslot_q[rd_q];
  wire              h_plast = f_plast_q[rd_q];

  // ---- item walk over the head row ---------------------------------------------------------
  reg  [15:0] g_q;
  wire [15:0] cols_left = n_i - h_col0;
  wire [15:0] cols_v = (cols_left >= DIM16) ? DIM16 : cols_left;
  wire        single = raw_i || c_byte_i;                    // one column per item
  wire [15:0] groups = single ? cols_v : ((cols_v + 16'd3) >> 2);
  wire        row_ok = h_row < m_i;

  wire        v3;              // last pipeline stage holds a request
  wire        en = !v3 || w_grant_i;
  wire        issue = en && nonempty && row_ok;
  wire        row_done = nonempty && (!row_ok || (issue && g_q == groups - 16'd1));
  wire        pop = row_done && en;

  // lanes of this item
  wire [15:0] col_first = single ? g_q : (g_q << 2);         // column inside the tile
  wire [15:0] pcol = h_coloff + col_first;                   // column inside the block
  wire [PW-1:0] p_raddr = row_params_i ? h_row[PW+1:2] : {h_pslot, pcol[PW:2]};
  wire [1:0]  p_lane = row_params_i ? h_row[1:0] : pcol[1:0];
  reg  [127:0] lanes;
  reg  [3:0]   strb;
  reg  [15:0]  lcol;
  integer l;
  always @(*) begin
    for (l = 0; l < 4; l = l + 1) begin
      lcol = col_first + l[15:0];
      // lcol < DIM except in the last group of a partial word (masked by strb or unused)
      lanes[32*l +: 32] = (lcol < DIM16) ? h_data[32*lcol +: 32] : 32'd0;
      strb[l] = (h_col0 + lcol) < n_i;
    end
    if (single) begin
      lanes[127:32] = 96'd0;
      strb = 4'hF;
    end
  end
  wire [31:0] byte_addr = h_caddr + {16'd0, h_col0} + {16'd0, g_q};
  wire [31:0] addr = raw_i ? h_caddr + {14'd0, h_col0 + g_q, 2'b00}
                   : c_byte_i ? {byte_addr[31:2], 2'b00}
                   : h_caddr + {16'd0, h_col0} + {14'd0, g_q, 2'b00};
  wire [3:0]  strb_item = c_byte_i ? (4'b0001 << byte_addr[1:0]) : strb;

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      wr_q <= {AW{1'b0}};
      rd_q <= {AW{1'b0}};
      cnt_q <= {(AW+1){1'b0}};
      g_q <= 16'd0;
      pop_o <= 1'b0;
      p_free_o <= 2'b00;
    end else begin
      if (push_i) begin
        f_data_q[wr_q] <= push_data_i;
        f_row_q[wr_q] <= push_row_i;
        f_caddr_q[wr_q] <= push_caddr_i;
        f_col0_q[wr_q] <= push_col0_i;
        f_coloff_q[wr_q] <= push_coloff_i;
        f_pslot_q[wr_q] <= push_pslot_i;
        f_plast_q[wr_q] <= push_plast_i;
        wr_q <= (wr_q == LAST) ? {AW{1'b0}} : wr_q + 1'b1;
      end
      if (pop) begin
        rd_q <= (rd_q == LAST) ? {AW{1'b0}} : rd_q + 1'b1;
        g_q <= 16'd0;
      end else if (issue) begin
        g_q <= g_q + 16'd1;
      end
      cnt_q <= cnt_q + {{AW{1'b0}}, push_i} - {{AW{1'b0}}, pop};
      pop_o <= pop;
      p_free_o <= (pop && h_plast) ? (2'b01 << h_pslot) : 2'b00;
    end
  end

  // ---- parameter RAMs: bias, multiplier, shift x 4 lanes -----------------------------------
  wire [32*4-1:0] bias_rd, mult_rd, shift_rd;
  genvar gl;
  generate
    for (gl = 0; gl < 4; gl = gl + 1) begin : g_lane
      ctnn_accel_spad #(.Width(32), .Depth(1 << PW)) u_bias (
        .clk_i(clk_i), .we_i(p_we_i[gl] && p_kind_i == 2'd1), .waddr_i(p_waddr_i),
        .wdata_i(p_wdata_i), .re_i(en), .raddr_i(p_raddr), .rdata_o(bias_rd[32*gl +: 32]));
      ctnn_accel_spad #(.Width(32), .Depth(1 << PW)) u_mult (
        .clk_i(clk_i), .we_i(p_we_i[gl] && p_kind_i == 2'd2), .waddr_i(p_waddr_i),
        .wdata_i(p_wdata_i), .re_i(en), .raddr_i(p_raddr), .rdata_o(mult_rd[32*gl +: 32]));
      ctnn_accel_spad #(.Width(32), .Depth(1 << PW)) u_shift (
        .clk_i(clk_i), .we_i(p_we_i[gl] && p_kind_i == 2'd3), .waddr_i(p_waddr_i),
        .wdata_i(p_wdata_i), .re_i(en), .raddr_i(p_raddr), .rdata_o(shift_rd[32*gl +: 32]));
    end
  endgenerate

  // ---- pipeline: p1 (params read), requant s1..s3 ------------------------------------------
  reg         v1_q, v2_q, v3_q, v4_q;
  reg [127:0] acc1_q;
  reg [1:0]   lane1_q;
  reg [31:0]  addr1_q, addr2_q, addr3_q, addr4_q;
  reg [3:0]   strb1_q, strb2_q, strb3_q, strb4_q;
  reg [31:0]  raw2_q, raw3_q, raw4_q;

  wire [1:0]  lane1 = lane1_q;
  wire [31:0] bias_raw = bias_en_i ? bias_rd[32*lane1 +: 32] : 32'd0;
  wire [31:0] raw_val = acc1_q[31:0] + bias_raw;
  wire [31:0] y_word;

  generate
    for (gl = 0; gl < 4; gl = gl + 1) begin : g_rq
      // the parameters of this lane's column, or of the item's only column / the row
      wire [1:0]  pl = (single || row_params_i) ? lane1 : gl[1:0];
      wire [31:0] x = acc1_q[32*gl +: 32] + (bias_en_i ? bias_rd[32*pl +: 32] : 32'd0);
      ctnn_accel_requant u_rq (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .en_i    (en),
        .x_i     (x),
        .mult_i  (per_channel_i ? mult_rd[32*pl +: 32] : mult_i),
        .shift_i (per_channel_i ? shift_rd[32*pl +: 8] : shift_i),
        .out_zp_i(out_zp_i),
        .lo_i    (lo_i),
        .hi_i    (hi_i),
        .y_o     (y_word[8*gl +: 8])
      );
    end
  endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      v1_q <= 1'b0; v2_q <= 1'b0; v3_q <= 1'b0; v4_q <= 1'b0;
      acc1_q <= 128'd0; lane1_q <= 2'd0;
      addr1_q <= 32'd0; addr2_q <= 32'd0; addr3_q <= 32'd0; addr4_q <= 32'd0;
      strb1_q <= 4'd0; strb2_q <= 4'd0; strb3_q <= 4'd0; strb4_q <= 4'd0;
      raw2_q <= 32'd0; raw3_q <= 32'd0; raw4_q <= 32'd0;
    end else if (en) begin
      v1_q <= issue;
      acc1_q <= lanes;
      lane1_q <= p_lane;
      addr1_q <= addr;
      strb1_q <= strb_item;
      v2_q <= v1_q; addr2_q <= addr1_q; strb2_q <= strb1_q; raw2_q <= raw_val;
      v3_q <= v2_q; addr3_q <= addr2_q; strb3_q <= strb2_q; raw3_q <= raw2_q;
      v4_q <= v3_q; addr4_q <= addr3_q; strb4_q <= strb3_q; raw4_q <= raw3_q;
    end
  end
  // requant lanes: x enters at p1 (v1), y_o is registered after three enables: aligned with v4
  assign v3 = v4_q;
  assign w_valid_o = v4_q;
  assign w_addr_o = addr4_q;
  assign w_data_o = raw_i ? raw4_q : (c_byte_i ? {4{y_word[7:0]}} : y_word);
  assign w_strb_o = strb4_q;
  assign idle_o = !nonempty && !v1_q && !v2_q && !v3_q && !v4_q;
endmodule

`default_nettype wire
