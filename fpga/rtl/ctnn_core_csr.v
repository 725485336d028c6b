// ctnn_core_csr: the core's Zicsr registers and machine-mode trap state: mstatus (MIE, MPIE),
// mie, mtvec (direct mode), mscratch, mepc, mcause, mtval, the 64-bit cycle and instret counters
// (also as mcycle/minstret), trap entry and mret. mip, misa, mstatush and the ID CSRs read fixed.
`default_nettype none

module ctnn_core_csr #(
  parameter [31:0] BootAddr = 32'd0       // mtvec after reset: ctnn_core passes its BootAddr
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // the CSR instruction in execute
  input  wire        access_i,       // it executes this cycle (and writes if legal_o)
  input  wire [11:0] addr_i,
  input  wire [2:0]  op_i,           // funct3: [1:0] RW / RS / RC, [2] the source is uimm
  input  wire [4:0]  rs1_i,          // rs1 index, or uimm
  input  wire [31:0] rs1_val_i,
  output wire [31:0] rdata_o,
  output wire        legal_o,        // the CSR exists, and a read-only one is not written
  // traps, mret, retirement
  input  wire        trap_i,
  input  wire [3:0]  trap_cause_i,
  input  wire [31:0] trap_tval_i,
  input  wire [31:2] pc_i,           // the trapping instruction (mepc)
  input  wire        mret_i,
  input  wire        retire_i,       // an instruction retires (minstret)
  output wire [31:0] mtvec_o,
  output wire [31:0] mepc_o
);
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

  wire [31:0] csr_src   = op_i[2] ? {27'd0, rs1_i} : rs1_val_i;
  // CSRRW(I) always writes; CSRRS(I)/CSRRC(I) write only when rs1/uimm is not 0.
  wire        csr_write = op_i[1:0] == 2'b01 || rs1_i != 5'd0;
  reg  [31:0] csr_rdata;
  reg         csr_exists;
  always @(*) begin
    csr_exists = 1'b1;
    case (addr_i)
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
    case (op_i[1:0])
      2'b01:   csr_wdata = csr_src;
      2'b10:   csr_wdata = csr_rdata | csr_src;
      default: csr_wdata = csr_rdata & ~csr_src;
    endcase
  end
  // Address bits [11:10] == 2'b11 mark read-only CSRs: writing one is illegal.
  wire csr_legal = csr_exists && !(csr_write && addr_i[11:10] == 2'b11);
  wire csr_we    = access_i && csr_legal && csr_write;
  // a write to a counter half (cycle/instret and their h halves are read only: not legal to write)
  wire mcycle_lo_we   = csr_we && addr_i == CSR_MCYCLE;
  wire mcycle_hi_we   = csr_we && addr_i == CSR_MCYCLEH;
  wire minstret_lo_we = csr_we && addr_i == CSR_MINSTRET;
  wire minstret_hi_we = csr_we && addr_i == CSR_MINSTRETH;

  assign rdata_o = csr_rdata;
  assign legal_o = csr_legal;
  assign mtvec_o = {mtvec_q, 2'b00};
  assign mepc_o  = {mepc_q, 2'b00};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
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
      // Counters: a CSR write replaces the half it names and keeps the other half; that cycle's
      // increment of the whole 64-bit counter is suppressed (the writing instruction does not
      // count, and no carry reaches the other half), as riscv-tests rv32mi instret_overflow wants.
      if (mcycle_lo_we) begin
        mcycle_q[31:0] <= csr_wdata;
      end else if (mcycle_hi_we) begin
        mcycle_q[63:32] <= csr_wdata;
      end else begin
        mcycle_q <= mcycle_q + 64'd1;
      end
      if (minstret_lo_we) begin
        minstret_q[31:0] <= csr_wdata;
      end else if (minstret_hi_we) begin
        minstret_q[63:32] <= csr_wdata;
      end else if (retire_i) begin
        minstret_q <= minstret_q + 64'd1;
      end
      if (csr_we) begin
        case (addr_i)
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
          default: ;   // counters above; misa, mstatush, mip: read-only zero / fixed (WARL)
        endcase
      end

      if (trap_i) begin
        mepc_q         <= pc_i;
        mcause_q       <= {28'd0, trap_cause_i};
        mtval_q        <= trap_tval_i;
        mstatus_mpie_q <= mstatus_mie_q;
        mstatus_mie_q  <= 1'b0;
      end else if (mret_i) begin
        mstatus_mie_q  <= mstatus_mpie_q;
        mstatus_mpie_q <= 1'b1;
      end
    end
  end
endmodule

`default_nettype wire
