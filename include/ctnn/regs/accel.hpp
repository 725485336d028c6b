// generated — do not edit. Source: fpga/regs/ctnn.toml, generator: fpga/regs/gen_regs.py
// ctnn GEMM accelerator: C[MxN] = requant(A[MxK] . B[KxN] + bias), int8 in, int8 or int32 out.
// One struct per register (absolute address in the SoC map), one nested field type per
// field; write with ctnn::mmio::write<Bus>(reg::field{v}, ...), read with
// ctnn::mmio::read<Bus, reg::field>().
#pragma once
#include "ctnn/mmio/reg.hpp"
#include "ctnn/regs/soc_map.hpp"

namespace ctnn::regs::accel {

inline constexpr uint32_t base = soc::accel.base;

/// @brief ID (+0x000): Identification
struct id : mmio::reg<id, "accel.ID", base + 0x000u, 0xc7aa0001u> {
  /// VERSION [15:0] ro, reset 0x1: Register map version
  struct version : mmio::field<id, version, "accel.ID.VERSION", 15, 0, mmio::access::ro, 0x1u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  /// MAGIC [31:16] ro, reset 0xc7aa: Constant 0xC7AA
  struct magic : mmio::field<id, magic, "accel.ID.MAGIC", 31, 16, mmio::access::ro, 0xc7aau> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  using fields = mmio::field_list<version, magic>;
};

/// @brief HWCFG (+0x004): Build parameters of this instance
struct hwcfg : mmio::reg<hwcfg, "accel.HWCFG", base + 0x004u, 0x04040c08u> {
  /// DIM [7:0] ro, reset 0x8: PE array is DIM x DIM (RTL parameter Dim, 8 by default)
  struct dim : mmio::field<hwcfg, dim, "accel.HWCFG.DIM", 7, 0, mmio::access::ro, 0x8u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  /// LOG2_KMAX [15:8] ro, reset 0xc: log2 of the largest K the scratchpads hold (RTL parameter)
  struct log2_kmax : mmio::field<hwcfg, log2_kmax, "accel.HWCFG.LOG2_KMAX", 15, 8, mmio::access::ro, 0xcu> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  /// BUS_BYTES [19:16] ro, reset 0x4: Bytes per bus word of the word streams (B, the vectors, the array's C writes, the residual, the depthwise unit); the DMA port itself moves 16-byte lines, which the A loader, the pool pass and the matrix-vector unit use whole
  struct bus_bytes : mmio::field<hwcfg, bus_bytes, "accel.HWCFG.BUS_BYTES", 19, 16, mmio::access::ro, 0x4u> {
    using field::field;   // min_value, max_value: [0, 15]
  };
  /// BLOCK_COLS [31:20] ro, reset 0x40: Columns of a B block (RTL NbTiles x DIM); CFG.ROW_PARAMS holds at most 2 x BLOCK_COLS rows
  struct block_cols : mmio::field<hwcfg, block_cols, "accel.HWCFG.BLOCK_COLS", 31, 20, mmio::access::ro, 0x40u> {
    using field::field;   // min_value, max_value: [0, 4095]
  };
  using fields = mmio::field_list<dim, log2_kmax, bus_bytes, block_cols>;
};

/// @brief CTRL (+0x008): Command
struct ctrl : mmio::reg<ctrl, "accel.CTRL", base + 0x008u, 0x00000000u> {
  /// START [0:0] wo, reset 0x0: Write 1: start a job with the registers below (a start while BUSY aborts the job with ERR_CAUSE = START_BUSY)
  struct start : mmio::field<ctrl, start, "accel.CTRL.START", 0, 0, mmio::access::wo, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  using fields = mmio::field_list<start>;
};

/// @brief STATUS (+0x00c): Job status; DONE and ERROR drive the interrupt when enabled in IRQ_EN
struct status : mmio::reg<status, "accel.STATUS", base + 0x00cu, 0x00000000u> {
  /// BUSY [0:0] ro, reset 0x0: A job is running
  struct busy : mmio::field<status, busy, "accel.STATUS.BUSY", 0, 0, mmio::access::ro, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// DONE [1:1] w1c, reset 0x0: The last job finished without error
  struct done : mmio::field<status, done, "accel.STATUS.DONE", 1, 1, mmio::access::w1c, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// ERROR [2:2] w1c, reset 0x0: The last job stopped on an error (cause in ERR_CAUSE)
  struct error : mmio::field<status, error, "accel.STATUS.ERROR", 2, 2, mmio::access::w1c, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  using fields = mmio::field_list<busy, done, error>;
};

/// @brief ERR_CAUSE (+0x010): Why the last job stopped; cleared by a new start
struct err_cause : mmio::reg<err_cause, "accel.ERR_CAUSE", base + 0x010u, 0x00000000u> {
  /// CODE [3:0] ro, reset 0x0: The cause
  struct code : mmio::field<err_cause, code, "accel.ERR_CAUSE.CODE", 3, 0, mmio::access::ro, 0x0u> {
    using field::field;   // min_value, max_value: [0, 15]
    /// The field's named values.
    enum value : uint32_t {
      none = 0,  ///< no error
      zero_size = 1,  ///< M, N or K is 0
      start_busy = 2,  ///< START while a job runs (the running job is aborted)
      addr_range = 3,  ///< a DMA address outside RAM: checked before the job for A, C and the vectors, and per access for the implicit im2col B (never requested)
      align = 4,  ///< B, an int32 C, a vector or LDB, LDC not a multiple of 4 (A and an int8 C may have any alignment), or a stride shorter than a row
      bus_err = 5,  ///< a DMA access got an error response
      k_too_big = 6,  ///< K above 2^LOG2_KMAX
      bad_shift = 7,  ///< a shift outside [-31, 30] (per tensor, or read from the per-channel vector)
      rows = 8,  ///< CFG.ROW_PARAMS with M above 2 x HWCFG.BLOCK_COLS
      conv_geom = 9,  ///< CFG.CONV with a zero kernel size, stride, output width, H or W
      res_raw = 10,  ///< CFG.RES_ADD with CFG.OUT_RAW: the residual add needs an int8 C
      pool = 11,  ///< CFG.POOL with CFG.OUT_RAW, without CFG.CONV, or the reserved mode 3
      dw = 12,  ///< CFG.DW without CFG.CONV, with CFG.OUT_RAW, RES_ADD, POOL or ROW_PARAMS, K not KH x KW, KH or KW above DWCFG.KMAX, SW above DWCFG.SMAX, or W above DWCFG.LINE
    };
    /// The name of a value as in fpga/regs/ctnn.toml, "?" for an unnamed one.
    static constexpr const char* name_of(uint32_t v) {
      switch (v) {
        case 0: return "NONE";
        case 1: return "ZERO_SIZE";
        case 2: return "START_BUSY";
        case 3: return "ADDR_RANGE";
        case 4: return "ALIGN";
        case 5: return "BUS_ERR";
        case 6: return "K_TOO_BIG";
        case 7: return "BAD_SHIFT";
        case 8: return "ROWS";
        case 9: return "CONV_GEOM";
        case 10: return "RES_RAW";
        case 11: return "POOL";
        case 12: return "DW";
        default: return "?";
      }
    }
  };
  using fields = mmio::field_list<code>;
};

/// @brief IRQ_EN (+0x014): Interrupt enables: irq_o = (DONE & IRQ_EN.DONE) | (ERROR & IRQ_EN.ERROR)
struct irq_en : mmio::reg<irq_en, "accel.IRQ_EN", base + 0x014u, 0x00000000u> {
  /// DONE [0:0] rw, reset 0x0: Interrupt on DONE
  struct done : mmio::field<irq_en, done, "accel.IRQ_EN.DONE", 0, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// ERROR [1:1] rw, reset 0x0: Interrupt on ERROR
  struct error : mmio::field<irq_en, error, "accel.IRQ_EN.ERROR", 1, 1, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  using fields = mmio::field_list<done, error>;
};

/// @brief CFG (+0x018): Job options
struct cfg : mmio::reg<cfg, "accel.CFG", base + 0x018u, 0x00000000u> {
  /// OUT_RAW [0:0] rw, reset 0x0: 1: C is int32 accumulators (+ bias), no requantization; 0: requantized int8
  struct out_raw : mmio::field<cfg, out_raw, "accel.CFG.OUT_RAW", 0, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// RELU [1:1] rw, reset 0x0: Raise the lower clamp to OUT_ZP (TFLite fused ReLU)
  struct relu : mmio::field<cfg, relu, "accel.CFG.RELU", 1, 1, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// PER_CHANNEL [2:2] rw, reset 0x0: Multiplier and shift per output column, read from MULT_ADDR and SHIFT_ADDR
  struct per_channel : mmio::field<cfg, per_channel, "accel.CFG.PER_CHANNEL", 2, 2, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// BIAS_EN [3:3] rw, reset 0x0: Add the int32 bias vector at BIAS_ADDR (one per column)
  struct bias_en : mmio::field<cfg, bias_en, "accel.CFG.BIAS_EN", 3, 3, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// CONV [4:4] rw, reset 0x0: B is the implicit im2col matrix of the CHW int8 tensor at B_ADDR (any alignment; geometry in CONV_*; LDB unused): B[k][n] = x[c][oy*SH+ky-PT][ox*SW+kx-PL] with k = (c*KH + ky)*KW + kx and n = oy*OUT_W + ox; a position in the padding reads B_ZP
  struct conv : mmio::field<cfg, conv, "accel.CFG.CONV", 4, 4, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// ROW_PARAMS [5:5] rw, reset 0x0: The bias, multiplier and shift vectors have one entry per row of C (M entries, M at most 2 x HWCFG.BLOCK_COLS) instead of one per column
  struct row_params : mmio::field<cfg, row_params, "accel.CFG.ROW_PARAMS", 5, 5, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// RES_ADD [6:6] rw, reset 0x0: Residual add (TFLite int8 ADD, ctnn::ref::add_s8_one) after the requantization: C[i] = add(y[i], R[i]) with y the requantized int8 result and R the int8 tensor at RES_ADDR, addressed as C (same LDC, R[i] at RES_ADDR + (address of C[i] - C_ADDR)); parameters in RES_*; int8 C only
  struct res_add : mmio::field<cfg, res_add, "accel.CFG.RES_ADD", 6, 6, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  /// POOL [8:7] rw, reset 0x0: 2x2 stride-2 pool of the int8 CHW C (CFG.CONV, C row = channel of OUT_W-wide rows, N = OH x OUT_W) after the GEMM (and RES_ADD): the accelerator reads C back (DMA stream 3) and writes the pooled M x floor(OH/2) x floor(OUT_W/2) CHW tensor, dense, at POOL_ADDR (ctnn::ref::max_pool2d / avg_pool2d_s8 without padding, bit-exact)
  struct pool : mmio::field<cfg, pool, "accel.CFG.POOL", 8, 7, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 3]
    /// The field's named values.
    enum value : uint32_t {
      none = 0,  ///< no pool
      max = 1,  ///< max of the 2x2 window
      avg = 2,  ///< average of the 2x2 window, rounded half away from zero (ctnn::ref::rounded_average)
    };
    /// The name of a value as in fpga/regs/ctnn.toml, "?" for an unnamed one.
    static constexpr const char* name_of(uint32_t v) {
      switch (v) {
        case 0: return "NONE";
        case 1: return "MAX";
        case 2: return "AVG";
        default: return "?";
      }
    }
  };
  /// DW [9:9] rw, reset 0x0: Depthwise convolution (with CFG.CONV; the depthwise unit, ctnn_accel_dw, runs the job instead of the array): channel m of the CHW output C (LDC apart, N = OH x OUT_W) = requant(sum over ky, kx of (A[m][ky*KW + kx] - A_ZP) * (x[m][oy*SH+ky-PT][ox*SW+kx-PL] - B_ZP) + bias[m]) with x the CHW input at B_ADDR (CONV_CSTRIDE apart), A the M x K weights (K = KH x KW, LDA apart, any alignment), bias, multiplier and shift one per channel (M entries, as CFG.ROW_PARAMS but for any M); a position in the padding reads B_ZP; int8 C only (ctnn::ref::conv2d_s8 with groups = channels)
  struct dw : mmio::field<cfg, dw, "accel.CFG.DW", 9, 9, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1]
  };
  using fields = mmio::field_list<out_raw, relu, per_channel, bias_en, conv, row_params, res_add, pool, dw>;
};

