// The accelerator's DMA engine: the single ctnn-bus master port shared by four request
// streams, by fixed priority: 0 = C writes, 3 = residual reads (CFG.RES_ADD), 1 = A panel
// loads, 2 = B block and parameter loads (stream 3 never asks when CFG.RES_ADD = 0).
// A granted request moves into the output register and is offered on the bus until accepted
// (BUS.md rule 1); its stream id and opaque tag travel with it and come back with the response
// one cycle after acceptance (rule 3), so a stream can pipeline one word per cycle.
// stop_i stops granting (abort); idle_o says nothing is offered or in flight.
//
// The master port is 128 bits wide (one 16-byte line per beat, BUS.md "The DMA's line port"):
// a request carries the word address of its stream (bits 3:2 pick the word in the line); only
// stream 0 writes, a whole line with its 16 strobes (a word writer puts its word in its lane),
// and a read answers both the whole line (r_line_o, for the streams that take lines) and the
// word at the request's address (r_rdata_o).
`default_nettype none

module ctnn_dma #(
  parameter integer TagWidth = 32
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  input  wire                  stop_i,
  // stream requests, stream s in bits [s]
  input  wire [3:0]            s_valid_i,
  input  wire [4*32-1:0]       s_addr_i,
  input  wire                  s_we0_i,     // stream 0's request is a write
  input  wire [127:0]          s_wdata0_i,
  input  wire [15:0]           s_wstrb0_i,
  input  wire [4*TagWidth-1:0] s_tag_i,
  output wire [3:0]            s_grant_o,
  // responses
  output reg                   r_valid_o,
  output reg  [1:0]            r_stream_o,
  output reg  [TagWidth-1:0]   r_tag_o,
  output wire [31:0]           r_rdata_o,   // the word at the request's address
  output reg  [127:0]          r_line_o,    // the whole line
  output reg                   r_err_o,
  output wire                  idle_o,
  // ctnn bus master port
  output reg                   req_valid_o,
  input  wire                  req_ready_i,
  output reg  [31:0]           req_addr_o,
  output reg                   req_we_o,
  output reg  [127:0]          req_wdata_o,
  output reg  [15:0]           req_wstrb_o,
  input  wire                  rsp_valid_i,
  input  wire [127:0]          rsp_rdata_i,
  input  wire                  rsp_err_i
);
  reg  [1:0]          out_stream_q;
  reg  [TagWidth-1:0] out_tag_q;
  reg                 fly_q;          // a request was accepted last cycle
  reg  [1:0]          fly_stream_q;
  reg  [TagWidth-1:0] fly_tag_q;
  reg  [1:0]          fly_word_q, r_word_q;   // the word in the line, of the flying and answered request

  wire accepted = req_valid_o && req_ready_i;
  wire free = !req_valid_o || accepted;
  wire [1:0] pick = s_valid_i[0] ? 2'd0 : (s_valid_i[3] ? 2'd3 : (s_valid_i[1] ? 2'd1 : 2'd2));
  wire take = free && !stop_i && (s_valid_i != 4'b0000);

  assign s_grant_o = take ? (4'b0001 << pick) : 4'b0000;
  assign idle_o = !req_valid_o && !fly_q && !r_valid_o && !r_err_o;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      req_valid_o  <= 1'b0;
      req_addr_o   <= 32'd0;
      req_we_o     <= 1'b0;
      req_wdata_o  <= 128'd0;
      req_wstrb_o  <= 16'd0;
      out_stream_q <= 2'd0;
      out_tag_q    <= {TagWidth{1'b0}};
      fly_q        <= 1'b0;
      fly_stream_q <= 2'd0;
      fly_tag_q    <= {TagWidth{1'b0}};
      r_valid_o    <= 1'b0;
      r_stream_o   <= 2'd0;
      r_tag_o      <= {TagWidth{1'b0}};
      r_line_o     <= 128'd0;
      fly_word_q   <= 2'd0;
      r_word_q     <= 2'd0;
      r_err_o      <= 1'b0;
    end else begin
      if (take) begin
        req_valid_o  <= 1'b1;
        req_addr_o   <= s_addr_i[32*pick +: 32];
        req_we_o     <= pick == 2'd0 && s_we0_i;
        req_wdata_o  <= s_wdata0_i;
        req_wstrb_o  <= (pick == 2'd0 && s_we0_i) ? s_wstrb0_i : 16'd0;
        out_stream_q <= pick;
        out_tag_q    <= s_tag_i[TagWidth*pick +: TagWidth];
      end else if (accepted) begin
        req_valid_o <= 1'b0;
      end
      fly_q        <= accepted;
      fly_stream_q <= out_stream_q;
      fly_tag_q    <= out_tag_q;
      fly_word_q   <= req_addr_o[3:2];
      // The response of the request accepted last cycle, delivered with its stream and tag.
      r_valid_o  <= fly_q && rsp_valid_i;
      r_stream_o <= fly_stream_q;
      r_tag_o    <= fly_tag_q;
      r_line_o   <= rsp_rdata_i;
      r_word_q   <= fly_word_q;
      r_err_o    <= fly_q && (rsp_err_i || !rsp_valid_i);  // a missing response is an error too
    end
  end
  assign r_rdata_o = r_line_o[32*r_word_q +: 32];
endmodule

`default_nettype wire
