// ctnn_exit: exit device with QEMU sifive_test semantics on the ctnn bus.
// A full-word write at offset 0 of 0x5555 passes (code 0), (code << 16) | 0x3333 fails with code.
// Any other access except a read at offset 0 (which returns 0) is a bus error.
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_exit #(
  parameter [31:0] Base = `CTNN_SOC_EXIT_BASE
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  output wire        exit_valid_o,   // one-cycle pulse: the program asked to stop
  output wire [15:0] exit_code_o,    // 0 = pass
  // ctnn bus slave
  `include "ctnn_bus_slave_ports.vh"
);
  localparam [15:0] FINISHER_PASS = `CTNN_SOC_EXIT_FINISHER_STATUS_PASS;
  localparam [15:0] FINISHER_FAIL = `CTNN_SOC_EXIT_FINISHER_STATUS_FAIL;

  reg        rsp_valid_q;
  reg        rsp_err_q;
  reg        exit_valid_q;
  reg [15:0] exit_code_q;

  wire at_zero = req_addr_i == Base;
  wire is_pass = req_wdata_i == {16'd0, FINISHER_PASS};
  wire is_fail = req_wdata_i[15:0] == FINISHER_FAIL;
  wire good_wr = at_zero && req_we_i && req_wstrb_i == 4'b1111 && (is_pass || is_fail);
  wire good_rd = at_zero && !req_we_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rsp_valid_q  <= 1'b0;
      rsp_err_q    <= 1'b0;
      exit_valid_q <= 1'b0;
      exit_code_q  <= 16'd0;
    end else begin
      rsp_valid_q  <= req_valid_i;
      rsp_err_q    <= req_valid_i && !(good_wr || good_rd);
      exit_valid_q <= req_valid_i && good_wr;
      if (req_valid_i && good_wr) begin
        exit_code_q <= is_pass ? 16'd0 : req_wdata_i[31:16];
      end
    end
  end

  assign req_ready_o  = 1'b1;
  assign rsp_valid_o  = rsp_valid_q;
  assign rsp_rdata_o  = 32'd0;
  assign rsp_err_o    = rsp_err_q;
  assign exit_valid_o = exit_valid_q;
  assign exit_code_o  = exit_code_q;
endmodule

`default_nettype wire
