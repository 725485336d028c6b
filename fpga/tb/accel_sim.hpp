// Host harness around the Verilated ctnn_accel: a cycle loop, a RAM model on the DMA master
// port (a ctnn-bus slave with latency 1 serving 16-byte lines, BUS.md "The DMA's line port",
// that checks the master keeps BUS.md's rules), and an
// MMIO master so that ctnn::mmio's typed registers drive the real register file.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vctnn_accel.h"
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/regs/accel.hpp"
#include "verilated.h"

namespace ctnn::tb {

namespace soc = ctnn::regs::soc;

/// @brief The Verilated accelerator with a RAM on its DMA port.
class accel_sim {
 public:
  static constexpr uint32_t ram_base = soc::ram.base;

  explicit accel_sim(uint32_t ram_bytes, uint32_t seed = 1)
      : ram_(ram_bytes, 0), rng_(seed), top_(std::make_unique<Vctnn_accel>(&ctx_)) {
    top_->rst_ni = 0;
    for (int i = 0; i < 4; ++i) tick();
    top_->rst_ni = 1;
    tick();
  }

  // ---- RAM --------------------------------------------------------------------------------
  [[nodiscard]] uint32_t ram_size() const { return static_cast<uint32_t>(ram_.size()); }
  uint8_t* ram(uint32_t addr) {
    if (addr < ram_base || addr - ram_base >= ram_.size()) throw std::out_of_range("ram address");
    return ram_.data() + (addr - ram_base);
  }
  /// Probability in [0, 1] that the RAM refuses a DMA request in a cycle (back-pressure test).
  void set_stall_probability(double p) { stall_p_ = p; }
  /// Makes the RAM answer rsp_err for any access to the line holding addr (0 = none).
  void poison(uint32_t addr) { poison_ = addr; }
  [[nodiscard]] uint64_t cycle() const { return cycle_; }
  [[nodiscard]] bool irq() const { return top_->irq_o != 0; }

  // ---- MMIO -------------------------------------------------------------------------------
  struct mmio_result {
    uint32_t data;
    bool err;
  };
  mmio_result mmio(uint32_t addr, bool we, uint32_t wdata, uint8_t wstrb = 0xF) {
    top_->s_req_valid_i = 1;
    top_->s_req_addr_i = addr;
    top_->s_req_we_i = we;
    top_->s_req_wdata_i = wdata;
    top_->s_req_wstrb_i = we ? wstrb : 0;
    tick();  // accepted (req_ready is always 1)
    top_->s_req_valid_i = 0;
    top_->s_req_we_i = 0;
    if (!top_->s_rsp_valid_o) throw std::runtime_error("MMIO: no response after one cycle");
    const mmio_result r{top_->s_rsp_rdata_o, top_->s_rsp_err_o != 0};
    return r;
  }

  // ---- clock ------------------------------------------------------------------------------
  void tick() {
    top_->clk_i = 0;
    top_->eval();
    // The RAM slave: decide acceptance for this cycle from the (registered) request.
    const bool ready = !(stall_p_ > 0 && std::bernoulli_distribution(stall_p_)(rng_));
    top_->m_req_ready_i = ready;
    top_->eval();
    const bool valid = top_->m_req_valid_o != 0;
    check_stable(valid, ready);
    bool rsp = false, err = false;
    uint32_t rdata[4] = {0, 0, 0, 0};
    if (valid && ready) {
      rsp = true;
      const uint32_t a = top_->m_req_addr_o;
      const uint32_t line = a & ~15u;
      if ((a & 3u) != 0 || line < ram_base || line - ram_base > ram_.size() - 16 ||
          (poison_ && line == (poison_ & ~15u))) {
        err = true;
        ++errors_;
      } else if (top_->m_req_we_o) {
        for (unsigned l = 0; l < 16; ++l)
          if (top_->m_req_wstrb_o & (1u << l))
            ram_[line - ram_base + l] = static_cast<uint8_t>(top_->m_req_wdata_o[l / 4] >> (8 * (l % 4)));
        ++writes_;
      } else {
        std::memcpy(rdata, &ram_[line - ram_base], 16);
        ++reads_;
      }
    }
    top_->clk_i = 1;
    top_->eval();
    // Response one cycle after acceptance (BUS.md rule 3).
    top_->m_rsp_valid_i = rsp;
    top_->m_rsp_err_i = err;
    for (unsigned w = 0; w < 4; ++w) top_->m_rsp_rdata_i[w] = err ? 0 : rdata[w];
    ++cycle_;
  }

  [[nodiscard]] uint64_t bus_reads() const { return reads_; }
  [[nodiscard]] uint64_t bus_writes() const { return writes_; }
  [[nodiscard]] uint64_t bus_errors() const { return errors_; }