/// @brief M (+0x01c): Rows of A and C
struct m : mmio::reg<m, "accel.M", base + 0x01cu, 0x00000000u> {
  /// VALUE [15:0] rw, reset 0x0: M
  struct value : mmio::field<m, value, "accel.M.VALUE", 15, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  using fields = mmio::field_list<value>;
};

/// @brief N (+0x020): Columns of B and C (output channels)
struct n : mmio::reg<n, "accel.N", base + 0x020u, 0x00000000u> {
  /// VALUE [15:0] rw, reset 0x0: N
  struct value : mmio::field<n, value, "accel.N.VALUE", 15, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  using fields = mmio::field_list<value>;
};

/// @brief K (+0x024): Columns of A, rows of B (reduction depth)
struct k : mmio::reg<k, "accel.K", base + 0x024u, 0x00000000u> {
  /// VALUE [15:0] rw, reset 0x0: K
  struct value : mmio::field<k, value, "accel.K.VALUE", 15, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  using fields = mmio::field_list<value>;
};

/// @brief A_ADDR (+0x028): Byte address of A[0][0] (int8, row-major), a multiple of 4
struct a_addr : mmio::reg<a_addr, "accel.A_ADDR", base + 0x028u, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<a_addr, value, "accel.A_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief B_ADDR (+0x02c): Byte address of B[0][0] (int8, row-major), a multiple of 4
struct b_addr : mmio::reg<b_addr, "accel.B_ADDR", base + 0x02cu, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<b_addr, value, "accel.B_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief C_ADDR (+0x030): Byte address of C[0][0] (int8 or int32, row-major), a multiple of 4
struct c_addr : mmio::reg<c_addr, "accel.C_ADDR", base + 0x030u, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<c_addr, value, "accel.C_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief BIAS_ADDR (+0x034): Byte address of the int32 bias vector (N entries), used when CFG.BIAS_EN
struct bias_addr : mmio::reg<bias_addr, "accel.BIAS_ADDR", base + 0x034u, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<bias_addr, value, "accel.BIAS_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief MULT_ADDR (+0x038): Byte address of the int32 per-channel multipliers (N entries), used when CFG.PER_CHANNEL
struct mult_addr : mmio::reg<mult_addr, "accel.MULT_ADDR", base + 0x038u, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<mult_addr, value, "accel.MULT_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief SHIFT_ADDR (+0x03c): Byte address of the int32 per-channel shifts (N entries), used when CFG.PER_CHANNEL
struct shift_addr : mmio::reg<shift_addr, "accel.SHIFT_ADDR", base + 0x03cu, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<shift_addr, value, "accel.SHIFT_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief LDA (+0x040): Row stride of A in bytes, a multiple of 4
struct lda : mmio::reg<lda, "accel.LDA", base + 0x040u, 0x00000000u> {
  /// VALUE [19:0] rw, reset 0x0: bytes
  struct value : mmio::field<lda, value, "accel.LDA.VALUE", 19, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1048575]
  };
  using fields = mmio::field_list<value>;
};

