// Icarus smoke test of ctnn_accel: one int32 GEMM (M=5, N=6, K=7, zero points, bias) through
// the MMIO port and a latency-1 RAM on the DMA port, checked against a triple loop here.
`default_nettype none

module accel_smoke_tb;
  `include "ctnn_map.vh"
  `include "ctnn_accel_regs.vh"

  localparam integer WORDS = 16384;           // 64 KiB of RAM
  localparam integer M = 5, N = 6, K = 7, LDA = 8, LDB = 8, LDC = 4 * N;
  localparam integer AZP = 3, BZP = -2;
  localparam [31:0] A = CTNN_MAP_RAM_BASE, B = CTNN_MAP_RAM_BASE + 32'h100,
                    C = CTNN_MAP_RAM_BASE + 32'h1000, BIAS = CTNN_MAP_RAM_BASE + 32'h2000;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = !clk;

  reg         s_valid = 1'b0, s_we = 1'b0;
  reg  [31:0] s_addr = 32'd0, s_wdata = 32'd0;
  wire        s_ready, s_rvalid, s_err;
  wire [31:0] s_rdata;
  wire        m_valid, m_we, irq;
  wire [31:0] m_addr;
  wire [127:0] m_wdata;
  wire [15:0] m_wstrb;
  reg         m_rvalid = 1'b0;
  reg  [127:0] m_rdata = 128'd0;
  reg  [31:0] mem [0:WORDS-1];

  ctnn_accel #(.Dim(8), .Log2KMax(8), .NbTiles(2), .RamSize(32'h0001_0000)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .s_req_valid_i(s_valid), .s_req_ready_o(s_ready), .s_req_addr_i(s_addr),
    .s_req_we_i(s_we), .s_req_wdata_i(s_wdata), .s_req_wstrb_i(s_we ? 4'hF : 4'h0),
    .s_rsp_valid_o(s_rvalid), .s_rsp_rdata_o(s_rdata), .s_rsp_err_o(s_err),
    .m_req_valid_o(m_valid), .m_req_ready_i(1'b1), .m_req_addr_o(m_addr),
    .m_req_we_o(m_we), .m_req_wdata_o(m_wdata), .m_req_wstrb_o(m_wstrb),
    .m_rsp_valid_i(m_rvalid), .m_rsp_rdata_i(m_rdata), .m_rsp_err_i(1'b0), .irq_o(irq));

  // RAM slave, latency 1, 16-byte lines (BUS.md "The DMA's line port")
  wire [31:0] lidx = ((m_addr - CTNN_MAP_RAM_BASE) >> 4) << 2;   // the line's first word
  integer l;
  always @(posedge clk) begin
    m_rvalid <= m_valid;
    m_rdata <= 128'd0;
    if (m_valid) begin
      if (m_we) begin
        for (l = 0; l < 16; l = l + 1)
          if (m_wstrb[l]) mem[lidx + l / 4][8*(l % 4) +: 8] <= m_wdata[8*l +: 8];
      end else begin
        m_rdata <= {mem[lidx + 3], mem[lidx + 2], mem[lidx + 1], mem[lidx]};
      end
    end
  end

  task mmio_write(input [11:0] off, input [31:0] v);
    begin
      @(negedge clk);
      s_valid = 1'b1; s_we = 1'b1; s_addr = CTNN_MAP_ACCEL_BASE + {20'd0, off}; s_wdata = v;
      @(negedge clk);
      s_valid = 1'b0; s_we = 1'b0;
      if (!s_rvalid || s_err) begin $display("accel smoke: FAIL mmio write %h", off); $finish; end
    end
  endtask

  task mmio_read(input [11:0] off, output [31:0] v);
    begin
      @(negedge clk);
      s_valid = 1'b1; s_we = 1'b0; s_addr = CTNN_MAP_ACCEL_BASE + {20'd0, off};
      @(negedge clk);
      s_valid = 1'b0;
      v = s_rdata;
    end
  endtask

  function integer a_val(input integer i, input integer k);
    a_val = (i * 7 + k * 3) % 17 - 8;
  endfunction
  function integer b_val(input integer k, input integer j);
    b_val = (k * 5 + j * 11) % 19 - 9;
  endfunction

  integer i, j, k, errors, cycles;
  reg [31:0] v, expect;
  reg [7:0] byte_v;
  initial begin
    errors = 0;
    for (i = 0; i < WORDS; i = i + 1) mem[i] = 32'hA5A5_A5A5;
    for (i = 0; i < M; i = i + 1)
      for (k = 0; k < K; k = k + 1) begin
        byte_v = a_val(i, k);
        mem[((A - CTNN_MAP_RAM_BASE) + i * LDA + k) >> 2][8*((i * LDA + k) % 4) +: 8] = byte_v;
      end
    for (k = 0; k < K; k = k + 1)
      for (j = 0; j < N; j = j + 1) begin
        byte_v = b_val(k, j);
        mem[((B - CTNN_MAP_RAM_BASE) + k * LDB + j) >> 2][8*((k * LDB + j) % 4) +: 8] = byte_v;
      end
    for (j = 0; j < N; j = j + 1) mem[((BIAS - CTNN_MAP_RAM_BASE) >> 2) + j] = j * 1000 - 2500;

    repeat (4) @(posedge clk);
    rst_n = 1'b1;
    mmio_read(CTNN_ACCEL_ID_OFFSET, v);
    if (v !== CTNN_ACCEL_ID_RESET) begin $display("accel smoke: FAIL ID %h", v); errors = errors + 1; end
    mmio_write(CTNN_ACCEL_CFG_OFFSET, (32'd1 << CTNN_ACCEL_CFG_OUT_RAW_LSB) | (32'd1 << CTNN_ACCEL_CFG_BIAS_EN_LSB));
    mmio_write(CTNN_ACCEL_M_OFFSET, M);
    mmio_write(CTNN_ACCEL_N_OFFSET, N);
    mmio_write(CTNN_ACCEL_K_OFFSET, K);
    mmio_write(CTNN_ACCEL_A_ADDR_OFFSET, A);
    mmio_write(CTNN_ACCEL_B_ADDR_OFFSET, B);
    mmio_write(CTNN_ACCEL_C_ADDR_OFFSET, C);
    mmio_write(CTNN_ACCEL_BIAS_ADDR_OFFSET, BIAS);
    mmio_write(CTNN_ACCEL_LDA_OFFSET, LDA);
    mmio_write(CTNN_ACCEL_LDB_OFFSET, LDB);
    mmio_write(CTNN_ACCEL_LDC_OFFSET, LDC);
    mmio_write(CTNN_ACCEL_ZP_OFFSET, ((AZP & 255) << CTNN_ACCEL_ZP_A_ZP_LSB) | ((BZP & 255) << CTNN_ACCEL_ZP_B_ZP_LSB));
    mmio_write(CTNN_ACCEL_IRQ_EN_OFFSET, 32'd1 << CTNN_ACCEL_IRQ_EN_DONE_LSB);
    mmio_write(CTNN_ACCEL_CTRL_OFFSET, 32'd1 << CTNN_ACCEL_CTRL_START_LSB);
    cycles = 0;
    while (!irq && cycles < 100000) begin @(posedge clk); cycles = cycles + 1; end
    mmio_read(CTNN_ACCEL_STATUS_OFFSET, v);
    if (!v[CTNN_ACCEL_STATUS_DONE_LSB] || v[CTNN_ACCEL_STATUS_ERROR_LSB]) begin
      $display("accel smoke: FAIL status %h after %0d cycles", v, cycles);
      errors = errors + 1;
    end
    for (i = 0; i < M; i = i + 1)
      for (j = 0; j < N; j = j + 1) begin
        expect = j * 1000 - 2500;
        for (k = 0; k < K; k = k + 1) expect = expect + (a_val(i, k) - AZP) * (b_val(k, j) - BZP);
        v = mem[((C - CTNN_MAP_RAM_BASE) + i * LDC + 4 * j) >> 2];
        if (v !== expect) begin
          $display("accel smoke: FAIL C[%0d][%0d] = %0d, expected %0d", i, j, $signed(v), $signed(expect));
          errors = errors + 1;
        end
      end
    if (mem[((C - CTNN_MAP_RAM_BASE) + M * LDC) >> 2] !== 32'hA5A5_A5A5) begin
      $display("accel smoke: FAIL write past C"); errors = errors + 1;
    end
    if (errors == 0) $display("accel smoke: PASS (%0d cycles)", cycles);
    else $display("accel smoke: %0d errors", errors);
    $finish;
  end
endmodule

`default_nettype wire
