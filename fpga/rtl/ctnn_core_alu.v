// ctnn_core_alu: the core's arithmetic: OP / OP-IMM results, branch conditions, and the
// single-cycle multiplier (one 33x33 signed product covers MUL, MULH, MULHSU, MULHU).
`default_nettype none

module ctnn_core_alu (
  input  wire [2:0]  funct3_i,       // operation, branch condition, or product half
  input  wire        alt_i,          // funct7[5]: SUB (OP only), SRA / SRAI
  input  wire        reg_i,          // OP: the second operand is rs2, else the I immediate
  input  wire [31:0] rs1_val_i,
  input  wire [31:0] rs2_val_i,
  input  wire [31:0] imm_i,          // I-type immediate (OP-IMM)
  output reg  [31:0] result_o,       // OP / OP-IMM
  output reg         branch_o,       // branch condition funct3_i holds for rs1, rs2
  output wire [31:0] mul_result_o    // MUL* (funct3_i selects the half and the signs)
);
  // ---- OP / OP-IMM ----
  wire [31:0] b        = reg_i ? rs2_val_i : imm_i;
  wire        sub      = reg_i && alt_i;
  wire [4:0]  shamt    = b[4:0];
  wire [31:0] sum      = sub ? (rs1_val_i - b) : (rs1_val_i + b);
  wire        lt_s     = $signed(rs1_val_i) < $signed(b);
  wire        lt_u     = rs1_val_i < b;
  wire [31:0] sra_res  = $unsigned($signed(rs1_val_i) >>> shamt);
  always @(*) begin
    case (funct3_i)
      3'b000:  result_o = sum;
      3'b001:  result_o = rs1_val_i << shamt;
      3'b010:  result_o = {31'd0, lt_s};
      3'b011:  result_o = {31'd0, lt_u};
      3'b100:  result_o = rs1_val_i ^ b;
      3'b101:  result_o = alt_i ? sra_res : (rs1_val_i >> shamt);
      3'b110:  result_o = rs1_val_i | b;
      default: result_o = rs1_val_i & b;
    endcase
  end

  // ---- branch conditions ----
  always @(*) begin
    case (funct3_i)
      3'b000:  branch_o = rs1_val_i == rs2_val_i;
      3'b001:  branch_o = rs1_val_i != rs2_val_i;
      3'b100:  branch_o = $signed(rs1_val_i) < $signed(rs2_val_i);
      3'b101:  branch_o = $signed(rs1_val_i) >= $signed(rs2_val_i);
      3'b110:  branch_o = rs1_val_i < rs2_val_i;
      default: branch_o = rs1_val_i >= rs2_val_i;
    endcase
  end

  // ---- multiplier ----
  wire               mul_a_signed = funct3_i != 3'b011;                         // MULHU: a unsigned
  wire               mul_b_signed = funct3_i == 3'b001 || funct3_i == 3'b000;   // MULH (and MUL)
  wire signed [32:0] mul_a = {mul_a_signed & rs1_val_i[31], rs1_val_i};
  wire signed [32:0] mul_b = {mul_b_signed & rs2_val_i[31], rs2_val_i};
  wire signed [63:0] mul_p = {{31{mul_a[32]}}, mul_a} * {{31{mul_b[32]}}, mul_b};   // low 64 bits suffice
  assign mul_result_o = (funct3_i == 3'b000) ? mul_p[31:0] : mul_p[63:32];
endmodule

`default_nettype wire
