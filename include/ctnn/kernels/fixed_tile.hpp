// Fixed-tile GEMM splitting, as in the course lab that split each Linear into 64x64 sub-GEMMs:
// an accelerator computes only T x T x T products, so a GEMM (M, N, K) is padded to multiples of
// T and run as a schedule of sub-GEMMs whose partial results are summed.
//
//        K ->                      N ->                        N ->
//   M  [A00 A01 A02]   .   K  [B00 B01]        =   M  [C00 C01]    C_ij = sum_k A_ik . B_kj
//   |  [A10 A11 A12]       |  [B10 B11]            |  [C10 C11]
//   v                      v  [B20 B21]            v
//
// Schedule order: (tm, tn) output tile, tk innermost, so one T x T accumulator is live at a
// time. Tile coordinates come from index bits: tile = i >> log2(T), offset = i & (T - 1).
// Padding: A with its zero point, B with its zero point (products of padding are 0), float 0.
#pragma once
#include "ctnn/core/bits.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/status.hpp"

namespace ctnn::kernels {

/// @brief The constexpr tiling of one GEMM on a fixed T x T x T engine.
struct fixed_tile_plan {
  int64_t m = 0, n = 0, k = 0, tile = 0;
  int64_t tiles_m = 0, tiles_n = 0, tiles_k = 0;
  int64_t padded_m = 0, padded_n = 0, padded_k = 0;
  int64_t sub_gemms = 0;          ///< tiles_m * tiles_n * tiles_k
  int64_t useful_macs = 0;        ///< m * n * k
  int64_t padded_macs = 0;        ///< sub_gemms * T^3
  int64_t waste_macs = 0;         ///< padded_macs - useful_macs
  int64_t a_tile_bytes = 0;       ///< one A tile in (T * T * elem)
  int64_t b_tile_bytes = 0;       ///< one B tile in
  int64_t c_tile_bytes = 0;       ///< one partial result out (T * T * accumulator bytes)
  int64_t bytes_per_tile = 0;     ///< a + b + c: bytes moved per sub-GEMM
  int64_t total_bytes = 0;        ///< sub_gemms * bytes_per_tile
  /// Waste in parts per million of the padded work (integer, so it stays a constant).
  [[nodiscard]] constexpr int64_t waste_ppm() const { return padded_macs == 0 ? 0 : waste_macs * 1000000 / padded_macs; }
};

namespace detail {
inline void fixed_tile_must_be_a_power_of_two_and_dims_non_negative() {}
}  // namespace detail

/// @brief Plans a GEMM (M, N, K) on T x T x T sub-GEMMs. T: any power of two (default 64, the
/// lab's tile). elem_bytes: input element size; acc_bytes: partial-result element size.
template <int64_t T = 64>
constexpr fixed_tile_plan plan_fixed_tiles(int64_t M, int64_t N, int64_t K, int64_t elem_bytes = 1,
                                           int64_t acc_bytes = 4) {
  static_assert(T > 0 && bits::is_pow2(static_cast<uint64_t>(T)), "fixed tile size T must be a power of two");
  if (M < 0 || N < 0 || K < 0) detail::fixed_tile_must_be_a_power_of_two_and_dims_non_negative();
  constexpr unsigned lg = bits::log2_exact(static_cast<uint64_t>(T));
  fixed_tile_plan p{};
  p.m = M; p.n = N; p.k = K; p.tile = T;
  p.tiles_m = (M + T - 1) >> lg;
  p.tiles_n = (N + T - 1) >> lg;
  p.tiles_k = (K + T - 1) >> lg;
  p.padded_m = p.tiles_m << lg;
  p.padded_n = p.tiles_n << lg;
  p.padded_k = p.tiles_k << lg;
  p.sub_gemms = p.tiles_m * p.tiles_n * p.tiles_k;
  p.useful_macs = M * N * K;
  p.padded_macs = p.sub_gemms * T * T * T;
  p.waste_macs = p.padded_macs - p.useful_macs;
  p.a_tile_bytes = T * T * elem_bytes;
  p.b_tile_bytes = T * T * elem_bytes;
  p.c_tile_bytes = T * T * acc_bytes;
  p.bytes_per_tile = p.a_tile_bytes + p.b_tile_bytes + p.c_tile_bytes;
  p.total_bytes = p.sub_gemms * p.bytes_per_tile;
  return p;
}

/// @brief One step of the schedule: the sub-GEMM C[tm][tn] += A[tm][tk] . B[tk][tn].
struct sub_gemm {
  int64_t tm, tn, tk;
  friend constexpr bool operator==(const sub_gemm&, const sub_gemm&) = default;
};

/// @brief The i-th sub-GEMM of the schedule (tk innermost, then tn, then tm).
constexpr sub_gemm schedule_entry(const fixed_tile_plan& p, int64_t i) {
  const int64_t tk = i % p.tiles_k;
  const int64_t rest = i / p.tiles_k;
  return {rest / p.tiles_n, rest % p.tiles_n, tk};
}

/// @brief Tile row/column of element index i, and its offset inside the tile (bit fields).
template <int64_t T>
constexpr int64_t tile_index(int64_t i) {
  return static_cast<int64_t>(static_cast<uint64_t>(i) >> bits::log2_exact(static_cast<uint64_t>(T)));
}
template <int64_t T>
constexpr int64_t tile_offset(int64_t i) {
  if constexpr (T == 1) {
    return 0;
  } else {
    return static_cast<int64_t>(
        bits::extract<uint64_t>(static_cast<uint64_t>(i), bits::log2_exact(static_cast<uint64_t>(T)) - 1u, 0u));
  }
}

/// @brief Buffers of the fixed-tile executor: one A, one B tile, the engine's partial result
/// and the running accumulator. E: int8_t or float; Acc: int32_t or float.
template <int64_t T, class E, class Acc>
struct fixed_tile_buffers {
  E a[T * T];
  E b[T * T];
  Acc part[T * T];
  Acc acc[T * T];
};

/// @brief The default int8 engine: what the accelerator computes for one tile,
/// part = (A - a_zp) . (B - b_zp) on T x T x T, row stride T (ref::gemm_s8_s32).
template <int64_t T>
struct reference_engine_s8 {
  void operator()(const int8_t* a, const int8_t* b, int32_t* part, int32_t a_zp, int32_t b_zp) const {
    ref::gemm_s8_s32(T, T, T, a, T, b, T, nullptr, part, T, a_zp, b_zp);
  }
};

/// @brief The default float engine (ref::gemm_f32 on one tile).
template <int64_t T>
struct reference_engine_f32 {
  void operator()(const float* a, const float* b, float* part) const {
    ref::gemm_f32(T, T, T, a, T, b, T, nullptr, part, T);
  }
};

namespace detail {

/// Copies the (ti, tj) T x T tile of a rows x cols matrix into dst, padding with pad.
template <int64_t T, class E>
inline void load_tile(const E* src, int64_t ld, int64_t rows, int64_t cols, int64_t ti, int64_t tj, E* dst, E pad) {
  for (int64_t i = 0; i < T; ++i) {
    const int64_t r = ti * T + i;
    for (int64_t j = 0; j < T; ++j) {
      const int64_t c = tj * T + j;
      dst[i * T + j] = (r < rows && c < cols) ? src[r * ld + c] : pad;
    }
  }
}

template <int64_t T, class E, class Acc, class Engine, class Finish>
inline void run_schedule(const fixed_tile_plan& plan, const E* A, int lda, const E* B, int ldb, E a_pad, E b_pad,
                         fixed_tile_buffers<T, E, Acc>& buf, Engine&& engine, Finish&& finish) {
  for (int64_t s = 0; s < plan.sub_gemms; ++s) {
    const sub_gemm step = schedule_entry(plan, s);
    load_tile<T>(A, lda, plan.m, plan.k, step.tm, step.tk, buf.a, a_pad);
    load_tile<T>(B, ldb, plan.k, plan.n, step.tk, step.tn, buf.b, b_pad);
    engine(buf.a, buf.b, buf.part);
    for (int64_t i = 0; i < T * T; ++i) {
      if constexpr (is_same_v<Acc, int32_t>)
        buf.acc[i] = step.tk == 0 ? buf.part[i] : ref::detail::wrap_add(buf.acc[i], buf.part[i]);
      else
        buf.acc[i] = step.tk == 0 ? buf.part[i] : buf.acc[i] + buf.part[i];
    }
    if (step.tk + 1 == plan.tiles_k) {  // output tile complete: write its valid corner
      for (int64_t i = 0; i < T; ++i) {
        const int64_t m = step.tm * T + i;
        if (m >= plan.m) break;
        for (int64_t j = 0; j < T; ++j) {
          const int64_t n = step.tn * T + j;
          if (n >= plan.n) break;
          finish(m, n, buf.acc[i * T + j]);
        }
      }
    }
  }
}

}  // namespace detail

/// @brief Runs C = A.B + bias (int8 in, int32 out) as the fixed-tile schedule of plan_fixed_tiles<T>;
/// bit-exact with ref::gemm_s8_s32. Engine: callable(a_tile, b_tile, part, a_zp, b_zp).
template <int64_t T = 64, class Engine = reference_engine_s8<T>>
inline status fixed_tile_gemm_s8_s32(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                                     const int32_t* bias, int32_t* C, int ldc, int32_t a_zp, int32_t b_zp,
                                     fixed_tile_buffers<T, int8_t, int32_t>& buf, Engine engine = {}) {
  if (const status s = ref::detail::check_gemm(M, N, K, A, lda, B, ldb, C, ldc); s != status::ok) return s;
  if (a_zp < -128 || a_zp > 127 || b_zp < -128 || b_zp > 127) return status::bad_quant_param;
  if (M == 0 || N == 0) return status::ok;
  if (K == 0) {
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) C[m * ldc + n] = bias != nullptr ? bias[n] : 0;
    return status::ok;
  }
  const fixed_tile_plan plan = plan_fixed_tiles<T>(M, N, K);
  detail::run_schedule<T>(
      plan, A, lda, B, ldb, static_cast<int8_t>(a_zp), static_cast<int8_t>(b_zp), buf,
      [&](const int8_t* a, const int8_t* b, int32_t* part) { engine(a, b, part, a_zp, b_zp); },
      [&](int64_t m, int64_t n, int32_t acc) {
        C[m * ldc + n] = bias != nullptr ? ref::detail::wrap_add(bias[n], acc) : acc;
      });
  return status::ok;
}

