// Driver of the ctnn GEMM accelerator (fpga/rtl/ctnn_accel.v, registers in fpga/regs/ctnn.toml):
// C[MxN] = requant(A[MxK] . B[KxN] + bias) with int8 A and B, int8 or int32 (raw) C, computed by
// the accelerator's DMA straight from RAM. One job at a time, polled; a job that does not finish
// within the poll budget returns timeout, never hangs. run() = program() + start() + wait(); the
// next job may be programmed while one runs (the registers are snapshot on START). The job's RAM and the start, and the done
// status and the results, are fenced for the RISC-V memory model (ctnn/mmio/fence.hpp).
//
// Convolution mode (job::conv): B is not in memory but the implicit im2col of a CHW tensor,
//   B[k][n] = x[c][oy*SH + ky - PT][ox*SW + kx - PL],  k = (c*KH + ky)*KW + kx,  n = oy*OUT_W + ox,
// the padding reading as B's zero point. With job::row_params the bias, multiplier and shift
// vectors have one entry per row of C (an output channel when A holds OIHW weights).
//
// Residual add (job::residual, CFG.RES_ADD): the requantized int8 result y is not written as it
// is but added to an int8 tensor R laid out as C (same LDC), TFLite's quantized ADD exactly:
//   C[i] = ctnn::ref::add_s8_one(y[i], R[i], residual::p)
// so a conv or linear leaf and the add leaf that follows it are one job, bit-exact with the two
// leaves run one after the other. int8 C only (an int32 C stops with ERR_CAUSE RES_RAW).
//
// Pool (job::pool, CFG.POOL, convolution jobs): once C (the CHW output, M channels of
// N = OH x OUT_W bytes, LDC apart) is written, the accelerator reads it back and writes its 2x2
// stride-2 max or average pool, floor(OH/2) x floor(OUT_W/2) per channel, dense, at pool::out:
// ctnn::ref::max_pool2d / avg_pool2d_s8 (no padding) exactly. An int32 C or a GEMM job stops
// with ERR_CAUSE POOL.
//
// Depthwise (job::dw with job::conv, CFG.DW): the depthwise unit runs M channels in one job:
//   C[m][oy][ox] = requant(sum over ky, kx of (A[m][ky*KW + kx] - a_zp') * (x[m][iy][ix] - b_zp') + bias[m])
// with K = KH x KW, A's rows LDA apart, the input's channels cstride apart, one bias, multiplier and
// shift per channel (M entries, row_params off), int8 C only, KH, KW at most DWCFG.KMAX, SW at most
// DWCFG.SMAX and W at most DWCFG.LINE (else ERR_CAUSE DW): ctnn::ref::conv2d_s8 with groups =
// channels exactly.
//
// Addresses: Addr::of(pointer) gives the bus address the DMA uses (the pointer itself on the
// target; a host test maps its buffers into a 32-bit window).
//
// Freestanding: firmware includes this header, so it uses <stdint.h> and ctnn's own headers only.
#pragma once
#include <stdint.h>

#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/mmio/bus.hpp"
#include "ctnn/mmio/fence.hpp"
#include "ctnn/mmio/write.hpp"
#include "ctnn/regs/accel.hpp"

namespace ctnn::accel {

enum class result : uint8_t {
  ok,
  error,       ///< the accelerator stopped the job: the cause is in job_status::cause (ERR_CAUSE)
  timeout,     ///< still busy after the poll budget
  bad_value,   ///< a value of the job does not fit its register field: the job was not started
};

/// @brief The implicit im2col view of CFG.CONV (geometry of the CHW int8 tensor at job::b).
struct conv_view {
  uint32_t h = 0, w = 0;       ///< input height and width
  uint32_t cstride = 0;        ///< bytes from one input channel to the next (h * w when dense)
  uint32_t kh = 1, kw = 1;     ///< kernel
  uint32_t sh = 1, sw = 1;     ///< stride
  uint32_t out_w = 0;          ///< output width: column n of B is pixel (n / out_w, n % out_w)
  uint32_t pt = 0, pl = 0;     ///< top and left padding
};

/// @brief CFG.RES_ADD: the residual tensor (laid out as C) and the add's parameters (a = y, the
/// job's requantized result; b = r).
struct residual {
  const int8_t* r = nullptr;
  ctnn::ref::add_s8_params p{};
};

/// @brief CFG.POOL: the 2x2 stride-2 pool of a convolution job's C, written densely at out.
struct pool {
  enum class kind : uint8_t { max, avg };
  kind k = kind::max;
  int8_t* out = nullptr;
};

/// @brief One job: a GEMM, or a convolution when conv is set. Strides in elements of their matrix (bytes for A and B, elements of C).
struct job {
  int m = 0, n = 0, k = 0;
  const int8_t* a = nullptr;
  int lda = 0;
  const int8_t* b = nullptr;
  int ldb = 0;
  void* c = nullptr;               ///< int8_t (requantized) or int32_t (out_raw)
  int ldc = 0;
  const int32_t* bias = nullptr;   ///< N entries, or nullptr
  bool out_raw = false;            ///< int32 accumulators + bias, no requantization
  ctnn::ref::gemm_s8_params q{};   ///< zero points, requantization, clamp (as ctnn::ref::gemm_s8)
  bool row_params = false;         ///< bias, multiplier, shift: one entry per row of C (M entries)
  const conv_view* conv = nullptr; ///< non-null: B is this implicit im2col of the tensor at b (ldb unused)
  const residual* res = nullptr;   ///< non-null: C = add_s8_one(requantized result, R) (CFG.RES_ADD)
  const pool* pl = nullptr;        ///< non-null: C is then pooled to pl->out (CFG.POOL)
  bool dw = false;                 ///< with conv: depthwise, channel m of C from channel m of B and row m of A (CFG.DW)
};

struct job_status {
  result res = result::ok;
  uint32_t cause = 0;    ///< ERR_CAUSE.CODE when res == error
  uint32_t cycles = 0;   ///< CYCLES: accelerator cycles from start to done
  uint32_t macs = 0;     ///< MACS: multiply-accumulates done
};

inline uint32_t address_of(const void* p) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p)); }

