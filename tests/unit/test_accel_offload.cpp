// The accelerator's offload hook (ctnn/accel/offload.hpp) on the host: the
// driver programs a fake accelerator (a bus that computes each job from the registers, following
// fpga/regs/REGISTERS.md: implicit im2col, per-row parameters, zero points, clamp) and every leaf
// of LeNet-5, the CIFAR demo network and a grouped / strided / padded / dilated mix must equal the
// reference backend; jobs are cut at 2 x BLOCK_COLS rows, K above 2^LOG2_KMAX and dilated
// convolutions are declined, and an ERROR or a job that never finishes fails the leaf. Without a
// layer callback a conv2d or linear leaf and the leaves runtime::fusion_of chains after it (a
// ReLU-like clamp, an add and its clamp, a 2x2 stride-2 pool) run as the producer's jobs
// (offload_fused: the clamp in CLAMP, CFG.RES_ADD, CFG.POOL), and the network's output stays
// bit-exact; a chain the hook declines at run time is offered shorter. A depthwise leaf within
// DWCFG is one CFG.DW job, else a job per channel.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ctnn/accel/offload.hpp"
#include "ctnn/host/run_buffers.hpp"
#include "ctnn/nn/layers.hpp"
#include "ctnn/regs/soc_map.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/cifar_resnet.hpp"
#include "ctnn/zoo/lenet5.hpp"

using namespace ctnn;
namespace rt = ctnn::runtime;
namespace r = ctnn::regs::accel;

namespace {

/// Host memory seen by the fake accelerator's DMA at the SoC's RAM base.
struct window {
  static inline uint8_t* base = nullptr;
  static inline size_t bytes = 0;
  static constexpr uint32_t bus_base = ctnn::regs::soc::ram.base;
  static uint32_t of(const void* p) {
    const auto* b = static_cast<const uint8_t*>(p);
    REQUIRE(b >= base);
    REQUIRE(static_cast<size_t>(b - base) < bytes);
    return bus_base + static_cast<uint32_t>(b - base);
  }
  static const uint8_t* at(uint32_t addr) { return base + (addr - bus_base); }
};

/// A fake accelerator behind a bus: registers in an array, a job computed on CTRL.START.
struct fake_accel {
  static inline uint32_t regs[0x100 / 4] = {};
  static inline int res_jobs = 0;    ///< jobs with CFG.RES_ADD
  static inline int pool_jobs = 0;   ///< jobs with CFG.POOL
  static inline int dw_jobs = 0;     ///< jobs with CFG.DW
  static inline uint32_t dw_kmax = 5, dw_line = 256, dw_smax = 3;   ///< DWCFG
  static inline uint32_t log2_kmax = 12, block_cols = 64;
  static inline int jobs = 0;
  static inline int fail_job = -1;   ///< this job stops with ERROR ...
  static inline uint32_t fail_cause = 0;  ///< ... and this ERR_CAUSE
  static inline bool hang = false;   ///< every job stays BUSY
  static inline unsigned status_reads = 0;
  // lazy: a job runs when STATUS is next read, from the registers as they were at its START (the
  // device's snapshot): what the CPU does between a START and the wait for it sees nothing written
  static inline bool lazy = false;
  static inline bool pending = false;              ///< a started job not yet run (lazy)
  static inline uint32_t snapshot[0x100 / 4] = {};  ///< its registers
  static inline unsigned writes_while_pending = 0;  ///< register writes while a job was pending

  static void reset() {
    std::memset(regs, 0, sizeof regs);
    log2_kmax = 12;
    block_cols = 64;
    jobs = 0;
    res_jobs = 0;
    pool_jobs = 0;
    dw_jobs = 0;
    dw_kmax = 5;
    dw_line = 256;
    dw_smax = 3;
    fail_job = -1;
    fail_cause = 0;
    hang = false;
    status_reads = 0;
    lazy = pending = false;
    writes_while_pending = 0;
  }
  template <class R>
  static uint32_t& reg() {
    return regs[(R::address - r::base) / 4];
  }
  template <class F>
  static uint32_t get() {
    return F::get(reg<typename F::reg_type>());
  }
  template <class F>
  static int32_t get_signed() {
    return F::get_signed(reg<typename F::reg_type>());
  }
  static uint32_t load(uint32_t addr) {
    REQUIRE(addr >= r::base);
    REQUIRE(addr - r::base < sizeof regs);
    if (addr == r::id::address) return r::id::reset;
    if (addr == r::hwcfg::address) return 8u | log2_kmax << 8 | 4u << 16 | block_cols << 20;
    if (addr == r::dwcfg::address) return dw_kmax | dw_line << 8 | dw_smax << 24;
    if (addr == r::status::address) {
      ++status_reads;
      if (pending) run_pending();
    }
    return regs[(addr - r::base) / 4];
  }
  static void store(uint32_t addr, uint32_t v) {
    REQUIRE(addr >= r::base);
    REQUIRE(addr - r::base < sizeof regs);
    if (addr == r::ctrl::address) {
      if (r::ctrl::start::get(v) == 0) return;
      if (!lazy) return start();
      REQUIRE_FALSE(pending);  // the driver starts a job only after the one before it ended
      std::memcpy(snapshot, regs, sizeof regs);
      pending = true;
      reg<r::status>() = r::status::busy::mask;
      return;
    }
    if (pending && addr != r::status::address) ++writes_while_pending;
    if (addr == r::status::address) {  // w1c
      reg<r::status>() &= ~(v & (r::status::done::mask | r::status::error::mask));
      return;
    }
    regs[(addr - r::base) / 4] = v;
  }

