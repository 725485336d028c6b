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
//
// This file is the control: the state machine, pc, the register file, the outcome of each
// instruction and the bus port. The units, one file each:
//   ctnn_core_decoder  fields, immediates, instruction class, legality
//   ctnn_core_alu      OP / OP-IMM, branch conditions, single-cycle 33x33 multiplier
//   ctnn_core_div      iterative divider
//   ctnn_core_lsu      load/store address, alignment, store data, held request, load result
//   ctnn_core_csr      CSRs, counters, trap entry and mret
`include "ctnn_soc_defaults.vh"   // generated: the SoC map and device constants
`default_nettype none

module ctnn_core #(
  parameter [31:0] BootAddr    = `CTNN_SOC_RAM_BASE,
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

  // ---- control state and the register file ----
  reg [2:0]  state_q;
  reg [31:0] pc_q;
  reg [31:0] instr_q;
  reg [31:0] rf_q [1:31];

  // ExecInFetch: the instruction executes in the cycle its fetch response arrives (rsp_rdata_i);
  // otherwise it is registered first (instr_q) and executes in S_EXEC.
  wire [31:0] instr = (ExecInFetch && state_q == S_FETCH_WAIT) ? rsp_rdata_i : instr_q;
  wire        exec  = ExecInFetch ? (state_q == S_FETCH_WAIT && rsp_valid_i && !rsp_err_i)
                                  : (state_q == S_EXEC);

  // ---- decode ----
  wire [4:0]  rd, rs1, rs2;
  wire [2:0]  funct3;
  wire        alt;
  wire [11:0] csr_addr;
  wire [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;
  wire        is_lui, is_auipc, is_jal, is_jalr, is_branch, is_load, is_store, is_op;
  wire        is_alu, is_mul, is_div, is_csr, is_ecall, is_ebreak, is_mret;
  wire        dec_legal, csr_legal;

  ctnn_core_decoder u_decoder (
    .instr_i    (instr),
    .rd_o       (rd),
    .rs1_o      (rs1),
    .rs2_o      (rs2),
    .funct3_o   (funct3),
    .alt_o      (alt),
    .csr_addr_o (csr_addr),
    .imm_i_o    (imm_i),
    .imm_s_o    (imm_s),
    .imm_b_o    (imm_b),
    .imm_u_o    (imm_u),
    .imm_j_o    (imm_j),
    .lui_o      (is_lui),
    .auipc_o    (is_auipc),
    .jal_o      (is_jal),
    .jalr_o     (is_jalr),
    .branch_o   (is_branch),
    .load_o     (is_load),
    .store_o    (is_store),
    .op_o       (is_op),
    .alu_o      (is_alu),
    .mul_o      (is_mul),
    .div_o      (is_div),
    .csr_o      (is_csr),
    .ecall_o    (is_ecall),
    .ebreak_o   (is_ebreak),
    .mret_o     (is_mret),
    .legal_o    (dec_legal)
  );
  wire legal = dec_legal || (is_csr && csr_legal);

  wire [31:0] rs1_val = (rs1 == 5'd0) ? 32'd0 : rf_q[rs1];
  wire [31:0] rs2_val = (rs2 == 5'd0) ? 32'd0 : rf_q[rs2];

  // ---- ALU, branch conditions and multiplier ----
  wire [31:0] alu_res, mul_res;
  wire        br_cond;
  ctnn_core_alu u_alu (
    .funct3_i     (funct3),
    .alt_i        (alt),
    .reg_i        (is_op),
    .rs1_val_i    (rs1_val),
    .rs2_val_i    (rs2_val),
    .imm_i        (imm_i),
    .result_o     (alu_res),
    .branch_o     (br_cond),
    .mul_result_o (mul_res)
  );

  // ---- divider ----
  wire        div_done;
  wire [31:0] div_res;
  ctnn_core_div u_div (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .start_i  (exec && is_div),
    .signed_i (!funct3[0]),
    .rem_i    (funct3[1]),
    .a_i      (rs1_val),
    .b_i      (rs2_val),
    .done_o   (div_done),
    .result_o (div_res)
  );

  // ---- branch and jump targets ----
  wire [31:0] pc_plus4   = pc_q + 32'd4;
  wire [31:0] br_target  = pc_q + imm_b;
  wire [31:0] jal_target = pc_q + imm_j;
  wire [31:0] jalr_sum   = rs1_val + imm_i;
  wire [31:0] jalr_target = jalr_sum & 32'hffff_fffe;

  // ---- loads and stores ----
  reg         ex_trap;
  wire [31:0] ls_addr;
  wire        ls_misaligned;
  wire [31:0] ls_req_addr, ls_req_wdata, ls_held_addr, ld_res;
  wire [3:0]  ls_req_wstrb;
  wire        ls_req_we, ls_held_we;
  ctnn_core_lsu u_lsu (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .issue_i      (exec && (is_load || is_store) && !ex_trap),
    .we_i         (is_store),
    .funct3_i     (funct3),
    .rs1_val_i    (rs1_val),
    .offset_i     (is_store ? imm_s : imm_i),
    .rs2_val_i    (rs2_val),
    .addr_o       (ls_addr),
    .misaligned_o (ls_misaligned),
    .retry_i      (state_q == S_MEM),
    .req_addr_o   (ls_req_addr),
    .req_we_o     (ls_req_we),
    .req_wdata_o  (ls_req_wdata),
    .req_wstrb_o  (ls_req_wstrb),
    .held_we_o    (ls_held_we),
    .held_addr_o  (ls_held_addr),
    .rsp_rdata_i  (rsp_rdata_i),
    .rdata_o      (ld_res)
  );

  // ---- CSRs and traps ----
  reg         trap;
  reg  [3:0]  trap_cause;
  reg  [31:0] trap_tval;
  reg         retire;
  wire [31:0] csr_rdata, mtvec, mepc;
  ctnn_core_csr #(.BootAddr(BootAddr)) u_csr (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .access_i     (exec && is_csr),
    .addr_i       (csr_addr),
    .op_i         (funct3),
    .rs1_i        (rs1),
    .rs1_val_i    (rs1_val),
    .rdata_o      (csr_rdata),
    .legal_o      (csr_legal),
    .trap_i       (trap),
    .trap_cause_i (trap_cause),
    .trap_tval_i  (trap_tval),
    .pc_i         (pc_q[31:2]),
    .mret_i       (exec && is_mret && legal),
    .retire_i     (retire),
    .mtvec_o      (mtvec),
    .mepc_o       (mepc)
  );

  // ---- execute: the outcome of the instruction in instr ----
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
    end else if (is_alu) begin
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
      ex_next_pc = mepc;
    end
    // FENCE, FENCE.I, WFI and branches not taken: only pc advances.
  end

  // ---- sequencing ----
  // Per cycle: at most one register write, one retirement, one trap.
  reg        rf_we;
  reg [31:0] rf_wdata;
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
      S_MEM: begin   // the LSU offers the request it holds
        bus_valid = 1'b1;
        bus_addr  = ls_req_addr;
        bus_we    = ls_req_we;
        bus_wdata = ls_req_wdata;
        bus_wstrb = ls_req_wstrb;
        if (req_ready_i) state_d = S_MEM_WAIT;
      end
      S_MEM_WAIT: if (rsp_valid_i) begin
        if (rsp_err_i) begin
          trap       = 1'b1;
          trap_cause = ls_held_we ? EXC_STORE_FAULT : EXC_LOAD_FAULT;
          trap_tval  = ls_held_addr;
        end else begin
          rf_we     = !ls_held_we;
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
      end else if (is_load || is_store) begin   // the LSU offers this instruction's request
        bus_valid = 1'b1;
        bus_addr  = ls_req_addr;
        bus_we    = ls_req_we;
        bus_wdata = ls_req_wdata;
        bus_wstrb = ls_req_wstrb;
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
      pc_d    = mtvec;
      state_d = S_FETCH;
    end
  end

  assign req_valid_o = bus_valid;
  assign req_addr_o  = bus_addr;
  assign req_we_o    = bus_we;
  assign req_wdata_o = bus_wdata;
  assign req_wstrb_o = bus_wstrb;

  always @(posedge clk_i) begin
    if (rf_we && rd != 5'd0) begin
      rf_q[rd] <= rf_wdata;
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= S_FETCH;
      pc_q    <= BootAddr;
      instr_q <= 32'd0;
    end else begin
      state_q <= state_d;
      pc_q    <= pc_d;
      if (state_q == S_FETCH_WAIT && rsp_valid_i && !rsp_err_i) begin
        instr_q <= rsp_rdata_i;
      end
    end
  end
endmodule

`default_nettype wire
