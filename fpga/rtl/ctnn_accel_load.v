// Load side of the accelerator's DMA: two request streams and the scratchpad write ports.
//
//   stream A: A panels, DIM rows x K bytes, in the order the feeder uses them:
//             for blk in N blocks: for mt in M tiles: panel (mt)  -> A slot (panel count & 1)
//             bank i <- row mt*DIM+i, word w = bytes 4w..4w+3 of the row
//   stream B: per N block of NB = NbTiles*DIM columns: bias, multipliers, shifts (when used),
//             then B rows k = 0..K-1 -> B slot (blk & 1); word q of a row holds columns
//             4q..4q+3 of the block and goes to bank q % (DIM/4) of tile q / (DIM/4)
//
// Both streams skip rows and words outside M and N. A slot is filled only when the feeder has
// freed it; a B slot only when the feeder and the writer (its parameters) have freed it.
`default_nettype none

module ctnn_accel_load #(
  parameter integer Dim      = 8,
  parameter integer NbTiles  = 8,
  parameter integer Log2KMax = 12
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  input  wire                run_i,        // 0: clear all state (between jobs, on abort)
  // job
  input  wire [15:0]         m_i,
  input  wire [15:0]         n_i,
  input  wire [15:0]         k_i,
  input  wire [31:0]         a_addr_i,
  input  wire [31:0]         b_addr_i,
  input  wire [31:0]         bias_addr_i,
  input  wire [31:0]         mult_addr_i,
  input  wire [31:0]         shift_addr_i,
  input  wire [19:0]         lda_i,
  input  wire [19:0]         ldb_i,
  input  wire                bias_en_i,
  input  wire                per_channel_i,
  input  wire [15:0]         mt_count_i,   // ceil(M / DIM)
  input  wire [15:0]         nblk_count_i, // ceil(N / NB)
  input  wire [31:0]         dim_lda_i,    // DIM * LDA
  // slot handshakes
  input  wire [1:0]          a_free_i,
  input  wire [1:0]          b_free_i,
  input  wire [1:0]          p_free_i,
  output reg  [1:0]          a_full_o,
  output reg  [1:0]          b_full_o,
  // DMA streams (1 = A, 2 = B) and responses
  output wire                a_valid_o,
  output wire [31:0]         a_req_addr_o,
  output wire [31:0]         a_tag_o,
  input  wire                a_grant_i,
  output wire                b_valid_o,
  output wire [31:0]         b_req_addr_o,
  output wire [31:0]         b_tag_o,
  input  wire                b_grant_i,
  input  wire                r_valid_i,
  input  wire [1:0]          r_stream_i,
  input  wire [31:0]         r_tag_i,
  input  wire [31:0]         r_rdata_i,
  // scratchpad write ports
  output reg  [Dim-1:0]      a_we_o,       // one bank per row
  output reg  [Log2KMax-2:0] a_waddr_o,    // {slot, word}
  output reg  [Dim/4-1:0]    b_we_o,       // one bank per 4 columns of a tile
  output reg  [Log2KMax+$clog2(NbTiles):0] b_waddr_o,  // {slot, tile, k}
  output reg  [31:0]         wdata_o,
  output reg  [3:0]          p_we_o,       // parameter lane (column % 4)
  output reg  [1:0]          p_kind_o,     // 1 bias, 2 multiplier, 3 shift
  output reg  [$clog2(NbTiles*Dim/4):0] p_waddr_o,  // {slot, column / 4}
  output reg                 shift_err_o   // a per-channel shift outside [-31, 30]
);
  localparam integer NB = NbTiles * Dim;
  localparam [15:0] DIM16 = Dim[15:0];
  localparam [15:0] NB16 = NB[15:0];
  localparam integer KW_BITS = Log2KMax - 2;        // word index in an A row
  localparam integer TB = $clog2(NbTiles);          // tile index bits (0 when NbTiles = 1)
  localparam integer QB = $clog2(Dim / 4);          // bank index bits inside a tile
  localparam [1:0] PH_BIAS = 2'd1, PH_MULT = 2'd2, PH_SHIFT = 2'd3, PH_B = 2'd0;
  localparam [Dim-1:0] A_ONE = 1;
  localparam [Dim/4-1:0] B_ONE = 1;

  // Parameters of a B slot stay in use until the writer has stored the block's last tile.
  reg [1:0] b_pbusy_q;

  // ---- stream A --------------------------------------------------------------------------
  reg        a_active_q, a_slot_q, a_all_q;
  reg [15:0] a_mt_q, a_blk_q;
  reg [15:0] a_row0_q;            // first row of the panel
  reg [4:0]  a_i_q, a_rows_q;     // row in panel, valid rows (<= 16)
  reg [15:0] a_w_q;               // word in row
  reg [31:0] a_addr_q, a_row_addr_q, a_panel_q;
  wire [15:0] a_kw = (k_i + 16'd3) >> 2;
  wire [15:0] a_left = m_i - a_row0_q;
  wire [4:0]  a_rows_now = (a_left >= DIM16) ? DIM16[4:0] : a_left[4:0];
  wire a_last = (a_i_q == a_rows_q - 5'd1) && (a_w_q == a_kw - 16'd1);

  assign a_valid_o = a_active_q && run_i;
  assign a_req_addr_o = a_addr_q;
  // tag: [31] last, [30] slot, [29:25] bank, [KW_BITS-1:0] word
  assign a_tag_o = {a_last, a_slot_q, a_i_q, {(25-KW_BITS){1'b0}}, a_w_q[KW_BITS-1:0]};

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      a_active_q <= 1'b0; a_slot_q <= 1'b0; a_all_q <= 1'b0;
      a_mt_q <= 16'd0; a_blk_q <= 16'd0; a_row0_q <= 16'd0;
      a_i_q <= 5'd0; a_rows_q <= 5'd0; a_w_q <= 16'd0;
      a_addr_q <= 32'd0; a_row_addr_q <= 32'd0; a_panel_q <= a_addr_i;
    end else if (!a_active_q) begin
      if (!a_all_q && !a_full_o[a_slot_q] && !(a_free_i[a_slot_q])) begin
        a_active_q <= 1'b1;
        a_i_q <= 5'd0;
        a_w_q <= 16'd0;
        a_rows_q <= a_rows_now;
        a_addr_q <= a_panel_q;
        a_row_addr_q <= a_panel_q;
      end
    end else if (a_grant_i) begin
      if (a_last) begin
        a_active_q <= 1'b0;
        a_slot_q <= !a_slot_q;
        if (a_mt_q == mt_count_i - 16'd1) begin
          a_mt_q <= 16'd0;
          a_row0_q <= 16'd0;
          a_panel_q <= a_addr_i;
          a_blk_q <= a_blk_q + 16'd1;
          if (a_blk_q == nblk_count_i - 16'd1) a_all_q <= 1'b1;
        end else begin
          a_mt_q <= a_mt_q + 16'd1;
          a_row0_q <= a_row0_q + DIM16;
          a_panel_q <= a_panel_q + dim_lda_i;
        end
      end else if (a_w_q == a_kw - 16'd1) begin
        a_w_q <= 16'd0;
        a_i_q <= a_i_q + 5'd1;
        a_row_addr_q <= a_row_addr_q + {12'd0, lda_i};
        a_addr_q <= a_row_addr_q + {12'd0, lda_i};
      end else begin
        a_w_q <= a_w_q + 16'd1;
        a_addr_q <= a_addr_q + 32'd4;
      end
    end
  end

  // ---- stream B --------------------------------------------------------------------------
  reg        b_active_q, b_slot_q, b_all_q;
  reg [1:0]  b_phase_q;
  reg [15:0] b_blk_q, b_col0_q;
  reg [15:0] b_c_q;               // parameter column in block
  reg [15:0] b_k_q;               // B row
  reg [15:0] b_q_q;               // word in B row (0 .. ceil(cols/4)-1)
  reg [15:0] b_cols_q;            // valid columns in block
  reg [31:0] b_addr_q, b_row_addr_q;
  wire [15:0] b_left = n_i - b_col0_q;
  wire [15:0] b_cols_now = (b_left >= NB16) ? NB16 : b_left;
  wire [15:0] b_nbw = (b_cols_q + 16'd3) >> 2;
  wire b_row_end = (b_q_q == b_nbw - 16'd1);
  wire b_par_end = (b_c_q == b_cols_q - 16'd1);
  wire b_last = (b_phase_q == PH_B) && b_row_end && (b_k_q == k_i - 16'd1);
  wire [1:0] b_first_phase = bias_en_i ? PH_BIAS : (per_channel_i ? PH_MULT : PH_B);
  wire [1:0] b_after_bias = per_channel_i ? PH_MULT : PH_B;
  wire [31:0] b_col0_bytes = {16'd0, b_col0_q};
  wire [31:0] b_col0_words = {14'd0, b_col0_q, 2'b00};
  // tile and bank of word q (q = tile * DIM/4 + bank)
  wire [15:0] b_tile = b_q_q >> QB;
  wire [3:0]  b_bank = b_q_q[3:0] & ((4'd1 << QB) - 4'd1);
  wire [23:0] b_addr_b = ({23'd0, b_slot_q} << (TB + Log2KMax)) | ({8'd0, b_tile} << Log2KMax)
                        | {8'd0, b_k_q};
  wire [15:0] b_paddr = ({15'd0, b_slot_q} << $clog2(NB / 4)) | (b_c_q >> 2);
  // tag: [31] last, [30] slot, [29:28] kind, [27:24] bank or lane, [23:0] address
  assign b_valid_o = b_active_q && run_i;
  assign b_req_addr_o = b_addr_q;
  assign b_tag_o = (b_phase_q == PH_B)
      ? {b_last, b_slot_q, PH_B, b_bank, b_addr_b}
      : {1'b0, b_slot_q, b_phase_q, 2'b00, b_c_q[1:0], 8'd0, b_paddr};

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      b_active_q <= 1'b0; b_slot_q <= 1'b0; b_all_q <= 1'b0; b_phase_q <= PH_B;
      b_blk_q <= 16'd0; b_col0_q <= 16'd0; b_c_q <= 16'd0; b_k_q <= 16'd0; b_q_q <= 16'd0;
      b_cols_q <= 16'd0; b_addr_q <= 32'd0; b_row_addr_q <= 32'd0;
    end else if (!b_active_q) begin
      if (!b_all_q && !b_full_o[b_slot_q] && !b_pbusy_q[b_slot_q] && !b_free_i[b_slot_q]) begin
        b_active_q <= 1'b1;
        b_cols_q <= b_cols_now;
        b_phase_q <= b_first_phase;
        b_c_q <= 16'd0; b_k_q <= 16'd0; b_q_q <= 16'd0;
        case (b_first_phase)
          PH_BIAS: b_addr_q <= bias_addr_i + b_col0_words;
          PH_MULT: b_addr_q <= mult_addr_i + b_col0_words;
          default: b_addr_q <= b_addr_i + b_col0_bytes;
        endcase
        b_row_addr_q <= b_addr_i + b_col0_bytes;
      end
    end else if (b_grant_i) begin
      if (b_phase_q != PH_B) begin
        if (b_par_end) begin
          b_c_q <= 16'd0;
          if (b_phase_q == PH_BIAS) begin
            b_phase_q <= b_after_bias;
            b_addr_q <= per_channel_i ? mult_addr_i + b_col0_words : b_row_addr_q;
          end else if (b_phase_q == PH_MULT) begin
            b_phase_q <= PH_SHIFT;
            b_addr_q <= shift_addr_i + b_col0_words;
          end else begin
            b_phase_q <= PH_B;
            b_addr_q <= b_row_addr_q;
          end
        end else begin
          b_c_q <= b_c_q + 16'd1;
          b_addr_q <= b_addr_q + 32'd4;
        end
      end else if (b_last) begin
        b_active_q <= 1'b0;
        b_slot_q <= !b_slot_q;
        b_blk_q <= b_blk_q + 16'd1;
        b_col0_q <= b_col0_q + NB16;
        if (b_blk_q == nblk_count_i - 16'd1) b_all_q <= 1'b1;
      end else if (b_row_end) begin
        b_q_q <= 16'd0;
        b_k_q <= b_k_q + 16'd1;
        b_row_addr_q <= b_row_addr_q + {12'd0, ldb_i};
        b_addr_q <= b_row_addr_q + {12'd0, ldb_i};
      end else begin
        b_q_q <= b_q_q + 16'd1;
        b_addr_q <= b_addr_q + 32'd4;
      end
    end
  end

  // ---- responses -> scratchpads, full flags ----------------------------------------------
  // A slot becomes full in the cycle its last word is written, so the feeder's first read
  // of it comes after that write.
  reg a_last_q, b_last_q, last_slot_q;
  wire r_a = r_valid_i && (r_stream_i == 2'd1);
  wire r_b = r_valid_i && (r_stream_i == 2'd2);
  wire [1:0] r_kind = r_tag_i[29:28];
  wire signed [31:0] r_shift = r_rdata_i;

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      a_full_o <= 2'b00;
      b_full_o <= 2'b00;
      b_pbusy_q <= 2'b00;
      a_we_o <= {Dim{1'b0}};
      b_we_o <= {(Dim/4){1'b0}};
      p_we_o <= 4'd0;
      a_waddr_o <= {(Log2KMax-1){1'b0}};
      b_waddr_o <= {(Log2KMax+TB+1){1'b0}};
      p_waddr_o <= {($clog2(NB/4)+1){1'b0}};
      p_kind_o <= 2'd0;
      wdata_o <= 32'd0;
      shift_err_o <= 1'b0;
      a_last_q <= 1'b0;
      b_last_q <= 1'b0;
      last_slot_q <= 1'b0;
    end else begin
      a_we_o <= r_a ? (A_ONE << r_tag_i[29:25]) : {Dim{1'b0}};
      a_waddr_o <= {r_tag_i[30], r_tag_i[KW_BITS-1:0]};
      b_we_o <= (r_b && r_kind == PH_B) ? (B_ONE << r_tag_i[27:24])
                                        : {(Dim/4){1'b0}};
      b_waddr_o <= r_tag_i[Log2KMax+TB:0];
      p_we_o <= (r_b && r_kind != PH_B) ? (4'b0001 << r_tag_i[25:24]) : 4'd0;
      p_kind_o <= r_kind;
      p_waddr_o <= r_tag_i[$clog2(NB/4):0];
      wdata_o <= r_rdata_i;
      shift_err_o <= r_b && r_kind == PH_SHIFT && (r_shift < -32'sd31 || r_shift > 32'sd30);
      a_last_q <= r_a && r_tag_i[31];
      b_last_q <= r_b && r_tag_i[31];
      last_slot_q <= r_tag_i[30];
      a_full_o <= (a_full_o | (a_last_q ? (2'b01 << last_slot_q) : 2'b00)) & ~a_free_i;
      b_full_o <= (b_full_o | (b_last_q ? (2'b01 << last_slot_q) : 2'b00)) & ~b_free_i;
      b_pbusy_q <= (b_pbusy_q | (b_last_q ? (2'b01 << last_slot_q) : 2'b00)) & ~p_free_i;
    end
  end
endmodule

`default_nettype wire