/// @brief LDB (+0x044): Row stride of B in bytes, a multiple of 4
struct ldb : mmio::reg<ldb, "accel.LDB", base + 0x044u, 0x00000000u> {
  /// VALUE [19:0] rw, reset 0x0: bytes
  struct value : mmio::field<ldb, value, "accel.LDB.VALUE", 19, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1048575]
  };
  using fields = mmio::field_list<value>;
};

/// @brief LDC (+0x048): Row stride of C in bytes, a multiple of 4
struct ldc : mmio::reg<ldc, "accel.LDC", base + 0x048u, 0x00000000u> {
  /// VALUE [19:0] rw, reset 0x0: bytes
  struct value : mmio::field<ldc, value, "accel.LDC.VALUE", 19, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 1048575]
  };
  using fields = mmio::field_list<value>;
};

/// @brief ZP (+0x04c): Zero points, signed int8
struct zp : mmio::reg<zp, "accel.ZP", base + 0x04cu, 0x00000000u> {
  /// A_ZP [7:0] rw, signed, reset 0x0: Activation (A) zero point
  struct a_zp : mmio::field<zp, a_zp, "accel.ZP.A_ZP", 7, 0, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// B_ZP [15:8] rw, signed, reset 0x0: Weight (B) zero point
  struct b_zp : mmio::field<zp, b_zp, "accel.ZP.B_ZP", 15, 8, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// OUT_ZP [23:16] rw, signed, reset 0x0: Output zero point
  struct out_zp : mmio::field<zp, out_zp, "accel.ZP.OUT_ZP", 23, 16, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  using fields = mmio::field_list<a_zp, b_zp, out_zp>;
};