  /// Runs the pending job on its snapshot; the live registers keep what the CPU wrote since,
  /// plus the job's STATUS, ERR_CAUSE, CYCLES and MACS.
  static void run_pending() {
    pending = false;
    uint32_t live[sizeof regs / 4];
    std::memcpy(live, regs, sizeof regs);
    std::memcpy(regs, snapshot, sizeof regs);
    start();
    live[(r::status::address - r::base) / 4] = reg<r::status>();
    live[(r::err_cause::address - r::base) / 4] = reg<r::err_cause>();
    live[(r::cycles::address - r::base) / 4] = reg<r::cycles>();
    live[(r::macs::address - r::base) / 4] = reg<r::macs>();
    std::memcpy(regs, live, sizeof regs);
  }

  static void finish(uint32_t cause) {
    reg<r::err_cause>() = cause;
    reg<r::status>() = cause == 0 ? r::status::done::mask : r::status::error::mask;
  }

  static void start() {
    const int job = jobs++;
    reg<r::err_cause>() = 0;
    if (hang) {
      reg<r::status>() = r::status::busy::mask;
      return;
    }
    if (job == fail_job) return finish(fail_cause);
    const int M = static_cast<int>(get<r::m::value>()), N = static_cast<int>(get<r::n::value>()),
              K = static_cast<int>(get<r::k::value>());
    const bool conv = get<r::cfg::conv>() != 0, row = get<r::cfg::row_params>() != 0;
    const bool per_channel = get<r::cfg::per_channel>() != 0, bias_en = get<r::cfg::bias_en>() != 0;
    REQUIRE(get<r::cfg::out_raw>() == 0);  // the offload always requantizes
    if (M == 0 || N == 0 || K == 0) return finish(1);
    if (K > (1 << log2_kmax)) return finish(6);
    if (row && M > static_cast<int>(2 * block_cols)) return finish(8);
    const uint32_t H = get<r::conv_in::h>(), W = get<r::conv_in::w>(), cs = get<r::conv_cstride::value>();
    const uint32_t KH = get<r::conv_kernel::kh>(), KW = get<r::conv_kernel::kw>(), SH = get<r::conv_kernel::sh>(),
                   SW = get<r::conv_kernel::sw>(), OW = get<r::conv_out::out_w>();
    const int PT = static_cast<int>(get<r::conv_out::pt>()), PL = static_cast<int>(get<r::conv_out::pl>());
    if (conv && (KH == 0 || KW == 0 || SH == 0 || SW == 0 || OW == 0 || H == 0 || W == 0)) return finish(9);
    // CFG.DW: channel m of C from channel m of the input and row m of A, one vector entry per channel
    const bool dw = get<r::cfg::dw>() != 0;
    if (dw && (!conv || row || get<r::cfg::res_add>() != 0 || get<r::cfg::pool>() != 0 ||
               K != static_cast<int>(KH * KW) || KH > dw_kmax || KW > dw_kmax || SW > dw_smax || W > dw_line))
      return finish(r::err_cause::code::dw);
    dw_jobs += dw ? 1 : 0;
    const auto* A = reinterpret_cast<const int8_t*>(window::at(get<r::a_addr::value>()));
    const auto* B = reinterpret_cast<const int8_t*>(window::at(get<r::b_addr::value>()));
    auto* C = const_cast<int8_t*>(reinterpret_cast<const int8_t*>(window::at(get<r::c_addr::value>())));
    const uint32_t lda = get<r::lda::value>(), ldb = get<r::ldb::value>(), ldc = get<r::ldc::value>();
    const int32_t a_zp = get_signed<r::zp::a_zp>(), b_zp = get_signed<r::zp::b_zp>(),
                  out_zp = get_signed<r::zp::out_zp>();
    const int32_t lo = get_signed<r::clamp::act_min>(), hi = get_signed<r::clamp::act_max>();
    const auto* bias = bias_en ? reinterpret_cast<const int32_t*>(window::at(get<r::bias_addr::value>())) : nullptr;
    int32_t mult1 = static_cast<int32_t>(get<r::mult::value>()), shift1 = get_signed<r::shift::value>();
    const int32_t* mult = per_channel ? reinterpret_cast<const int32_t*>(window::at(get<r::mult_addr::value>())) : &mult1;
    const int32_t* shift = per_channel ? reinterpret_cast<const int32_t*>(window::at(get<r::shift_addr::value>())) : &shift1;
    // CFG.RES_ADD: C = add_s8_one(y, R), R at RES_ADDR laid out as C
    const bool res = get<r::cfg::res_add>() != 0;
    const int8_t* R = res ? reinterpret_cast<const int8_t*>(window::at(get<r::res_addr::value>())) : nullptr;
    ref::add_s8_params ap{};
    if (res) {
      ++res_jobs;
      ap.a_zp = get_signed<r::res_zp::y_zp>();
      ap.b_zp = get_signed<r::res_zp::r_zp>();
      ap.out_zp = get_signed<r::res_zp::out_zp>();
      ap.left_shift = static_cast<int32_t>(get<r::res_zp::left_shift>());
      ap.a = {get_signed<r::res_mult_y::value>(), get_signed<r::res_shift::y>()};
      ap.b = {get_signed<r::res_mult_r::value>(), get_signed<r::res_shift::r>()};
      ap.out = {get_signed<r::res_mult_out::value>(), get_signed<r::res_shift::out>()};
      ap.act_min = get_signed<r::res_clamp::act_min>();
      ap.act_max = get_signed<r::res_clamp::act_max>();
    }
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        const int v = row || dw ? m : n;
        int32_t acc = bias != nullptr ? bias[v] : 0;
        for (int k = 0; k < K; ++k) {
          int32_t b = b_zp;
          if (conv) {
            const int c = dw ? m : k / static_cast<int>(KH * KW), ky = k / static_cast<int>(KW) % static_cast<int>(KH),
                      kx = k % static_cast<int>(KW);
            const int y = n / static_cast<int>(OW) * static_cast<int>(SH) + ky - PT;
            const int x = n % static_cast<int>(OW) * static_cast<int>(SW) + kx - PL;
            if (y >= 0 && x >= 0 && y < static_cast<int>(H) && x < static_cast<int>(W))
              b = B[static_cast<size_t>(c) * cs + static_cast<size_t>(y) * W + static_cast<size_t>(x)];
          } else {
            b = B[static_cast<size_t>(k) * ldb + static_cast<size_t>(n)];
          }
          acc += (A[static_cast<size_t>(m) * lda + static_cast<size_t>(k)] - a_zp) * (b - b_zp);
        }
        const int i = per_channel ? v : 0;
        int32_t o = quant::multiply_by_quantized_multiplier(acc, mult[i], shift[i]) + out_zp;
        o = o < lo ? lo : (o > hi ? hi : o);
        const size_t at = static_cast<size_t>(m) * ldc + static_cast<size_t>(n);
        C[at] = res ? ref::add_s8_one(static_cast<int8_t>(o), R[at], ap) : static_cast<int8_t>(o);
      }
    // CFG.POOL: the 2x2 stride-2 pool of C's channels (N = OH x OUT_W), dense at POOL_ADDR
    if (const uint32_t pool = get<r::cfg::pool>(); pool != r::cfg::pool::none) {
      if (!conv || pool == 3) return finish(r::err_cause::code::pool);
      ++pool_jobs;
      auto* P = const_cast<int8_t*>(reinterpret_cast<const int8_t*>(window::at(get<r::pool_addr::value>())));
      const int ow = static_cast<int>(OW), ph = N / ow / 2, pw = ow / 2;
      for (int m = 0; m < M; ++m)
        for (int py = 0; py < ph; ++py)
          for (int px = 0; px < pw; ++px) {
            const int8_t* w = C + static_cast<size_t>(m) * ldc + static_cast<size_t>(2 * py * ow + 2 * px);
            const int8_t v[4] = {w[0], w[1], w[ow], w[ow + 1]};
            int32_t mx = v[0], sum = 0;
            for (int8_t e : v) {
              mx = e > mx ? e : mx;
              sum += e;
            }
            P[(m * ph + py) * pw + px] =
                static_cast<int8_t>(pool == r::cfg::pool::avg ? ref::rounded_average(sum, 4) : mx);
          }
    }
    reg<r::cycles>() = 100;
    reg<r::macs>() = static_cast<uint32_t>(M * N * K);
    finish(0);
  }
};

