// The accelerator as an offload hook of ctnn::runtime::run (int8): conv2d and linear leaves run on
// the GEMM accelerator, every other leaf declines to the CPU kernels.
//
//   conv2d, per group g (M = Cout/groups rows of C, one per output channel):
//     A = OIHW weights of g's output channels   M x K, K = Cin/groups * KH * KW, LDA = K
//     B = implicit im2col (CFG.CONV) of g's input channels at in + g * Cin/groups * H * W
//     C = out + g * M * OH * OW                  M x N, N = OH * OW, LDC = N
//     bias, multiplier, shift: one per row (CFG.ROW_PARAMS), M cut into jobs of at most
//     2 x HWCFG.BLOCK_COLS rows
//   linear: the same with H = W = KH = KW = 1, N = 1 (A = W[out][in], B = the input vector)
//
// Fused with the next add (offload_fused, runtime::fused_offload_hook): a conv2d or linear leaf
// whose output only the next leaf, an int8 add, reads runs as the same jobs with CFG.RES_ADD:
// C = the add's output, R = the add's other input at the same offsets, the add's parameters
// made as the CPU's add leaf makes them (ctnn::ref::make_add_s8_params, its fused activation),
// so the add's output is bit-exact with the two leaves run one after the other.
//
// Jobs are pipelined inside a leaf (a conv's row blocks and groups: a depthwise conv is a job per
// channel): the next job's registers are written while the current job runs, the device taking a
// snapshot of them on START (driver::program / start / wait); a leaf returns when its last job ended.
//
// Declined (the CPU runs them): dilated convolutions, K above 2^HWCFG.LOG2_KMAX, geometry that
// does not fit the N and CONV_* fields (F::fits: their range, generated from fpga/regs/ctnn.toml).
// A job that stops on ERROR or does not finish within its poll budget fails the leaf: run() returns
// fault::offload with failure_error | ERR_CAUSE or failure_timeout in run_status::detail, and
// `failure` keeps the job's status.
#pragma once
#include <stdint.h>

#include "ctnn/accel/driver.hpp"
#include "ctnn/runtime/executor.hpp"

namespace ctnn::accel {

/// run_status::detail of a failed leaf: failure_error | ERR_CAUSE.CODE, failure_timeout, or
/// failure_bad_value (a job value did not fit its register field: the driver did not start it).
inline constexpr uint32_t failure_error = 0x100;
inline constexpr uint32_t failure_timeout = 0x200;
inline constexpr uint32_t failure_bad_value = 0x300;

/// @brief The offload hook. Call init() once (it reads HWCFG) before handing it to run().
template <ctnn::mmio::bus Bus = ctnn::mmio::volatile_bus, class Addr = direct_address>
struct offloader {
  using drv = driver<Bus, Addr>;
  using leaf = ctnn::runtime::leaf_call<int8_t>;
  using result_type = ctnn::runtime::offload_result;

  uint32_t k_max = 0;            ///< HWCFG: largest K
  uint32_t max_rows = 0;         ///< HWCFG: largest M of a ROW_PARAMS job
  uint32_t poll_base = 100'000;  ///< poll budget of a job: poll_base + polls_per_mac * MACs
  uint32_t polls_per_mac = 2;
  // counters since the last clear_counters()
  uint32_t jobs = 0;             ///< jobs run
  uint32_t leaves = 0;           ///< leaves taken (a fused pair counts two)
  uint32_t fused = 0;            ///< conv2d/linear + add pairs run as one set of jobs
  uint64_t device_cycles = 0;    ///< CYCLES of the jobs, summed
  uint64_t macs = 0;             ///< MACS of the jobs, summed
  job_status failure{};          ///< the status of the job that failed a leaf

  void init() {
    k_max = drv::k_max();
    max_rows = drv::max_row_params();
  }
  void clear_counters() {
    jobs = leaves = fused = 0;
    device_cycles = macs = 0;
    failure = {};
  }

  result_type offload(const leaf& c) {
    const ctnn::row& r = *c.r;
    if (r.kind == ctnn::op::conv2d) return conv(c, c.out, nullptr);
    if (r.kind == ctnn::op::linear) return linear(c, c.out, nullptr);
    return result_type::declined();
  }