/// @brief CLAMP (+0x050): Output clamp, signed int8 (act_min, act_max)
struct clamp : mmio::reg<clamp, "accel.CLAMP", base + 0x050u, 0x00007f80u> {
  /// ACT_MIN [7:0] rw, signed, reset 0x80: Lower bound (-128 after reset)
  struct act_min : mmio::field<clamp, act_min, "accel.CLAMP.ACT_MIN", 7, 0, mmio::access::rw, 0x80u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// ACT_MAX [15:8] rw, signed, reset 0x7f: Upper bound (127 after reset)
  struct act_max : mmio::field<clamp, act_max, "accel.CLAMP.ACT_MAX", 15, 8, mmio::access::rw, 0x7fu, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  using fields = mmio::field_list<act_min, act_max>;
};

/// @brief MULT (+0x054): Per-tensor requantization multiplier (Q0.31), used unless CFG.PER_CHANNEL
struct mult : mmio::reg<mult, "accel.MULT", base + 0x054u, 0x40000000u> {
  /// VALUE [31:0] rw, signed, reset 0x40000000: multiplier
  struct value : mmio::field<mult, value, "accel.MULT.VALUE", 31, 0, mmio::access::rw, 0x40000000u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-2147483648, 2147483647]
  };
  using fields = mmio::field_list<value>;
};

