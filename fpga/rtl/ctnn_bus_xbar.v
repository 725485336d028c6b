// ctnn_bus_xbar: 2 masters (0 = CPU, 1 = accelerator DMA) x 4 slaves (RAM, UART, exit, accelerator)
// ctnn bus interconnect (BUS.md). Regions come in as parameters (ctnn_soc passes the generated map);
// an address no region claims gets an error response from the internal error slave, latency 1.
// Per slave the DMA wins a conflict; the losing CPU sees req_ready low until the slave is free.
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_bus_xbar #(
  // A region claims addr when addr[31:Bits] == Base[31:Bits].
  parameter [31:0]  RamBase    = `CTNN_SOC_RAM_BASE,
  parameter integer RamBits    = `CTNN_SOC_RAM_ADDR_BITS,
  parameter [31:0]  UartBase   = `CTNN_SOC_UART_BASE,
  parameter integer UartBits   = `CTNN_SOC_UART_ADDR_BITS,
  parameter [31:0]  ExitBase   = `CTNN_SOC_EXIT_BASE,
  parameter integer ExitBits   = `CTNN_SOC_EXIT_ADDR_BITS,
  parameter [31:0]  AccelBase  = `CTNN_SOC_ACCEL_BASE,
  parameter integer AccelBits  = `CTNN_SOC_ACCEL_ADDR_BITS,
  parameter         AccelPresent = 1'b0       // 0: the accelerator region answers with errors
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // masters: index 0 = CPU, 1 = DMA; fields packed master by master
  input  wire [1:0]  m_req_valid_i,
  output wire [1:0]  m_req_ready_o,
  input  wire [63:0] m_req_addr_i,
  input  wire [1:0]  m_req_we_i,
  input  wire [63:0] m_req_wdata_i,
  input  wire [7:0]  m_req_wstrb_i,
  output wire [1:0]  m_rsp_valid_o,
  output wire [63:0] m_rsp_rdata_o,
  output wire [1:0]  m_rsp_err_o,
  // slaves: index 0 = RAM, 1 = UART, 2 = exit, 3 = accelerator
  output wire [3:0]   s_req_valid_o,
  input  wire [3:0]   s_req_ready_i,
  output wire [127:0] s_req_addr_o,
  output wire [3:0]   s_req_we_o,
  output wire [127:0] s_req_wdata_o,
  output wire [15:0]  s_req_wstrb_o,
  input  wire [3:0]   s_rsp_valid_i,
  input  wire [127:0] s_rsp_rdata_i,
  input  wire [3:0]   s_rsp_err_i
);
  localparam integer NM = 2;
  localparam integer NS = 4;
  localparam integer DMA = 1;

  // ---- decode: one-hot slave select per master (all zero = unmapped) ----
  wire [NS-1:0] hit [0:NM-1];
  genvar m, s;
  generate
    for (m = 0; m < NM; m = m + 1) begin : g_decode
      wire [31:0] addr = m_req_addr_i[32*m +: 32];
      assign hit[m][0] = (addr >> RamBits) == (RamBase >> RamBits);
      assign hit[m][1] = (addr >> UartBits) == (UartBase >> UartBits);
      assign hit[m][2] = (addr >> ExitBits) == (ExitBase >> ExitBits);
      assign hit[m][3] = AccelPresent && ((addr >> AccelBits) == (AccelBase >> AccelBits));
    end
  endgenerate

  // ---- per slave: grant the DMA first, else the CPU ----
  wire [NS-1:0] grant_dma;
  wire [NS-1:0] grant_cpu;
  generate
    for (s = 0; s < NS; s = s + 1) begin : g_slave
      assign grant_dma[s] = m_req_valid_i[DMA] && hit[DMA][s];
      assign grant_cpu[s] = m_req_valid_i[0] && hit[0][s] && !grant_dma[s];
      assign s_req_valid_o[s]          = grant_dma[s] || grant_cpu[s];
      assign s_req_addr_o[32*s +: 32]  = grant_dma[s] ? m_req_addr_i[63:32]  : m_req_addr_i[31:0];
      assign s_req_we_o[s]             = grant_dma[s] ? m_req_we_i[1]        : m_req_we_i[0];
      assign s_req_wdata_o[32*s +: 32] = grant_dma[s] ? m_req_wdata_i[63:32] : m_req_wdata_i[31:0];
      assign s_req_wstrb_o[4*s +: 4]   = grant_dma[s] ? m_req_wstrb_i[7:4]   : m_req_wstrb_i[3:0];
    end
  endgenerate

  // ---- per master: ready, and the one-cycle response routing ----
  generate
    for (m = 0; m < NM; m = m + 1) begin : g_master
      wire [NS-1:0] granted = (m == DMA) ? grant_dma : grant_cpu;
      wire          unmapped = hit[m] == {NS{1'b0}};
      assign m_req_ready_o[m] = unmapped || |(granted & s_req_ready_i);

      reg [NS-1:0] sel_q;      // slave that accepted this master's request last cycle
      reg          err_q;      // the error slave accepted it
      always @(posedge clk_i) begin
        if (!rst_ni) begin
          sel_q <= {NS{1'b0}};
          err_q <= 1'b0;
        end else begin
          sel_q <= granted & s_req_ready_i;
          err_q <= m_req_valid_i[m] && unmapped;
        end
      end

      wire [NS-1:0] rsp_hit = sel_q & s_rsp_valid_i;
      assign m_rsp_valid_o[m] = err_q || |rsp_hit;
      assign m_rsp_err_o[m]   = err_q || |(sel_q & s_rsp_err_i);
      assign m_rsp_rdata_o[32*m +: 32] =
          ({32{rsp_hit[0]}} & s_rsp_rdata_i[31:0])  | ({32{rsp_hit[1]}} & s_rsp_rdata_i[63:32]) |
          ({32{rsp_hit[2]}} & s_rsp_rdata_i[95:64]) | ({32{rsp_hit[3]}} & s_rsp_rdata_i[127:96]);
    end
  endgenerate
endmodule

`default_nettype wire