  /// The producer c (conv2d or linear) and the add that reads its output, as one set of jobs.
  result_type offload_fused(const leaf& c, const leaf& add) {
    const ctnn::row& ar = *add.r;
    if (ar.kind != ctnn::op::add || ar.n_inputs != 2) return result_type::declined();
    const bool y_first = ar.inputs[0] == c.r->output;
    if (!y_first && ar.inputs[1] != c.r->output) return result_type::declined();
    // the add leaf's parameters, made as op_def<op::add> makes them (a = input 0, b = input 1)
    const ctnn::runtime::act_range act = ctnn::runtime::fused_range(ar, add.q_out);
    ctnn::ref::add_s8_params p{};
    if (ctnn::ref::make_add_s8_params(p, add.q_in[0].scale, add.q_in[0].zero_point, add.q_in[1].scale,
                                      add.q_in[1].zero_point, add.q_out.scale, add.q_out.zero_point, act.min,
                                      act.max) != ctnn::kernels::status::ok)
      return result_type::declined();
    res_.p = p;
    if (!y_first) {  // the device's first input is y: swap (the sum is symmetric)
      res_.p.a_zp = p.b_zp;
      res_.p.b_zp = p.a_zp;
      res_.p.a = p.b;
      res_.p.b = p.a;
    }
    const int8_t* r = add.in[y_first ? 1 : 0];
    const result_type o = c.r->kind == ctnn::op::conv2d ? conv(c, add.out, r)
                          : c.r->kind == ctnn::op::linear ? linear(c, add.out, r)
                                                          : result_type::declined();
    if (o.v == result_type::verdict::done) {
      ++leaves;   // the add
      ++fused;
    }
    return o;
  }

 private:
  residual res_{};               ///< the residual of the fused job being started (offload_fused)

  bool inflight_ = false;         ///< a started job whose end has not been waited for
  uint32_t inflight_polls_ = 0;  ///< its poll budget

  /// Waits for the job in flight (if any): its counters, and failed() when it did not end well.
  result_type finish() {
    if (!inflight_) return result_type::done();
    inflight_ = false;
    const job_status s = drv::wait(inflight_polls_);
    device_cycles += s.cycles;
    macs += s.macs;
    if (s.res == result::ok) return result_type::done();
    failure = s;
    return result_type::failed(s.res == result::timeout ? failure_timeout : failure_error | s.cause);
  }

  /// Programs j while the job in flight runs (the device snapshots its registers on START), then
  /// waits for that job and starts j: the CPU's register writes overlap the previous job.
  result_type issue(const job& j) {
    const uint64_t job_macs = static_cast<uint64_t>(j.m) * static_cast<uint64_t>(j.n) * static_cast<uint64_t>(j.k);
    const uint64_t polls = poll_base + polls_per_mac * job_macs;
    const result programmed = drv::program(j);
    const result_type previous = finish();
    if (previous.v != result_type::verdict::done) return previous;
    if (programmed != result::ok) {
      failure = job_status{};
      failure.res = result::bad_value;
      return result_type::failed(failure_bad_value);
    }
    drv::start();
    ++jobs;
    inflight_ = true;
    inflight_polls_ = polls > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<uint32_t>(polls);
    return result_type::done();
  }

  /// Issues the rows [0, m) of one GEMM in jobs of at most max_rows rows; the last one may still
  /// run on return (the leaf ends with finish()).
  /// r: the residual of C's element 0 (R laid out as C; the add's parameters in res_), or nullptr.
  result_type rows(job j, int64_t m, const int8_t* a, int8_t* out, const int32_t* bias, const int32_t* mult,
                   const int32_t* shift, const int8_t* r) {
    for (int64_t m0 = 0; m0 < m; m0 += max_rows) {
      const int64_t rows_here = m - m0 < max_rows ? m - m0 : max_rows;
      j.m = static_cast<int>(rows_here);
      j.a = a + m0 * j.lda;
      j.c = out + m0 * j.ldc;
      if (r != nullptr) {
        res_.r = r + m0 * j.ldc;
        j.res = &res_;
      }
      j.bias = bias != nullptr ? bias + m0 : nullptr;
      j.q.multiplier = mult + m0;
      j.q.shift = shift + m0;
      const result_type o = issue(j);
      if (o.v != result_type::verdict::done) return o;
    }
    return result_type::done();
  }

  static job base_job(const leaf& c, int64_t k, int64_t n, int64_t ldc) {
    job j;
    j.n = static_cast<int>(n);
    j.k = static_cast<int>(k);
    j.lda = static_cast<int>(k);
    j.ldb = static_cast<int>((n + 3) & ~int64_t{3});  // unused in CONV mode; a valid stride anyway
    j.ldc = static_cast<int>(ldc);
    j.row_params = true;
    // A = weights (zero point 0), B = activations: the input's zero point; the output clamp of a
    // fused activation (the full int8 range without one)
    const ctnn::runtime::act_range act = ctnn::runtime::fused_range(*c.r, c.q_out);
    j.q = ctnn::ref::gemm_s8_params{0, c.q_in[0].zero_point, c.q_out.zero_point, nullptr, nullptr, true, act.min, act.max};
    return j;
  }

