// ctnn_uart: transmit side of a 16550 UART on the ctnn bus (QEMU virt layout: byte registers 0..7).
// THR writes leave as tx_valid_o/tx_data_o; LSR always reports the transmitter empty (bits 5, 6).
// DLAB (LCR bit 7) maps offsets 0/1 to the divisor latch, so a driver's baud setup prints nothing.
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_uart #(
  parameter [31:0] Base = `CTNN_SOC_UART_BASE
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  output wire        tx_valid_o,
  output wire [7:0]  tx_data_o,
  // ctnn bus slave
  `include "ctnn_bus_slave_ports.vh"
);
  localparam [7:0] LSR_VALUE = (8'd1 << `CTNN_SOC_UART_LSR_THRE_LSB) | (8'd1 << `CTNN_SOC_UART_LSR_TEMT_LSB);  // no receive data
  // FCR bits 7:1 (FIFO reset, trigger level) mean nothing without a receive FIFO.
  wire unused_fcr = ^req_wdata_i[23:17];

  reg [7:0] ier_q, lcr_q, mcr_q, scr_q, dll_q, dlm_q;
  reg       fifo_en_q;           // FCR bit 0, reported in IIR bits 7:6
  reg       rsp_valid_q;
  reg [31:0] rsp_rdata_q;
  reg       rsp_err_q;
  reg       tx_valid_q;
  reg [7:0] tx_data_q;

  // Registers 0..7 live in the two words at offsets 0 and 4; anything above is a bus error.
  wire [31:0] offset = req_addr_i - Base;
  wire       in_range = offset < 32'd8;
  wire       upper  = offset[2];
  wire       dlab   = lcr_q[7];
  wire       wr     = req_valid_i && in_range && req_we_i;
  wire [31:0] read_word = upper ? {scr_q, 8'h00, LSR_VALUE, mcr_q}
                                : {lcr_q, fifo_en_q, fifo_en_q, 6'b000001, dlab ? dlm_q : ier_q, dlab ? dll_q : 8'h00};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ier_q <= 8'd0;
      lcr_q <= 8'h03;
      mcr_q <= 8'd0;
      scr_q <= 8'd0;
      dll_q <= 8'd1;
      dlm_q <= 8'd0;
      fifo_en_q <= 1'b0;
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= 32'd0;
      rsp_err_q   <= 1'b0;
      tx_valid_q  <= 1'b0;
      tx_data_q   <= 8'd0;
    end else begin
      rsp_valid_q <= req_valid_i;
      rsp_err_q   <= req_valid_i && !in_range;
      rsp_rdata_q <= (req_valid_i && in_range && !req_we_i) ? read_word : 32'd0;
      tx_valid_q  <= 1'b0;
      if (wr && !upper) begin
        if (req_wstrb_i[0]) begin
          if (dlab) begin
            dll_q <= req_wdata_i[7:0];
          end else begin
            tx_valid_q <= 1'b1;
            tx_data_q  <= req_wdata_i[7:0];
          end
        end
        if (req_wstrb_i[1]) begin
          if (dlab) dlm_q <= req_wdata_i[15:8];
          else      ier_q <= req_wdata_i[15:8] & 8'h0f;
        end
        // byte 2 is FCR on write: only the FIFO enable is kept (no receiver, nothing to reset)
        if (req_wstrb_i[2]) fifo_en_q <= req_wdata_i[16];
        if (req_wstrb_i[3]) lcr_q <= req_wdata_i[31:24];
      end
      if (wr && upper) begin
        if (req_wstrb_i[0]) mcr_q <= req_wdata_i[7:0] & 8'h1f;
        // byte 1 (LSR) and byte 2 (MSR) are read-only
        if (req_wstrb_i[3]) scr_q <= req_wdata_i[31:24];
      end
    end
  end

  assign req_ready_o = 1'b1;
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;
  assign tx_valid_o  = tx_valid_q;
  assign tx_data_o   = tx_data_q;
endmodule

`default_nettype wire