using hook = ctnn::accel::offloader<fake_accel, window>;
static_assert(rt::offload_hook<hook, int8_t>);
static_assert(rt::fused_offload_hook<hook, int8_t>);

/// A hook that offers single leaves only (no offload_fused): the pairs run one by one.
struct single_hook {
  hook inner;
  rt::offload_result offload(const rt::leaf_call<int8_t>& c) { return inner.offload(c); }
};
static_assert(!rt::fused_offload_hook<single_hook, int8_t>);

// grouped + asymmetric padding + stride (2 groups of 3 rows), dilated (declined), grouped 3x3/2 with
// padding, 10 output channels (cut into jobs), pointwise, depthwise, then a linear layer
using net_mix = network<"OffloadMix", shape{4, 9, 9},
    conv2d_layer<conv2d_config{4, 6, {3, 2}, {2, 1}, {1, 0, 2, 1}, {1, 1}, 2, true}>, relu,
    conv2d_layer<conv2d_config{6, 6, {3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}, 1, true}>,
    conv2d<6, 6, 3, 2, 1, 1, 3, true>,
    conv2d<6, 10, 3, 1, 1, 1, 1, false>, relu,
    conv2d<10, 4, 1>,
    depthwise_conv2d<4, 3, 1, 1, true>,
    flatten, linear<48, 7>>;
// the executor tells the hook whether a grouped convolution occurs (fusion_roles::grouped): an
// image without one compiles no depthwise path
static_assert(rt::detail::fusion_of<net_mix>.any_grouped);
static_assert(!rt::detail::fusion_of<zoo::lenet5>.any_grouped && !rt::detail::fusion_of<zoo::cifar_resnet>.any_grouped);

/// Arena and parameters in one host window, the input filled; the reference run's outputs.
template <Network Net>
struct setup {
  static constexpr auto& plan = memory::plan_of<Net, dtype::int8>;
  static constexpr auto& layout = rt::param_layout_of<Net, dtype::int8>;
  static constexpr size_t params_at = (plan.arena_bytes + 15) / 16 * 16;
  host::aligned_bytes mem{params_at + layout.total_bytes};
  host::layer_recorder ref;
  uint8_t* arena() { return mem.data; }
  uint8_t* params() { return mem.data + params_at; }
  setup() {
    window::base = mem.data;
    window::bytes = mem.size;
    REQUIRE(rt::fill_params<Net, dtype::int8>(params(), layout.total_bytes, 21));
    fill();
    ref.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
    REQUIRE(rt::run<Net, int8_t>(arena(), plan.arena_bytes, params(), layout.total_bytes, rt::backend::reference,
                                 &host::layer_recorder::record, &ref)
                .ok());
    fill();
  }
  void fill() {
    std::memset(arena(), 0x6B, plan.arena_bytes);
    rt::fill_input<int8_t>(reinterpret_cast<int8_t*>(arena() + plan.offset_of(0)), Net::input_shape.elems(), 22,
                           rt::default_tensor_quant<Net>(0));
  }
  rt::run_status run(hook& h, host::layer_recorder& rec) {
    rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
    return rt::run<Net, int8_t>(arena(), plan.arena_bytes, params(), layout.total_bytes, rt::backend::optimized, h,
                                &host::layer_recorder::record, &rec);
  }
};