/// The target's address map: a pointer is its bus address.
struct direct_address {
  static uint32_t of(const void* p) { return address_of(p); }
};

/// ERR_CAUSE.CODE names, generated from the field's values in fpga/regs/ctnn.toml.
inline const char* cause_name(uint32_t code) { return ctnn::regs::accel::err_cause::code::name_of(code); }

/// True when a word read from the ID register carries the accelerator's magic number.
inline bool is_accel_id(uint32_t id_word) {
  return ctnn::regs::accel::id::magic::get(id_word) == ctnn::regs::accel::id::magic::reset;
}

template <ctnn::mmio::bus Bus = ctnn::mmio::volatile_bus, class Addr = direct_address>
struct driver {
  /// True when the identification register reads the accelerator's magic number (the register
  /// must exist: on a machine without the device, probe the address first, see is_accel_id).
  static bool present() { return is_accel_id(ctnn::mmio::read<Bus, ctnn::regs::accel::id>()); }

  /// PE array side, largest K and rows of a CFG.ROW_PARAMS job of this instance (HWCFG).
  static uint32_t dim() { return ctnn::mmio::read<Bus, ctnn::regs::accel::hwcfg::dim>(); }
  static uint32_t k_max() { return uint32_t{1} << ctnn::mmio::read<Bus, ctnn::regs::accel::hwcfg::log2_kmax>(); }
  static uint32_t max_row_params() { return 2u * ctnn::mmio::read<Bus, ctnn::regs::accel::hwcfg::block_cols>(); }
  /// Largest kernel side, input width and horizontal stride of a depthwise (CFG.DW) job (DWCFG).
  static uint32_t dw_kmax() { return ctnn::mmio::read<Bus, ctnn::regs::accel::dwcfg::kmax>(); }
  static uint32_t dw_line() { return ctnn::mmio::read<Bus, ctnn::regs::accel::dwcfg::line>(); }
  static uint32_t dw_smax() { return ctnn::mmio::read<Bus, ctnn::regs::accel::dwcfg::smax>(); }

  /// Runs g and waits at most max_polls status reads for it. A value that does not fit its
  /// register field (a negative or too large size, stride, zero point, ...) is not cut to the
  /// field's bits: the job is not started and the result is bad_value.
  static job_status run(const job& g, uint32_t max_polls) {
    if (program(g) != result::ok) {
      job_status refused;
      refused.res = result::bad_value;
      return refused;
    }
    start();
    return wait(max_polls);
  }

