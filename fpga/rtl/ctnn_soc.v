// ctnn_soc: ctnn_core + RAM + 16550 UART + exit device + the GEMM accelerator (its registers a
// slave on ctnn_bus_xbar), laid out like QEMU virt plus the accelerator. The accelerator's DMA has
// the RAM's second port to itself (ctnn_ram DualPort), 16 bytes wide (BUS.md "The DMA's line
// port"), so the core runs at full speed while a job streams (the driver programs the next job
// meanwhile); the DMA only ever addresses RAM (the accelerator checks its ranges). The crossbar's
// master 1 is unused (tied off).
// The address map comes from the generated ctnn_map.vh (source: fpga/regs/). WithAccel = 0 leaves
// the accelerator out: its region then answers with bus errors and the DMA port is tied off.
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_soc #(
  parameter integer RamBytes = `CTNN_SOC_RAM_SIZE,  // at most CTNN_MAP_RAM_SIZE; the rest of it errors
  parameter         CoreExecInFetch = 1'b1,    // see ctnn_core
  parameter         WithAccel = 1'b1,
  parameter integer AccelDim = 8,              // PE array side (ctnn_accel Dim)
  parameter integer AccelLog2KMax = 12         // largest GEMM K = 2^AccelLog2KMax
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  output wire        uart_tx_valid_o,   // one cycle per byte written to THR
  output wire [7:0]  uart_tx_data_o,
  output wire        exit_valid_o,      // the program wrote the exit device
  output wire [15:0] exit_code_o,       // 0 = pass
  output wire        accel_irq_o        // the accelerator's interrupt (the core has no interrupts)
);
`include "ctnn_map.vh"

  // ---- crossbar ----
  wire [1:0]   m_req_valid, m_req_ready, m_req_we, m_rsp_valid, m_rsp_err;
  // the accelerator's DMA master, on the RAM's port B
  wire         dma_req_valid, dma_req_ready, dma_req_we, dma_rsp_valid, dma_rsp_err;
  wire [31:0]  dma_req_addr;
  wire [127:0] dma_req_wdata, dma_rsp_rdata;
  wire [15:0]  dma_req_wstrb;
  wire [63:0]  m_req_addr, m_req_wdata, m_rsp_rdata;
  wire [7:0]   m_req_wstrb;
  wire [3:0]   s_req_valid, s_req_ready, s_req_we, s_rsp_valid, s_rsp_err;
  wire [127:0] s_req_addr, s_req_wdata, s_rsp_rdata;
  wire [15:0]  s_req_wstrb;

  ctnn_bus_xbar #(
    .RamBase      (CTNN_MAP_RAM_BASE),
    .RamBits      (CTNN_MAP_RAM_ADDR_BITS),
    .UartBase     (CTNN_MAP_UART_BASE),
    .UartBits     (CTNN_MAP_UART_ADDR_BITS),
    .ExitBase     (CTNN_MAP_EXIT_BASE),
    .ExitBits     (CTNN_MAP_EXIT_ADDR_BITS),
    .AccelBase    (CTNN_MAP_ACCEL_BASE),
    .AccelBits    (CTNN_MAP_ACCEL_ADDR_BITS),
    .AccelPresent (WithAccel)
  ) u_xbar (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .m_req_valid_i (m_req_valid),
    .m_req_ready_o (m_req_ready),
    .m_req_addr_i  (m_req_addr),
    .m_req_we_i    (m_req_we),
    .m_req_wdata_i (m_req_wdata),
    .m_req_wstrb_i (m_req_wstrb),
    .m_rsp_valid_o (m_rsp_valid),
    .m_rsp_rdata_o (m_rsp_rdata),
    .m_rsp_err_o   (m_rsp_err),
    .s_req_valid_o (s_req_valid),
    .s_req_ready_i (s_req_ready),
    .s_req_addr_o  (s_req_addr),
    .s_req_we_o    (s_req_we),
    .s_req_wdata_o (s_req_wdata),
    .s_req_wstrb_o (s_req_wstrb),
    .s_rsp_valid_i (s_rsp_valid),
    .s_rsp_rdata_i (s_rsp_rdata),
    .s_rsp_err_i   (s_rsp_err)
  );

  // ---- master 0: the core ----
  ctnn_core #(
    .BootAddr    (CTNN_MAP_RAM_BASE),
    .ExecInFetch (CoreExecInFetch)
  ) u_core (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_o (m_req_valid[0]),
    .req_ready_i (m_req_ready[0]),
    .req_addr_o  (m_req_addr[31:0]),
    .req_we_o    (m_req_we[0]),
    .req_wdata_o (m_req_wdata[31:0]),
    .req_wstrb_o (m_req_wstrb[3:0]),
    .rsp_valid_i (m_rsp_valid[0]),
    .rsp_rdata_i (m_rsp_rdata[31:0]),
    .rsp_err_i   (m_rsp_err[0])
  );

  // ---- slave 0: RAM ----
  ctnn_ram #(
    .Base     (CTNN_MAP_RAM_BASE),
    .Bytes    (RamBytes),
    .DualPort (1'b1)
  ) u_ram (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .b_req_valid_i (dma_req_valid),
    .b_req_ready_o (dma_req_ready),
    .b_req_addr_i  (dma_req_addr),
    .b_req_we_i    (dma_req_we),
    .b_req_wdata_i (dma_req_wdata),
    .b_req_wstrb_i (dma_req_wstrb),
    .b_rsp_valid_o (dma_rsp_valid),
    .b_rsp_rdata_o (dma_rsp_rdata),
    .b_rsp_err_o   (dma_rsp_err),
    .req_valid_i (s_req_valid[0]),
    .req_ready_o (s_req_ready[0]),
    .req_addr_i  (s_req_addr[31:0]),
    .req_we_i    (s_req_we[0]),
    .req_wdata_i (s_req_wdata[31:0]),
    .req_wstrb_i (s_req_wstrb[3:0]),
    .rsp_valid_o (s_rsp_valid[0]),
    .rsp_rdata_o (s_rsp_rdata[31:0]),
    .rsp_err_o   (s_rsp_err[0])
  );

  // ---- slave 1: UART ----
  ctnn_uart #(
    .Base (CTNN_MAP_UART_BASE)
  ) u_uart (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .req_valid_i (s_req_valid[1]),
    .req_ready_o (s_req_ready[1]),
    .req_addr_i  (s_req_addr[63:32]),
    .req_we_i    (s_req_we[1]),
    .req_wdata_i (s_req_wdata[63:32]),
    .req_wstrb_i (s_req_wstrb[7:4]),
    .rsp_valid_o (s_rsp_valid[1]),
    .rsp_rdata_o (s_rsp_rdata[63:32]),
    .rsp_err_o   (s_rsp_err[1]),
    .tx_valid_o  (uart_tx_valid_o),
    .tx_data_o   (uart_tx_data_o)
  );

  // ---- slave 2: exit device ----
  ctnn_exit #(
    .Base (CTNN_MAP_EXIT_BASE)
  ) u_exit (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .req_valid_i  (s_req_valid[2]),
    .req_ready_o  (s_req_ready[2]),
    .req_addr_i   (s_req_addr[95:64]),
    .req_we_i     (s_req_we[2]),
    .req_wdata_i  (s_req_wdata[95:64]),
    .req_wstrb_i  (s_req_wstrb[11:8]),
    .rsp_valid_o  (s_rsp_valid[2]),
    .rsp_rdata_o  (s_rsp_rdata[95:64]),
    .rsp_err_o    (s_rsp_err[2]),
    .exit_valid_o (exit_valid_o),
    .exit_code_o  (exit_code_o)
  );

  // ---- slave 3 and master 1: the accelerator's registers and its DMA ----
  generate
    if (WithAccel) begin : g_accel
      ctnn_accel #(
        .Dim      (AccelDim),
        .Log2KMax (AccelLog2KMax),
        .RamBase  (CTNN_MAP_RAM_BASE),
        .RamSize  (RamBytes)
      ) u_accel (
        .clk_i         (clk_i),
        .rst_ni        (rst_ni),
        .s_req_valid_i (s_req_valid[3]),
        .s_req_ready_o (s_req_ready[3]),
        .s_req_addr_i  (s_req_addr[127:96]),
        .s_req_we_i    (s_req_we[3]),
        .s_req_wdata_i (s_req_wdata[127:96]),
        .s_req_wstrb_i (s_req_wstrb[15:12]),
        .s_rsp_valid_o (s_rsp_valid[3]),
        .s_rsp_rdata_o (s_rsp_rdata[127:96]),
        .s_rsp_err_o   (s_rsp_err[3]),
        .m_req_valid_o (dma_req_valid),
        .m_req_ready_i (dma_req_ready),
        .m_req_addr_o  (dma_req_addr),
        .m_req_we_o    (dma_req_we),
        .m_req_wdata_o (dma_req_wdata),
        .m_req_wstrb_o (dma_req_wstrb),
        .m_rsp_valid_i (dma_rsp_valid),
        .m_rsp_rdata_i (dma_rsp_rdata),
        .m_rsp_err_i   (dma_rsp_err),
        .irq_o         (accel_irq_o)
      );
    end else begin : g_no_accel
      assign dma_req_valid       = 1'b0;
      assign dma_req_addr        = 32'd0;
      assign dma_req_we          = 1'b0;
      assign dma_req_wdata       = 128'd0;
      assign dma_req_wstrb       = 16'd0;
      assign s_req_ready[3]      = 1'b0;
      assign s_rsp_valid[3]      = 1'b0;
      assign s_rsp_rdata[127:96] = 32'd0;
      assign s_rsp_err[3]        = 1'b0;
      assign accel_irq_o         = 1'b0;
    end
  endgenerate

  // the crossbar's master 1 is not used
  assign m_req_valid[1]     = 1'b0;
  assign m_req_addr[63:32]  = 32'd0;
  assign m_req_we[1]        = 1'b0;
  assign m_req_wdata[63:32] = 32'd0;
  assign m_req_wstrb[7:4]   = 4'd0;
  wire unused_m1 = ^{m_req_ready[1], m_rsp_valid[1], m_rsp_err[1], m_rsp_rdata[63:32]};
endmodule

`default_nettype wire