template <Network Net>
int expected_jobs(uint32_t max_rows, uint32_t k_max, int& leaves) {
  int jobs = 0;
  leaves = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& l = Net::layer(i);
    const int64_t groups = l.kind == op::conv2d ? l.geometry.groups : 1;
    const int64_t k = l.kind == op::conv2d ? l.in.c / groups * l.geometry.kernel.h * l.geometry.kernel.w : l.in.elems();
    const bool dilated = l.kind == op::conv2d && (l.geometry.dilation.h != 1 || l.geometry.dilation.w != 1);
    if ((l.kind != op::conv2d && l.kind != op::linear) || dilated || k > static_cast<int64_t>(k_max)) continue;
    ++leaves;
    const int64_t m = l.out.c / groups;
    const bool dw = l.kind == op::conv2d && groups > 1 && m == 1 && l.in.c == groups &&
                    l.geometry.kernel.h <= 5 && l.geometry.kernel.w <= 5 && l.in.w <= 256;
    jobs += dw ? 1 : static_cast<int>(groups * ((m + max_rows - 1) / max_rows));
  }
  return jobs;
}

}  // namespace

TEST_CASE_TEMPLATE("offloaded conv2d and linear leaves equal the reference backend", Net, zoo::lenet5,
                   zoo::cifar_resnet, net_mix) {
  for (uint32_t block_cols : {64u, 2u}) {  // 128 rows per job, or 4: M cut into several jobs
    for (uint32_t log2_kmax : {12u, 7u}) {   // K <= 4096, or K <= 128: the deep layers decline
      fake_accel::reset();
      fake_accel::block_cols = block_cols;
      fake_accel::log2_kmax = log2_kmax;
      setup<Net> s;
      hook h;
      h.init();
      CHECK(h.max_rows == 2 * block_cols);
      CHECK(h.k_max == (1u << log2_kmax));
      host::layer_recorder rec;
      const rt::run_status st = s.run(h, rec);
      REQUIRE(st.ok());
      for (int32_t i = 0; i < Net::leaf_count; ++i) {
        CAPTURE(i);
        CHECK(rec.outputs[static_cast<size_t>(i)] == s.ref.outputs[static_cast<size_t>(i)]);
      }
      int leaves = 0;
      const int jobs = expected_jobs<Net>(h.max_rows, h.k_max, leaves);
      CHECK(fake_accel::jobs == jobs);
      CHECK(h.jobs == static_cast<uint32_t>(jobs));
      CHECK(h.leaves == static_cast<uint32_t>(leaves));
      CHECK(leaves > 0);
      CHECK(h.device_cycles == 100u * static_cast<uint64_t>(jobs));
      CHECK(h.fused == 0u);   // a layer callback sees every leaf's output: no chain is fused
      CHECK(fake_accel::res_jobs == 0);
      CHECK(fake_accel::pool_jobs == 0);
    }
  }
}

// conv3 + the residual add (y = input 0) and a downsampling shortcut conv + add (y = input 1),
// a linear + add, and a conv whose output the add and a later leaf both read (not fusable)
using net_fuse = network<"OffloadFuse", shape{4, 8, 8},
    conv2d<4, 8, 3, 1, 1>, relu,
    residual<sequential<conv2d<8, 8, 3, 1, 1>, relu, conv2d<8, 8, 3, 1, 1>>>, relu,
    residual<sequential<conv2d<8, 16, 3, 2, 1>, relu, conv2d<16, 16, 3, 1, 1>>, conv2d<8, 16, 1, 2, 0>>, relu,
    flatten, residual<linear<256, 256>>, linear<256, 10>>;

// conv + 2x2 average pool on an odd size (45x45 -> 22x22), ReLU6 + max pool, a 3x3/2 max pool
// (no role), Clamp + average pool (5x5 -> 2x2), a grouped conv + ReLU + max pool, and a linear +
// Clamp whose output is the network's
using net_pool = network<"OffloadPool", shape{3, 47, 47},
    conv2d<3, 6, 3, 1, 0>, avg_pool2d<2>,
    conv2d<6, 8, 1>, relu6, max_pool2d<2>,
    conv2d<8, 8, 1>, max_pool2d<3, 2>,
    conv2d<8, 8, 3, 1, 1>, clamp<-1, 1>, avg_pool2d<2>,
    conv2d_layer<conv2d_config{8, 12, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 4, true}>, relu, max_pool2d<2>,
    flatten, linear<12, 5>, clamp<-2, 2>>;

/// Leaves fused after a producer, all chains of fusion_of taken whole.
template <Network Net>
int fused_leaves() {
  int n = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i) n += rt::detail::fusion_of<Net>.at[static_cast<size_t>(i)].count;
  return n;
}

