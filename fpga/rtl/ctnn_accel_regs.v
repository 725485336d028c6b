// The accelerator's register file: a ctnn-bus slave (latency 1) implementing the registers of
// fpga/regs/ctnn.toml through the generated ctnn_accel_regs.vh. Full-word writes only; an
// unknown offset, a partial write or a write to a register without writable field answers
// rsp_err and changes nothing (BUS.md rule 4).
`default_nettype none

module ctnn_accel_regs #(
  parameter integer Dim      = 8,
  parameter integer NbTiles  = 8,
  parameter integer Log2KMax = 12,
  parameter integer DwKMax   = 5,
  parameter integer DwLine   = 256,
  parameter integer DwSMax   = 3
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // to the controller
  output reg         start_o,        // CTRL.START written with 1
  output reg  [9:0]  cfg_o,          // {DW, POOL[1:0], RES_ADD, ROW_PARAMS, CONV, BIAS_EN, PER_CHANNEL, RELU, OUT_RAW}
  output reg  [15:0] m_o,
  output reg  [15:0] n_o,
  output reg  [15:0] k_o,
  output reg  [31:0] a_addr_o,
  output reg  [31:0] b_addr_o,
  output reg  [31:0] c_addr_o,
  output reg  [31:0] bias_addr_o,
  output reg  [31:0] mult_addr_o,
  output reg  [31:0] shift_addr_o,
  output reg  [19:0] lda_o,
  output reg  [19:0] ldb_o,
  output reg  [19:0] ldc_o,
  output reg  [23:0] zp_o,           // {OUT_ZP, B_ZP, A_ZP}
  output reg  [15:0] clamp_o,        // {ACT_MAX, ACT_MIN}
  output reg  [31:0] mult_o,
  output reg  [7:0]  shift_o,
  output reg  [31:0] conv_in_o,      // {W, H}
  output reg  [23:0] conv_cstride_o,
  output reg  [31:0] conv_kernel_o,  // {SW, SH, KW, KH}
  output reg  [31:0] conv_out_o,     // {PL, PT, OUT_W}
  output reg  [31:0] res_addr_o,
  output reg  [28:0] res_zp_o,       // {LEFT_SHIFT, OUT_ZP, R_ZP, Y_ZP}
  output reg  [15:0] res_clamp_o,    // {ACT_MAX, ACT_MIN}
  output reg  [31:0] res_mult_y_o,
  output reg  [31:0] res_mult_r_o,
  output reg  [31:0] res_mult_out_o,
  output reg  [23:0] res_shift_o,    // {OUT, R, Y}
  output reg  [31:0] pool_addr_o,
  // from the controller
  input  wire        busy_i,
  input  wire        done_set_i,
  input  wire        err_set_i,
  input  wire [3:0]  err_code_i,
  input  wire [31:0] cycles_i,
  input  wire [31:0] macs_i,
  output wire        irq_o,
  // ctnn bus slave
  `include "ctnn_bus_slave_ports.vh"
);
  `include "ctnn_accel_regs.vh"

  localparam [7:0] DIM8 = Dim[7:0];
  localparam [7:0] LOG2K8 = Log2KMax[7:0];
  localparam integer NB = NbTiles * Dim;
  localparam [11:0] NB12 = NB[11:0];
  localparam [7:0] DW_KMAX8 = DwKMax[7:0];
  localparam [15:0] DW_LINE16 = DwLine[15:0];
  localparam [7:0] DW_SMAX8 = DwSMax[7:0];

  reg       done_q, error_q;
  reg [3:0] cause_q;
  reg [1:0] irq_en_q;

  reg        rsp_valid_q;
  reg [31:0] rsp_rdata_q;
  reg        rsp_err_q;

  // The interconnect decodes the region; the register file sees only the offset bits.
  wire [CTNN_ACCEL_OFFSET_BITS-1:0] off = req_addr_i[CTNN_ACCEL_OFFSET_BITS-1:0];
  wire unused_region = ^req_addr_i[31:CTNN_ACCEL_OFFSET_BITS];
  wire acc = req_valid_i;            // always ready
  assign req_ready_o = 1'b1;
  assign rsp_valid_o = rsp_valid_q;
  assign rsp_rdata_o = rsp_rdata_q;
  assign rsp_err_o   = rsp_err_q;

  // read mux; `known` = the offset holds a register, `writable` = it has a writable field
  reg [31:0] rdata;
  reg        known, writable;
  always @(*) begin
    rdata = 32'd0;
    known = 1'b1;
    writable = 1'b1;
    case (off)
      CTNN_ACCEL_ID_OFFSET: begin rdata = CTNN_ACCEL_ID_RESET; writable = 1'b0; end
      CTNN_ACCEL_HWCFG_OFFSET: begin
        rdata[CTNN_ACCEL_HWCFG_DIM_MSB:CTNN_ACCEL_HWCFG_DIM_LSB] = DIM8;
        rdata[CTNN_ACCEL_HWCFG_LOG2_KMAX_MSB:CTNN_ACCEL_HWCFG_LOG2_KMAX_LSB] = LOG2K8;
        rdata[CTNN_ACCEL_HWCFG_BUS_BYTES_MSB:CTNN_ACCEL_HWCFG_BUS_BYTES_LSB] = 4'd4;
        rdata[CTNN_ACCEL_HWCFG_BLOCK_COLS_MSB:CTNN_ACCEL_HWCFG_BLOCK_COLS_LSB] = NB12;
        writable = 1'b0;
      end
      CTNN_ACCEL_DWCFG_OFFSET: begin
        rdata[CTNN_ACCEL_DWCFG_KMAX_MSB:CTNN_ACCEL_DWCFG_KMAX_LSB] = DW_KMAX8;
        rdata[CTNN_ACCEL_DWCFG_LINE_MSB:CTNN_ACCEL_DWCFG_LINE_LSB] = DW_LINE16;
        rdata[CTNN_ACCEL_DWCFG_SMAX_MSB:CTNN_ACCEL_DWCFG_SMAX_LSB] = DW_SMAX8;
        writable = 1'b0;
      end
      CTNN_ACCEL_CTRL_OFFSET: rdata = 32'd0;  // write only
      CTNN_ACCEL_STATUS_OFFSET: begin
        rdata[CTNN_ACCEL_STATUS_BUSY_LSB] = busy_i;
        rdata[CTNN_ACCEL_STATUS_DONE_LSB] = done_q;
        rdata[CTNN_ACCEL_STATUS_ERROR_LSB] = error_q;
      end
      CTNN_ACCEL_ERR_CAUSE_OFFSET: begin
        rdata[CTNN_ACCEL_ERR_CAUSE_CODE_MSB:CTNN_ACCEL_ERR_CAUSE_CODE_LSB] = cause_q;
        writable = 1'b0;
      end
      CTNN_ACCEL_IRQ_EN_OFFSET: begin
        rdata[CTNN_ACCEL_IRQ_EN_DONE_LSB] = irq_en_q[0];
        rdata[CTNN_ACCEL_IRQ_EN_ERROR_LSB] = irq_en_q[1];
      end
      CTNN_ACCEL_CFG_OFFSET: begin
        rdata[CTNN_ACCEL_CFG_OUT_RAW_LSB] = cfg_o[0];
        rdata[CTNN_ACCEL_CFG_RELU_LSB] = cfg_o[1];
        rdata[CTNN_ACCEL_CFG_PER_CHANNEL_LSB] = cfg_o[2];
        rdata[CTNN_ACCEL_CFG_BIAS_EN_LSB] = cfg_o[3];
        rdata[CTNN_ACCEL_CFG_CONV_LSB] = cfg_o[4];
        rdata[CTNN_ACCEL_CFG_ROW_PARAMS_LSB] = cfg_o[5];
        rdata[CTNN_ACCEL_CFG_RES_ADD_LSB] = cfg_o[6];
        rdata[CTNN_ACCEL_CFG_POOL_MSB:CTNN_ACCEL_CFG_POOL_LSB] = cfg_o[8:7];
        rdata[CTNN_ACCEL_CFG_DW_LSB] = cfg_o[9];
      end
      CTNN_ACCEL_M_OFFSET: rdata[CTNN_ACCEL_M_VALUE_MSB:CTNN_ACCEL_M_VALUE_LSB] = m_o;
      CTNN_ACCEL_N_OFFSET: rdata[CTNN_ACCEL_N_VALUE_MSB:CTNN_ACCEL_N_VALUE_LSB] = n_o;
      CTNN_ACCEL_K_OFFSET: rdata[CTNN_ACCEL_K_VALUE_MSB:CTNN_ACCEL_K_VALUE_LSB] = k_o;
      CTNN_ACCEL_A_ADDR_OFFSET: rdata = a_addr_o;
      CTNN_ACCEL_B_ADDR_OFFSET: rdata = b_addr_o;
      CTNN_ACCEL_C_ADDR_OFFSET: rdata = c_addr_o;
      CTNN_ACCEL_BIAS_ADDR_OFFSET: rdata = bias_addr_o;
      CTNN_ACCEL_MULT_ADDR_OFFSET: rdata = mult_addr_o;
      CTNN_ACCEL_SHIFT_ADDR_OFFSET: rdata = shift_addr_o;
      CTNN_ACCEL_LDA_OFFSET: rdata[CTNN_ACCEL_LDA_VALUE_MSB:CTNN_ACCEL_LDA_VALUE_LSB] = lda_o;
      CTNN_ACCEL_LDB_OFFSET: rdata[CTNN_ACCEL_LDB_VALUE_MSB:CTNN_ACCEL_LDB_VALUE_LSB] = ldb_o;
      CTNN_ACCEL_LDC_OFFSET: rdata[CTNN_ACCEL_LDC_VALUE_MSB:CTNN_ACCEL_LDC_VALUE_LSB] = ldc_o;
      CTNN_ACCEL_ZP_OFFSET: begin
        rdata[CTNN_ACCEL_ZP_A_ZP_MSB:CTNN_ACCEL_ZP_A_ZP_LSB] = zp_o[7:0];
        rdata[CTNN_ACCEL_ZP_B_ZP_MSB:CTNN_ACCEL_ZP_B_ZP_LSB] = zp_o[15:8];
        rdata[CTNN_ACCEL_ZP_OUT_ZP_MSB:CTNN_ACCEL_ZP_OUT_ZP_LSB] = zp_o[23:16];
      end
      CTNN_ACCEL_CLAMP_OFFSET: begin
        rdata[CTNN_ACCEL_CLAMP_ACT_MIN_MSB:CTNN_ACCEL_CLAMP_ACT_MIN_LSB] = clamp_o[7:0];
        rdata[CTNN_ACCEL_CLAMP_ACT_MAX_MSB:CTNN_ACCEL_CLAMP_ACT_MAX_LSB] = clamp_o[15:8];
      end
      CTNN_ACCEL_MULT_OFFSET: rdata = mult_o;
      CTNN_ACCEL_SHIFT_OFFSET: rdata[CTNN_ACCEL_SHIFT_VALUE_MSB:CTNN_ACCEL_SHIFT_VALUE_LSB] = shift_o;
      CTNN_ACCEL_CONV_IN_OFFSET: begin
        rdata[CTNN_ACCEL_CONV_IN_H_MSB:CTNN_ACCEL_CONV_IN_H_LSB] = conv_in_o[15:0];
        rdata[CTNN_ACCEL_CONV_IN_W_MSB:CTNN_ACCEL_CONV_IN_W_LSB] = conv_in_o[31:16];
      end
      CTNN_ACCEL_CONV_CSTRIDE_OFFSET:
        rdata[CTNN_ACCEL_CONV_CSTRIDE_VALUE_MSB:CTNN_ACCEL_CONV_CSTRIDE_VALUE_LSB] = conv_cstride_o;
      CTNN_ACCEL_CONV_KERNEL_OFFSET: begin
        rdata[CTNN_ACCEL_CONV_KERNEL_KH_MSB:CTNN_ACCEL_CONV_KERNEL_KH_LSB] = conv_kernel_o[7:0];
        rdata[CTNN_ACCEL_CONV_KERNEL_KW_MSB:CTNN_ACCEL_CONV_KERNEL_KW_LSB] = conv_kernel_o[15:8];
        rdata[CTNN_ACCEL_CONV_KERNEL_SH_MSB:CTNN_ACCEL_CONV_KERNEL_SH_LSB] = conv_kernel_o[23:16];
        rdata[CTNN_ACCEL_CONV_KERNEL_SW_MSB:CTNN_ACCEL_CONV_KERNEL_SW_LSB] = conv_kernel_o[31:24];
      end
      CTNN_ACCEL_CONV_OUT_OFFSET: begin
        rdata[CTNN_ACCEL_CONV_OUT_OUT_W_MSB:CTNN_ACCEL_CONV_OUT_OUT_W_LSB] = conv_out_o[15:0];
        rdata[CTNN_ACCEL_CONV_OUT_PT_MSB:CTNN_ACCEL_CONV_OUT_PT_LSB] = conv_out_o[23:16];
        rdata[CTNN_ACCEL_CONV_OUT_PL_MSB:CTNN_ACCEL_CONV_OUT_PL_LSB] = conv_out_o[31:24];
      end
      CTNN_ACCEL_RES_ADDR_OFFSET: rdata = res_addr_o;
      CTNN_ACCEL_RES_ZP_OFFSET: begin
        rdata[CTNN_ACCEL_RES_ZP_Y_ZP_MSB:CTNN_ACCEL_RES_ZP_Y_ZP_LSB] = res_zp_o[7:0];
        rdata[CTNN_ACCEL_RES_ZP_R_ZP_MSB:CTNN_ACCEL_RES_ZP_R_ZP_LSB] = res_zp_o[15:8];
        rdata[CTNN_ACCEL_RES_ZP_OUT_ZP_MSB:CTNN_ACCEL_RES_ZP_OUT_ZP_LSB] = res_zp_o[23:16];
        rdata[CTNN_ACCEL_RES_ZP_LEFT_SHIFT_MSB:CTNN_ACCEL_RES_ZP_LEFT_SHIFT_LSB] = res_zp_o[28:24];
      end
      CTNN_ACCEL_RES_CLAMP_OFFSET: begin
        rdata[CTNN_ACCEL_RES_CLAMP_ACT_MIN_MSB:CTNN_ACCEL_RES_CLAMP_ACT_MIN_LSB] = res_clamp_o[7:0];
        rdata[CTNN_ACCEL_RES_CLAMP_ACT_MAX_MSB:CTNN_ACCEL_RES_CLAMP_ACT_MAX_LSB] = res_clamp_o[15:8];
      end
      CTNN_ACCEL_RES_MULT_Y_OFFSET: rdata = res_mult_y_o;
      CTNN_ACCEL_RES_MULT_R_OFFSET: rdata = res_mult_r_o;
      CTNN_ACCEL_RES_MULT_OUT_OFFSET: rdata = res_mult_out_o;
      CTNN_ACCEL_RES_SHIFT_OFFSET: begin
        rdata[CTNN_ACCEL_RES_SHIFT_Y_MSB:CTNN_ACCEL_RES_SHIFT_Y_LSB] = res_shift_o[7:0];
        rdata[CTNN_ACCEL_RES_SHIFT_R_MSB:CTNN_ACCEL_RES_SHIFT_R_LSB] = res_shift_o[15:8];
        rdata[CTNN_ACCEL_RES_SHIFT_OUT_MSB:CTNN_ACCEL_RES_SHIFT_OUT_LSB] = res_shift_o[23:16];
      end
      CTNN_ACCEL_POOL_ADDR_OFFSET: rdata = pool_addr_o;
      CTNN_ACCEL_CYCLES_OFFSET: begin rdata = cycles_i; writable = 1'b0; end
      CTNN_ACCEL_MACS_OFFSET: begin rdata = macs_i; writable = 1'b0; end
      default: begin known = 1'b0; writable = 1'b0; end
    endcase
  end

  wire bad = !known || (req_we_i && (!writable || req_wstrb_i != 4'hF));
  wire wr = acc && req_we_i && !bad;
  wire [31:0] d = req_wdata_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rsp_valid_q <= 1'b0;
      rsp_rdata_q <= 32'd0;
      rsp_err_q <= 1'b0;
      start_o <= 1'b0;
      done_q <= 1'b0;
      error_q <= 1'b0;
      cause_q <= 4'd0;
      irq_en_q <= CTNN_ACCEL_IRQ_EN_RESET[1:0];
      cfg_o <= CTNN_ACCEL_CFG_RESET[9:0];
      pool_addr_o <= CTNN_ACCEL_POOL_ADDR_RESET;
      res_addr_o <= CTNN_ACCEL_RES_ADDR_RESET;
      res_zp_o <= CTNN_ACCEL_RES_ZP_RESET[28:0];
      res_clamp_o <= CTNN_ACCEL_RES_CLAMP_RESET[15:0];
      res_mult_y_o <= CTNN_ACCEL_RES_MULT_Y_RESET;
      res_mult_r_o <= CTNN_ACCEL_RES_MULT_R_RESET;
      res_mult_out_o <= CTNN_ACCEL_RES_MULT_OUT_RESET;
      res_shift_o <= CTNN_ACCEL_RES_SHIFT_RESET[23:0];
      conv_in_o <= CTNN_ACCEL_CONV_IN_RESET;
      conv_cstride_o <= CTNN_ACCEL_CONV_CSTRIDE_RESET[23:0];
      conv_kernel_o <= CTNN_ACCEL_CONV_KERNEL_RESET;
      conv_out_o <= CTNN_ACCEL_CONV_OUT_RESET;
      m_o <= 16'd0; n_o <= 16'd0; k_o <= 16'd0;
      a_addr_o <= 32'd0; b_addr_o <= 32'd0; c_addr_o <= 32'd0;
      bias_addr_o <= 32'd0; mult_addr_o <= 32'd0; shift_addr_o <= 32'd0;
      lda_o <= 20'd0; ldb_o <= 20'd0; ldc_o <= 20'd0;
      zp_o <= CTNN_ACCEL_ZP_RESET[23:0];
      clamp_o <= CTNN_ACCEL_CLAMP_RESET[15:0];  // ACT_MIN -128, ACT_MAX 127
      mult_o <= CTNN_ACCEL_MULT_RESET;
      shift_o <= CTNN_ACCEL_SHIFT_RESET[7:0];
    end else begin
      rsp_valid_q <= acc;
      rsp_err_q <= acc && bad;
      rsp_rdata_q <= (acc && !req_we_i && !bad) ? rdata : 32'd0;
      start_o <= wr && off == CTNN_ACCEL_CTRL_OFFSET && d[CTNN_ACCEL_CTRL_START_LSB];
      // STATUS: hardware sets win over a software clear in the same cycle
      done_q <= done_set_i ||
                (done_q && !(wr && off == CTNN_ACCEL_STATUS_OFFSET && d[CTNN_ACCEL_STATUS_DONE_LSB]));
      error_q <= err_set_i ||
                 (error_q && !(wr && off == CTNN_ACCEL_STATUS_OFFSET && d[CTNN_ACCEL_STATUS_ERROR_LSB]));
      if (err_set_i) cause_q <= err_code_i;
      else if (start_o && !busy_i) cause_q <= 4'd0;
      if (wr) begin
        case (off)
          CTNN_ACCEL_IRQ_EN_OFFSET:
            irq_en_q <= {d[CTNN_ACCEL_IRQ_EN_ERROR_LSB], d[CTNN_ACCEL_IRQ_EN_DONE_LSB]};
          CTNN_ACCEL_CFG_OFFSET:
            cfg_o <= {d[CTNN_ACCEL_CFG_DW_LSB], d[CTNN_ACCEL_CFG_POOL_MSB:CTNN_ACCEL_CFG_POOL_LSB], d[CTNN_ACCEL_CFG_RES_ADD_LSB], d[CTNN_ACCEL_CFG_ROW_PARAMS_LSB], d[CTNN_ACCEL_CFG_CONV_LSB],
                      d[CTNN_ACCEL_CFG_BIAS_EN_LSB], d[CTNN_ACCEL_CFG_PER_CHANNEL_LSB],
                      d[CTNN_ACCEL_CFG_RELU_LSB], d[CTNN_ACCEL_CFG_OUT_RAW_LSB]};
          CTNN_ACCEL_M_OFFSET: m_o <= d[CTNN_ACCEL_M_VALUE_MSB:CTNN_ACCEL_M_VALUE_LSB];
          CTNN_ACCEL_N_OFFSET: n_o <= d[CTNN_ACCEL_N_VALUE_MSB:CTNN_ACCEL_N_VALUE_LSB];
          CTNN_ACCEL_K_OFFSET: k_o <= d[CTNN_ACCEL_K_VALUE_MSB:CTNN_ACCEL_K_VALUE_LSB];
          CTNN_ACCEL_A_ADDR_OFFSET: a_addr_o <= d;
          CTNN_ACCEL_B_ADDR_OFFSET: b_addr_o <= d;
          CTNN_ACCEL_C_ADDR_OFFSET: c_addr_o <= d;
          CTNN_ACCEL_BIAS_ADDR_OFFSET: bias_addr_o <= d;
          CTNN_ACCEL_MULT_ADDR_OFFSET: mult_addr_o <= d;
          CTNN_ACCEL_SHIFT_ADDR_OFFSET: shift_addr_o <= d;
          CTNN_ACCEL_LDA_OFFSET: lda_o <= d[CTNN_ACCEL_LDA_VALUE_MSB:CTNN_ACCEL_LDA_VALUE_LSB];
          CTNN_ACCEL_LDB_OFFSET: ldb_o <= d[CTNN_ACCEL_LDB_VALUE_MSB:CTNN_ACCEL_LDB_VALUE_LSB];
          CTNN_ACCEL_LDC_OFFSET: ldc_o <= d[CTNN_ACCEL_LDC_VALUE_MSB:CTNN_ACCEL_LDC_VALUE_LSB];
          CTNN_ACCEL_ZP_OFFSET:
            zp_o <= {d[CTNN_ACCEL_ZP_OUT_ZP_MSB:CTNN_ACCEL_ZP_OUT_ZP_LSB],
                     d[CTNN_ACCEL_ZP_B_ZP_MSB:CTNN_ACCEL_ZP_B_ZP_LSB],
                     d[CTNN_ACCEL_ZP_A_ZP_MSB:CTNN_ACCEL_ZP_A_ZP_LSB]};
          CTNN_ACCEL_CLAMP_OFFSET:
            clamp_o <= {d[CTNN_ACCEL_CLAMP_ACT_MAX_MSB:CTNN_ACCEL_CLAMP_ACT_MAX_LSB],
                        d[CTNN_ACCEL_CLAMP_ACT_MIN_MSB:CTNN_ACCEL_CLAMP_ACT_MIN_LSB]};
          CTNN_ACCEL_MULT_OFFSET: mult_o <= d;
          CTNN_ACCEL_SHIFT_OFFSET: shift_o <= d[CTNN_ACCEL_SHIFT_VALUE_MSB:CTNN_ACCEL_SHIFT_VALUE_LSB];
          CTNN_ACCEL_CONV_IN_OFFSET: conv_in_o <= d;
          CTNN_ACCEL_CONV_CSTRIDE_OFFSET:
            conv_cstride_o <= d[CTNN_ACCEL_CONV_CSTRIDE_VALUE_MSB:CTNN_ACCEL_CONV_CSTRIDE_VALUE_LSB];
          CTNN_ACCEL_CONV_KERNEL_OFFSET: conv_kernel_o <= d;
          CTNN_ACCEL_CONV_OUT_OFFSET: conv_out_o <= d;
          CTNN_ACCEL_RES_ADDR_OFFSET: res_addr_o <= d;
          CTNN_ACCEL_RES_ZP_OFFSET:
            res_zp_o <= {d[CTNN_ACCEL_RES_ZP_LEFT_SHIFT_MSB:CTNN_ACCEL_RES_ZP_LEFT_SHIFT_LSB],
                         d[CTNN_ACCEL_RES_ZP_OUT_ZP_MSB:CTNN_ACCEL_RES_ZP_OUT_ZP_LSB],
                         d[CTNN_ACCEL_RES_ZP_R_ZP_MSB:CTNN_ACCEL_RES_ZP_R_ZP_LSB],
                         d[CTNN_ACCEL_RES_ZP_Y_ZP_MSB:CTNN_ACCEL_RES_ZP_Y_ZP_LSB]};
          CTNN_ACCEL_RES_CLAMP_OFFSET:
            res_clamp_o <= {d[CTNN_ACCEL_RES_CLAMP_ACT_MAX_MSB:CTNN_ACCEL_RES_CLAMP_ACT_MAX_LSB],
                            d[CTNN_ACCEL_RES_CLAMP_ACT_MIN_MSB:CTNN_ACCEL_RES_CLAMP_ACT_MIN_LSB]};
          CTNN_ACCEL_POOL_ADDR_OFFSET: pool_addr_o <= d;
          CTNN_ACCEL_RES_MULT_Y_OFFSET: res_mult_y_o <= d;
          CTNN_ACCEL_RES_MULT_R_OFFSET: res_mult_r_o <= d;
          CTNN_ACCEL_RES_MULT_OUT_OFFSET: res_mult_out_o <= d;
          CTNN_ACCEL_RES_SHIFT_OFFSET:
            res_shift_o <= {d[CTNN_ACCEL_RES_SHIFT_OUT_MSB:CTNN_ACCEL_RES_SHIFT_OUT_LSB],
                            d[CTNN_ACCEL_RES_SHIFT_R_MSB:CTNN_ACCEL_RES_SHIFT_R_LSB],
                            d[CTNN_ACCEL_RES_SHIFT_Y_MSB:CTNN_ACCEL_RES_SHIFT_Y_LSB]};
          default: ;
        endcase
      end
    end
  end

  assign irq_o = (done_q && irq_en_q[0]) || (error_q && irq_en_q[1]);
endmodule

`default_nettype wire
