// ctnn_core: multi-cycle RV32IM core with Zicsr counters and machine-mode traps, one ctnn bus master port.
//
//   FETCH -> FETCH_WAIT -> EXEC -+-> (ALU, branch, jump, CSR, system: retire) -+-> FETCH_WAIT
//                                +-> MEM -> MEM_WAIT (load/store)   ------------+   (or FETCH when
//                                +-> DIV (32 cycles)                ------------+    the bus stalls)
//   The state that finishes an instruction offers the next fetch in the same cycle, and EXEC
//   offers the load/store request itself; FETCH and MEM only retry a request the bus did not take.
//   With ExecInFetch (default) EXEC merges into the cycle the fetch response arrives: an ALU
//   instruction takes 1 cycle, a load or store 2, a division 34 (without: 2, 3, 35).
//   Any stage may trap instead: mepc/mcause/mtval/mstatus are written and pc <= mtvec.
// Multiplication is single-cycle (33x33 signed product); division iterative (ctnn_core_div).
`default_nettype none

module ctnn_core #(
  parameter [31:0] BootAddr    = 32'h8000_0000,
  // 1: execute in the cycle the fetch response arrives (ALU op 1 cycle, load/store 2; longer
  //    combinational path, register file read asynchronously from the bus data).
  // 0: register the instruction first (ALU op 2 cycles, load/store 3; the register file read
  //    address comes from a register, so it maps onto synchronous block RAM).
  parameter        ExecInFetch = 1'b1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // ctnn bus master (see BUS.md); one request outstanding at a time
  output wire        req_valid_o,
  input  wire        req_ready_i,
  output wire [31:0] req_addr_o,
  output wire        req_we_o,
  output wire [31:0] req_wdata_o,
  output wire [3:0]  req_wstrb_o,
  input  wire        rsp_valid_i,
  input  wire [31:0] rsp_rdata_i,
  input  wire        rsp_err_i
);
  // ---- states ----
  localparam [2:0] S_FETCH      = 3'd0;
  localparam [2:0] S_FETCH_WAIT = 3'd1;
  localparam [2:0] S_EXEC       = 3'd2;
  localparam [2:0] S_MEM        = 3'd3;
  localparam [2:0] S_MEM_WAIT   = 3'd4;
  localparam [2:0] S_DIV        = 3'd5;

  // ---- opcodes ----
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

  // ---- exception causes ----
  localparam [3:0] EXC_INSN_MISALIGNED  = 4'd0;
  localparam [3:0] EXC_INSN_FAULT       = 4'd1;
  localparam [3:0] EXC_ILLEGAL          = 4'd2;
  localparam [3:0] EXC_BREAKPOINT       = 4'd3;
  localparam [3:0] EXC_LOAD_MISALIGNED  = 4'd4;
  localparam [3:0] EXC_LOAD_FAULT       = 4'd5;
  localparam [3:0] EXC_STORE_MISALIGNED = 4'd6;
  localparam [3:0] EXC_STORE_FAULT      = 4'd7;
  localparam [3:0] EXC_ECALL_M          = 4'd11;

  // ---- CSR addresses ----
  localparam [11:0] CSR_MSTATUS   = 12'h300;
  localparam [11:0] CSR_MISA      = 12'h301;
  localparam [11:0] CSR_MIE       = 12'h304;
  localparam [11:0] CSR_MTVEC     = 12'h305;
  localparam [11:0] CSR_MSTATUSH  = 12'h310;
  localparam [11:0] CSR_MSCRATCH  = 12'h340;
  localparam [11:0] CSR_MEPC      = 12'h341;
  localparam [11:0] CSR_MCAUSE    = 12'h342;
  localparam [11:0] CSR_MTVAL     = 12'h343;
  localparam [11:0] CSR_MIP       = 12'h344;
  localparam [11:0] CSR_MCYCLE    = 12'hB00;
  localparam [11:0] CSR_MINSTRET  = 12'hB02;
  localparam [11:0] CSR_MCYCLEH   = 12'hB80;
  localparam [11:0] CSR_MINSTRETH = 12'hB82;
  localparam [11:0] CSR_CYCLE     = 12'hC00;
  localparam [11:0] CSR_INSTRET   = 12'hC02;
  localparam [11:0] CSR_CYCLEH    = 12'hC80;
  localparam [11:0] CSR_INSTRETH  = 12'hC82;
  localparam [11:0] CSR_MVENDORID = 12'hF11;
  localparam [11:0] CSR_MARCHID   = 12'hF12;
  localparam [11:0] CSR_MIMPID    = 12'hF13;
  localparam [11:0] CSR_MHARTID   = 12'hF14;
  localparam [11:0] CSR_MCONFIGPTR = 12'hF15;

  localparam [31:0] MISA_RV32IM = 32'h4000_1100;   // MXL = 1, extensions I and M

  // ---- architectural and control state ----
  reg [2:0]  state_q;
  reg [31:0] pc_q;
  reg [31:0] instr_q;
  reg [31:0] rf_q [1:31];
  reg [31:0] mem_addr_q;      // byte address of the load/store (for mtval)
  reg [31:0] mem_wdata_q;
  reg [3:0]  mem_wstrb_q;
  reg        mem_we_q;

  reg        mstatus_mie_q;
  reg        mstatus_mpie_q;
  reg [31:0] mie_q;
  reg [31:2] mtvec_q;
  reg [31:0] mscratch_q;
  reg [31:2] mepc_q;
  reg [31:0] mcause_q;
  reg [31:0] mtval_q;
  reg [63:0] mcycle_q;
  reg [63:0] minstret_q /* verilator public_flat_rd */;

  // ---- decode ----
  // ExecInFetch: the instruction executes in the cycle its fetch response arrives (rsp_rdata_i);
  // otherwise it is registered first (instr_q) and executes in S_EXEC.
  wire [31:0] instr = (ExecInFetch && state_q == S_FETCH_WAIT) ? rsp_rdata_i : instr_q;
  wire        exec  = ExecInFetch ? (state_q == S_FETCH_WAIT && rsp_valid_i && !rsp_err_i)
                                  : (state_q == S_EXEC);
  wire [6:0]  opcode = instr[6:0];
  wire [4:0]  rd     = instr[11:7];
  wire [2:0]  funct3 = instr[14:12];
  wire [4:0]  rs1    = instr[19:15];
  wire [4:0]  rs2    = instr[24:20];
  wire [6:0]  funct7 = instr[31:25];
  wire [11:0] csr_addr = instr[31:20];

  wire [31:0] imm_i = {{20{instr[31]}}, instr[31:20]};
  wire [31:0] imm_s = {{20{instr[31]}}, instr[31:25], instr[11:7]};
  wire [31:0] imm_b = {{19{instr[31]}}, instr[31], instr[7], instr[30:25], instr[11:8], 1'b0};
  wire [31:0] imm_u = {instr[31:12], 12'd0};
  wire [31:0] imm_j = {{11{instr[31]}}, instr[31], instr[19:12], instr[20], instr[30:21], 1'b0};

  wire [31:0] rs1_val = (rs1 == 5'd0) ? 32'd0 : rf_q[rs1];
  wire [31:0] rs2_val = (rs2 == 5'd0) ? 32'd0 : rf_q[rs2];

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
  wire is_div    = is_muldiv && funct3[2];
  wire is_mul    = is_muldiv && !funct3[2];

  // ---- ALU (OP / OP-IMM) ----
  wire [31:0] alu_b    = is_op ? rs2_val : imm_i;
  wire        alu_sub  = is_op && funct7[5];
  wire        alu_arith = funct7[5];             // SRA / SRAI
  wire [4:0]  shamt    = alu_b[4:0];
  wire [31:0] sum      = alu_sub ? (rs1_val - alu_b) : (rs1_val + alu_b);
  wire        lt_s     = $signed(rs1_val) < $signed(alu_b);
  wire        lt_u     = rs1_val < alu_b;
  wire [31:0] sra_res  = $unsigned($signed(rs1_val) >>> shamt);
  reg  [31:0] alu_res;
  always @(*) begin
    case (funct3)
      3'b000:  alu_res = sum;
      3'b001:  alu_res = rs1_val << shamt;
      3'b010:  alu_res = {31'd0, lt_s};
      3'b011:  alu_res = {31'd0, lt_u};
      3'b100:  alu_res = rs1_val ^ alu_b;
      3'b101:  alu_res = alu_arith ? sra_res : (rs1_val >> shamt);
      3'b110:  alu_res = rs1_val | alu_b;
      default: alu_res = rs1_val & alu_b;
    endcase
  end
  // OP: funct7 0000000 for all, 0100000 only for SUB / SRA. OP-IMM: shifts constrain funct7.
  wire op_legal = funct7 == 7'b0000000 ||
                  (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101)) ||
                  funct7 == 7'b0000001;
  wire opimm_legal = (funct3 == 3'b001) ? (funct7 == 7'b0000000) :
                     (funct3 == 3'b101) ? (funct7 == 7'b0000000 || funct7 == 7'b0100000) : 1'b1;

  // ---- multiplier: one 33x33 signed product covers MUL, MULH, MULHSU, MULHU ----
  wire               mul_a_signed = funct3 != 3'b011;                       // MULHU: a unsigned
  wire               mul_b_signed = funct3 == 3'b001 || funct3 == 3'b000;   // MULH (and MUL)
  wire signed [32:0] mul_a = {mul_a_signed & rs1_val[31], rs1_val};
  wire signed [32:0] mul_b = {mul_b_signed & rs2_val[31], rs2_val};
  wire signed [63:0] mul_p = {{31{mul_a[32]}}, mul_a} * {{31{mul_b[32]}}, mul_b};   // low 64 bits suffice
  wire [31:0]        mul_res = (funct3 == 3'b000) ? mul_p[31:0] : mul_p[63:32];

  // ---- divider ----
  wire        div_start = exec && is_div;
  wire        div_done;
  wire [31:0] div_res;
  ctnn_core_div u_div (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .start_i  (div_start),
    .signed_i (!funct3[0]),
    .rem_i    (funct3[1]),
    .a_i      (rs1_val),
    .b_i      (rs2_val),
    .done_o   (div_done),
    .result_o (div_res)
  );

  // ---- branches and jumps ----
  reg br_cond;
  always @(*) begin
    case (funct3)
      3'b000:  br_cond = rs1_val == rs2_val;
      3'b001:  br_cond = rs1_val != rs2_val;
      3'b100:  br_cond = $signed(rs1_val) < $signed(rs2_val);
      3'b101:  br_cond = $signed(rs1_val) >= $signed(rs2_val);
      3'b110:  br_cond = rs1_val < rs2_val;
      default: br_cond = rs1_val >= rs2_val;
    endcase
  end
  wire        branch_legal = funct3 != 3'b010 && funct3 != 3'b011;
  wire [31:0] pc_plus4   = pc_q + 32'd4;
  wire [31:0] br_target  = pc_q + imm_b;
  wire [31:0] jal_target = pc_q + imm_j;
  wire [31:0] jalr_sum   = rs1_val + imm_i;
  wire [31:0] jalr_target = jalr_sum & 32'hffff_fffe;

  // ---- loads and stores ----
  wire [31:0] ls_addr  = rs1_val + (is_store ? imm_s : imm_i);
  wire        ls_misaligned = (funct3[1:0] == 2'b01 && ls_addr[0]) ||
                              (funct3[1:0] == 2'b10 && ls_addr[1:0] != 2'b00);
  wire        load_legal  = funct3 != 3'b011 && funct3 != 3'b110 && funct3 != 3'b111;
  wire        store_legal = funct3 == 3'b000 || funct3 == 3'b001 || funct3 == 3'b010;
  reg  [3:0]  st_wstrb;
  reg  [31:0] st_wdata;
  always @(*) begin
    case (funct3[1:0])
      2'b00: begin
        st_wstrb = 4'b0001 << ls_addr[1:0];
        st_wdata = {4{rs2_val[7:0]}};
      end
      2'b01: begin
        st_wstrb = ls_addr[1] ? 4'b1100 : 4'b0011;
        st_wdata = {2{rs2_val[15:0]}};
      end
      default: begin
        st_wstrb = 4'b1111;
        st_wdata = rs2_val;
      end
    endcase
  end
  // Load data from the response word: select the byte/half by the address, then extend.
  wire [15:0] ld_half = mem_addr_q[1] ? rsp_rdata_i[31:16] : rsp_rdata_i[15:0];
  wire [7:0]  ld_byte = mem_addr_q[0] ? ld_half[15:8] : ld_half[7:0];
  reg  [31:0] ld_res;
  always @(*) begin
    case (funct3)
      3'b000:  ld_res = {{24{ld_byte[7]}}, ld_byte};
      3'b001:  ld_res = {{16{ld_half[15]}}, ld_half};
      3'b100:  ld_res = {24'd0, ld_byte};
      3'b101:  ld_res = {16'd0, ld_half};
      default: ld_res = rsp_rdata_i;
    endcase
  end

  // ---- CSRs ----
  wire        is_csr    = is_system && funct3[1:0] != 2'b00;
  wire [31:0] csr_src   = funct3[2] ? {27'd0, rs1} : rs1_val;
  // CSRRW(I) always writes; CSRRS(I)/CSRRC(I) write only when rs1/uimm is not 0.
  wire        csr_write = funct3[1:0] == 2'b01 || rs1 != 5'd0;
  reg  [31:0] csr_rdata;
  reg         csr_exists;
  always @(*) begin
    csr_exists = 1'b1;
    case (csr_addr)
      CSR_MSTATUS:   csr_rdata = {19'd0, 2'b11, 3'd0, mstatus_mpie_q, 3'd0, mstatus_mie_q, 3'd0};
      CSR_MISA:      csr_rdata = MISA_RV32IM;
      CSR_MIE:       csr_rdata = mie_q;
      CSR_MTVEC:     csr_rdata = {mtvec_q, 2'b00};
      CSR_MSTATUSH:  csr_rdata = 32'd0;
      CSR_MSCRATCH:  csr_rdata = mscratch_q;
      CSR_MEPC:      csr_rdata = {mepc_q, 2'b00};
      CSR_MCAUSE:    csr_rdata = mcause_q;
      CSR_MTVAL:     csr_rdata = mtval_q;
      CSR_MIP:       csr_rdata = 32'd0;
      CSR_MCYCLE,   CSR_CYCLE:    csr_rdata = mcycle_q[31:0];
      CSR_MCYCLEH,  CSR_CYCLEH:   csr_rdata = mcycle_q[63:32];
      CSR_MINSTRET, CSR_INSTRET:  csr_rdata = minstret_q[31:0];
      CSR_MINSTRETH, CSR_INSTRETH: csr_rdata = minstret_q[63:32];
      CSR_MVENDORID, CSR_MARCHID, CSR_MIMPID, CSR_MHARTID, CSR_MCONFIGPTR: csr_rdata = 32'd0;
      default: begin
        csr_rdata  = 32'd0;
        csr_exists = 1'b0;
      end
    endcase
  end
  reg [31:0] csr_wdata;
  always @(*) begin
    case (funct3[1:0])
      2'b01:   csr_wdata = csr_src;
      2'b10:   csr_wdata = csr_rdata | csr_src;
      default: csr_wdata = csr_rdata & ~csr_src;
    endcase
  end
  // Address bits [11:10] == 2'b11 mark read-only CSRs: writing one is illegal.
  wire csr_legal = csr_exists && !(csr_write && csr_addr[11:10] == 2'b11);

  // ---- SYSTEM with funct3 == 0 ----
  wire is_ecall  = is_system && instr == 32'h0000_0073;
  wire is_ebreak = is_system && instr == 32'h0010_0073;
  wire is_mret   = is_system && instr == 32'h3020_0073;
  wire is_wfi    = is_system && instr == 32'h1050_0073;   // no interrupts: a nop

  wire legal =
      is_lui || is_auipc || is_jal ||
      (is_jalr && funct3 == 3'b000) ||
      (is_branch && branch_legal) ||
      (is_load && load_legal) ||
      (is_store && store_legal) ||
      (is_opimm && opimm_legal) ||
      (is_op && op_legal) ||
      (is_misc && (funct3 == 3'b000 || funct3 == 3'b001)) ||
      (is_csr && csr_legal) ||
      is_ecall || is_ebreak || is_mret || is_wfi;

  // ---- execute: the outcome of the instruction in instr ----
  reg        ex_trap;
  reg [3:0]  ex_cause;
  reg [31:0] ex_tval;
  reg        ex_wb;            // write rd with ex_wdata and retire
  reg [31:0] ex_wdata;
  reg [31:0] ex_next_pc;
  always @(*) begin
    ex_trap    = 1'b0;
    ex_cause   = EXC_ILLEGAL;
    ex_tval    = 32'd0;
    ex_wb      = 1'b0;
    ex_wdata   = 32'd0;
    ex_next_pc = pc_plus4;
    if (!legal) begin
      ex_trap = 1'b1;
      ex_cause = EXC_ILLEGAL;
      ex_tval = instr;
    end else if (is_lui) begin
      ex_wb = 1'b1;
      ex_wdata = imm_u;
    end else if (is_auipc) begin
      ex_wb = 1'b1;
      ex_wdata = pc_q + imm_u;
    end else if (is_jal || is_jalr) begin
      ex_next_pc = is_jal ? jal_target : jalr_target;
      if (ex_next_pc[1]) begin
        ex_trap = 1'b1;
        ex_cause = EXC_INSN_MISALIGNED;
        ex_tval = ex_next_pc;
      end else begin
        ex_wb = 1'b1;
        ex_wdata = pc_plus4;
      end
    end else if (is_branch) begin
      if (br_cond) begin
        ex_next_pc = br_target;
        if (br_target[1]) begin
          ex_trap = 1'b1;
          ex_cause = EXC_INSN_MISALIGNED;
          ex_tval = br_target;
        end
      end
    end else if (is_load || is_store) begin
      if (ls_misaligned) begin
        ex_trap = 1'b1;
        ex_cause = is_store ? EXC_STORE_MISALIGNED : EXC_LOAD_MISALIGNED;
        ex_tval = ls_addr;
      end
    end else if (is_opimm || (is_op && !is_muldiv)) begin
      ex_wb = 1'b1;
      ex_wdata = alu_res;
    end else if (is_mul) begin
      ex_wb = 1'b1;
      ex_wdata = mul_res;
    end else if (is_csr) begin
      ex_wb = 1'b1;
      ex_wdata = csr_rdata;
    end else if (is_ecall) begin
      ex_trap = 1'b1;
      ex_cause = EXC_ECALL_M;
    end else if (is_ebreak) begin
      ex_trap = 1'b1;
      ex_cause = EXC_BREAKPOINT;
      ex_tval = pc_q;
    end else if (is_mret) begin
      ex_next_pc = {mepc_q, 2'b00};
    end
    // FENCE, FENCE.I, WFI and branches not taken: only pc advances.
  end

  // ---- sequencing ----
  // Per cycle: at most one register write, one retirement, one trap.
  reg        trap;
  reg [3:0]  trap_cause;
  reg [31:0] trap_tval;
  reg        rf_we;
  reg [31:0] rf_wdata;
  reg        retire;
  reg [2:0]  state_d;
  reg [31:0] pc_d;
  reg        bus_valid;
  reg [31:0] bus_addr;
  reg        bus_we;
  reg [31:0] bus_wdata;
  reg [3:0]  bus_wstrb;
  always @(*) begin
    bus_valid  = 1'b0;
    bus_addr   = pc_q;
    bus_we     = 1'b0;
    bus_wdata  = 32'd0;
    bus_wstrb  = 4'd0;
    trap       = 1'b0;
    trap_cause = ex_cause;
    trap_tval  = ex_tval;
    rf_we      = 1'b0;
    rf_wdata   = ex_wdata;
    retire     = 1'b0;
    state_d    = state_q;
    pc_d       = pc_q;
    case (state_q)
      S_FETCH: begin
        bus_valid = 1'b1;
        if (req_ready_i) state_d = S_FETCH_WAIT;
      end
      S_FETCH_WAIT: if (rsp_valid_i) begin
        if (rsp_err_i) begin
          trap       = 1'b1;
          trap_cause = EXC_INSN_FAULT;
          trap_tval  = pc_q;
        end else if (!ExecInFetch) begin
          state_d = S_EXEC;
        end
      end
      S_EXEC: ;   // see `exec` below
      S_MEM: begin
        bus_valid = 1'b1;
        bus_addr  = {mem_addr_q[31:2], 2'b00};
        bus_we    = mem_we_q;
        bus_wdata = mem_we_q ? mem_wdata_q : 32'd0;
        bus_wstrb = mem_we_q ? mem_wstrb_q : 4'd0;
        if (req_ready_i) state_d = S_MEM_WAIT;
      end
      S_MEM_WAIT: if (rsp_valid_i) begin
        if (rsp_err_i) begin
          trap       = 1'b1;
          trap_cause = mem_we_q ? EXC_STORE_FAULT : EXC_LOAD_FAULT;
          trap_tval  = mem_addr_q;
        end else begin
          rf_we     = !mem_we_q;
          rf_wdata  = ld_res;
          retire    = 1'b1;
          pc_d      = pc_plus4;
          bus_valid = 1'b1;
          bus_addr  = pc_plus4;
          state_d   = req_ready_i ? S_FETCH_WAIT : S_FETCH;
        end
      end
      S_DIV: if (div_done) begin
        rf_we     = 1'b1;
        rf_wdata  = div_res;
        retire    = 1'b1;
        pc_d      = pc_plus4;
        bus_valid = 1'b1;
        bus_addr  = pc_plus4;
        state_d   = req_ready_i ? S_FETCH_WAIT : S_FETCH;
      end
      default: state_d = S_FETCH;
    endcase
    // The instruction itself, in S_EXEC or (ExecInFetch) in the cycle its fetch response arrives.
    if (exec) begin
      if (ex_trap) begin
        trap = 1'b1;
      end else if (is_load || is_store) begin
        bus_valid = 1'b1;
        bus_addr  = {ls_addr[31:2], 2'b00};
        bus_we    = is_store;
        bus_wdata = is_store ? st_wdata : 32'd0;
        bus_wstrb = is_store ? st_wstrb : 4'd0;
        state_d   = req_ready_i ? S_MEM_WAIT : S_MEM;
      end else if (is_div) begin
        state_d = S_DIV;
      end else begin
        rf_we     = ex_wb;
        retire    = 1'b1;
        pc_d      = ex_next_pc;
        bus_valid = 1'b1;
        bus_addr  = ex_next_pc;
        state_d   = req_ready_i ? S_FETCH_WAIT : S_FETCH;
      end
    end
    if (trap) begin
      pc_d    = {mtvec_q, 2'b00};
      state_d = S_FETCH;
    end
  end

  assign req_valid_o = bus_valid;
  assign req_addr_o  = bus_addr;
  assign req_we_o    = bus_we;
  assign req_wdata_o = bus_wdata;
  assign req_wstrb_o = bus_wstrb;

  wire csr_we = exec && is_csr && legal && csr_write;

  always @(posedge clk_i) begin
    if (rf_we && rd != 5'd0) begin
      rf_q[rd] <= rf_wdata;
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q        <= S_FETCH;
      pc_q           <= BootAddr;
      instr_q        <= 32'd0;
      mem_addr_q     <= 32'd0;
      mem_wdata_q    <= 32'd0;
      mem_wstrb_q    <= 4'd0;
      mem_we_q       <= 1'b0;
      mstatus_mie_q  <= 1'b0;
      mstatus_mpie_q <= 1'b0;
      mie_q          <= 32'd0;
      mtvec_q        <= BootAddr[31:2];
      mscratch_q     <= 32'd0;
      mepc_q         <= 30'd0;
      mcause_q       <= 32'd0;
      mtval_q        <= 32'd0;
      mcycle_q       <= 64'd0;
      minstret_q     <= 64'd0;
    end else begin
      state_q <= state_d;
      pc_q    <= pc_d;
      if (state_q == S_FETCH_WAIT && rsp_valid_i && !rsp_err_i) begin
        instr_q <= rsp_rdata_i;
      end
      if (exec && (is_load || is_store) && !ex_trap) begin
        mem_addr_q  <= ls_addr;
        mem_we_q    <= is_store;
        mem_wdata_q <= st_wdata;
        mem_wstrb_q <= st_wstrb;
      end

      // Counters: a CSR write replaces the half it names; the writing instruction does not count.
      mcycle_q <= mcycle_q + 64'd1;
      if (retire) begin
        minstret_q <= minstret_q + 64'd1;
      end
      if (csr_we) begin
        case (csr_addr)
          CSR_MSTATUS: begin
            mstatus_mie_q  <= csr_wdata[3];
            mstatus_mpie_q <= csr_wdata[7];
          end
          CSR_MIE:       mie_q      <= csr_wdata & 32'h0000_0888;   // MSIE, MTIE, MEIE
          CSR_MTVEC:     mtvec_q    <= csr_wdata[31:2];             // direct mode only
          CSR_MSCRATCH:  mscratch_q <= csr_wdata;
          CSR_MEPC:      mepc_q     <= csr_wdata[31:2];
          CSR_MCAUSE:    mcause_q   <= csr_wdata;
          CSR_MTVAL:     mtval_q    <= csr_wdata;
          CSR_MCYCLE:    mcycle_q[31:0]    <= csr_wdata;
          CSR_MCYCLEH:   mcycle_q[63:32]   <= csr_wdata;
          CSR_MINSTRET:  minstret_q[31:0]  <= csr_wdata;
          CSR_MINSTRETH: minstret_q[63:32] <= csr_wdata;
          default: ;   // misa, mstatush, mip: read-only zero / fixed (WARL)
        endcase
      end

      if (trap) begin
        mepc_q         <= pc_q[31:2];
        mcause_q       <= {28'd0, trap_cause};
        mtval_q        <= trap_tval;
        mstatus_mpie_q <= mstatus_mie_q;
        mstatus_mie_q  <= 1'b0;
      end else if (exec && is_mret && legal) begin
        mstatus_mie_q  <= mstatus_mpie_q;
        mstatus_mpie_q <= 1'b1;
      end
    end
  end
endmodule

`default_nettype wire