 private:
  // BUS.md rule 1: an offered request stays, unchanged, until accepted.
  void check_stable(bool valid, bool ready) {
    if (pending_) {
      if (!valid || top_->m_req_addr_o != p_addr_ || top_->m_req_we_o != p_we_ ||
          std::memcmp(top_->m_req_wdata_o.data(), p_wdata_, sizeof p_wdata_) != 0 ||
          top_->m_req_wstrb_o != p_wstrb_)
        throw std::runtime_error("DMA broke BUS.md rule 1 (request changed before acceptance)");
    }
    if (valid && !top_->m_req_we_o && top_->m_req_wstrb_o != 0)
      throw std::runtime_error("DMA read with wstrb != 0");
    pending_ = valid && !ready;
    p_addr_ = top_->m_req_addr_o;
    p_we_ = top_->m_req_we_o;
    std::memcpy(p_wdata_, top_->m_req_wdata_o.data(), sizeof p_wdata_);
    p_wstrb_ = top_->m_req_wstrb_o;
  }

  std::vector<uint8_t> ram_;
  std::mt19937 rng_;
  VerilatedContext ctx_;
  std::unique_ptr<Vctnn_accel> top_;
  double stall_p_ = 0;
  uint32_t poison_ = 0;
  uint64_t cycle_ = 0, reads_ = 0, writes_ = 0, errors_ = 0;
  bool pending_ = false;
  uint32_t p_addr_ = 0, p_wdata_[4] = {0, 0, 0, 0};
  uint8_t p_we_ = 0;
  uint16_t p_wstrb_ = 0;
};

/// @brief A ctnn::mmio bus whose loads and stores are MMIO transactions on the simulation.
struct sim_bus {
  static inline accel_sim* sim = nullptr;
  static uint32_t load(uint32_t addr) {
    const auto r = sim->mmio(addr, false, 0);
    if (r.err) throw std::runtime_error("MMIO read error at " + std::to_string(addr));
    return r.data;
  }
  static void store(uint32_t addr, uint32_t v) {
    const auto r = sim->mmio(addr, true, v);
    if (r.err) throw std::runtime_error("MMIO write error at " + std::to_string(addr));
  }
};

/// @brief One GEMM job as the driver sees it (addresses in RAM, strides in bytes).
struct gemm_job {
  int M = 0, N = 0, K = 0;
  uint32_t a = 0, b = 0, c = 0, bias = 0, mult = 0, shift = 0;
  uint32_t lda = 0, ldb = 0, ldc = 0;
  int32_t a_zp = 0, b_zp = 0, out_zp = 0, act_min = -128, act_max = 127;
  int32_t multiplier = 1 << 30, shift_amount = 0;
  bool raw = false, relu = false, per_channel = false, bias_en = false;
  bool row_params = false;  ///< bias, multiplier, shift per row of C (M entries)
  bool conv = false;        ///< B = implicit im2col of the CHW tensor at b (geometry below)
  uint32_t h = 0, w = 0, cstride = 0, kh = 1, kw = 1, sh = 1, sw = 1, ow = 0, pt = 0, pl = 0;
  /// CFG.RES_ADD: C = ctnn::ref::add_s8_one(y, R) with R at res_addr laid out as C
  bool res = false;
  uint32_t res_addr = 0;
  int32_t res_y_zp = 0, res_r_zp = 0, res_out_zp = 0, res_left = 20, res_min = -128, res_max = 127;
  int32_t res_mult_y = 1 << 30, res_mult_r = 1 << 30, res_mult_out = 1 << 30;
  int32_t res_shift_y = 0, res_shift_r = 0, res_shift_out = 0;
  /// CFG.POOL (a::cfg::pool::none, max, avg): C's 2x2 stride-2 pool, dense CHW at pool_addr
  uint32_t pool = 0;
  uint32_t pool_addr = 0;
  /// CFG.DW (with conv): depthwise, channel m of C from channel m of the input and row m of A
  bool dw = false;
};

/// @brief Makes j the CFG.CONV job of convolution g (one group, no dilation) as a driver starts it:
/// M = out channels, N = output pixels, K = in channels x kernel area, the weights packed
/// (LDA = K), the output packed (LDC = N), per-row parameters, input channels cstride bytes apart.
/// Addresses, zero points and requantization stay as they are.
inline void set_conv(gemm_job& j, const ctnn::kernels::conv_geometry& g, uint32_t cstride) {
  auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
  j.conv = true;
  j.raw = false;
  j.row_params = true;
  j.M = static_cast<int>(g.out_c);
  j.N = static_cast<int>(g.out_h() * g.out_w());
  j.K = static_cast<int>(g.gemm_k());
  j.lda = u(j.K);
  j.ldb = 0;  // unused in CFG.CONV
  j.ldc = u(j.N);
  j.h = u(g.in_h);
  j.w = u(g.in_w);
  j.cstride = cstride;
  j.kh = u(g.kh);
  j.kw = u(g.kw);
  j.sh = u(g.sh);
  j.sw = u(g.sw);
  j.ow = u(g.out_w());
  j.pt = u(g.pt);
  j.pl = u(g.pl);
}

/// @brief Programs the registers of a job through ctnn::mmio (the typed driver layer). A value that
/// does not fit its register field is an error of the testbench (thrown), never cut to the field.
inline void program(const gemm_job& j) {
  namespace a = ctnn::regs::accel;
  using ctnn::mmio::write;
  using B = sim_bus;
  const auto put = [](ctnn::mmio::write_status s) {
    if (!s) throw std::runtime_error("program: a job value does not fit its register field");
  };
  put(write<B>(a::cfg::out_raw::from(j.raw), a::cfg::relu::from(j.relu), a::cfg::per_channel::from(j.per_channel),
               a::cfg::bias_en::from(j.bias_en), a::cfg::conv::from(j.conv), a::cfg::row_params::from(j.row_params),
               a::cfg::res_add::from(j.res), a::cfg::pool::from(j.pool), a::cfg::dw::from(j.dw)));
  put(write<B>(a::pool_addr::value::from(j.pool_addr)));
  put(write<B>(a::res_addr::value::from(j.res_addr)));
  put(write<B>(a::res_zp::y_zp::from(j.res_y_zp), a::res_zp::r_zp::from(j.res_r_zp),
               a::res_zp::out_zp::from(j.res_out_zp), a::res_zp::left_shift::from(j.res_left)));
  put(write<B>(a::res_clamp::act_min::from(j.res_min), a::res_clamp::act_max::from(j.res_max)));
  put(write<B>(a::res_mult_y::value::from(j.res_mult_y)));
  put(write<B>(a::res_mult_r::value::from(j.res_mult_r)));
  put(write<B>(a::res_mult_out::value::from(j.res_mult_out)));
  put(write<B>(a::res_shift::y::from(j.res_shift_y), a::res_shift::r::from(j.res_shift_r),
               a::res_shift::out::from(j.res_shift_out)));
  put(write<B>(a::conv_in::h::from(j.h), a::conv_in::w::from(j.w)));
  put(write<B>(a::conv_cstride::value::from(j.cstride)));
  put(write<B>(a::conv_kernel::kh::from(j.kh), a::conv_kernel::kw::from(j.kw), a::conv_kernel::sh::from(j.sh),
               a::conv_kernel::sw::from(j.sw)));
  put(write<B>(a::conv_out::out_w::from(j.ow), a::conv_out::pt::from(j.pt), a::conv_out::pl::from(j.pl)));
  put(write<B>(a::m::value::from(j.M)));
  put(write<B>(a::n::value::from(j.N)));
  put(write<B>(a::k::value::from(j.K)));
  put(write<B>(a::a_addr::value::from(j.a)));
  put(write<B>(a::b_addr::value::from(j.b)));
  put(write<B>(a::c_addr::value::from(j.c)));
  put(write<B>(a::bias_addr::value::from(j.bias)));
  put(write<B>(a::mult_addr::value::from(j.mult)));
  put(write<B>(a::shift_addr::value::from(j.shift)));
  put(write<B>(a::lda::value::from(j.lda)));
  put(write<B>(a::ldb::value::from(j.ldb)));
  put(write<B>(a::ldc::value::from(j.ldc)));
  put(write<B>(a::zp::a_zp::from(j.a_zp), a::zp::b_zp::from(j.b_zp), a::zp::out_zp::from(j.out_zp)));
  put(write<B>(a::clamp::act_min::from(j.act_min), a::clamp::act_max::from(j.act_max)));
  put(write<B>(a::mult::value::from(j.multiplier)));
  put(write<B>(a::shift::value::from(j.shift_amount)));
  write<B>(a::irq_en::done{1}, a::irq_en::error{1});
}

/// @brief Starts the programmed job and runs until the interrupt; returns STATUS.
inline uint32_t run_to_irq(accel_sim& sim, uint64_t max_cycles) {
  namespace a = ctnn::regs::accel;
  ctnn::mmio::write<sim_bus>(a::ctrl::start{1});
  const uint64_t until = sim.cycle() + max_cycles;
  while (!sim.irq()) {
    if (sim.cycle() > until) throw std::runtime_error("accelerator: no interrupt (hang)");
    sim.tick();
  }
  const uint32_t status = ctnn::mmio::read<sim_bus, a::status>();
  ctnn::mmio::write<sim_bus>(a::status::done{1}, a::status::error{1});
  return status;
}

}  // namespace ctnn::tb