  /// out: C (the leaf's output, or a fused add's); res_r: the residual at out's offset 0, or nullptr.
  result_type conv(const leaf& c, int8_t* out, const int8_t* res_r) {
    const ctnn::row& r = *c.r;
    const ctnn::layer_geometry& g = r.geometry;
    // the op's GEMM view (op_def<op::conv2d>::gemm): per group M = Cout/groups, N = OH*OW, K = Cin/groups*KH*KW
    const int64_t groups = r.gemm.count;
    if (g.dilation.h != 1 || g.dilation.w != 1 || groups <= 0) return result_type::declined();
    const int64_t cin_g = r.in.c / groups, m = r.gemm.m, n = r.gemm.n, k = r.gemm.k;
    const int64_t plane = r.in.h * r.in.w;
    // every value must fit the register field it is written to (generated maxima of ctnn.toml)
    namespace f = ctnn::regs::accel;
    if (k > static_cast<int64_t>(k_max) || !f::n::value::fits(n) || !f::conv_in::h::fits(r.in.h) ||
        !f::conv_in::w::fits(r.in.w) || !f::conv_cstride::value::fits(plane) || !f::conv_kernel::kh::fits(g.kernel.h) ||
        !f::conv_kernel::kw::fits(g.kernel.w) || !f::conv_kernel::sh::fits(g.stride.h) ||
        !f::conv_kernel::sw::fits(g.stride.w) || !f::conv_out::pt::fits(g.padding.top) ||
        !f::conv_out::pl::fits(g.padding.left) || !f::conv_out::out_w::fits(r.out.w) || max_rows == 0 ||
        c.multipliers() == nullptr || c.shifts() == nullptr)
      return result_type::declined();
    conv_view v;
    v.h = static_cast<uint32_t>(r.in.h);
    v.w = static_cast<uint32_t>(r.in.w);
    v.cstride = static_cast<uint32_t>(plane);
    v.kh = static_cast<uint32_t>(g.kernel.h);
    v.kw = static_cast<uint32_t>(g.kernel.w);
    v.sh = static_cast<uint32_t>(g.stride.h);
    v.sw = static_cast<uint32_t>(g.stride.w);
    v.out_w = static_cast<uint32_t>(r.out.w);
    v.pt = static_cast<uint32_t>(g.padding.top);
    v.pl = static_cast<uint32_t>(g.padding.left);
    job j = base_job(c, k, n, n);
    j.conv = &v;
    ++leaves;
    for (int64_t grp = 0; grp < groups; ++grp) {
      const int64_t ch = grp * m;  // first output channel of the group
      j.b = c.in[0] + grp * cin_g * plane;
      const result_type o = rows(j, m, c.weights() + ch * k, out + ch * n, c.bias() != nullptr ? c.bias() + ch : nullptr,
                                 c.multipliers() + ch, c.shifts() + ch, res_r != nullptr ? res_r + ch * n : nullptr);
      if (o.v != result_type::verdict::done) return o;   // issue() failed after its finish(): none in flight
    }
    return finish();
  }

  result_type linear(const leaf& c, int8_t* out, const int8_t* res_r) {
    const ctnn::row& r = *c.r;
    const int64_t k = r.gemm.k, m = r.gemm.m;  // the op's GEMM view: M = out features, N = 1, K = in elements
    if (k > static_cast<int64_t>(k_max) || max_rows == 0 || c.multipliers() == nullptr || c.shifts() == nullptr)
      return result_type::declined();
    conv_view v;  // the input vector as a 1x1 image of K channels, one output pixel
    v.h = v.w = 1;
    v.cstride = 1;
    v.out_w = 1;
    job j = base_job(c, k, 1, 1);
    j.conv = &v;
    j.b = c.in[0];
    ++leaves;
    const result_type o = rows(j, m, c.weights(), out, c.bias(), c.multipliers(), c.shifts(), res_r);
    return o.v != result_type::verdict::done ? o : finish();
  }
};

/// @brief The offloader for an image that runs conv2d and linear only on the accelerator: the
/// executor compiles no CPU kernel of those kinds (runtime::detail::owned_kinds), and a leaf the
/// accelerator cannot take stops the run with fault::unsupported instead of falling back.
template <ctnn::mmio::bus Bus = ctnn::mmio::volatile_bus, class Addr = direct_address>
struct owning_offloader : offloader<Bus, Addr> {
  static constexpr uint64_t owned_kinds =
      ctnn::kind_bit(ctnn::op::conv2d) | ctnn::kind_bit(ctnn::op::linear);
};

}  // namespace ctnn::accel
