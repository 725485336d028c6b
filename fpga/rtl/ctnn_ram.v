// ctnn_ram: word RAM on the ctnn bus (always ready, latency 1, error outside Bytes). With
// DualPort = 1 a second slave port (b_*) serves the accelerator's DMA one 16-byte line per beat
// (BUS.md "The DMA's line port": address bits 3:0 ignored, 16 byte strobes), so the CPU's
// instruction fetches and data accesses on the first port never wait for a streaming DMA (on an
// FPGA: four word-wide true dual-port block RAMs side by side). Both ports may write the same
// word in one cycle: port B's bytes win.
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_ram #(
  parameter [31:0] Base  = `CTNN_SOC_RAM_BASE,
  parameter integer Bytes = `CTNN_SOC_RAM_SIZE,  // a power of two, at least 16
  parameter         DualPort = 1'b0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // second slave port (DualPort = 1; otherwise never ready, no responses)
  input  wire        b_req_valid_i,
  output wire        b_req_ready_o,
  input  wire [31:0] b_req_addr_i,
  input  wire        b_req_we_i,
  input  wire [127:0] b_req_wdata_i,
  input  wire [15:0] b_req_wstrb_i,
  output wire        b_rsp_valid_o,
  output wire [127:0] b_rsp_rdata_o,
  output wire        b_rsp_err_o,
  // ctnn bus slave
  `include "ctnn_bus_slave_ports.vh"
);
  localparam integer WORDS = Bytes / 4;
  localparam integer AW = $clog2(WORDS);

  // The simulator loads programs straight into this array.
  reg [31:0] mem_q [0:WORDS-1] /* verilator public_flat_rw */;

  reg        rsp_valid_q;
  reg [31:0] rsp_rdata_q;
  reg        rsp_err_q;

  wire [31:0] offset = req_addr_i - Base;
  wire        in_range = offset < Bytes;
  wire [AW-1:0] index = offset[AW+1:2];
  wire        accept = req_valid_i;

  wire [31:0] b_offset = b_req_addr_i - Base;
  wire        b_in_range = b_offset < Bytes;
  wire [AW-3:0] b_line = b_offset[AW+1:4];
  wire        b_accept = DualPort && b_req_valid_i;

  integer bl;
  // one process for both write ports: port B's store comes second, so its bytes win a collision
  always @(posedge clk_i) begin
    if (accept && in_range && req_we_i) begin
      if (req_wstrb_i[0]) mem_q[index][7:0]   <= req_wdata_i[7:0];
      if (req_wstrb_i[1]) mem_q[index][15:8]  <= req_wdata_i[15:8];
      if (req_wstrb_i[2]) mem_q[index][23:16] <= req_wdata_i[23:16];
      if (req_wstrb_i[3]) mem_q[index][31:24] <= req_wdata_i[31:24];
    end
    if (b_accept && b_in_range && b_req_we_i) begin
      for (bl = 0; bl < 16; bl = bl + 1)
        if (b_req_wstrb_i[bl]) mem_q[{b_line, bl[3:2]}][8*bl[1:0] +: 8] <= b_req_wdata_i[8*bl +: 8];
    end
  end

  reg        b_rsp_valid_q;
  reg [127:0] b_rsp_rdata_q;
  reg        b_rsp_err_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      b_rsp_valid_q <= 1'b0;
      b_rsp_rdata_q <= 128'd0;
      b_rsp_err_q   <= 1'b0;
    end else begin
      b_rsp_valid_q <= b_accept;
      b_rsp_err_q   <= b_accept && !b_in_range;
      b_rsp_rdata_q <= (b_accept && b_in_range && !b_req_we_i)
                       ? {mem_q[{b_line, 2'd3}], mem_q[{b_line, 2'd2}], mem_q[{b_line, 2'd1}], mem_q[{b_line, 2'd0}]}
                       : 128'd0;
    end
  end
  assign b_req_ready_o = DualPort;
  assign b_rsp_valid_o = b_rsp_valid_q;
  assign b_rsp_rdata_o = b_rsp_rdata_q;
  assign b_rsp_err_o   = b_rsp_err_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= 32'd0;
      rsp_err_q   <= 1'b0;
    end else begin
      rsp_valid_q <= accept;
      rsp_err_q   <= accept && !in_range;
      rsp_rdata_q <= (accept && in_range && !req_we_i) ? mem_q[index] : 32'd0;
    end
  end

  assign req_ready_o = 1'b1;
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;
endmodule

`default_nettype wire