TEST_CASE_TEMPLATE("without a layer callback a conv2d/linear leaf and the leaves chained after it are its jobs, "
                   "bit-exact", Net, zoo::lenet5, zoo::cifar_resnet, net_fuse, net_pool) {
  for (uint32_t block_cols : {64u, 2u}) {  // M in one job, or cut into jobs of 4 rows
    fake_accel::reset();
    fake_accel::block_cols = block_cols;
    setup<Net> s;
    // the reference backend's output, and the unfused offloaded run's (the leaves one by one)
    constexpr auto& plan = memory::plan_of<Net, dtype::int8>;
    constexpr auto& layout = rt::param_layout_of<Net, dtype::int8>;
    const size_t out_at = plan.offset_of(Net::output_tensor);
    const size_t out_bytes = static_cast<size_t>(Net::output_shape.elems());
    const std::vector<uint8_t> want = s.ref.outputs[static_cast<size_t>(Net::leaf_count - 1)];
    REQUIRE(want.size() == out_bytes);
    single_hook one;
    one.inner.init();
    REQUIRE(rt::run<Net, int8_t>(s.arena(), plan.arena_bytes, s.params(), layout.total_bytes, rt::backend::optimized,
                                 one)
                .ok());
    CHECK(std::memcmp(s.arena() + out_at, want.data(), out_bytes) == 0);
    CHECK(one.inner.fused == 0u);
    const int jobs_one = fake_accel::jobs;
    // fused
    s.fill();
    fake_accel::reset();
    fake_accel::block_cols = block_cols;
    hook h;
    h.init();
    REQUIRE(rt::run<Net, int8_t>(s.arena(), plan.arena_bytes, s.params(), layout.total_bytes, rt::backend::optimized,
                                 h)
                .ok());
    CHECK(std::memcmp(s.arena() + out_at, want.data(), out_bytes) == 0);
    const int fused = fused_leaves<Net>();
    CHECK(fused > 0);
    CHECK(h.leaves == one.inner.leaves + h.fused);   // each fused leaf counts as a leaf
    CHECK(fake_accel::jobs == jobs_one);      // the fused leaves cost no job
    bool has_add = false, has_pool = false;
    for (int32_t i = 0; i < Net::leaf_count; ++i) {
      has_add = has_add || rt::detail::fusion_of<Net>.at[static_cast<size_t>(i)].add != 0;
      has_pool = has_pool || rt::detail::fusion_of<Net>.at[static_cast<size_t>(i)].pool != 0;
    }
    CHECK((fake_accel::res_jobs > 0) == has_add);
    if (block_cols == 64) {  // every conv one job: every chain whole
      CHECK(h.fused == static_cast<uint32_t>(fused));
      CHECK((fake_accel::pool_jobs > 0) == has_pool);
    } else {  // a conv of several jobs keeps its pool unless the pooled output is clear of its inputs
      CHECK(h.fused <= static_cast<uint32_t>(fused));
      CHECK(h.fused > 0u);
    }
  }
}

namespace {
/// fusion_of<Net> at leaf i as {count, clamp, add, add_clamp, pool}.
template <Network Net>
bool chain_is(int32_t i, rt::fusion want) {
  const rt::fusion& f = rt::detail::fusion_of<Net>.at[static_cast<size_t>(i)];
  return f.count == want.count && f.clamp == want.clamp && f.add == want.add && f.add_clamp == want.add_clamp &&
         f.pool == want.pool;
}
}  // namespace

TEST_CASE("fusion_of: the leaves after a conv2d/linear, each the only reader of the one before, in role order") {
  // LeNet-5: conv + ReLU + 2x2 max pool twice, fc + ReLU twice; fc3's output is the network's
  CHECK(chain_is<zoo::lenet5>(0, {2, 1, 0, 0, 2}));
  CHECK(chain_is<zoo::lenet5>(3, {2, 1, 0, 0, 2}));
  CHECK(chain_is<zoo::lenet5>(7, {1, 1, 0, 0, 0}));
  CHECK(chain_is<zoo::lenet5>(9, {1, 1, 0, 0, 0}));
  CHECK(chain_is<zoo::lenet5>(11, {}));
  CHECK(fused_leaves<zoo::lenet5>() == 6);
  // CIFAR: conv1 + ReLU + pool; conv2 + ReLU (conv3 is no role); conv3 + add + ReLU + pool
  CHECK(chain_is<zoo::cifar_resnet>(0, {2, 1, 0, 0, 2}));
  CHECK(chain_is<zoo::cifar_resnet>(3, {1, 1, 0, 0, 0}));
  CHECK(chain_is<zoo::cifar_resnet>(5, {3, 0, 1, 2, 3}));
  CHECK(fused_leaves<zoo::cifar_resnet>() == 6);
  // net_fuse: the body conv of block 2 has two readers (its ReLU and ... no: the add reads the
  // shortcut's): block 1 conv3 + add + ReLU; the shortcut conv + add + ReLU; linear + add
  CHECK(chain_is<net_fuse>(0, {1, 1, 0, 0, 0}));
  CHECK(fused_leaves<net_fuse>() == 1 + 1 + 2 + 1 + 2 + 1);
  // net_pool: avg pool on 45x45; ReLU6 + max; the 3x3/2 pool is no role; Clamp + avg; grouped
  // conv + ReLU + pool; linear + Clamp (its output is the network's: the chain's last may be)
  CHECK(chain_is<net_pool>(0, {1, 0, 0, 0, 1}));
  CHECK(chain_is<net_pool>(2, {2, 1, 0, 0, 2}));
  CHECK(chain_is<net_pool>(5, {}));
  CHECK(chain_is<net_pool>(7, {2, 1, 0, 0, 2}));
  CHECK(chain_is<net_pool>(10, {2, 1, 0, 0, 2}));
  CHECK(chain_is<net_pool>(14, {1, 1, 0, 0, 0}));
  CHECK(fused_leaves<net_pool>() == 8);
}

