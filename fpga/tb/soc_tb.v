// soc_tb: Icarus testbench of ctnn_soc; runs a firmware image given as a word hex file.
//   vvp soc_tb.vvp +hex=prog.hex [+max_cycles=N]
// Compile with -Psoc_tb.CoreExecInFetch=0 for the core's registered-instruction variant and
// -Psoc_tb.WithAccel=0 for the SoC without the accelerator.
// UART bytes go to stdout; at the exit device the run ends with the program's code as status
// ($finish_and_return, an Icarus extension); the cycle limit ends it with status 125.
`default_nettype none

module soc_tb #(
  parameter CoreExecInFetch = 1'b1,
  parameter WithAccel = 1'b1
);
  reg         clk = 1'b0;
  reg         rst_n = 1'b0;
  wire        tx_valid;
  wire [7:0]  tx_data;
  wire        exit_valid;
  wire [15:0] exit_code;

  wire        accel_irq;

  ctnn_soc #(
    .CoreExecInFetch (CoreExecInFetch),
    .WithAccel       (WithAccel)
  ) u_soc (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .uart_tx_valid_o (tx_valid),
    .uart_tx_data_o  (tx_data),
    .exit_valid_o    (exit_valid),
    .exit_code_o     (exit_code),
    .accel_irq_o     (accel_irq)
  );

  reg [8*1024-1:0] hex_file;
  integer max_cycles;
  integer cycles = 0;
  integer i;

  always #5 clk = ~clk;

  initial begin
    if (!$value$plusargs("hex=%s", hex_file)) begin
      $display("soc_tb: +hex=FILE is required");
      $finish_and_return(2);
    end
    if (!$value$plusargs("max_cycles=%d", max_cycles)) begin
      max_cycles = 1000000;
    end
    for (i = 0; i < 262144; i = i + 1) begin
      u_soc.u_ram.mem_q[i] = 32'd0;
    end
    $readmemh(hex_file, u_soc.u_ram.mem_q);
    repeat (2) @(posedge clk);
    rst_n <= 1'b1;
  end

  always @(posedge clk) begin
    if (rst_n) begin
      cycles = cycles + 1;
      if (tx_valid) begin
        $write("%c", tx_data);
      end
      if (exit_valid) begin
        $fflush;
        // exit_valid was registered on the previous edge: count cycles as ctnn-soc-sim does.
        $fdisplay(32'h8000_0002, "soc_tb: cycles=%0d instret=%0d", cycles - 1, u_soc.u_core.u_csr.minstret_q);
        $finish_and_return(exit_code == 16'd0 ? 0 : (exit_code[7:0] == 8'd0 ? 1 : exit_code[7:0]));
      end
      if (cycles >= max_cycles) begin
        $fdisplay(32'h8000_0002, "soc_tb: no exit after %0d cycles", max_cycles);
        $finish_and_return(125);
      end
    end
  end
endmodule

`default_nettype wire
