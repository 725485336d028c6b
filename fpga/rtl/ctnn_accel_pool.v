// The 2x2 stride-2 pool of the store path (CFG.POOL): once the GEMM (and the residual add) has
// written the int8 CHW output C and the DMA is idle, this unit reads C back on DMA stream 3 and
// writes the pooled tensor, dense CHW, at POOL_ADDR on stream 0, both as 16-byte lines (BUS.md
// "The DMA's line port"):
//
//   C row m (channel) = OH rows of OUT_W bytes, LDC apart; PW = OUT_W / 2, PH = OH / 2
//   row pair py: rows a = 2py and b = 2py + 1, each read from its first line to the line of its
//   byte 2 PW - 1 (lines A0 B0 A1 B1 ... A(NC) B(NC), NC = ceil(PW / 8); a line past the row's last
//   is the last one read again), so that chunk t = bytes 16t..16t+15 of each row comes out of the
//   funnel {line t+1, line t} >> 8 * (row address % 16) when line t+1 arrives:
//
//     chunk t of a:  a0 a1 a2 a3 ...   pooled t*8 + i = max, or the rounded average
//     chunk t of b:  b0 b1 b2 b3 ...   (ctnn::ref::rounded_average, /4 half away from zero), of
//                                      a[2i], a[2i+1], b[2i], b[2i+1], for i < min(8, PW - 8t)
//
//   The pooled bytes are one dense stream from POOL_ADDR ((m * PH + py) * PW + px): an assembler
//   collects them into the line they belong to and queues the line's write (its strobes: the
//   pooled bytes only) when the stream leaves it, the last partial line at the end.
//
// Odd OH or OUT_W drop the last row or column (floor, as the reference without padding). Chunks
// in flight plus queued writes never exceed Depth, so the write queue always has room for the
// line a response completes (responses have no back-pressure, BUS.md rule 2). Each written line
// is checked against RAM (range_err_o; C itself was range-checked before the job). Reads of C
// follow all of C's writes on the one DMA port, and a pooled byte goes to an address no later read
// needs when POOL_ADDR <= C_ADDR and LDC >= N (a read line may hold pooled bytes already written,
// but only below the bytes the funnel takes from it), so the pooled tensor may overwrite C in place.
`default_nettype none

module ctnn_accel_pool #(
  parameter [31:0]  RamBase = 32'd0,
  parameter [31:0]  RamSize = 32'd0,
  parameter integer Depth   = 4                // chunks in flight + queued writes, a power of two
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire         run_i,
  // job
  input  wire [1:0]   mode_i,                  // CFG.POOL: 0 none, 1 max, 2 average
  input  wire         go_i,                    // C is written: the GEMM part of the job is done
  input  wire [15:0]  m_i,
  input  wire [15:0]  n_i,
  input  wire [15:0]  ow_i,
  input  wire [31:0]  c_addr_i,
  input  wire [19:0]  ldc_i,
  input  wire [31:0]  p_addr_i,
  // read stream (DMA stream 3), its tag, and its responses
  output wire         r_valid_o,
  output wire [31:0]  r_addr_o,
  output wire [9:0]   r_tag_o,
  input  wire         r_grant_i,
  input  wire         rsp_valid_i,
  input  wire [9:0]   rsp_tag_i,
  input  wire [127:0] rsp_line_i,
  // write stream (DMA stream 0): lines
  output wire         w_valid_o,
  output wire [31:0]  w_addr_o,
  output wire [127:0] w_data_o,
  output wire [15:0]  w_strb_o,
  input  wire         w_grant_i,
  output wire         range_err_o,
  output wire         active_o,                // the unit owns streams 0 and 3
  output wire         done_o                   // nothing (left) to pool
);
  localparam integer QW = $clog2(Depth);
  localparam [QW:0] DEPTH_C = Depth[QW:0];
  localparam [QW:0] ONE_C = 1;
  localparam [1:0] P_WAIT = 2'd0, P_RUN = 2'd1, P_DONE = 2'd2;

  reg  [1:0]  phase_q;
  wire        en = mode_i != 2'd0;
  wire        avg = mode_i[1];
  wire [15:0] pw = {1'b0, ow_i[15:1]};
  wire [16:0] ow2 = {ow_i, 1'b0};
  wire        empty = (pw == 16'd0) || ({1'b0, n_i} < ow2);
  wire [12:0] nc = pw[15:3] + {12'd0, pw[2:0] != 3'd0};   // chunks per row pair

  // ---- read issue: channel, row pair, line j of row a then of row b -------------------------
  reg         issuing_q;
  reg  [15:0] ch_q;
  reg  [12:0] j_q;
  reg         rb_q;                            // 0: row a, 1: row b
  reg  [31:0] chbase_q, rowbase_q;
  reg  [16:0] rem_q;                           // N - 2 * py * OUT_W: bytes of the channel left
  reg  [QW:0] fly_q;                           // chunks whose reads started and not yet pooled
  reg  [QW:0] wq_cnt_q;                        // queued writes
  wire [31:0] row_addr = rb_q ? rowbase_q + {16'd0, ow_i} : rowbase_q;
  wire [27:0] last_line, want_line;            // the line of the row's byte 2 PW - 1, of line j
  wire [3:0]  unused_last_off, unused_want_off;
  assign {last_line, unused_last_off} = row_addr + {15'd0, pw, 1'b0} - 32'd1;
  assign {want_line, unused_want_off} = row_addr + {15'd0, j_q, 4'b0000};
  wire [27:0] rline = (want_line > last_line) ? last_line : want_line;
  wire        chunk_start = !rb_q && j_q != 13'd0;                       // a read that needs a credit
  wire        credit = fly_q + wq_cnt_q != DEPTH_C;
  assign r_valid_o = (phase_q == P_RUN) && issuing_q && (!chunk_start || credit);
  assign r_addr_o = {rline, 4'b0000};
  wire [15:0] left = pw - {j_q[11:0], 3'b000} + 16'd8;                   // pooled left at chunk j - 1
  wire [3:0]  cnt = (left >= 16'd8) ? 4'd8 : left[3:0];
  // tag: [9:6] pooled bytes of the chunk, [5] the chunk is complete with this read, [4] row b,
  //      [3:0] the row's offset in its line
  assign r_tag_o = {cnt, rb_q && j_q != 13'd0, rb_q, row_addr[3:0]};
  wire        rgo = r_valid_o && r_grant_i;
  wire        last_j = j_q == nc;
  wire        last_pair = (rem_q - ow2) < ow2;
  wire        last_ch = (ch_q + 16'd1) == m_i;

  // ---- responses: funnel each row's chunk, pool a and b ---------------------------------------
  reg  [127:0] hold_a_q, hold_b_q, chunk_a_q;
  wire         rsp_b = rsp_tag_i[4];
  wire [127:0] funnel, unused_funnel_high;
  assign {unused_funnel_high, funnel} = {rsp_line_i, rsp_b ? hold_b_q : hold_a_q} >> {rsp_tag_i[3:0], 3'b000};
  wire         pool_now = rsp_valid_i && (phase_q == P_RUN) && rsp_tag_i[5];
  reg  [63:0]  pooled;
  integer i;
  always @(*) begin
    for (i = 0; i < 8; i = i + 1)
      pooled[8*i +: 8] = pool4(avg, chunk_a_q[16*i +: 8], chunk_a_q[16*i+8 +: 8],
                               funnel[16*i +: 8], funnel[16*i+8 +: 8]);
  end

  // max, or rounded_average(sum, 4): (sum + 2) / 4 for sum >= 0, -((2 - sum) / 4) below
  function automatic [7:0] pool4(input a, input [7:0] w, input [7:0] x, input [7:0] y, input [7:0] z);
    reg signed [7:0] m1, m2;
    reg signed [9:0] sum;
    reg [7:0] q;
    reg [1:0] unused_up_low;                   // (|sum| + 2) / 4 drops them
    begin
      m1 = ($signed(w) > $signed(x)) ? w : x;
      m2 = ($signed(y) > $signed(z)) ? y : z;
      sum = $signed({{2{w[7]}}, w}) + $signed({{2{x[7]}}, x}) + $signed({{2{y[7]}}, y}) + $signed({{2{z[7]}}, z});
      {q, unused_up_low} = sum[9] ? (10'd2 - sum) : (sum + 10'd2);     // |sum| + 2, at most 514
      if (a) pool4 = sum[9] ? (8'd0 - q) : q;                            // in [-128, 127]
      else pool4 = (m1 > m2) ? m1 : m2;
    end
  endfunction

  // ---- assembler: the pooled stream into lines ---------------------------------------------------
  reg  [127:0] ob_q;                           // the line being filled
  reg  [15:0]  os_q;                           // its pooled bytes
  reg  [31:0]  pa_q;                           // next pooled byte's address
  wire [3:0]   poff = pa_q[3:0];
  wire [3:0]   pcnt = rsp_tag_i[9:6];
  wire [31:0]  pmask32 = ((32'd1 << pcnt) - 32'd1) << poff;
  wire [255:0] pdata32 = {192'd0, pooled} << {poff, 3'b000};
  reg  [127:0] merged;
  integer bi;
  always @(*) begin
    merged = ob_q;
    for (bi = 0; bi < 16; bi = bi + 1)
      if (pmask32[bi]) merged[8*bi +: 8] = pdata32[8*bi +: 8];
  end
  wire         crosses = ({1'b0, poff} + {1'b0, pcnt}) >= 5'd16;            // the chunk fills the line
  reg          flushed_q;                       // the last partial line is queued

  // ---- write queue ----------------------------------------------------------------------------------
  reg  [27:0]  wq_line [0:Depth-1];
  reg  [127:0] wq_data [0:Depth-1];
  reg  [15:0]  wq_strb [0:Depth-1];
  reg  [QW-1:0] wp_q, rp_q;
  wire [36:0]  ram_end = {5'd0, RamBase} + {5'd0, RamSize};
  wire [31:0]  head_addr = {wq_line[rp_q], 4'b0000};
  wire         head_ok = (head_addr >= RamBase) && ({5'd0, head_addr} < ram_end);
  wire         head = (phase_q == P_RUN) && wq_cnt_q != {(QW+1){1'b0}};
  assign w_valid_o = head && head_ok;
  assign w_addr_o = head_addr;
  assign w_data_o = wq_data[rp_q];
  assign w_strb_o = wq_strb[rp_q];
  assign range_err_o = head && !head_ok;
  wire         wgo = w_valid_o && w_grant_i;
  wire         push_full = pool_now && crosses;
  wire         flush = (phase_q == P_RUN) && !issuing_q && fly_q == {(QW+1){1'b0}} && !flushed_q &&
                       wq_cnt_q != DEPTH_C;
  wire         push_flush = flush && os_q != 16'd0;
  wire         push = push_full || push_flush;

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      phase_q <= P_WAIT;
      issuing_q <= 1'b0;
      ch_q <= 16'd0; j_q <= 13'd0; rb_q <= 1'b0;
      chbase_q <= 32'd0; rowbase_q <= 32'd0; rem_q <= 17'd0;
      fly_q <= {(QW+1){1'b0}};
      wq_cnt_q <= {(QW+1){1'b0}};
      hold_a_q <= 128'd0; hold_b_q <= 128'd0; chunk_a_q <= 128'd0;
      ob_q <= 128'd0; os_q <= 16'd0; pa_q <= 32'd0; flushed_q <= 1'b0;
      wp_q <= {QW{1'b0}}; rp_q <= {QW{1'b0}};
    end else begin
      case (phase_q)
        P_WAIT: if (en && go_i) begin
          phase_q <= empty ? P_DONE : P_RUN;
          issuing_q <= !empty;
          ch_q <= 16'd0; j_q <= 13'd0; rb_q <= 1'b0;
          chbase_q <= c_addr_i; rowbase_q <= c_addr_i; rem_q <= {1'b0, n_i};
          pa_q <= p_addr_i;
        end
        P_RUN: if (flushed_q && wq_cnt_q == {(QW+1){1'b0}}) phase_q <= P_DONE;
        default: ;
      endcase
      if (rgo) begin
        rb_q <= !rb_q;
        if (rb_q) begin
          if (!last_j) j_q <= j_q + 13'd1;
          else begin
            j_q <= 13'd0;
            if (!last_pair) begin
              rowbase_q <= rowbase_q + {15'd0, ow2};
              rem_q <= rem_q - ow2;
            end else if (!last_ch) begin
              ch_q <= ch_q + 16'd1;
              chbase_q <= chbase_q + {12'd0, ldc_i};
              rowbase_q <= chbase_q + {12'd0, ldc_i};
              rem_q <= {1'b0, n_i};
            end else begin
              issuing_q <= 1'b0;
            end
          end
        end
      end
      fly_q <= fly_q + ((rgo && chunk_start) ? ONE_C : {(QW+1){1'b0}})
                     - (pool_now ? ONE_C : {(QW+1){1'b0}});
      if (rsp_valid_i && phase_q == P_RUN) begin
        if (rsp_b) hold_b_q <= rsp_line_i;
        else begin
          hold_a_q <= rsp_line_i;
          chunk_a_q <= funnel;
        end
      end
      if (pool_now) begin
        pa_q <= pa_q + {28'd0, pcnt};
        if (crosses) begin
          ob_q <= pdata32[255:128];
          os_q <= pmask32[31:16];
        end else begin
          ob_q <= merged;
          os_q <= os_q | pmask32[15:0];
        end
      end
      if (flush) flushed_q <= 1'b1;
      if (push) begin
        wq_line[wp_q] <= pa_q[31:4];
        wq_data[wp_q] <= push_full ? merged : ob_q;
        wq_strb[wp_q] <= push_full ? (os_q | pmask32[15:0]) : os_q;
        wp_q <= wp_q + 1'b1;
      end
      if (wgo) rp_q <= rp_q + 1'b1;
      wq_cnt_q <= wq_cnt_q + (push ? ONE_C : {(QW+1){1'b0}}) - (wgo ? ONE_C : {(QW+1){1'b0}});
    end
  end

  assign active_o = phase_q == P_RUN;
  assign done_o = !en || phase_q == P_DONE;
endmodule

`default_nettype wire