/// @brief SHIFT (+0x058): Per-tensor requantization shift, signed, TFLite convention (> 0 left, < 0 right)
struct shift : mmio::reg<shift, "accel.SHIFT", base + 0x058u, 0x00000000u> {
  /// VALUE [7:0] rw, signed, reset 0x0: shift in [-31, 30]
  struct value : mmio::field<shift, value, "accel.SHIFT.VALUE", 7, 0, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  using fields = mmio::field_list<value>;
};

/// @brief CYCLES (+0x05c): Cycles from start to done of the last job (counts while BUSY)
struct cycles : mmio::reg<cycles, "accel.CYCLES", base + 0x05cu, 0x00000000u> {
  /// VALUE [31:0] ro, reset 0x0: cycles
  struct value : mmio::field<cycles, value, "accel.CYCLES.VALUE", 31, 0, mmio::access::ro, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief MACS (+0x060): Useful multiply-accumulates of the last job (M x N x K when it completes)
struct macs : mmio::reg<macs, "accel.MACS", base + 0x060u, 0x00000000u> {
  /// VALUE [31:0] ro, reset 0x0: MACs
  struct value : mmio::field<macs, value, "accel.MACS.VALUE", 31, 0, mmio::access::ro, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief CONV_IN (+0x064): CFG.CONV: height and width of the input tensor
struct conv_in : mmio::reg<conv_in, "accel.CONV_IN", base + 0x064u, 0x00000000u> {
  /// H [15:0] rw, reset 0x0: Input height
  struct h : mmio::field<conv_in, h, "accel.CONV_IN.H", 15, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  /// W [31:16] rw, reset 0x0: Input width
  struct w : mmio::field<conv_in, w, "accel.CONV_IN.W", 31, 16, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  using fields = mmio::field_list<h, w>;
};

/// @brief CONV_CSTRIDE (+0x068): CFG.CONV: bytes from one input channel to the next (H x W for a dense CHW tensor)
struct conv_cstride : mmio::reg<conv_cstride, "accel.CONV_CSTRIDE", base + 0x068u, 0x00000000u> {
  /// VALUE [23:0] rw, reset 0x0: bytes
  struct value : mmio::field<conv_cstride, value, "accel.CONV_CSTRIDE.VALUE", 23, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 16777215]
  };
  using fields = mmio::field_list<value>;
};