TEST_CASE("a chain the hook declines at run time is offered shorter: a ReLU that requantizes is no clamp") {
  using Net = zoo::lenet5;
  fake_accel::reset();
  setup<Net> s;
  constexpr auto& plan = memory::plan_of<Net, dtype::int8>;
  constexpr auto& layout = rt::param_layout_of<Net, dtype::int8>;
  // conv1's ReLU output (tensor 2) and the pool's (tensor 3, which keeps its input's) at scale x 2
  auto* scales = reinterpret_cast<float*>(s.params() + layout.quant_scale);
  REQUIRE(Net::layer(1).output == 2);
  REQUIRE(Net::layer(2).output == 3);
  scales[2] *= 2.0f;
  scales[3] *= 2.0f;
  host::layer_recorder ref;
  ref.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
  s.fill();
  REQUIRE(rt::run<Net, int8_t>(s.arena(), plan.arena_bytes, s.params(), layout.total_bytes, rt::backend::reference,
                               &host::layer_recorder::record, &ref)
              .ok());
  const std::vector<uint8_t> want = ref.outputs.back();
  s.fill();
  hook h;
  h.init();
  REQUIRE(rt::run<Net, int8_t>(s.arena(), plan.arena_bytes, s.params(), layout.total_bytes, rt::backend::optimized, h)
              .ok());
  CHECK(std::memcmp(s.arena() + plan.offset_of(Net::output_tensor), want.data(), want.size()) == 0);
  // conv1 + ReLU + pool and conv1 + ReLU declined: conv1 alone; conv2's, fc1's, fc2's chains whole
  CHECK(h.fused == 4u);
  CHECK(fake_accel::pool_jobs == 1);
}

TEST_CASE("the mix network declines its dilated convolution and cuts 10 rows into jobs of 4") {
  fake_accel::reset();
  fake_accel::block_cols = 2;
  setup<net_mix> s;
  hook h;
  h.init();
  host::layer_recorder rec;
  REQUIRE(s.run(h, rec).ok());
  // leaves: conv (2 groups x 1 job), relu, dilated (declined), grouped (3 x 1), conv 10 rows (3 jobs),
  // relu, pointwise (1), depthwise (1 CFG.DW job), flatten, linear 7 rows (2)
  CHECK(h.leaves == 6);
  CHECK(fake_accel::jobs == 2 + 3 + 3 + 1 + 1 + 2);
  CHECK(fake_accel::dw_jobs == 1);
}

TEST_CASE("a depthwise leaf beyond DWCFG (kernel, width or stride) is a job per channel, still bit-exact") {
  for (int beyond : {0, 1, 2}) {
    fake_accel::reset();
    if (beyond == 1) fake_accel::dw_line = 2;        // the depthwise input is 3 wide
    else if (beyond == 2) fake_accel::dw_smax = 0;   // its stride is 1
    else fake_accel::dw_kmax = 2;                    // its kernel is 3x3
    setup<net_mix> s;
    hook h;
    h.init();
    host::layer_recorder rec;
    REQUIRE(s.run(h, rec).ok());
    for (int32_t i = 0; i < net_mix::leaf_count; ++i) {
      CAPTURE(i);
      CHECK(rec.outputs[static_cast<size_t>(i)] == s.ref.outputs[static_cast<size_t>(i)]);
    }
    CHECK(fake_accel::dw_jobs == 0);
    CHECK(fake_accel::jobs == 2 + 3 + 1 + 1 + 4 + 1);   // block_cols 64: no row cut
  }
}

TEST_CASE("an accelerator ERROR or a job that never finishes fails the leaf with its cause") {
  using net = zoo::lenet5;
  SUBCASE("error") {
    fake_accel::reset();
    fake_accel::fail_job = 1;  // conv2's job (conv1 is job 0)
    fake_accel::fail_cause = 3;
    setup<net> s;
    hook h;
    h.init();
    host::layer_recorder rec;
    const rt::run_status st = s.run(h, rec);
    CHECK(st.code == rt::fault::offload);
    CHECK(st.leaf == 3);
    CHECK(st.detail == (ctnn::accel::failure_error | 3u));
    CHECK(h.failure.res == ctnn::accel::result::error);
    CHECK(h.failure.cause == 3u);
    CHECK(std::string(ctnn::accel::cause_name(h.failure.cause)) == "ADDR_RANGE");
    CHECK(rec.outputs[3].empty());  // no callback for the failed leaf
  }
  SUBCASE("timeout") {
    fake_accel::reset();
    fake_accel::hang = true;
    setup<net> s;
    hook h;
    h.init();
    h.poll_base = 50;
    host::layer_recorder rec;
    const rt::run_status st = s.run(h, rec);
    CHECK(st.code == rt::fault::offload);
    CHECK(st.leaf == 0);
    CHECK(st.detail == ctnn::accel::failure_timeout);
    CHECK(h.failure.res == ctnn::accel::result::timeout);
    CHECK(fake_accel::jobs == 1);
    // the budget: poll_base + 2 polls per MAC of conv1 (6 x 784 x 25), then the run stops
    CHECK(fake_accel::status_reads == 50u + 2u * 6u * 784u * 25u);
  }
}

