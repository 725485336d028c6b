// Compute side of the accelerator: walks the output tiles, streams A columns and B rows from
// the scratchpads into the mesh with the skew it needs, and drains finished tiles.
//
// Tile walk (same order as ctnn_accel_load):  for blk: for mt: for nt < tiles in blk:
//   tile (mt, blk*NB + nt*DIM) takes Kp = max(K, KMIN) cycles, k = 0..Kp-1, zeros for k >= K.
//   The first k carries `first`: each PE moves its finished sum to its result register, and the
//   previous tile is drained 2*TILES cycles later, one row per cycle, while this one computes:
//
//   cycle:  c (read k=0)  c+1 (mesh row 0)  ...  c+2*TILES .. c+2*TILES+DIM-1
//           issue tile t   first at PE(0,0)       shift results up, push rows of tile t-1
//
// KMIN = 2*TILES + DIM keeps a drain finished before the next `first` reaches the array.
// A tile starts only when its A and B slots are full and the output FIFO has room for a
// whole tile (credits), so a stall never loses data: the mesh just accumulates zeros.
`default_nettype none

module ctnn_accel_feed #(
  parameter integer Dim      = 8,
  parameter integer TileDim  = 1,
  parameter integer NbTiles  = 8,
  parameter integer Log2KMax = 12
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire                run_i,
  // job
  input  wire [15:0]         m_i,
  input  wire [15:0]         n_i,
  input  wire [15:0]         k_i,
  input  wire [15:0]         kp_i,          // max(K, KMIN)
  input  wire [7:0]          a_zp_i,
  input  wire [7:0]          b_zp_i,
  input  wire [31:0]         c_addr_i,
  input  wire [31:0]         dim_ldc_i,     // DIM * LDC
  input  wire [19:0]         ldc_i,
  // slots
  input  wire [1:0]          a_full_i,
  input  wire [1:0]          b_full_i,
  output reg  [1:0]          a_free_o,
  output reg  [1:0]          b_free_o,
  // scratchpad reads (registered in the RAMs)
  output wire                rd_o,
  output wire [Log2KMax-4:0] a_raddr_o,     // {slot, k/16}
  input  wire [Dim*128-1:0]  a_rdata_i,     // bank i = row i, 16 bytes per entry
  output wire [Log2KMax:0]   b_raddr_o,     // {slot, k}: every bank reads it
  output wire [15:0]         b_tile_o,      // the tile whose banks the read is for
  input  wire [Dim*8-1:0]    b_rdata_i,     // column j = byte j
  // mesh
  output wire [Dim*9-1:0]    mesh_a_o,
  output wire [Dim*9-1:0]    mesh_b_o,
  output wire [Dim-1:0]      mesh_first_o,
  output wire                mesh_shift_o,
  // drained rows to the output FIFO (data comes straight from the mesh's top row)
  output wire                push_o,
  output wire [15:0]         push_row_o,    // C row index
  output wire [31:0]         push_caddr_o,  // byte address of C[row][0]
  output wire [15:0]         push_col0_o,   // first column of the tile
  output wire [15:0]         push_coloff_o, // first column of the tile inside its N block
  output wire                push_pslot_o,  // parameter slot of the block
  output wire                push_plast_o,  // last row of the block's last tile
  input  wire                pop_i,         // the writer took one row: one credit back
  // counters
  output reg                 mac_add_o,
  output reg  [31:0]         mac_inc_o,
  output wire                done_o
);
  localparam integer TILES = Dim / TileDim;
  localparam integer NB = NbTiles * Dim;
  localparam [15:0] DIM16 = Dim[15:0];
  localparam [15:0] NB16 = NB[15:0];
  localparam [15:0] NBT16 = NbTiles[15:0];
  localparam [5:0] DIM6 = Dim[5:0];
  localparam [5:0] FIFO_ROWS = DIM6 << 1;
  localparam integer DRAIN_WAIT_I = 2 * TILES - 1;
  localparam [7:0] DRAIN_WAIT = DRAIN_WAIT_I[7:0];

  // ---- tile walk -------------------------------------------------------------------------
  reg        issuing_q, all_q, pslot_q, prev_q;
  reg [15:0] k_q, nt_q, blk_q, row0_q, col0_q, blkcol0_q;
  reg [31:0] crow_q;
  reg [5:0]  credit_q;
  // the tile in flight in the mesh (drained when the next `first` is issued)
  reg [15:0] prev_row0_q, prev_col0_q, prev_coloff_q;
  reg [31:0] prev_crow_q;
  reg        prev_pslot_q, prev_last_q;

  wire        bslot = blk_q[0];
  wire        room = credit_q >= DIM6;
  wire        can_start = !issuing_q && !all_q && a_full_i[pslot_q] && b_full_i[bslot] &&
                          (!prev_q || room);
  wire        can_flush = !issuing_q && all_q && prev_q && room;
  wire        flag = can_start || can_flush;      // a `first` enters the pipeline
  wire        drain_sched = flag && prev_q;
  wire        fire = can_start || issuing_q;      // a scratchpad read this cycle
  wire [15:0] rd_k = issuing_q ? k_q : 16'd0;
  wire        tile_end = issuing_q && (k_q == kp_i - 16'd1);
  // last tile of the block, last M tile, last block: compared, never divided by DIM
  wire        last_nt = (nt_q == NBT16 - 16'd1) || ({1'b0, col0_q} + {1'b0, DIM16} >= {1'b0, n_i});
  wire        last_mt = {1'b0, row0_q} + {1'b0, DIM16} >= {1'b0, m_i};
  wire        last_blk = {1'b0, blkcol0_q} + {1'b0, NB16} >= {1'b0, n_i};
  wire [15:0] rows_left = m_i - row0_q;
  wire [15:0] cols_left_t = n_i - col0_q;
  wire [4:0]  rows_v = (rows_left >= DIM16) ? DIM16[4:0] : rows_left[4:0];
  wire [4:0]  cols_v = (cols_left_t >= DIM16) ? DIM16[4:0] : cols_left_t[4:0];
  wire [9:0]  rc_v = rows_v * cols_v;

  assign rd_o = fire;
  assign a_raddr_o = {pslot_q, rd_k[Log2KMax-1:4]};
  assign b_raddr_o = {bslot, rd_k[Log2KMax-1:0]};
  assign b_tile_o = nt_q;

  // ---- drain ------------------------------------------------------------------------------
  reg        dpend_q;
  reg [7:0]  dwait_q;
  reg [4:0]  dr_q;
  reg [15:0] d_row0_q, d_col0_q, d_coloff_q;
  reg [31:0] d_crow_q;
  reg        d_pslot_q, d_last_q;
  wire       draining = dpend_q && (dwait_q == 8'd0);

  assign mesh_shift_o = draining;
  assign push_o = draining;
  assign push_row_o = d_row0_q + {11'd0, dr_q};
  assign push_caddr_o = d_crow_q;
  assign push_col0_o = d_col0_q;
  assign push_coloff_o = d_coloff_q;
  assign push_pslot_o = d_pslot_q;
  assign push_plast_o = d_last_q && (dr_q == DIM16[4:0] - 5'd1);
  assign done_o = all_q && !prev_q && !dpend_q && !issuing_q;

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      issuing_q <= 1'b0; all_q <= 1'b0; pslot_q <= 1'b0; prev_q <= 1'b0;
      k_q <= 16'd0; nt_q <= 16'd0; blk_q <= 16'd0;
      row0_q <= 16'd0; col0_q <= 16'd0; blkcol0_q <= 16'd0; crow_q <= c_addr_i;
      credit_q <= FIFO_ROWS;
      prev_row0_q <= 16'd0; prev_col0_q <= 16'd0; prev_coloff_q <= 16'd0; prev_crow_q <= 32'd0;
      prev_pslot_q <= 1'b0; prev_last_q <= 1'b0;
      a_free_o <= 2'b00; b_free_o <= 2'b00;
      mac_add_o <= 1'b0; mac_inc_o <= 32'd0;
      dpend_q <= 1'b0; dwait_q <= 8'd0; dr_q <= 5'd0;
      d_row0_q <= 16'd0; d_col0_q <= 16'd0; d_coloff_q <= 16'd0; d_crow_q <= 32'd0;
      d_pslot_q <= 1'b0; d_last_q <= 1'b0;
    end else begin
      a_free_o <= 2'b00;
      b_free_o <= 2'b00;
      mac_add_o <= can_start;
      mac_inc_o <= {22'd0, rc_v} * {16'd0, k_i};
      credit_q <= credit_q - (drain_sched ? DIM6 : 6'd0) + (pop_i ? 6'd1 : 6'd0);

      if (can_start) begin
        issuing_q <= 1'b1;
        k_q <= 16'd1;
        prev_q <= 1'b1;
        prev_row0_q <= row0_q;
        prev_col0_q <= col0_q;
        prev_coloff_q <= col0_q - blkcol0_q;
        prev_crow_q <= crow_q;
        prev_pslot_q <= bslot;
        prev_last_q <= last_nt && last_mt;
      end else if (can_flush) begin
        prev_q <= 1'b0;
      end
      if (issuing_q) k_q <= k_q + 16'd1;
      if (tile_end) begin
        issuing_q <= 1'b0;
        if (!last_nt) begin
          nt_q <= nt_q + 16'd1;
          col0_q <= col0_q + DIM16;
        end else begin
          nt_q <= 16'd0;
          a_free_o <= 2'b01 << pslot_q;
          pslot_q <= !pslot_q;
          if (!last_mt) begin
            row0_q <= row0_q + DIM16;
            crow_q <= crow_q + dim_ldc_i;
            col0_q <= blkcol0_q;
          end else begin
            row0_q <= 16'd0;
            crow_q <= c_addr_i;
            b_free_o <= 2'b01 << bslot;
            blk_q <= blk_q + 16'd1;
            blkcol0_q <= blkcol0_q + NB16;
            col0_q <= blkcol0_q + NB16;
            if (last_blk) all_q <= 1'b1;
          end
        end
      end

      // drain: a schedule can only come after the previous drain ended (KMIN spacing)
      if (drain_sched) begin
        dpend_q <= 1'b1;
        dwait_q <= DRAIN_WAIT;
        dr_q <= 5'd0;
        d_row0_q <= prev_row0_q;
        d_col0_q <= prev_col0_q;
        d_coloff_q <= prev_coloff_q;
        d_crow_q <= prev_crow_q;
        d_pslot_q <= prev_pslot_q;
        d_last_q <= prev_last_q;
      end else if (dpend_q) begin
        if (dwait_q != 8'd0) begin
          dwait_q <= dwait_q - 8'd1;
        end else begin
          dr_q <= dr_q + 5'd1;
          d_crow_q <= d_crow_q + {12'd0, ldc_i};
          if (dr_q == DIM16[4:0] - 5'd1) dpend_q <= 1'b0;
        end
      end
    end
  end

  // ---- operand stage: byte select, zero points, padding ----------------------------------
  reg       s1_first_q, s1_pad_q;
  reg [3:0] s1_kb_q;
  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      s1_first_q <= 1'b0;
      s1_pad_q <= 1'b1;
      s1_kb_q <= 4'd0;
    end else begin
      s1_first_q <= flag;
      s1_pad_q <= !fire || (rd_k >= k_i);
      s1_kb_q <= rd_k[3:0];
    end
  end

  wire signed [8:0] a_zp9 = {a_zp_i[7], a_zp_i};
  wire signed [8:0] b_zp9 = {b_zp_i[7], b_zp_i};

  genvar i;
  generate
    for (i = 0; i < Dim; i = i + 1) begin : g_row
      localparam integer D = i / TileDim;   // skew of row i and of column i
      wire [127:0]      entry = a_rdata_i[128*i +: 128];
      wire [7:0]        abyte = entry[8*s1_kb_q +: 8];
      wire signed [8:0] a_val = s1_pad_q ? 9'sd0 : ($signed({abyte[7], abyte}) - a_zp9);
      wire [7:0]        bbyte = b_rdata_i[8*i +: 8];
      wire signed [8:0] b_val = s1_pad_q ? 9'sd0 : ($signed({bbyte[7], bbyte}) - b_zp9);
      if (D == 0) begin : g_direct
        assign mesh_a_o[9*i +: 9] = a_val;
        assign mesh_b_o[9*i +: 9] = b_val;
        assign mesh_first_o[i] = s1_first_q;
      end else begin : g_skew
        reg [8:0] a_sr_q [0:D-1];
        reg [8:0] b_sr_q [0:D-1];
        reg [D-1:0] f_sr_q;
        integer n;
        always @(posedge clk_i) begin
          a_sr_q[0] <= a_val;
          b_sr_q[0] <= b_val;
          f_sr_q[0] <= s1_first_q && rst_ni;
          for (n = 1; n < D; n = n + 1) begin
            a_sr_q[n] <= a_sr_q[n-1];
            b_sr_q[n] <= b_sr_q[n-1];
            f_sr_q[n] <= f_sr_q[n-1] && rst_ni;
          end
        end
        assign mesh_a_o[9*i +: 9] = a_sr_q[D-1];
        assign mesh_b_o[9*i +: 9] = b_sr_q[D-1];
        assign mesh_first_o[i] = f_sr_q[D-1];
      end
    end
  endgenerate
endmodule

`default_nettype wire