  /// Writes g's registers without starting it: ok, or bad_value when a value does not fit its
  /// field (nothing to start then; registers written before the refusal hold g's values). The
  /// accelerator takes a snapshot of its registers on START (ctnn_accel_ctrl), so the next job may
  /// be programmed while one runs: program(next), wait() for the running one, then start().
  static result program(const job& g) {
    namespace r = ctnn::regs::accel;
    using ctnn::mmio::write;
    const uint32_t elem = g.out_raw ? 4u : 1u;
    const bool per_channel = g.q.per_channel && !g.out_raw;
    bool fit = true;   // each write below writes nothing unless its values fit (write_status)
    fit = static_cast<bool>(write<Bus>(r::m::value::from(g.m))) && fit;
    fit = static_cast<bool>(write<Bus>(r::n::value::from(g.n))) && fit;
    fit = static_cast<bool>(write<Bus>(r::k::value::from(g.k))) && fit;
    fit = static_cast<bool>(write<Bus>(r::a_addr::value::from(Addr::of(g.a)))) && fit;
    fit = static_cast<bool>(write<Bus>(r::b_addr::value::from(Addr::of(g.b)))) && fit;
    fit = static_cast<bool>(write<Bus>(r::c_addr::value::from(Addr::of(g.c)))) && fit;
    fit = static_cast<bool>(write<Bus>(r::lda::value::from(g.lda))) && fit;
    fit = static_cast<bool>(write<Bus>(r::ldb::value::from(g.ldb))) && fit;
    fit = static_cast<bool>(write<Bus>(r::ldc::value::from(static_cast<int64_t>(g.ldc) * elem))) && fit;
    // every CFG field in one store: a bit left from the previous job (CONV, ROW_PARAMS) must not stay
    const uint32_t pool_mode = g.pl == nullptr             ? uint32_t{r::cfg::pool::none}
                               : g.pl->k == pool::kind::avg ? uint32_t{r::cfg::pool::avg}
                                                            : uint32_t{r::cfg::pool::max};
    fit = static_cast<bool>(write<Bus>(r::cfg::out_raw::from(g.out_raw), r::cfg::relu{0u},
                                       r::cfg::per_channel::from(per_channel), r::cfg::bias_en::from(g.bias != nullptr),
                                       r::cfg::conv::from(g.conv != nullptr),
                                       r::cfg::row_params::from(g.row_params),
                                       r::cfg::res_add::from(g.res != nullptr), r::cfg::pool::from(pool_mode),
                                       r::cfg::dw::from(g.dw))) &&
          fit;
    static_assert(ctnn::mmio::single_store<r::cfg::out_raw, r::cfg::relu, r::cfg::per_channel, r::cfg::bias_en,
                                           r::cfg::conv, r::cfg::row_params, r::cfg::res_add, r::cfg::pool,
                                           r::cfg::dw>);
    if (g.pl != nullptr) fit = static_cast<bool>(write<Bus>(r::pool_addr::value::from(Addr::of(g.pl->out)))) && fit;
    if (g.res != nullptr) {
      const ctnn::ref::add_s8_params& p = g.res->p;
      fit = static_cast<bool>(write<Bus>(r::res_addr::value::from(Addr::of(g.res->r)))) && fit;
      fit = static_cast<bool>(write<Bus>(r::res_zp::y_zp::from(p.a_zp), r::res_zp::r_zp::from(p.b_zp),
                                         r::res_zp::out_zp::from(p.out_zp),
                                         r::res_zp::left_shift::from(p.left_shift))) &&
            fit;
      fit = static_cast<bool>(write<Bus>(r::res_clamp::act_min::from(p.act_min),
                                         r::res_clamp::act_max::from(p.act_max))) &&
            fit;
      fit = static_cast<bool>(write<Bus>(r::res_mult_y::value::from(p.a.multiplier))) && fit;
      fit = static_cast<bool>(write<Bus>(r::res_mult_r::value::from(p.b.multiplier))) && fit;
      fit = static_cast<bool>(write<Bus>(r::res_mult_out::value::from(p.out.multiplier))) && fit;
      fit = static_cast<bool>(write<Bus>(r::res_shift::y::from(p.a.shift), r::res_shift::r::from(p.b.shift),
                                         r::res_shift::out::from(p.out.shift))) &&
            fit;
    }
    if (g.conv != nullptr) {
      const conv_view& v = *g.conv;
      fit = static_cast<bool>(write<Bus>(r::conv_in::h::from(v.h), r::conv_in::w::from(v.w))) && fit;
      fit = static_cast<bool>(write<Bus>(r::conv_cstride::value::from(v.cstride))) && fit;
      fit = static_cast<bool>(write<Bus>(r::conv_kernel::kh::from(v.kh), r::conv_kernel::kw::from(v.kw),
                                         r::conv_kernel::sh::from(v.sh), r::conv_kernel::sw::from(v.sw))) &&
            fit;
      fit = static_cast<bool>(write<Bus>(r::conv_out::out_w::from(v.out_w), r::conv_out::pt::from(v.pt),
                                         r::conv_out::pl::from(v.pl))) &&
            fit;
    }
    if (g.bias != nullptr) fit = static_cast<bool>(write<Bus>(r::bias_addr::value::from(Addr::of(g.bias)))) && fit;
    fit = static_cast<bool>(write<Bus>(r::zp::a_zp::from(g.q.a_zp), r::zp::b_zp::from(g.q.b_zp),
                                       r::zp::out_zp::from(g.q.out_zp))) &&
          fit;
    if (!g.out_raw) {
      fit = static_cast<bool>(write<Bus>(r::clamp::act_min::from(g.q.act_min), r::clamp::act_max::from(g.q.act_max))) &&
            fit;
      fit = write_requant(g) && fit;
    }
    return fit ? result::ok : result::bad_value;
  }

