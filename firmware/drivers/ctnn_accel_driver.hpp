// Driver of the ctnn GEMM accelerator (fpga/rtl/ctnn_accel.v, registers in fpga/regs/ctnn.toml):
// C[MxN] = requant(A[MxK] . B[KxN] + bias) with int8 A and B, int8 or int32 (raw) C, computed by
// the accelerator's DMA straight from RAM. One job at a time, polled; a job that does not finish
// within the poll budget returns timeout, never hangs.
#pragma once
#include <stdint.h>

#include "ctnn/kernels/reference.hpp"
#include "ctnn/mmio/bus.hpp"
#include "ctnn/mmio/write.hpp"
#include "ctnn/regs/accel.hpp"

namespace ctnn_fw::accel {

enum class result : uint8_t {
  ok,
  error,     ///< the accelerator stopped the job: the cause is in job_status::cause (ERR_CAUSE)
  timeout,   ///< still busy after the poll budget
};

/// @brief One GEMM. Strides in elements of their matrix (bytes for A and B, elements of C).
struct gemm {
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
};

struct job_status {
  result res = result::ok;
  uint32_t cause = 0;    ///< ERR_CAUSE.CODE when res == error
  uint32_t cycles = 0;   ///< CYCLES: accelerator cycles from start to done
  uint32_t macs = 0;     ///< MACS: multiply-accumulates done
};

inline uint32_t address_of(const void* p) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p)); }

template <ctnn::mmio::bus Bus = ctnn::mmio::volatile_bus>
struct driver {
  /// True when the identification register reads the accelerator's magic number.
  static bool present() { return ctnn::mmio::read<Bus, ctnn::regs::accel::id::magic>() == 0xc7aau; }

  /// PE array side and largest K of this instance (HWCFG).
  static uint32_t dim() { return ctnn::mmio::read<Bus, ctnn::regs::accel::hwcfg::dim>(); }
  static uint32_t k_max() { return uint32_t{1} << ctnn::mmio::read<Bus, ctnn::regs::accel::hwcfg::log2_kmax>(); }

  /// Runs g and waits at most max_polls status reads for it.
  static job_status run(const gemm& g, uint32_t max_polls) {
    namespace r = ctnn::regs::accel;
    using ctnn::mmio::write;
    const uint32_t elem = g.out_raw ? 4u : 1u;
    const bool per_channel = g.q.per_channel && !g.out_raw;
    write<Bus>(r::m::value{static_cast<uint32_t>(g.m)});
    write<Bus>(r::n::value{static_cast<uint32_t>(g.n)});
    write<Bus>(r::k::value{static_cast<uint32_t>(g.k)});
    write<Bus>(r::a_addr::value{address_of(g.a)});
    write<Bus>(r::b_addr::value{address_of(g.b)});
    write<Bus>(r::c_addr::value{address_of(g.c)});
    write<Bus>(r::lda::value{static_cast<uint32_t>(g.lda)});
    write<Bus>(r::ldb::value{static_cast<uint32_t>(g.ldb)});
    write<Bus>(r::ldc::value{static_cast<uint32_t>(g.ldc) * elem});
    write<Bus>(r::cfg::out_raw{g.out_raw ? 1u : 0u}, r::cfg::relu{0u}, r::cfg::per_channel{per_channel ? 1u : 0u},
               r::cfg::bias_en{g.bias != nullptr ? 1u : 0u});
    if (g.bias != nullptr) write<Bus>(r::bias_addr::value{address_of(g.bias)});
    write<Bus>(r::zp::a_zp{static_cast<uint32_t>(g.q.a_zp)}, r::zp::b_zp{static_cast<uint32_t>(g.q.b_zp)},
               r::zp::out_zp{static_cast<uint32_t>(g.q.out_zp)});
    if (!g.out_raw) {
      write<Bus>(r::clamp::act_min{static_cast<uint32_t>(g.q.act_min)},
                 r::clamp::act_max{static_cast<uint32_t>(g.q.act_max)});
      if (per_channel) {
        write<Bus>(r::mult_addr::value{address_of(g.q.multiplier)});
        write<Bus>(r::shift_addr::value{address_of(g.q.shift)});
      } else {
        write<Bus>(r::mult::value{static_cast<uint32_t>(g.q.multiplier[0])});
        write<Bus>(r::shift::value{static_cast<uint32_t>(g.q.shift[0])});
      }
    }
    write<Bus>(r::status::done{1u}, r::status::error{1u});   // w1c: forget the last job
    __asm__ volatile("" ::: "memory");   // A, B, bias, params are in RAM before the DMA reads them
    write<Bus>(r::ctrl::start{1u});

    job_status s;
    uint32_t st = 0;
    uint32_t polls = 0;
    do {
      st = ctnn::mmio::read<Bus, r::status>();
    } while (r::status::busy::get(st) != 0u && ++polls < max_polls);
    __asm__ volatile("" ::: "memory");   // C is read from RAM after the DMA wrote it
    if (r::status::busy::get(st) != 0u) {
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

}  // namespace ctnn_fw::accel
