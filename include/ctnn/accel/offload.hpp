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
//   depthwise conv2d (one input and one output channel per group, KH and KW within DWCFG.KMAX,
//     SW within DWCFG.SMAX, W within DWCFG.LINE, nothing fused but a clamp): one CFG.DW job for
//     all its channels
//     (M = channels, K = KH * KW, the per-channel vectors as they are)
//
// Fused with the leaves after it (offload_fused, runtime::fused_offload_hook, the chain that
// runtime::fusion_of picks), the same jobs finish them, bit-exact with the leaves run one by one:
//   ReLU / ReLU6 / Clamp  the jobs' output clamp narrowed to the leaf's (runtime::as_clamp: one
//                         quantization in and out, else declined)
//   add (+ its clamp)     CFG.RES_ADD: C = the add's output, R = its other input at the same
//                         offsets, its parameters made as the CPU's add leaf makes them
//                         (ctnn::ref::make_add_s8_params, its fused activation and a following
//                         ReLU-like leaf's clamp)
//   2x2/2 max/avg pool    CFG.POOL (conv2d): C = the pool's input, the pooled planes of a row
//                         block's channels written at the pool's output (one quantization in
//                         and out, as the CPU's pool leaf requires, else declined)
//
// Jobs are pipelined inside a leaf and across leaves (a conv's row blocks and groups: a depthwise
// conv the depthwise unit cannot take is a job per channel; then the next offloaded leaf's first
// job): the next job's registers are written while the current job runs, the device taking a
// snapshot of them on START (driver::program / start / wait). A leaf returns when its last job has
// started, not ended: the executor calls settle() (wait for the job in flight) before the CPU
// touches the arena again (a CPU leaf, the layer callback, the end of the run). The device runs one
// job at a time, in order, so a job always sees its predecessors' outputs, and a buffer the arena
// plan reuses is written only after the job that read it ended. A failure that shows after its
// leaf returned (in the next leaf's first issue or in settle()) names the leaf of the failed job
// (failed_leaf()).
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
  uint32_t dw_kmax = 0;          ///< DWCFG: largest kernel side of a CFG.DW job
  uint32_t dw_line = 0;          ///< DWCFG: largest input width of a CFG.DW job
  uint32_t dw_smax = 0;          ///< DWCFG: largest horizontal stride of a CFG.DW job
  uint32_t poll_base = 100'000;  ///< poll budget of a job: poll_base + polls_per_mac * MACs
  uint32_t polls_per_mac = 2;
  // counters since the last clear_counters()
  uint32_t jobs = 0;             ///< jobs run
  uint32_t leaves = 0;           ///< leaves taken (a fused pair counts two)
  uint32_t fused = 0;            ///< leaves run inside a conv2d/linear leaf's jobs (clamp, add, pool)
  uint64_t device_cycles = 0;    ///< CYCLES of the jobs, summed
  uint64_t macs = 0;             ///< MACS of the jobs, summed
  job_status failure{};          ///< the status of the job that failed a leaf

  void init() {
    k_max = drv::k_max();
    max_rows = drv::max_row_params();
    dw_kmax = drv::dw_kmax();
    dw_line = drv::dw_line();
    dw_smax = drv::dw_smax();
  }
  void clear_counters() {
    jobs = leaves = fused = 0;
    device_cycles = macs = 0;
    failure = {};
    failed_leaf_ = -1;
  }

  /// Waits for the job still in flight (a leaf returns with its last job started): done, or
  /// failed as the leaf would have failed. The executor calls it before the CPU reads or writes
  /// the arena (runtime::run_with).
  result_type settle() { return finish(); }

  /// The leaf whose job failed (the executor names it in run_status::leaf): the leaf that issued
  /// the job that stopped on ERROR or timed out, which may be a leaf before the one being run.
  int32_t failed_leaf() const { return failed_leaf_; }

  /// One leaf. Roles (runtime::fusion_roles, from the executor): without Roles::grouped the
  /// network has no grouped convolution and the depthwise path is not compiled.
  template <class Roles = ctnn::runtime::fusion_roles<true>>
  result_type offload(const leaf& c, Roles = {}) {
    const ctnn::row& r = *c.r;
    // the output clamp of a fused activation (the full int8 range without one); made only for
    // the kinds taken (float arithmetic: soft-float on the target)
    if (r.kind == ctnn::op::conv2d)
      return conv<Roles::grouped>(c, c.out, nullptr, ctnn::runtime::fused_range(r, c.q_out));
    if (r.kind == ctnn::op::linear) return linear(c, c.out, nullptr, ctnn::runtime::fused_range(r, c.q_out));
    return result_type::declined();
  }

  /// The producer chain[0] (conv2d or linear) and the leaves f places after it, as one set of jobs.
  /// Declined (before any job starts) when a leaf is not what its role needs. Roles
  /// (runtime::fusion_roles): without Roles::add a chain with an add is declined and the add's
  /// parameter code is not compiled.
  template <class Roles = ctnn::runtime::fusion_roles<true>>
  result_type offload_fused(const leaf* chain, const ctnn::runtime::fusion& f, Roles = {}) {
    using ctnn::runtime::act_range;
    const leaf& c = chain[0];
    act_range clamp = ctnn::runtime::fused_range(*c.r, c.q_out);
    if (f.clamp != 0 && !narrow(clamp, chain[f.clamp])) return result_type::declined();
    const int8_t* r = nullptr;
    if (f.add != 0) {
      if constexpr (!Roles::add) return result_type::declined();
      else {
        const leaf& add = chain[f.add];
        const ctnn::row& ar = *add.r;
        const int32_t y_tensor = chain[f.add - 1].r->output;
        const bool y_first = ar.inputs[0] == y_tensor;
        if (ar.kind != ctnn::op::add || ar.n_inputs != 2 || (!y_first && ar.inputs[1] != y_tensor))
          return result_type::declined();
        // the add leaf's parameters, made as op_def<op::add> makes them (a = input 0, b = input 1)
        act_range act = ctnn::runtime::fused_range(ar, add.q_out);
        if (f.add_clamp != 0 && !narrow(act, chain[f.add_clamp])) return result_type::declined();
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
        r = add.in[y_first ? 1 : 0];
      }
    }
    pool_out_ = nullptr;
    if (f.pool != 0) {
      const leaf& pl = chain[f.pool];
      if (c.r->kind != ctnn::op::conv2d || !ctnn::runtime::pool_2x2_kind(*pl.r) ||
          pl.q_in[0].scale != pl.q_out.scale || pl.q_in[0].zero_point != pl.q_out.zero_point)
        return result_type::declined();
      // a job pools after its last read of B and R: the pooled output may take their place unless
      // a later job (another group or row block) still reads them
      if (c.r->gemm.count > 1 || c.r->gemm.m > static_cast<int64_t>(max_rows)) {
        using span = ctnn::runtime::detail::arena_span<int8_t>;
        const span ps = span::output(pl);
        bool apart = true;
        for (int32_t k = 0; k < c.r->n_inputs; ++k) apart = apart && ps.apart(span::input(c, k));
        if (f.add != 0) apart = apart && ps.apart(span::input(chain[f.add], 0)) && ps.apart(span::input(chain[f.add], 1));
        if (!apart) return result_type::declined();
      }
      pool_.k = pl.r->kind == ctnn::op::avg_pool2d ? pool::kind::avg : pool::kind::max;
      pool_out_ = pl.out;
      pool_plane_ = pl.r->out.h * pl.r->out.w;
    }
    int8_t* out = chain[f.c_at()].out;
    const result_type o = c.r->kind == ctnn::op::conv2d ? conv<Roles::grouped>(c, out, r, clamp)
                          : c.r->kind == ctnn::op::linear ? linear(c, out, r, clamp)
                                                          : result_type::declined();
    pool_out_ = nullptr;
    if (o.v == result_type::verdict::done) {
      leaves += static_cast<uint32_t>(f.count);
      fused += static_cast<uint32_t>(f.count);
    }
    return o;
  }

 private:
  job job_{};                    ///< the job of the leaf being issued (base_job)
  conv_view view_{};             ///< its convolution view (conv, linear)
  residual res_{};               ///< the residual of the fused job being started (offload_fused)
  pool pool_{};                  ///< the pool of the fused job being started ...
  int8_t* pool_out_ = nullptr;   ///< ... its output (nullptr: no pool) ...
  int64_t pool_plane_ = 0;       ///< ... and its bytes per channel

  /// a narrowed to the clamp of leaf l (a ReLU-like leaf, runtime::as_clamp); false if l is none
  /// or the two ranges do not meet.
  static bool narrow(ctnn::runtime::act_range& a, const leaf& l) {
    ctnn::runtime::act_range b;
    if (!ctnn::runtime::as_clamp(l, b)) return false;
    a.min = a.min > b.min ? a.min : b.min;
    a.max = a.max < b.max ? a.max : b.max;
    return a.min <= a.max;
  }

  bool programmed_ = false;      ///< the registers hold a job of the current leaf (program_moved)
  bool inflight_ = false;         ///< a started job whose end has not been waited for
  uint32_t inflight_polls_ = 0;  ///< its poll budget
  int32_t inflight_leaf_ = -1;   ///< the leaf that started it
  int32_t leaf_ = -1;            ///< the leaf being issued
  int32_t failed_leaf_ = -1;     ///< the leaf of the job that failed (failure)

  /// Waits for the job in flight (if any): its counters, and failed() when it did not end well.
  result_type finish() {
    if (!inflight_) return result_type::done();
    inflight_ = false;
    const job_status s = drv::wait(inflight_polls_);
    device_cycles += s.cycles;
    macs += s.macs;
    if (s.res == result::ok) return result_type::done();
    failure = s;
    failed_leaf_ = inflight_leaf_;
    return result_type::failed(s.res == result::timeout ? failure_timeout : failure_error | s.cause);
  }

  /// Programs j while the job in flight runs (the device snapshots its registers on START), then
  /// waits for that job and starts j: the CPU's register writes overlap the previous job.
  result_type issue(const job& j) {
    const uint64_t job_macs = static_cast<uint64_t>(j.m) * static_cast<uint64_t>(j.n) * static_cast<uint64_t>(j.k);
    const uint64_t polls = poll_base + polls_per_mac * job_macs;
    // the leaf's first job: every register; the next ones differ in M and addresses only
    const result programmed = programmed_ ? drv::program_moved(j) : drv::program(j);
    programmed_ = programmed == result::ok;
    const result_type previous = finish();
    if (previous.v != result_type::verdict::done) return previous;
    if (programmed != result::ok) {
      failure = job_status{};
      failure.res = result::bad_value;
      failed_leaf_ = leaf_;
      return result_type::failed(failure_bad_value);
    }
    drv::start();
    ++jobs;
    inflight_ = true;
    inflight_leaf_ = leaf_;
    inflight_polls_ = polls > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<uint32_t>(polls);
    return result_type::done();
  }

  /// Issues the rows [0, m) of one GEMM in jobs of at most max_rows rows; the last one may still
  /// run on return (the next leaf's first issue(), or settle(), waits for it).
  /// r: the residual of C's element 0 (R laid out as C; the add's parameters in res_), or nullptr.
  /// pooled: the pool's output of row 0 (pool_plane_ bytes per row, the kind in pool_), or nullptr.
  /// j is the caller's (its M, A, C, vectors, residual and pool change): no copy of it per leaf.
  result_type rows(job& j, int64_t m, const int8_t* a, int8_t* out, const int32_t* bias, const int32_t* mult,
                   const int32_t* shift, const int8_t* r, int8_t* pooled) {
    for (int64_t m0 = 0; m0 < m; m0 += max_rows) {
      const int64_t rows_here = m - m0 < max_rows ? m - m0 : max_rows;
      j.m = static_cast<int>(rows_here);
      j.a = a + m0 * j.lda;
      j.c = out + m0 * j.ldc;
      if (r != nullptr) {
        res_.r = r + m0 * j.ldc;
        j.res = &res_;
      }
      if (pooled != nullptr) {
        pool_.out = pooled + m0 * pool_plane_;
        j.pl = &pool_;
      }
      j.bias = bias != nullptr ? bias + m0 : nullptr;
      j.q.multiplier = mult + m0;
      j.q.shift = shift + m0;
      const result_type o = issue(j);
      if (o.v != result_type::verdict::done) return o;
    }
    return result_type::done();
  }

  /// clamp: the jobs' output clamp (the leaf's fused activation, narrowed by a fused ReLU-like leaf).
  /// The leaf's job is the offloader's job_, every field written here (no zeroed copy per leaf).
  job& base_job(const leaf& c, int64_t k, int64_t n, int64_t ldc, ctnn::runtime::act_range clamp) {
    job& j = job_;
    j.m = 0;
    j.n = static_cast<int>(n);
    j.k = static_cast<int>(k);
    j.a = nullptr;
    j.lda = static_cast<int>(k);
    j.b = nullptr;
    j.ldb = static_cast<int>((n + 3) & ~int64_t{3});  // unused in CONV mode; a valid stride anyway
    j.c = nullptr;
    j.ldc = static_cast<int>(ldc);
    j.bias = nullptr;
    j.out_raw = false;
    // A = weights (zero point 0), B = activations: the input's zero point
    j.q.a_zp = 0;
    j.q.b_zp = c.q_in[0].zero_point;
    j.q.out_zp = c.q_out.zero_point;
    j.q.multiplier = nullptr;
    j.q.shift = nullptr;
    j.q.per_channel = true;
    j.q.act_min = clamp.min;
    j.q.act_max = clamp.max;
    j.row_params = true;
    j.conv = nullptr;
    j.res = nullptr;
    j.pl = nullptr;
    j.dw = false;
    return j;
  }

  /// out: C (the leaf's output, or a fused leaf's); res_r: the residual at out's offset 0, or
  /// nullptr; the pool (pool_out_) when set. Grouped: the network may have a depthwise leaf (else
  /// the CFG.DW path is not compiled).
  template <bool Grouped>
  result_type conv(const leaf& c, int8_t* out, const int8_t* res_r, ctnn::runtime::act_range clamp) {
    const ctnn::row& r = *c.r;
    const ctnn::layer_geometry& g = r.geometry;
    // the op's GEMM view (op_def<op::conv2d>::gemm): per group M = Cout/groups, N = OH*OW, K = Cin/groups*KH*KW
    const int64_t groups = r.gemm.count;
    if (g.dilation.h != 1 || g.dilation.w != 1 || groups <= 0) return result_type::declined();
    // a 32-bit division (channel counts fit): on rv32 the 64-bit one is a __divdi3 call, ~190 cycles
    if (r.in.c > INT32_MAX || groups > INT32_MAX) return result_type::declined();
    const int64_t cin_g = static_cast<int32_t>(r.in.c) / static_cast<int32_t>(groups);
    const int64_t m = r.gemm.m, n = r.gemm.n, k = r.gemm.k;
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
    conv_view& v = view_;   // every field written: no default-initialized copy per leaf
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
    job& j = base_job(c, k, n, n, clamp);
    j.conv = &v;
    ++leaves;
    programmed_ = false;   // the leaf's first job programs every register
    leaf_ = c.index;
    if constexpr (Grouped) {
      if (cin_g == 1 && m == 1 && groups > 1 && res_r == nullptr && pool_out_ == nullptr &&
          g.kernel.h <= static_cast<int64_t>(dw_kmax) && g.kernel.w <= static_cast<int64_t>(dw_kmax) &&
          g.stride.w <= static_cast<int64_t>(dw_smax) && r.in.w <= static_cast<int64_t>(dw_line) &&
          f::m::value::fits(groups)) {
        // depthwise: one CFG.DW job for every channel, the vectors one entry per channel
        j.dw = true;
        j.row_params = false;
        j.m = static_cast<int>(groups);
        j.a = c.weights();
        j.b = c.in[0];
        j.c = out;
        j.bias = c.bias();
        j.q.multiplier = c.multipliers();
        j.q.shift = c.shifts();
        return issue(j);   // the job may still run: the next issue() or settle() waits for it
      }
    }
    for (int64_t grp = 0; grp < groups; ++grp) {
      const int64_t ch = grp * m;  // first output channel of the group
      j.b = c.in[0] + grp * cin_g * plane;
      const result_type o = rows(j, m, c.weights() + ch * k, out + ch * n, c.bias() != nullptr ? c.bias() + ch : nullptr,
                                 c.multipliers() + ch, c.shifts() + ch, res_r != nullptr ? res_r + ch * n : nullptr,
                                 pool_out_ != nullptr ? pool_out_ + ch * pool_plane_ : nullptr);
      if (o.v != result_type::verdict::done) return o;   // issue() failed after its finish(): none in flight
    }
    return result_type::done();   // the last job may still run: the next issue() or settle() waits for it
  }

  result_type linear(const leaf& c, int8_t* out, const int8_t* res_r, ctnn::runtime::act_range clamp) {
    const ctnn::row& r = *c.r;
    const int64_t k = r.gemm.k, m = r.gemm.m;  // the op's GEMM view: M = out features, N = 1, K = in elements
    if (k > static_cast<int64_t>(k_max) || max_rows == 0 || c.multipliers() == nullptr || c.shifts() == nullptr)
      return result_type::declined();
    conv_view& v = view_;  // the input vector as a 1x1 image of K channels, one output pixel
    v.h = v.w = 1;
    v.cstride = 1;
    v.kh = v.kw = 1;
    v.sh = v.sw = 1;
    v.out_w = 1;
    v.pt = v.pl = 0;
    job& j = base_job(c, k, 1, 1, clamp);
    j.conv = &v;
    j.b = c.in[0];
    ++leaves;
    programmed_ = false;   // the leaf's first job programs every register
    leaf_ = c.index;
    return rows(j, m, c.weights(), out, c.bias(), c.multipliers(), c.shifts(), res_r, nullptr);
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