/// @brief CONV_KERNEL (+0x06c): CFG.CONV: kernel size and stride
struct conv_kernel : mmio::reg<conv_kernel, "accel.CONV_KERNEL", base + 0x06cu, 0x01010101u> {
  /// KH [7:0] rw, reset 0x1: Kernel height
  struct kh : mmio::field<conv_kernel, kh, "accel.CONV_KERNEL.KH", 7, 0, mmio::access::rw, 0x1u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  /// KW [15:8] rw, reset 0x1: Kernel width
  struct kw : mmio::field<conv_kernel, kw, "accel.CONV_KERNEL.KW", 15, 8, mmio::access::rw, 0x1u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  /// SH [23:16] rw, reset 0x1: Vertical stride
  struct sh : mmio::field<conv_kernel, sh, "accel.CONV_KERNEL.SH", 23, 16, mmio::access::rw, 0x1u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  /// SW [31:24] rw, reset 0x1: Horizontal stride
  struct sw : mmio::field<conv_kernel, sw, "accel.CONV_KERNEL.SW", 31, 24, mmio::access::rw, 0x1u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  using fields = mmio::field_list<kh, kw, sh, sw>;
};

/// @brief CONV_OUT (+0x070): CFG.CONV: output width and the top and left padding
struct conv_out : mmio::reg<conv_out, "accel.CONV_OUT", base + 0x070u, 0x00000000u> {
  /// OUT_W [15:0] rw, reset 0x0: Output width: column n of B is output pixel (n / OUT_W, n % OUT_W)
  struct out_w : mmio::field<conv_out, out_w, "accel.CONV_OUT.OUT_W", 15, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  /// PT [23:16] rw, reset 0x0: Top padding
  struct pt : mmio::field<conv_out, pt, "accel.CONV_OUT.PT", 23, 16, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  /// PL [31:24] rw, reset 0x0: Left padding
  struct pl : mmio::field<conv_out, pl, "accel.CONV_OUT.PL", 31, 24, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  using fields = mmio::field_list<out_w, pt, pl>;
};

/// @brief RES_ADDR (+0x074): CFG.RES_ADD: byte address of the residual R[0][0] (int8, laid out as C with LDC; a multiple of 4 unless C is written by bytes)
struct res_addr : mmio::reg<res_addr, "accel.RES_ADDR", base + 0x074u, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<res_addr, value, "accel.RES_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief RES_ZP (+0x078): CFG.RES_ADD: the add's zero points (signed int8) and its left shift
struct res_zp : mmio::reg<res_zp, "accel.RES_ZP", base + 0x078u, 0x14000000u> {
  /// Y_ZP [7:0] rw, signed, reset 0x0: Zero point of y, the requantized result (the add's first input; normally ZP.OUT_ZP)
  struct y_zp : mmio::field<res_zp, y_zp, "accel.RES_ZP.Y_ZP", 7, 0, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// R_ZP [15:8] rw, signed, reset 0x0: Zero point of the residual R (the add's second input)
  struct r_zp : mmio::field<res_zp, r_zp, "accel.RES_ZP.R_ZP", 15, 8, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// OUT_ZP [23:16] rw, signed, reset 0x0: Zero point of the add's output
  struct out_zp : mmio::field<res_zp, out_zp, "accel.RES_ZP.OUT_ZP", 23, 16, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// LEFT_SHIFT [28:24] rw, reset 0x14: Both inputs are shifted left by this before rescaling (TFLite: 20); at most 22
  struct left_shift : mmio::field<res_zp, left_shift, "accel.RES_ZP.LEFT_SHIFT", 28, 24, mmio::access::rw, 0x14u> {
    using field::field;   // min_value, max_value: [0, 31]
  };
  using fields = mmio::field_list<y_zp, r_zp, out_zp, left_shift>;
};