TEST_CASE("a plain GEMM job after a convolution job clears CFG.CONV and CFG.ROW_PARAMS") {
  fake_accel::reset();
  setup<zoo::lenet5> s;
  hook h;
  h.init();
  host::layer_recorder rec;
  REQUIRE(s.run(h, rec).ok());
  CHECK(fake_accel::get<r::cfg::conv>() == 1u);
  CHECK(fake_accel::get<r::cfg::row_params>() == 1u);
  // C[2x3] = A[2x2] . B[2x3], per-tensor requantization by 1 (multiplier 2^30, shift 1)
  alignas(16) static int8_t buf[64] = {1, 2, 3, 4, /* B */ 1, 0, 2, 0, 0, 1, 1, 0};
  window::base = reinterpret_cast<uint8_t*>(buf);
  window::bytes = sizeof buf;
  const int32_t mult = 1 << 30, shift = 1;
  ctnn::accel::job g;
  g.m = 2;
  g.n = 3;
  g.k = 2;
  g.a = buf;
  g.lda = 2;
  g.b = buf + 4;
  g.ldb = 4;
  g.c = buf + 16;
  g.ldc = 4;
  g.q = {0, 0, 0, &mult, &shift, false, -128, 127};
  using drv = ctnn::accel::driver<fake_accel, window>;
  REQUIRE(drv::run(g, 10).res == ctnn::accel::result::ok);
  CHECK(fake_accel::get<r::cfg::conv>() == 0u);
  CHECK(fake_accel::get<r::cfg::row_params>() == 0u);
  const int8_t want[8] = {1, 2, 4, 0, 3, 4, 10, 0};  // [1 2; 3 4] . [1 0 2; 0 1 1]
  CHECK(std::memcmp(buf + 16, want, 8) == 0);
}

TEST_CASE("a job value that does not fit its register field is refused, not cut: the job is not started") {
  alignas(16) static int8_t buf[64] = {};
  window::base = reinterpret_cast<uint8_t*>(buf);
  window::bytes = sizeof buf;
  static const int32_t mult = 1 << 30, shift = 1;
  ctnn::accel::job ok;
  ok.m = 2;
  ok.n = 3;
  ok.k = 2;
  ok.a = buf;
  ok.lda = 4;
  ok.b = buf + 8;
  ok.ldb = 4;
  ok.c = buf + 32;
  ok.ldc = 4;
  ok.q = {-128, 0, 127, &mult, &shift, false, -128, 127};
  using drv = ctnn::accel::driver<fake_accel, window>;
  fake_accel::reset();
  REQUIRE(drv::run(ok, 10).res == ctnn::accel::result::ok);
  CHECK(fake_accel::jobs == 1);
  CHECK(fake_accel::get_signed<r::zp::a_zp>() == -128);
  CHECK(fake_accel::get_signed<r::zp::out_zp>() == 127);
  // each of these was written cut to the field's bits before (M = 65538 ran as M = 2)
  const auto refused = [](const char* what, auto change) {
    ctnn::accel::job g;
    g.m = 2;
    g.n = 3;
    g.k = 2;
    g.a = buf;
    g.lda = 4;
    g.b = buf + 8;
    g.ldb = 4;
    g.c = buf + 32;
    g.ldc = 4;
    g.q = {0, 0, 0, &mult, &shift, false, -128, 127};
    change(g);
    fake_accel::reset();
    CAPTURE(what);
    CHECK(drv::run(g, 10).res == ctnn::accel::result::bad_value);
    CHECK(fake_accel::jobs == 0);   // never started
  };
  refused("M above 16 bits", [](ctnn::accel::job& g) { g.m = 65536 + 2; });
  refused("negative N", [](ctnn::accel::job& g) { g.n = -3; });
  refused("negative K", [](ctnn::accel::job& g) { g.k = -8; });
  refused("LDA above 20 bits", [](ctnn::accel::job& g) { g.lda = 1 << 20; });
  refused("negative LDC", [](ctnn::accel::job& g) { g.ldc = -4; });
  refused("zero point below -128", [](ctnn::accel::job& g) { g.q.a_zp = -129; });
  refused("zero point above 127", [](ctnn::accel::job& g) { g.q.out_zp = 128; });
  refused("clamp above 127", [](ctnn::accel::job& g) { g.q.act_max = 255; });
  static const int32_t wide_shift = 200;
  refused("shift beyond 8 bits", [](ctnn::accel::job& g) { g.q.shift = &wide_shift; });
}

