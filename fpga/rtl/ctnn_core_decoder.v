// ctnn_core_decoder: RV32IM instruction decode: register and function fields, the five immediate
// formats, the instruction class and its legality (CSR accesses aside: ctnn_core_csr knows them).
`default_nettype none

module ctnn_core_decoder (
  input  wire [31:0] instr_i,
  // fields
  output wire [4:0]  rd_o,
  output wire [4:0]  rs1_o,        // also the CSR instructions' uimm
  output wire [4:0]  rs2_o,
  output wire [2:0]  funct3_o,
  output wire        alt_o,        // funct7[5]: SUB, SRA, SRAI
  output wire [11:0] csr_addr_o,
  // immediates
  output wire [31:0] imm_i_o,
  output wire [31:0] imm_s_o,
  output wire [31:0] imm_b_o,
  output wire [31:0] imm_u_o,
  output wire [31:0] imm_j_o,
  // class
  output wire        lui_o,
  output wire        auipc_o,
  output wire        jal_o,
  output wire        jalr_o,
  output wire        branch_o,
  output wire        load_o,
  output wire        store_o,
  output wire        op_o,         // OP, including MUL and DIV
  output wire        alu_o,        // OP-IMM, or OP without M: the ALU result is written
  output wire        mul_o,
  output wire        div_o,
  output wire        csr_o,
  output wire        ecall_o,
  output wire        ebreak_o,
  output wire        mret_o,
  // every legal encoding except CSR accesses (csr_o), whose legality depends on the CSR
  output wire        legal_o
);
  localparam [6:0] OP_LUI    = 7'b0110111;
  localparam [6:0] OP_AUIPC  = 7'b0010111;
  localparam [6:0] OP_JAL    = 7'b1101111;
  localparam [6:0] OP_JALR   = 7'b1100111;
  localparam [6:0] OP_BRANCH = 7'b1100011;
  localparam [6:0] OP_LOAD   = 7'b0000011;
  localparam [6:0] OP_STORE  = 7'b0100011;
  localparam [6:0] OP_IMM    = 7'b0010011;
  localparam [6:0] OP_OP     = 7'b0110011;
  localparam [6:0] OP_MISC   = 7'b0001111;
  localparam [6:0] OP_SYSTEM = 7'b1110011;

  wire [6:0]  opcode = instr_i[6:0];
  wire [2:0]  funct3 = instr_i[14:12];
  wire [6:0]  funct7 = instr_i[31:25];

  assign rd_o       = instr_i[11:7];
  assign rs1_o      = instr_i[19:15];
  assign rs2_o      = instr_i[24:20];
  assign funct3_o   = funct3;
  assign alt_o      = funct7[5];
  assign csr_addr_o = instr_i[31:20];

  assign imm_i_o = {{20{instr_i[31]}}, instr_i[31:20]};
  assign imm_s_o = {{20{instr_i[31]}}, instr_i[31:25], instr_i[11:7]};
  assign imm_b_o = {{19{instr_i[31]}}, instr_i[31], instr_i[7], instr_i[30:25], instr_i[11:8], 1'b0};
  assign imm_u_o = {instr_i[31:12], 12'd0};
  assign imm_j_o = {{11{instr_i[31]}}, instr_i[31], instr_i[19:12], instr_i[20], instr_i[30:21], 1'b0};

  wire is_lui    = opcode == OP_LUI;
  wire is_auipc  = opcode == OP_AUIPC;
  wire is_jal    = opcode == OP_JAL;
  wire is_jalr   = opcode == OP_JALR;
  wire is_branch = opcode == OP_BRANCH;
  wire is_load   = opcode == OP_LOAD;
  wire is_store  = opcode == OP_STORE;
  wire is_opimm  = opcode == OP_IMM;
  wire is_op     = opcode == OP_OP;
  wire is_misc   = opcode == OP_MISC;
  wire is_system = opcode == OP_SYSTEM;

  wire is_muldiv = is_op && funct7 == 7'b0000001;

  // SYSTEM with funct3 == 0
  wire is_ecall  = is_system && instr_i == 32'h0000_0073;
  wire is_ebreak = is_system && instr_i == 32'h0010_0073;
  wire is_mret   = is_system && instr_i == 32'h3020_0073;
  wire is_wfi    = is_system && instr_i == 32'h1050_0073;   // no interrupts: a nop

  // OP: funct7 0000000 for all, 0100000 only for SUB / SRA. OP-IMM: shifts constrain funct7.
  wire op_legal = funct7 == 7'b0000000 ||
                  (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101)) ||
                  funct7 == 7'b0000001;
  wire opimm_legal = (funct3 == 3'b001) ? (funct7 == 7'b0000000) :
                     (funct3 == 3'b101) ? (funct7 == 7'b0000000 || funct7 == 7'b0100000) : 1'b1;
  wire branch_legal = funct3 != 3'b010 && funct3 != 3'b011;
  wire load_legal   = funct3 != 3'b011 && funct3 != 3'b110 && funct3 != 3'b111;
  wire store_legal  = funct3 == 3'b000 || funct3 == 3'b001 || funct3 == 3'b010;

  assign lui_o    = is_lui;
  assign auipc_o  = is_auipc;
  assign jal_o    = is_jal;
  assign jalr_o   = is_jalr;
  assign branch_o = is_branch;
  assign load_o   = is_load;
  assign store_o  = is_store;
  assign op_o     = is_op;
  assign alu_o    = is_opimm || (is_op && !is_muldiv);
  assign mul_o    = is_muldiv && !funct3[2];
  assign div_o    = is_muldiv && funct3[2];
  assign csr_o    = is_system && funct3[1:0] != 2'b00;
  assign ecall_o  = is_ecall;
  assign ebreak_o = is_ebreak;
  assign mret_o   = is_mret;

  assign legal_o =
      is_lui || is_auipc || is_jal ||
      (is_jalr && funct3 == 3'b000) ||
      (is_branch && branch_legal) ||
      (is_load && load_legal) ||
      (is_store && store_legal) ||
      (is_opimm && opimm_legal) ||
      (is_op && op_legal) ||
      (is_misc && (funct3 == 3'b000 || funct3 == 3'b001)) ||
      is_ecall || is_ebreak || is_mret || is_wfi;
endmodule

`default_nettype wire
