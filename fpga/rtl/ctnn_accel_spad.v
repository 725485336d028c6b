// Scratchpad bank: a simple dual-port RAM (one write port, one registered read port with
// enable), the shape FPGA block RAMs implement. Width x Depth words.
`default_nettype none

module ctnn_accel_spad #(
  parameter integer Width = 32,
  parameter integer Depth = 1024
) (
  input  wire                     clk_i,
  input  wire                     we_i,
  input  wire [$clog2(Depth)-1:0] waddr_i,
  input  wire [Width-1:0]         wdata_i,
  input  wire                     re_i,
  input  wire [$clog2(Depth)-1:0] raddr_i,
  output reg  [Width-1:0]         rdata_o
);
  reg [Width-1:0] mem_q [0:Depth-1];

  always @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (re_i) rdata_o <= mem_q[raddr_i];
  end
endmodule

`default_nettype wire
