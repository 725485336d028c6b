// ctnn_bus_slave_ports.vh: the ports of a ctnn-bus slave (BUS.md), the same in every slave.
// Included as the last entries of a module's port list (no comma after it):
//     input  wire clk_i,
//     input  wire rst_ni,
//     ... the device's own ports, each followed by a comma ...
//     (include of this file)
//   );
// A slave that ignores some request bits consumes them in a wire named unused_* (Verilator does
// not report signals with such names), so no lint waiver has to name these shared lines.
  input  wire        req_valid_i,
  output wire        req_ready_o,
  input  wire [31:0] req_addr_i,
  input  wire        req_we_i,
  input  wire [31:0] req_wdata_i,
  input  wire [3:0]  req_wstrb_i,
  output wire        rsp_valid_o,
  output wire [31:0] rsp_rdata_o,
  output wire        rsp_err_o
