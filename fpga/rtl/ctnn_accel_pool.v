// The 2x2 stride-2 pool of the store path (CFG.POOL): once the GEMM (and the residual add) has
// written the int8 CHW output C and the DMA is idle, this unit reads C back on DMA stream 3 and
// writes the pooled tensor, dense CHW, at POOL_ADDR on stream 0:
//
//   C row m (channel) = OH rows of OUT_W bytes, LDC apart      pooled (m, py, px), PW = OUT_W / 2
//     (2py,   2px) (2py,   2px+1)  ─┐ 4 word reads, byte lane    ─► max, or the rounded average
//     (2py+1, 2px) (2py+1, 2px+1)  ─┘ in the DMA tag                (ctnn::ref::rounded_average
//                                                                    of the sum, /4 half away from 0)
//   ─► byte write at POOL_ADDR + (m * PH + py) * PW + px, PH = floor(OH / 2) (N = OH x OUT_W)
//
// Odd OH or OUT_W drop the last row or column (floor, as the reference without padding). At most
// Depth pixels are between their first read and their write, so the result queue always has room
// for a response (responses have no back-pressure, BUS.md rule 2). Each write address is checked
// against RAM (range_err_o; C itself was range-checked before the job). Reads of C follow all of
// C's writes on the one DMA port, and a pixel's write goes to an address no later read needs when
// POOL_ADDR <= C_ADDR, so the pooled tensor may even overwrite C in place.
`default_nettype none

module ctnn_accel_pool #(
  parameter [31:0]  RamBase = 32'd0,
  parameter [31:0]  RamSize = 32'd0,
  parameter integer Depth   = 4                // pixels in flight, a power of two
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        run_i,
  // job
  input  wire [1:0]  mode_i,                   // CFG.POOL: 0 none, 1 max, 2 average
  input  wire        go_i,                     // C is written: the GEMM part of the job is done
  input  wire [15:0] m_i,
  input  wire [15:0] n_i,
  input  wire [15:0] ow_i,
  input  wire [31:0] c_addr_i,
  input  wire [19:0] ldc_i,
  input  wire [31:0] p_addr_i,
  // read stream (DMA stream 3), the byte lane as tag, and its responses
  output wire        r_valid_o,
  output wire [31:0] r_addr_o,
  output wire [1:0]  r_tag_o,
  input  wire        r_grant_i,
  input  wire        rsp_valid_i,
  input  wire [1:0]  rsp_tag_i,
  input  wire [31:0] rsp_rdata_i,
  // write stream (DMA stream 0)
  output wire        w_valid_o,
  output wire [31:0] w_addr_o,
  output wire [31:0] w_data_o,
  output wire [3:0]  w_strb_o,
  input  wire        w_grant_i,
  output wire        range_err_o,
  output wire        active_o,                 // the unit owns streams 0 and 3
  output wire        done_o                    // nothing (left) to pool
);
  localparam integer QW = $clog2(Depth);
  localparam [QW:0] DEPTH_C = Depth[QW:0];
  localparam [1:0] P_WAIT = 2'd0, P_RUN = 2'd1, P_DONE = 2'd2;

  reg  [1:0]  phase_q;
  wire        en = mode_i != 2'd0;
  wire        avg = mode_i[1];
  wire [15:0] pw = {1'b0, ow_i[15:1]};
  wire [16:0] ow2 = {ow_i, 1'b0};
  wire        empty = (pw == 16'd0) || ({1'b0, n_i} < ow2);

  // ---- read issue: channel, row pair, pixel, one of 4 reads ---------------------------------
  reg         issuing_q;
  reg  [15:0] ch_q, px_q;
  reg  [31:0] chbase_q, rowbase_q;
  reg  [16:0] rem_q;                           // N - 2 * py * OUT_W: bytes of the channel left
  reg  [1:0]  sub_q;
  reg  [QW:0] fly_q;                           // pixels read (in part) and not yet written
  wire [31:0] raddr = rowbase_q + {15'd0, px_q, 1'b0} + (sub_q[1] ? {16'd0, ow_i} : 32'd0) +
                      {31'd0, sub_q[0]};
  assign r_valid_o = (phase_q == P_RUN) && issuing_q && (sub_q != 2'd0 || fly_q != DEPTH_C);
  assign r_addr_o = {raddr[31:2], 2'b00};
  assign r_tag_o = raddr[1:0];
  wire        rgo = r_valid_o && r_grant_i;
  wire        last_px = (px_q + 16'd1) == pw;
  wire        last_pair = (rem_q - ow2) < ow2;
  wire        last_ch = (ch_q + 16'd1) == m_i;

  // ---- responses: fold 4 bytes -----------------------------------------------------------------
  reg  [1:0]  cnt_q;
  reg  signed [7:0] mx_q;
  reg  signed [9:0] sum_q;
  wire signed [7:0] b = rsp_rdata_i[8*rsp_tag_i +: 8];
  wire signed [7:0] mx = (cnt_q == 2'd0 || b > mx_q) ? b : mx_q;
  wire signed [9:0] sum = (cnt_q == 2'd0 ? 10'sd0 : sum_q) + {{2{b[7]}}, b};
  // rounded_average(sum, 4): (sum + 2) / 4 for sum >= 0, -((2 - sum) / 4) below
  wire [9:0]  up = sum[9] ? (10'sd2 - sum) : (sum + 10'sd2);   // |sum| + 2, at most 514
  wire [7:0]  q = up[9:2];
  wire [7:0]  avg_v = sum[9] ? (8'd0 - q) : q;                   // in [-128, 127]
  wire [7:0]  result = avg ? avg_v : mx;
  wire        pix_done = rsp_valid_i && (phase_q == P_RUN) && cnt_q == 2'd3;

  // ---- result queue and writes ------------------------------------------------------------------
  reg  [7:0]  rq [0:Depth-1];
  reg  [QW-1:0] wp_q, rp_q;
  reg  [QW:0] rcnt_q;
  reg  [31:0] pa_q;
  wire [36:0] ram_end = {5'd0, RamBase} + {5'd0, RamSize};
  wire        pa_ok = (pa_q >= RamBase) && ({5'd0, pa_q} < ram_end);
  wire        head = (phase_q == P_RUN) && rcnt_q != {(QW+1){1'b0}};
  assign w_valid_o = head && pa_ok;
  assign w_addr_o = {pa_q[31:2], 2'b00};
  assign w_data_o = {4{rq[rp_q]}};
  assign w_strb_o = 4'b0001 << pa_q[1:0];
  assign range_err_o = head && !pa_ok;
  wire        wgo = w_valid_o && w_grant_i;

  always @(posedge clk_i) begin
    if (!rst_ni || !run_i) begin
      phase_q <= P_WAIT;
      issuing_q <= 1'b0;
      ch_q <= 16'd0; px_q <= 16'd0; sub_q <= 2'd0;
      chbase_q <= 32'd0; rowbase_q <= 32'd0; rem_q <= 17'd0;
      fly_q <= {(QW+1){1'b0}};
      cnt_q <= 2'd0; mx_q <= 8'sd0; sum_q <= 10'sd0;
      wp_q <= {QW{1'b0}}; rp_q <= {QW{1'b0}}; rcnt_q <= {(QW+1){1'b0}};
      pa_q <= 32'd0;
    end else begin
      case (phase_q)
        P_WAIT: if (en && go_i) begin
          phase_q <= empty ? P_DONE : P_RUN;
          issuing_q <= !empty;
          ch_q <= 16'd0; px_q <= 16'd0; sub_q <= 2'd0;
          chbase_q <= c_addr_i; rowbase_q <= c_addr_i; rem_q <= {1'b0, n_i};
          pa_q <= p_addr_i;
        end
        P_RUN: if (!issuing_q && fly_q == {(QW+1){1'b0}}) phase_q <= P_DONE;
        default: ;
      endcase
      if (rgo) begin
        sub_q <= sub_q + 2'd1;
        if (sub_q == 2'd3) begin
          if (!last_px) px_q <= px_q + 16'd1;
          else begin
            px_q <= 16'd0;
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
      fly_q <= fly_q + {{QW{1'b0}}, rgo && sub_q == 2'd0} - {{QW{1'b0}}, wgo};
      if (rsp_valid_i && phase_q == P_RUN) begin
        cnt_q <= cnt_q + 2'd1;
        mx_q <= mx;
        sum_q <= sum;
      end
      if (pix_done) begin
        rq[wp_q] <= result;
        wp_q <= wp_q + 1'b1;
      end
      if (wgo) begin
        rp_q <= rp_q + 1'b1;
        pa_q <= pa_q + 32'd1;
      end
      rcnt_q <= rcnt_q + {{QW{1'b0}}, pix_done} - {{QW{1'b0}}, wgo};
    end
  end

  assign active_o = phase_q == P_RUN;
  assign done_o = !en || phase_q == P_DONE;
endmodule

`default_nettype wire
