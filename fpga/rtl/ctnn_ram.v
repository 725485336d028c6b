// ctnn_ram: single-port word RAM on the ctnn bus (always ready, latency 1, error outside Bytes).
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_ram #(
  parameter [31:0] Base  = `CTNN_SOC_RAM_BASE,
  parameter integer Bytes = `CTNN_SOC_RAM_SIZE  // a power of two, at least 4
) (
  input  wire        clk_i,
  input  wire        rst_ni,
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

  always @(posedge clk_i) begin
    if (accept && in_range && req_we_i) begin
      if (req_wstrb_i[0]) mem_q[index][7:0]   <= req_wdata_i[7:0];
      if (req_wstrb_i[1]) mem_q[index][15:8]  <= req_wdata_i[15:8];
      if (req_wstrb_i[2]) mem_q[index][23:16] <= req_wdata_i[23:16];
      if (req_wstrb_i[3]) mem_q[index][31:24] <= req_wdata_i[31:24];
    end
  end

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