/// @brief As fixed_tile_gemm_s8_s32 with requantized int8 output; bit-exact with ref::gemm_s8.
template <int64_t T = 64, class Engine = reference_engine_s8<T>>
inline status fixed_tile_gemm_s8(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                                 const int32_t* bias, int8_t* C, int ldc, const ref::gemm_s8_params& p,
                                 fixed_tile_buffers<T, int8_t, int32_t>& buf, Engine engine = {}) {
  if (const status s = ref::detail::check_gemm(M, N, K, A, lda, B, ldb, C, ldc); s != status::ok) return s;
  if (const status s = ref::check_params(p, N); s != status::ok) return s;
  if (M == 0 || N == 0) return status::ok;
  if (K == 0) {
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) C[m * ldc + n] = ref::requantize(bias != nullptr ? bias[n] : 0, n, p);
    return status::ok;
  }
  const fixed_tile_plan plan = plan_fixed_tiles<T>(M, N, K);
  detail::run_schedule<T>(
      plan, A, lda, B, ldb, static_cast<int8_t>(p.a_zp), static_cast<int8_t>(p.b_zp), buf,
      [&](const int8_t* a, const int8_t* b, int32_t* part) { engine(a, b, part, p.a_zp, p.b_zp); },
      [&](int64_t m, int64_t n, int32_t acc) {
        const int32_t total = bias != nullptr ? ref::detail::wrap_add(bias[n], acc) : acc;
        C[m * ldc + n] = ref::requantize(total, static_cast<int>(n), p);
      });
  return status::ok;
}

/// @brief Float fixed-tile GEMM. Equals ref::gemm_f32 up to the regrouping of the K sum into
/// T-long partial sums: |error| <= 2 (K + 1) 2^-24 sum_k |a_k b_k| (+ |bias|).
template <int64_t T = 64, class Engine = reference_engine_f32<T>>
inline status fixed_tile_gemm_f32(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                                  const float* bias, float* C, int ldc, fixed_tile_buffers<T, float, float>& buf,
                                  Engine engine = {}) {
  if (const status s = ref::detail::check_gemm(M, N, K, A, lda, B, ldb, C, ldc); s != status::ok) return s;
  if (M == 0 || N == 0) return status::ok;
  if (K == 0) {
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) C[m * ldc + n] = bias != nullptr ? bias[n] : 0.0f;
    return status::ok;
  }
  const fixed_tile_plan plan = plan_fixed_tiles<T>(M, N, K, 4, 4);
  detail::run_schedule<T>(plan, A, lda, B, ldb, 0.0f, 0.0f, buf, engine, [&](int64_t m, int64_t n, float acc) {
    C[m * ldc + n] = bias != nullptr ? acc + bias[n] : acc;
  });
  return status::ok;
}

}  // namespace ctnn::kernels