/// @brief RES_CLAMP (+0x07c): CFG.RES_ADD: the add's output clamp, signed int8 (act_min, act_max; a fused ReLU raises ACT_MIN to RES_ZP.OUT_ZP)
struct res_clamp : mmio::reg<res_clamp, "accel.RES_CLAMP", base + 0x07cu, 0x00007f80u> {
  /// ACT_MIN [7:0] rw, signed, reset 0x80: Lower bound (-128 after reset)
  struct act_min : mmio::field<res_clamp, act_min, "accel.RES_CLAMP.ACT_MIN", 7, 0, mmio::access::rw, 0x80u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// ACT_MAX [15:8] rw, signed, reset 0x7f: Upper bound (127 after reset)
  struct act_max : mmio::field<res_clamp, act_max, "accel.RES_CLAMP.ACT_MAX", 15, 8, mmio::access::rw, 0x7fu, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  using fields = mmio::field_list<act_min, act_max>;
};

/// @brief RES_MULT_Y (+0x080): CFG.RES_ADD: multiplier (Q0.31) rescaling y (add_s8_params.a)
struct res_mult_y : mmio::reg<res_mult_y, "accel.RES_MULT_Y", base + 0x080u, 0x40000000u> {
  /// VALUE [31:0] rw, signed, reset 0x40000000: multiplier
  struct value : mmio::field<res_mult_y, value, "accel.RES_MULT_Y.VALUE", 31, 0, mmio::access::rw, 0x40000000u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-2147483648, 2147483647]
  };
  using fields = mmio::field_list<value>;
};

/// @brief RES_MULT_R (+0x084): CFG.RES_ADD: multiplier (Q0.31) rescaling the residual (add_s8_params.b)
struct res_mult_r : mmio::reg<res_mult_r, "accel.RES_MULT_R", base + 0x084u, 0x40000000u> {
  /// VALUE [31:0] rw, signed, reset 0x40000000: multiplier
  struct value : mmio::field<res_mult_r, value, "accel.RES_MULT_R.VALUE", 31, 0, mmio::access::rw, 0x40000000u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-2147483648, 2147483647]
  };
  using fields = mmio::field_list<value>;
};

/// @brief RES_MULT_OUT (+0x088): CFG.RES_ADD: multiplier (Q0.31) of the sum to the output (add_s8_params.out)
struct res_mult_out : mmio::reg<res_mult_out, "accel.RES_MULT_OUT", base + 0x088u, 0x40000000u> {
  /// VALUE [31:0] rw, signed, reset 0x40000000: multiplier
  struct value : mmio::field<res_mult_out, value, "accel.RES_MULT_OUT.VALUE", 31, 0, mmio::access::rw, 0x40000000u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-2147483648, 2147483647]
  };
  using fields = mmio::field_list<value>;
};

/// @brief RES_SHIFT (+0x08c): CFG.RES_ADD: the three shifts, signed, TFLite convention: Y and R in [-31, 0] (as ctnn::ref::valid(add_s8_params)), OUT in [-31, 30]; others stop the job with BAD_SHIFT
struct res_shift : mmio::reg<res_shift, "accel.RES_SHIFT", base + 0x08cu, 0x00000000u> {
  /// Y [7:0] rw, signed, reset 0x0: Shift of RES_MULT_Y
  struct y : mmio::field<res_shift, y, "accel.RES_SHIFT.Y", 7, 0, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// R [15:8] rw, signed, reset 0x0: Shift of RES_MULT_R
  struct r : mmio::field<res_shift, r, "accel.RES_SHIFT.R", 15, 8, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  /// OUT [23:16] rw, signed, reset 0x0: Shift of RES_MULT_OUT
  struct out : mmio::field<res_shift, out, "accel.RES_SHIFT.OUT", 23, 16, mmio::access::rw, 0x0u, mmio::value_kind::signed_int> {
    using field::field;   // min_value, max_value: [-128, 127]
  };
  using fields = mmio::field_list<y, r, out>;
};