TEST_CASE("as_clamp: a ReLU / ReLU6 / Clamp leaf with one quantization in and out is clamp(x, lo, hi) on every byte") {
  struct kind_case {
    op k;
    float lo, hi;  // Clamp's bounds
  };
  const kind_case kinds[] = {{op::relu, 0, 0},          {op::relu6, 0, 0},
                             {op::clamp, -1.0f, 1.0f},  {op::clamp, -0.25f, __builtin_huge_valf()},
                             {op::clamp, -__builtin_huge_valf(), 3.0f}, {op::clamp, 2.5f, 2.5f}};
  int clamps = 0;
  for (const kind_case& kc : kinds)
    for (float scale : {1.0f / 256.0f, 0.0173f, 0.05f, 0.1f, 0.3f, 1.7f, 6.0f / 255.0f})
      for (int32_t zp : {-128, -5, 0, 77, 127}) {
        row lr{};
        lr.kind = kc.k;
        lr.n_inputs = 1;
        lr.geometry.alpha = kc.lo;
        lr.geometry.beta = kc.hi;
        const rt::tensor_quant q{scale, zp};
        rt::leaf_call<int8_t> c{};
        c.r = &lr;
        c.q_in = &q;
        c.q_out = q;
        rt::act_range a;
        CAPTURE(static_cast<int>(kc.k));
        CAPTURE(scale);
        CAPTURE(zp);
        REQUIRE(rt::as_clamp(c, a));
        ++clamps;
        const ref::act_s8_params p{scale, zp, scale, zp};
        for (int x = -128; x < 128; ++x) {
          const auto xi = static_cast<int8_t>(x);
          const int8_t y = kc.k == op::clamp ? ref::unary_s8_one(clamp_fn{kc.lo, kc.hi}, xi, p)
                                             : ref::activation_s8_one(kc.k == op::relu ? ref::activation::relu
                                                                                       : ref::activation::relu6,
                                                                      xi, p);
          CHECK(static_cast<int32_t>(y) == (x < a.min ? a.min : (x > a.max ? a.max : x)));
        }
        // another output quantization: the leaf requantizes, it is no clamp
        rt::leaf_call<int8_t> other = c;
        other.q_out = rt::tensor_quant{scale * 2.0f, zp};
        rt::act_range b;
        CHECK_FALSE(rt::as_clamp(other, b));
      }
  CHECK(clamps == 6 * 7 * 5);
  // ReLU (whose bounds as_clamp writes without evaluating the leaf) on random scales and zero
  // points, 2^-40 to 2^40: its y(-128) and y(127) as the CPU's ReLU leaf computes them
  uint32_t seed = 12345u;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  for (int t = 0; t < 20000; ++t) {
    const float scale = static_cast<float>(static_cast<double>(next() % 1000000u + 1u) / 1000000.0 *
                                           __builtin_ldexp(1.0, static_cast<int>(next() % 81u) - 40));
    const auto zp = static_cast<int32_t>(next() % 256u) - 128;
    row lr{};
    lr.kind = op::relu;
    lr.n_inputs = 1;
    const rt::tensor_quant q{scale, zp};
    rt::leaf_call<int8_t> c{};
    c.r = &lr;
    c.q_in = &q;
    c.q_out = q;
    rt::act_range a;
    REQUIRE(rt::as_clamp(c, a));
    const ref::act_s8_params p{scale, zp, scale, zp};
    CAPTURE(scale);
    CAPTURE(zp);
    CHECK(a.min == ref::activation_s8_one(ref::activation::relu, -128, p));
    CHECK(a.max == ref::activation_s8_one(ref::activation::relu, 127, p));
  }
}

TEST_CASE_TEMPLATE("a leaf returns with its last job in flight: the CPU leaves, the callback and the end of the run "
                   "wait for it, bit-exact", Net, zoo::lenet5, zoo::cifar_resnet, net_mix, net_pool) {
  constexpr auto& plan = memory::plan_of<Net, dtype::int8>;
  constexpr auto& layout = rt::param_layout_of<Net, dtype::int8>;
  fake_accel::reset();
  setup<Net> s;
  fake_accel::lazy = true;
  // with the callback: every leaf's output
  hook h;
  h.init();
  host::layer_recorder rec;
  REQUIRE(s.run(h, rec).ok());
  CHECK_FALSE(fake_accel::pending);
  for (int32_t i = 0; i < Net::leaf_count; ++i) CHECK(rec.outputs[static_cast<size_t>(i)] == s.ref.outputs[static_cast<size_t>(i)]);
  // plain (fused): the next leaf's registers are written while the job before it runs
  s.fill();
  fake_accel::writes_while_pending = 0;
  REQUIRE(rt::run<Net, int8_t>(s.arena(), plan.arena_bytes, s.params(), layout.total_bytes, rt::backend::optimized, h)
              .ok());
  CHECK_FALSE(fake_accel::pending);
  CHECK(fake_accel::writes_while_pending > 0u);
  const std::vector<uint8_t>& want = s.ref.outputs.back();
  CHECK(std::memcmp(s.arena() + plan.offset_of(Net::output_tensor), want.data(), want.size()) == 0);
}

TEST_CASE("a job that fails after its leaf returned names its leaf, fused or not") {
  using net = zoo::lenet5;
  for (const bool with_callback : {false, true}) {
    CAPTURE(with_callback);
    fake_accel::reset();
    setup<net> s;
    fake_accel::lazy = true;
    fake_accel::fail_job = 1;  // conv2's job (conv1 is job 0): seen while fc1 is issued
    fake_accel::fail_cause = 3;
    hook h;
    h.init();
    host::layer_recorder rec;
    const rt::run_status st =
        with_callback ? s.run(h, rec)
                      : rt::run<net, int8_t>(s.arena(), setup<net>::plan.arena_bytes, s.params(),
                                             setup<net>::layout.total_bytes, rt::backend::optimized, h);
    CHECK(st.code == rt::fault::offload);
    CHECK(st.leaf == 3);
    CHECK(st.detail == (ctnn::accel::failure_error | 3u));
    CHECK(h.failed_leaf() == 3);
    CHECK_FALSE(fake_accel::pending);
  }
  // the network's last job: seen by the settle at the end of the run
  fake_accel::reset();
  setup<net> s;
  fake_accel::lazy = true;
  fake_accel::fail_job = 4;  // fc3's
  fake_accel::fail_cause = 3;
  hook h;
  h.init();
  const rt::run_status st = rt::run<net, int8_t>(s.arena(), setup<net>::plan.arena_bytes, s.params(),
                                                 setup<net>::layout.total_bytes, rt::backend::optimized, h);
  CHECK(st.code == rt::fault::offload);
  CHECK(st.leaf == 11);
}