  /// Programs g when the registers hold the job programmed last (by program() or this) and g
  /// differs from it only in M and its addresses (A, B, C, bias, multipliers and shifts, R, the
  /// pooled output): the next row block or group of one leaf. Writes those registers only: about a
  /// third of program()'s stores, so a leaf of many short jobs (a depthwise convolution's one job
  /// per channel) is not bound by their programming. ok, or bad_value as program().
  static result program_moved(const job& g) {
    namespace r = ctnn::regs::accel;
    using ctnn::mmio::write;
    bool fit = true;
    fit = static_cast<bool>(write<Bus>(r::m::value::from(g.m))) && fit;
    fit = static_cast<bool>(write<Bus>(r::a_addr::value::from(Addr::of(g.a)))) && fit;
    fit = static_cast<bool>(write<Bus>(r::b_addr::value::from(Addr::of(g.b)))) && fit;
    fit = static_cast<bool>(write<Bus>(r::c_addr::value::from(Addr::of(g.c)))) && fit;
    if (g.pl != nullptr) fit = static_cast<bool>(write<Bus>(r::pool_addr::value::from(Addr::of(g.pl->out)))) && fit;
    if (g.res != nullptr) fit = static_cast<bool>(write<Bus>(r::res_addr::value::from(Addr::of(g.res->r)))) && fit;
    if (g.bias != nullptr) fit = static_cast<bool>(write<Bus>(r::bias_addr::value::from(Addr::of(g.bias)))) && fit;
    if (!g.out_raw) fit = write_requant(g) && fit;
    return fit ? result::ok : result::bad_value;
  }

  /// The requantization of an int8 job: the per-channel vectors' addresses, or the per-tensor
  /// multiplier and shift. False when a value does not fit its field.
  static bool write_requant(const job& g) {
    namespace r = ctnn::regs::accel;
    using ctnn::mmio::write;
    bool fit = true;
    if (g.q.per_channel) {
      fit = static_cast<bool>(write<Bus>(r::mult_addr::value::from(Addr::of(g.q.multiplier)))) && fit;
      fit = static_cast<bool>(write<Bus>(r::shift_addr::value::from(Addr::of(g.q.shift)))) && fit;
    } else {
      fit = static_cast<bool>(write<Bus>(r::mult::value::from(g.q.multiplier[0]))) && fit;
      fit = static_cast<bool>(write<Bus>(r::shift::value::from(g.q.shift[0]))) && fit;
    }
    return fit;
  }

  /// Starts the programmed job. The previous job must have ended (wait()): a START while busy
  /// stops the new job with ERR_CAUSE 2.
  static void start() {
    namespace r = ctnn::regs::accel;
    using ctnn::mmio::write;
    write<Bus>(r::status::done{1u}, r::status::error{1u});   // w1c: forget the last job
    ctnn::mmio::fence_before_dma_start();   // A, B, bias, params and the registers before the start
    write<Bus>(r::ctrl::start{1u});
  }

  /// Waits at most max_polls status reads for the started job to end; its status and counters.
  static job_status wait(uint32_t max_polls) {
    namespace r = ctnn::regs::accel;
    // The job has ended when DONE or ERROR is set. Not when BUSY reads 0:
    // BUSY rises a cycle or two after the START write and falls one cycle before DONE or ERROR is
    // set, so a read in either gap saw an idle accelerator and took a refused job for a finished one.
    job_status s;
    uint32_t st = 0;
    uint32_t polls = 0;
    const auto ended = [](uint32_t status) {
      return r::status::done::get(status) != 0u || r::status::error::get(status) != 0u;
    };
    do {
      st = ctnn::mmio::read<Bus, r::status>();
    } while (!ended(st) && ++polls < max_polls);
    ctnn::mmio::fence_after_dma_done();     // C is read (and A, B reused) after the status said done
    if (!ended(st)) {
      s.res = result::timeout;
    } else if (r::status::error::get(st) != 0u) {
      s.res = result::error;
      s.cause = ctnn::mmio::read<Bus, r::err_cause::code>();
    }
    s.cycles = ctnn::mmio::read<Bus, r::cycles::value>();
    s.macs = ctnn::mmio::read<Bus, r::macs::value>();
    return s;
  }
};

}  // namespace ctnn::accel
