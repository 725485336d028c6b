// ctnn_core_lsu: the core's load-store unit: byte address and alignment check, store data and
// byte enables, the request held while the bus stalls (S_MEM), and the load result (the byte or
// half selected from the response word by the address, then extended).
`default_nettype none

module ctnn_core_lsu (
  input  wire        clk_i,
  input  wire        rst_ni,
  // the load or store in execute
  input  wire        issue_i,        // it is offered to the bus this cycle: hold its request
  input  wire        we_i,           // store
  input  wire [2:0]  funct3_i,       // size and sign (in S_MEM_WAIT: of the held load)
  input  wire [31:0] rs1_val_i,      // base
  input  wire [31:0] offset_i,       // S immediate (store) or I immediate (load)
  input  wire [31:0] rs2_val_i,      // store data
  output wire [31:0] addr_o,         // byte address (mtval when misaligned)
  output wire        misaligned_o,
  // the bus request: this instruction's, or with retry_i the one held since issue_i
  input  wire        retry_i,
  output wire [31:0] req_addr_o,
  output wire        req_we_o,
  output wire [31:0] req_wdata_o,
  output wire [3:0]  req_wstrb_o,
  // the held access: its kind and address (a fault response's cause and mtval), its load result
  output wire        held_we_o,
  output wire [31:0] held_addr_o,
  input  wire [31:0] rsp_rdata_i,
  output reg  [31:0] rdata_o
);
  reg [31:0] addr_q;
  reg [31:0] wdata_q;
  reg [3:0]  wstrb_q;
  reg        we_q;

  wire [31:0] addr = rs1_val_i + offset_i;
  assign addr_o       = addr;
  assign misaligned_o = (funct3_i[1:0] == 2'b01 && addr[0]) ||
                        (funct3_i[1:0] == 2'b10 && addr[1:0] != 2'b00);

  reg  [3:0]  st_wstrb;
  reg  [31:0] st_wdata;
  always @(*) begin
    case (funct3_i[1:0])
      2'b00: begin
        st_wstrb = 4'b0001 << addr[1:0];
        st_wdata = {4{rs2_val_i[7:0]}};
      end
      2'b01: begin
        st_wstrb = addr[1] ? 4'b1100 : 4'b0011;
        st_wdata = {2{rs2_val_i[15:0]}};
      end
      default: begin
        st_wstrb = 4'b1111;
        st_wdata = rs2_val_i;
      end
    endcase
  end

  // Word-aligned request; a load drives no data and no byte enables.
  assign req_addr_o  = retry_i ? {addr_q[31:2], 2'b00} : {addr[31:2], 2'b00};
  assign req_we_o    = retry_i ? we_q : we_i;
  assign req_wdata_o = retry_i ? (we_q ? wdata_q : 32'd0) : (we_i ? st_wdata : 32'd0);
  assign req_wstrb_o = retry_i ? (we_q ? wstrb_q : 4'd0) : (we_i ? st_wstrb : 4'd0);

  assign held_we_o   = we_q;
  assign held_addr_o = addr_q;

  wire [15:0] ld_half = addr_q[1] ? rsp_rdata_i[31:16] : rsp_rdata_i[15:0];
  wire [7:0]  ld_byte = addr_q[0] ? ld_half[15:8] : ld_half[7:0];
  always @(*) begin
    case (funct3_i)
      3'b000:  rdata_o = {{24{ld_byte[7]}}, ld_byte};
      3'b001:  rdata_o = {{16{ld_half[15]}}, ld_half};
      3'b100:  rdata_o = {24'd0, ld_byte};
      3'b101:  rdata_o = {16'd0, ld_half};
      default: rdata_o = rsp_rdata_i;
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      addr_q  <= 32'd0;
      wdata_q <= 32'd0;
      wstrb_q <= 4'd0;
      we_q    <= 1'b0;
    end else if (issue_i) begin
      addr_q  <= addr;
      we_q    <= we_i;
      wdata_q <= st_wdata;
      wstrb_q <= st_wstrb;
    end
  end
endmodule

`default_nettype wire