/// @brief POOL_ADDR (+0x090): CFG.POOL: byte address of the pooled output (int8 CHW, any alignment; written by bytes, each address checked against RAM)
struct pool_addr : mmio::reg<pool_addr, "accel.POOL_ADDR", base + 0x090u, 0x00000000u> {
  /// VALUE [31:0] rw, reset 0x0: address
  struct value : mmio::field<pool_addr, value, "accel.POOL_ADDR.VALUE", 31, 0, mmio::access::rw, 0x0u> {
    using field::field;   // min_value, max_value: [0, 4294967295]
  };
  using fields = mmio::field_list<value>;
};

/// @brief DWCFG (+0x094): Build parameters of the depthwise unit (CFG.DW): a job beyond them stops with ERR_CAUSE DW
struct dwcfg : mmio::reg<dwcfg, "accel.DWCFG", base + 0x094u, 0x03010005u> {
  /// KMAX [7:0] ro, reset 0x5: Largest KH and KW
  struct kmax : mmio::field<dwcfg, kmax, "accel.DWCFG.KMAX", 7, 0, mmio::access::ro, 0x5u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  /// LINE [23:8] ro, reset 0x100: Largest input width W (bytes of a line-buffer row)
  struct line : mmio::field<dwcfg, line, "accel.DWCFG.LINE", 23, 8, mmio::access::ro, 0x100u> {
    using field::field;   // min_value, max_value: [0, 65535]
  };
  /// SMAX [31:24] ro, reset 0x3: Largest horizontal stride SW (the window holds 3 x SMAX + KMAX input columns)
  struct smax : mmio::field<dwcfg, smax, "accel.DWCFG.SMAX", 31, 24, mmio::access::ro, 0x3u> {
    using field::field;   // min_value, max_value: [0, 255]
  };
  using fields = mmio::field_list<kmax, line, smax>;
};

/// Every register in offset order, as data: the RTL/C++ agreement test walks it.
inline constexpr mmio::reg_info registers[] = {
    mmio::info_of<id>(),
    mmio::info_of<hwcfg>(),
    mmio::info_of<ctrl>(),
    mmio::info_of<status>(),
    mmio::info_of<err_cause>(),
    mmio::info_of<irq_en>(),
    mmio::info_of<cfg>(),
    mmio::info_of<m>(),
    mmio::info_of<n>(),
    mmio::info_of<k>(),
    mmio::info_of<a_addr>(),
    mmio::info_of<b_addr>(),
    mmio::info_of<c_addr>(),
    mmio::info_of<bias_addr>(),
    mmio::info_of<mult_addr>(),
    mmio::info_of<shift_addr>(),
    mmio::info_of<lda>(),
    mmio::info_of<ldb>(),
    mmio::info_of<ldc>(),
    mmio::info_of<zp>(),
    mmio::info_of<clamp>(),
    mmio::info_of<mult>(),
    mmio::info_of<shift>(),
    mmio::info_of<cycles>(),
    mmio::info_of<macs>(),
    mmio::info_of<conv_in>(),
    mmio::info_of<conv_cstride>(),
    mmio::info_of<conv_kernel>(),
    mmio::info_of<conv_out>(),
    mmio::info_of<res_addr>(),
    mmio::info_of<res_zp>(),
    mmio::info_of<res_clamp>(),
    mmio::info_of<res_mult_y>(),
    mmio::info_of<res_mult_r>(),
    mmio::info_of<res_mult_out>(),
    mmio::info_of<res_shift>(),
    mmio::info_of<pool_addr>(),
    mmio::info_of<dwcfg>(),
};
inline constexpr uint32_t register_count = 38;
static_assert(sizeof(registers) / sizeof(registers[0]) == register_count);

}  // namespace ctnn::regs::accel
