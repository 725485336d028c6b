// Load side of the accelerator's DMA: two request streams and the scratchpad write ports.
//
//   stream A: A panels, DIM rows x K bytes, in the order the feeder uses them:
//             for blk in N blocks: for mt in M tiles: panel (mt)  -> A slot (panel count & 1)
//             bank i <- row mt*DIM+i, entry t = bytes 16t..16t+15 of the row, read as 16-byte
//             lines (BUS.md "The DMA's line port") at any alignment:
//
//               row at address s, off = s % 16:  lines s/16, s/16 + 1, ... (K + 15) / 16 of them,
//               one more when off != 0; entry t = {line t+1, line t} >> 8*off (off = 0: line t),
//               the first line of a row only fills the hold when off != 0, and a last line past
//               the row's last byte is the row's last line read again (never beyond the row)
//   stream B: per N block of NB = NbTiles*DIM columns: bias, multipliers, shifts (when used),
//             then B rows k = 0..K-1 -> B slot (blk & 1); word q of a row holds columns
//             4q..4q+3 of the block and goes to bank q % (DIM/4) of tile q / (DIM/4)
//
// Both streams skip rows and words outside M and N. A slot is filled only when the feeder has
// freed it; a B slot only when the feeder and the writer (its parameters) have freed it.
//
// Byte items: in CFG.CONV with a horizontal stride other than 1 the B rows are gathered one byte
// per request from the CHW input (the implicit im2col: row k = (c, ky, kx), column n = (oy, ox),
// padding reads as B_ZP). A byte item's tag carries its lane in the scratchpad word and whether
// it ends the word; the response side assembles the word and writes it with the last byte.
//
// Run items (CFG.CONV with SW = 1, DIM a multiple of 4): a scratchpad word's four columns are cut
// into runs that stay in one output row and are all padding or all inside the input; the bytes of
// a real run are adjacent in memory, so one aligned bus word (or two) holds them:
//
//   lanes     0   1   2   3        run = lanes lo..3 of the word, first byte at address a
//   bytes   [s  s+1 s+2 s+3]       s = a - lo, off = s % 4
//   words   |hold  ...|cur ...|    a run crossing a word boundary takes its low bytes from the
//                                  previous real word read (hold), its high bytes from this one
//
// The response side keeps the last real B word (hold) and writes lanes lo..3 of the funnel
// shift {cur, hold} >> 8*off (or of cur rotated by off when the run fits in one word), keeping
// lanes below lo; a later run of the same word overwrites the lanes past its own. The request
// side knows which word the hold will contain: when a crossing run's low word is not it, a
// prefetch item (same run, no write) reads it first. Along an output row each word of input is
// read about once: one request per four columns instead of four. Padding runs read B_ADDR's word
// and write B_ZP in their lanes. A gathered address outside RAM stops the job (range_err_o)
// before it is requested (RAM's bounds are word aligned, so checking the requested word checks
// the run's bytes in it). With CFG.ROW_PARAMS the bias, multiplier and shift vectors (M entries)
// are loaded once, before the first block, to parameter address row / 4, lane row % 4.
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_accel_load #(
  parameter integer Dim      = 8,
  parameter integer NbTiles  = 8,
  parameter integer Log2KMax = 12,
  parameter [31:0]  RamBase  = `CTNN_SOC_RAM_BASE,
  parameter [31:0]  RamSize  = `CTNN_SOC_RAM_SIZE
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
  input  wire [31:0]         dim_lda_i,    // DIM * LDA
  input  wire                conv_i,       // CFG.CONV: B is the implicit im2col of a CHW tensor
  input  wire                row_params_i, // CFG.ROW_PARAMS: parameter vectors per row of C
  input  wire [7:0]          b_zp_i,       // the value of a padding byte
  input  wire [15:0]         cv_h_i,       // input height, width
  input  wire [15:0]         cv_w_i,
  input  wire [23:0]         cv_cstride_i, // bytes between input channels
  input  wire [7:0]          cv_kh_i,
  input  wire [7:0]          cv_kw_i,
  input  wire [7:0]          cv_sh_i,
  input  wire [7:0]          cv_sw_i,
  input  wire [15:0]         cv_ow_i,      // output width
  input  wire [7:0]          cv_pt_i,
  input  wire [7:0]          cv_pl_i,
  input  wire [31:0]         cv_shw_i,     // SH * W
  input  wire [31:0]         cv_ptw_i,     // PT * W
  output wire                range_err_o,  // a gathered B address is outside RAM
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
  output wire [39:0]         b_tag_o,
  input  wire                b_grant_i,
  input  wire                r_valid_i,
  input  wire [1:0]          r_stream_i,
  input  wire [39:0]         r_tag_i,
  input  wire [31:0]         r_rdata_i,
  input  wire [127:0]        r_line_i,
  // scratchpad write ports
  output reg  [Dim-1:0]      a_we_o,       // one bank per row
  output reg  [Log2KMax-4:0] a_waddr_o,    // {slot, entry}
  output reg  [127:0]        a_wdata_o,
  output reg  [NbTiles*((Dim+3)/4)-1:0] b_we_o,  // bank tile * DQ + q: columns 4q.. of the tile
  output reg  [Log2KMax:0]   b_waddr_o,    // {slot, k}
  output reg  [127:0]        b_wdata_o,    // bank i of a write takes word i % 4
  output reg  [31:0]         wdata_o,
  output reg  [3:0]          p_we_o,       // parameter lane (column % 4)
  output reg  [1:0]          p_kind_o,     // 1 bias, 2 multiplier, 3 shift
  output reg  [$clog2((NbTiles*Dim+3)/4):0] p_waddr_o,  // {slot, column / 4}
  output reg                 shift_err_o   // a per-channel shift outside [-31, 30]
);
  localparam integer NB = NbTiles * Dim;
  localparam [15:0] DIM16 = Dim[15:0];
  localparam [15:0] NB16 = NB[15:0];
  localparam integer KL_BITS = Log2KMax - 4;        // entry (16 bytes) index in an A row
  localparam integer TB = $clog2(NbTiles);          // tile index bits (0 when NbTiles = 1)
  localparam integer DQ = (Dim + 3) / 4;            // banks per tile
  localparam [3:0] DQ4 = DQ[3:0];
  localparam [4:0] DIM5 = Dim[4:0];
  // Dim not a multiple of 4: a tile's columns do not start on a bus word; B rows are read as
  // byte items (like the im2col gather) and assembled per bank
  localparam BYTE_B = (Dim % 4) != 0;
  localparam [1:0] PH_BIAS = 2'd1, PH_MULT = 2'd2, PH_SHIFT = 2'd3, PH_B = 2'd0;
  localparam [Dim-1:0] A_ONE = 1;
  localparam integer NBK = NbTiles * DQ;             // B scratchpad banks
  localparam [NBK-1:0] B_ONE = 1;

  // Parameters of a B slot stay in use until the writer has stored the block's last tile.
  reg [1:0] b_pbusy_q;
  // A slot is owned from the start of its fill until the feeder frees it. The full flags come
  // back from the responses a few cycles after the last request, too late to guard a refill
  // when panels are short (a one-request panel after a small K or a last partial M tile).
  reg [1:0] a_own_q, b_own_q;

  wire a_start, b_start;

  // ---- stream A --------------------------------------------------------------------------
  reg        a_active_q, a_slot_q, a_all_q;
  reg [15:0] a_row0_q;            // first row of the panel
  reg [4:0]  a_i_q, a_rows_q;     // row in panel, valid rows (<= 16)
  reg [15:0] a_w_q;               // request in row
  reg [31:0] a_addr_q, a_row_addr_q, a_panel_q;
  reg [15:0] a_bcol0_q;           // first column of the N block
  wire a_last_mt = {1'b0, a_row0_q} + {1'b0, DIM16} >= {1'b0, m_i};
  wire a_last_blk = {1'b0, a_bcol0_q} + {1'b0, NB16} >= {1'b0, n_i};
  wire [3:0]  a_off = a_row_addr_q[3:0];
  wire [15:0] a_nreq = ((k_i + 16'd15) >> 4) + {15'd0, a_off != 4'd0};   // requests per row
  wire [27:0] a_end_line;                                                    // the row's last byte's line
  wire [3:0]  unused_a_end;
  assign {a_end_line, unused_a_end} = a_row_addr_q + {16'd0, k_i} - 32'd1;
  wire [27:0] a_line = (a_addr_q[31:4] > a_end_line) ? a_end_line : a_addr_q[31:4];
  wire        a_write = (a_off == 4'd0) || (a_w_q != 16'd0);
  wire [KL_BITS-1:0] a_entry = a_w_q[KL_BITS-1:0] - {{(KL_BITS-1){1'b0}}, a_off != 4'd0};
  wire [15:0] a_left = m_i - a_row0_q;
  wire [4:0]  a_rows_now = (a_left >= DIM16) ? DIM16[4:0] : a_left[4:0];
  wire a_last = (a_i_q == a_rows_q - 5'd1) && (a_w_q == a_nreq - 16'd1);

  assign a_start = !a_active_q && !a_all_q && !a_own_q[a_slot_q] && !a_free_i[a_slot_q];
  assign a_valid_o = a_active_q && run_i;
  assign a_req_addr_o = {a_line, 4'b0000};
  // tag: [31] last, [30] slot, [29:25] bank, [24:21] off, [20] write, [KL_BITS-1:0] entry
  assign a_tag_o = {a_last, a_slot_q, a_i_q, a_off, a_write, {(20-KL_BITS){1'b0}}, a_entry};

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      a_active_q <= 1'b0; a_slot_q <= 1'b0; a_all_q <= 1'b0;
      a_row0_q <= 16'd0; a_bcol0_q <= 16'd0;
      a_i_q <= 5'd0; a_rows_q <= 5'd0; a_w_q <= 16'd0;
      a_addr_q <= 32'd0; a_row_addr_q <= 32'd0; a_panel_q <= a_addr_i;
    end else if (!a_active_q) begin
      if (a_start) begin
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
        if (a_last_mt) begin
          a_row0_q <= 16'd0;
          a_panel_q <= a_addr_i;
          a_bcol0_q <= a_bcol0_q + NB16;
          if (a_last_blk) a_all_q <= 1'b1;
        end else begin
          a_row0_q <= a_row0_q + DIM16;
          a_panel_q <= a_panel_q + dim_lda_i;
        end
      end else if (a_w_q == a_nreq - 16'd1) begin
        a_w_q <= 16'd0;
        a_i_q <= a_i_q + 5'd1;
        a_row_addr_q <= a_row_addr_q + {12'd0, lda_i};
        a_addr_q <= a_row_addr_q + {12'd0, lda_i};
      end else begin
        a_w_q <= a_w_q + 16'd1;
        a_addr_q <= a_addr_q + 32'd16;
      end
    end
  end

  // ---- stream B --------------------------------------------------------------------------
  reg        b_active_q, b_slot_q, b_all_q;
  reg [1:0]  b_phase_q;
  reg [15:0] b_col0_q;           // first column of the block
  reg [15:0] b_c_q;               // parameter entry (column in block, or row)
  reg [15:0] b_k_q;               // B row
  reg [15:0] b_q_q;               // item in B row: word (dense) or column (conv)
  reg [15:0] b_cols_q;            // valid columns in block
  reg [31:0] b_addr_q, b_row_addr_q;
  wire [15:0] b_left = n_i - b_col0_q;
  wire [15:0] b_cols_now = (b_left >= NB16) ? NB16 : b_left;
  // run items: stride-1 convolutions on a DIM with whole 4-column banks (see the header)
  wire b_run = conv_i && !BYTE_B && (cv_sw_i == 8'd1);
  wire b_bytes = (conv_i && !b_run) || BYTE_B;   // B items are bytes (one column each)
  wire [15:0] b_nbw = b_bytes ? b_cols_q : ((b_cols_q + 16'd3) >> 2);
  wire [4:0]  rn_len;              // columns the item consumes (run items: 0 for a prefetch)
  wire [15:0] b_q_n = b_q_q + {11'd0, rn_len};
  wire b_row_end = b_run ? (b_q_n == b_cols_q) : (b_q_q == b_nbw - 16'd1);
  wire [15:0] b_npar = row_params_i ? m_i : b_cols_q;
  wire b_par_end = (b_c_q == b_npar - 16'd1);
  wire b_last = (b_phase_q == PH_B) && b_row_end && (b_k_q == k_i - 16'd1);
  // row parameters are loaded with the first block only
  wire b_params = (bias_en_i || per_channel_i) && (!row_params_i || b_col0_q == 16'd0);
  wire [1:0] b_first_phase = !b_params ? PH_B : (bias_en_i ? PH_BIAS : PH_MULT);
  wire [1:0] b_after_bias = per_channel_i ? PH_MULT : PH_B;
  wire [31:0] b_col0_bytes = {16'd0, b_col0_q};
  wire [31:0] b_col0_words = row_params_i ? 32'd0 : {14'd0, b_col0_q, 2'b00};
  // tile and position of the item, counted (no division by DIM): byte items walk the tile's
  // lanes 0..DIM-1 (bank = lane / 4, byte lane % 4), words walk its banks 0..DQ-1
  reg  [15:0] b_tile_q;
  reg  [4:0]  b_lane_q;
  wire [15:0] b_tile = b_tile_q;
  wire [3:0]  b_bank = (b_bytes || b_run) ? {2'b00, b_lane_q[3:2]} : b_lane_q[3:0];
  wire        b_lane_wrap = b_run ? 1'b0
                                  : b_bytes ? (b_lane_q == DIM5 - 5'd1) : (b_lane_q[3:0] == DQ4 - 4'd1);
  wire [16:0] b_addr_b = ({16'd0, b_slot_q} << (TB + Log2KMax)) | ({1'd0, b_tile} << Log2KMax)
                        | {1'd0, b_k_q};
  wire [15:0] b_paddr = row_params_i ? (b_c_q >> 2)
                                     : (({15'd0, b_slot_q} << $clog2((NB + 3) / 4)) | (b_c_q >> 2));

  // implicit im2col walk: the column state (output pixel) and the row state (c, ky, kx)
  reg [15:0] cv_ox_q, cvb_ox_q;                 // output x of the column, of the block start
  reg signed [17:0] cv_x0_q, cvb_x0_q;          // ox * SW - PL
  reg signed [17:0] cv_y0_q, cvb_y0_q;          // oy * SH - PT
  reg [31:0] cv_y0w_q, cvb_y0w_q;               // (oy * SH - PT) * W, two's complement
  reg [7:0]  cv_kx_q, cv_ky_q;
  reg [31:0] cv_kyw_q, cv_chan_q;               // ky * W, c * CSTRIDE
  wire signed [17:0] cv_iy = cv_y0_q + $signed({10'd0, cv_ky_q});
  wire signed [17:0] cv_ix = cv_x0_q + $signed({10'd0, cv_kx_q});
  wire cv_in = (cv_iy >= 18'sd0) && (cv_iy < $signed({2'd0, cv_h_i})) &&
               (cv_ix >= 18'sd0) && (cv_ix < $signed({2'd0, cv_w_i}));
  wire [31:0] cv_addr = b_addr_i + cv_chan_q + cv_kyw_q + cv_y0w_q + {{14{cv_ix[17]}}, cv_ix};
  wire [31:0] cv_rel = cv_addr - RamBase;
  wire b_gather = conv_i && b_phase_q == PH_B;
  wire b_pad = b_gather && !cv_in;
  // the run at this column: lanes lo..lo+len-1 of the scratchpad word, cut at the word's end,
  // the block's end, the output row's end and where padding starts or stops
  wire [3:0]  rn_lo = b_q_q[3:0];                                    // lane in the 16-column group
  wire [3:0]  rn_grp = b_q_q[7:4];                                   // the group: banks 4 grp .. 4 grp + 3
  wire [15:0] rn_blk = b_cols_q - b_q_q;
  wire [15:0] rn_row = cv_ow_i - cv_ox_q;
  wire        rn_rows_in = (cv_iy >= 18'sd0) && (cv_iy < $signed({2'd0, cv_h_i}));
  wire signed [17:0] rn_wx = $signed({2'd0, cv_w_i}) - cv_ix;      // input columns left
  wire signed [17:0] rn_lx = -cv_ix;                                 // padding columns left
  wire        rn_left = cv_ix < 18'sd0;
  wire [17:0] rn_pix = !rn_rows_in || !(rn_left || cv_in) ? 18'h3FFFF   // padding to the row end
                      : (rn_left ? rn_lx : rn_wx);
  wire [4:0]  rn_g = 5'd16 - {1'b0, rn_lo};
  wire [4:0]  rn_b = (rn_blk >= 16'd16) ? 5'd16 : rn_blk[4:0];
  wire [4:0]  rn_r = (rn_row >= 16'd16) ? 5'd16 : rn_row[4:0];
  wire [4:0]  rn_p = (rn_pix >= 18'd16) ? 5'd16 : rn_pix[4:0];
  wire [4:0]  rn_gb = (rn_g < rn_b) ? rn_g : rn_b;
  wire [4:0]  rn_rp = (rn_r < rn_p) ? rn_r : rn_p;
  wire [4:0]  rn_n = (rn_gb < rn_rp) ? rn_gb : rn_rp;               // 1..16
  // a real run's bytes: one word, or two (the low one from the hold)
  wire [27:0] rn_w = cv_addr[31:4];
  wire [4:0]  rn_end = {1'b0, cv_addr[3:0]} + rn_n;                 // > 16: crosses a line
  wire        rn_two = cv_in && (rn_end > 5'd16);
  reg         hold_v_q;
  reg  [27:0] hold_w_q;                                              // line the hold will hold
  wire        rn_pre = rn_two && !(hold_v_q && hold_w_q == rn_w);    // read the low line first
  wire        rn_hi = rn_two && !rn_pre;
  wire [27:0] rn_word = rn_hi ? rn_w + 28'd1 : rn_w;
  wire [3:0]  rn_off = cv_addr[3:0] - rn_lo;
  wire        rn_wend = !rn_pre && (({1'b0, rn_lo} + rn_n == 5'd16) || b_row_end);
  assign rn_len = !b_run ? 5'd1 : (rn_pre ? 5'd0 : rn_n);
  wire [31:0] rn_rel = {rn_word, 4'b0000} - RamBase;
  wire b_oob = b_gather && cv_in && (b_run ? (rn_rel >= RamSize) : (cv_rel >= RamSize));
  wire [31:0] b_byte_addr = !b_gather ? b_addr_q : (!cv_in ? b_addr_i
                                                   : (b_run ? {rn_word, 4'b0000} : cv_addr));
  wire [1:0]  b_item_lane = b_lane_q[1:0];
  // the column after this item's (run items advance by the run)
  wire cv_wrap = (cv_ox_q + {11'd0, rn_len} == cv_ow_i);
  wire [15:0] cv_ox_n = cv_wrap ? 16'd0 : cv_ox_q + {11'd0, rn_len};
  wire signed [17:0] cv_x0_n = cv_wrap ? -$signed({10'd0, cv_pl_i})
                             : cv_x0_q + (b_run ? $signed({13'd0, rn_len}) : $signed({10'd0, cv_sw_i}));
  wire signed [17:0] cv_y0_n = cv_wrap ? cv_y0_q + $signed({10'd0, cv_sh_i}) : cv_y0_q;
  wire [31:0] cv_y0w_n = cv_wrap ? cv_y0w_q + cv_shw_i : cv_y0w_q;
  wire b_wend = b_run ? rn_wend : (!b_bytes || b_lane_q[1:0] == 2'd3 || b_lane_wrap || b_row_end);

  // tag: [31] last, [30] slot, [29:28] kind, [27:24] bank or lane, [23:0] address; B items
  // also [23:22] byte in bus word, [21:20] lane, [19] word end, [18] padding, [17] byte item;
  // run items [39:36] off, [35:32] lo (lane in the group), [27] run, [26] hi (low bytes from the
  // hold), [25:22] group, [19] write (group end), [18] padding, [17] 0
  assign b_start = !b_active_q && !b_all_q && !b_own_q[b_slot_q] && !b_pbusy_q[b_slot_q] &&
                   !b_free_i[b_slot_q];
  assign b_valid_o = b_active_q && run_i && !b_oob;
  assign range_err_o = b_active_q && run_i && b_oob;
  assign b_req_addr_o = {b_byte_addr[31:2], 2'b00};
  assign b_tag_o = (b_phase_q == PH_B)
      ? (b_run ? {rn_off, rn_lo, b_last, b_slot_q, PH_B, 1'b1, rn_hi, rn_grp, 2'b00, b_wend, b_pad,
                  1'b0, b_addr_b}
               : {8'd0, b_last, b_slot_q, PH_B, b_bank, b_byte_addr[1:0], b_item_lane, b_wend, b_pad,
                  b_bytes, b_addr_b})
      : {8'd0, 1'b0, b_slot_q, b_phase_q, 2'b00, b_c_q[1:0], 8'd0, b_paddr};

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      b_active_q <= 1'b0; b_slot_q <= 1'b0; b_all_q <= 1'b0; b_phase_q <= PH_B;
      b_col0_q <= 16'd0; b_c_q <= 16'd0; b_k_q <= 16'd0; b_q_q <= 16'd0;
      b_cols_q <= 16'd0; b_addr_q <= 32'd0; b_row_addr_q <= 32'd0;
      cv_ox_q <= 16'd0; cvb_ox_q <= 16'd0;
      cv_x0_q <= -$signed({10'd0, cv_pl_i}); cvb_x0_q <= -$signed({10'd0, cv_pl_i});
      cv_y0_q <= -$signed({10'd0, cv_pt_i}); cvb_y0_q <= -$signed({10'd0, cv_pt_i});
      cv_y0w_q <= 32'd0 - cv_ptw_i; cvb_y0w_q <= 32'd0 - cv_ptw_i;
      cv_kx_q <= 8'd0; cv_ky_q <= 8'd0; cv_kyw_q <= 32'd0; cv_chan_q <= 32'd0;
      b_tile_q <= 16'd0; b_lane_q <= 5'd0;
    end else if (!b_active_q) begin
      if (b_start) begin
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
      end else begin
        // the im2col column walk: the next column, back to the block start at a row end, the
        // next block's start after the block's last column
        if (conv_i) begin
          if (b_row_end && !b_last) begin
            cv_ox_q <= cvb_ox_q; cv_x0_q <= cvb_x0_q; cv_y0_q <= cvb_y0_q; cv_y0w_q <= cvb_y0w_q;
            if (cv_kx_q == cv_kw_i - 8'd1) begin
              cv_kx_q <= 8'd0;
              if (cv_ky_q == cv_kh_i - 8'd1) begin
                cv_ky_q <= 8'd0;
                cv_kyw_q <= 32'd0;
                cv_chan_q <= cv_chan_q + {8'd0, cv_cstride_i};
              end else begin
                cv_ky_q <= cv_ky_q + 8'd1;
                cv_kyw_q <= cv_kyw_q + {16'd0, cv_w_i};
              end
            end else begin
              cv_kx_q <= cv_kx_q + 8'd1;
            end
          end else begin
            cv_ox_q <= cv_ox_n; cv_x0_q <= cv_x0_n; cv_y0_q <= cv_y0_n; cv_y0w_q <= cv_y0w_n;
          end
          if (b_last) begin
            cvb_ox_q <= cv_ox_n; cvb_x0_q <= cv_x0_n; cvb_y0_q <= cv_y0_n; cvb_y0w_q <= cv_y0w_n;
            cv_kx_q <= 8'd0; cv_ky_q <= 8'd0; cv_kyw_q <= 32'd0; cv_chan_q <= 32'd0;
          end
        end
        if (b_last) begin
          b_active_q <= 1'b0;
          b_slot_q <= !b_slot_q;
          b_col0_q <= b_col0_q + NB16;
          if ({1'b0, b_col0_q} + {1'b0, NB16} >= {1'b0, n_i}) b_all_q <= 1'b1;
        end else if (b_row_end) begin
          b_q_q <= 16'd0;
          b_k_q <= b_k_q + 16'd1;
          b_row_addr_q <= b_row_addr_q + {12'd0, ldb_i};
          b_addr_q <= b_row_addr_q + {12'd0, ldb_i};
        end else begin
          b_q_q <= b_q_n;
          b_addr_q <= b_addr_q + (b_bytes ? 32'd1 : 32'd4);
        end
        // the item's tile and lane: back to (0, 0) at a row end
        if (b_row_end) begin
          b_tile_q <= 16'd0;
          b_lane_q <= 5'd0;
        end else if (b_run) begin
          // run items address banks by their column (b_q_q): no tile and lane walk
        end else if (b_lane_wrap) begin
          b_tile_q <= b_tile_q + 16'd1;
          b_lane_q <= 5'd0;
        end else begin
          b_lane_q <= b_lane_q + 5'd1;
        end
      end
    end
  end

  // the word the response side's hold will contain: the last real run item's
  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      hold_v_q <= 1'b0;
      hold_w_q <= 28'd0;
    end else if (b_grant_i && b_run && b_gather && cv_in) begin
      hold_v_q <= 1'b1;
      hold_w_q <= rn_word;
    end
  end

  // slot ownership (see a_own_q)
  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      a_own_q <= 2'b00;
      b_own_q <= 2'b00;
    end else begin
      a_own_q <= (a_own_q | (a_start ? (2'b01 << a_slot_q) : 2'b00)) & ~a_free_i;
      b_own_q <= (b_own_q | (b_start ? (2'b01 << b_slot_q) : 2'b00)) & ~b_free_i;
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
  // A lines: the entry is the funnel {line, previous line} >> 8*off, or the line when off = 0
  reg  [127:0] hold_a_q;
  wire [127:0] r_a_funnel, unused_r_a_high;
  assign {unused_r_a_high, r_a_funnel} = {r_line_i, hold_a_q} >> {r_tag_i[24:21], 3'b000};
  wire [127:0] r_a_entry = (r_tag_i[24:21] == 4'd0) ? r_line_i : r_a_funnel;
  // byte items: the byte, the word assembled so far with it, whether the word is complete
  wire        r_b_byte = r_kind == PH_B && r_tag_i[17];
  wire        r_b_run = r_kind == PH_B && r_tag_i[27];
  wire [1:0]  r_boff = r_tag_i[23:22];
  wire [1:0]  r_lane = r_tag_i[21:20];
  wire        r_wend = r_tag_i[19];
  wire [7:0]  r_byte = r_tag_i[18] ? b_zp_i : r_rdata_i[8*r_boff +: 8];
  reg  [31:0] asm_b_q;
  reg  [31:0] r_asm;
  always @(*) begin
    r_asm = asm_b_q;
    r_asm[8*r_lane +: 8] = r_byte;
  end
  // run items: lanes lo..15 of the group's 16 columns from the funnel {cur, hold} >> 8*off (hi:
  // the low bytes from the held line) or cur rotated by off, B_ZP for padding; lanes below lo
  // stay as the group's earlier runs left them
  reg  [127:0] hold_q;                         // the last real line a run read
  reg  [127:0] asm_r_q;                        // the group assembled so far
  wire [3:0]   r_off = r_tag_i[39:36];
  wire [3:0]   r_lo = r_tag_i[35:32];
  wire [3:0]   r_grp = r_tag_i[25:22];
  wire [255:0] r_pair = {r_line_i, r_tag_i[26] ? hold_q : r_line_i};
  wire [127:0] r_shifted, unused_r_shifted_high;   // the high line is shifted out
  assign {unused_r_shifted_high, r_shifted} = r_pair >> {r_off, 3'b000};
  wire [127:0] r_run = r_tag_i[18] ? {16{b_zp_i}} : r_shifted;
  reg  [127:0] r_asm_r;
  integer li;
  always @(*) begin
    r_asm_r = asm_r_q;
    for (li = 0; li < 16; li = li + 1)
      if (li[3:0] >= r_lo) r_asm_r[8*li +: 8] = r_run[8*li +: 8];
  end
  wire r_is_byte = r_b && r_b_byte;
  wire r_write = !(r_is_byte || (r_b && r_b_run)) || r_wend;
  // the bank of a B item: its tile (tag bits Log2KMax + TB - 1 .. Log2KMax) x DQ + its bank in
  // the tile; a run item writes the four banks of its group
  wire [16:0] r_tile = ({1'b0, r_tag_i[15:0]} >> Log2KMax) & ((17'd1 << TB) - 17'd1);
  localparam [16:0] DQ17 = DQ[16:0];
  wire [16:0] r_bank = r_tile * DQ17 + {13'd0, r_tag_i[27:24]};
  localparam [NBK-1:0] B_FOUR = (NBK >= 4) ? {{(NBK > 4 ? NBK - 4 : 1){1'b0}}, 4'hF} : {NBK{1'b1}};
  wire [NBK-1:0] r_we_b = r_b_run ? (B_FOUR << {r_grp, 2'b00}) : (B_ONE << r_bank);

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      a_full_o <= 2'b00;
      b_full_o <= 2'b00;
      b_pbusy_q <= 2'b00;
      a_we_o <= {Dim{1'b0}};
      b_we_o <= {NBK{1'b0}};
      p_we_o <= 4'd0;
      a_waddr_o <= {(Log2KMax-3){1'b0}};
      a_wdata_o <= 128'd0;
      hold_a_q <= 128'd0;
      b_waddr_o <= {(Log2KMax+1){1'b0}};
      p_waddr_o <= {($clog2((NB+3)/4)+1){1'b0}};
      p_kind_o <= 2'd0;
      wdata_o <= 32'd0;
      shift_err_o <= 1'b0;
      a_last_q <= 1'b0;
      b_last_q <= 1'b0;
      last_slot_q <= 1'b0;
      asm_b_q <= 32'd0;
      asm_r_q <= 128'd0;
      hold_q <= 128'd0;
      b_wdata_o <= 128'd0;
    end else begin
      if (r_b && r_b_run && !r_tag_i[18]) hold_q <= r_line_i;
      if (r_a) hold_a_q <= r_line_i;
      if (r_b && r_b_byte) asm_b_q <= r_wend ? 32'd0 : r_asm;
      if (r_b && r_b_run) asm_r_q <= r_wend ? 128'd0 : r_asm_r;
      a_we_o <= (r_a && r_tag_i[20]) ? (A_ONE << r_tag_i[29:25]) : {Dim{1'b0}};
      a_waddr_o <= {r_tag_i[30], r_tag_i[KL_BITS-1:0]};
      a_wdata_o <= r_a_entry;
      b_we_o <= (r_b && r_kind == PH_B && r_write) ? r_we_b : {NBK{1'b0}};
      b_wdata_o <= r_b_run ? r_asm_r : {4{r_is_byte ? r_asm : r_rdata_i}};
      b_waddr_o <= {r_tag_i[Log2KMax+TB], r_tag_i[Log2KMax-1:0]};   // {slot, k}
      p_we_o <= (r_b && r_kind != PH_B) ? (4'b0001 << r_tag_i[25:24]) : 4'd0;
      p_kind_o <= r_kind;
      p_waddr_o <= r_tag_i[$clog2((NB+3)/4):0];
      wdata_o <= r_is_byte ? r_asm : r_rdata_i;
      shift_err_o <= r_b && r_kind == PH_SHIFT && (r_shift < -32'sd31 || r_shift > 32'sd30);
      a_last_q <= r_a && r_tag_i[31];
      b_last_q <= r_b && r_tag_i[31];
      last_slot_q <= r_tag_i[30];
      a_full_o <= (a_full_o | (a_last_q ? (2'b01 << last_slot_q) : 2'b00)) & ~a_free_i;
      b_full_o <= (b_full_o | (b_last_q ? (2'b01 << last_slot_q) : 2'b00)) & ~b_free_i;
      // row parameters stay for the whole job: they never hold a B slot
      b_pbusy_q <= (b_pbusy_q | ((b_last_q && !row_params_i) ? (2'b01 << last_slot_q) : 2'b00)) & ~p_free_i;
    end
  end
endmodule

`default_nettype wire
