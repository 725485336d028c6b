// Reference GEMMs: slow, obviously right, the golden model of the tiled kernels, the fixed-tile
// executor and the accelerator testbench. Row-major with leading dimensions:
//
//   C[M x N] = A[M x K] . B[K x N] (+ bias[n])      A: activations, B: weights,
//                                                   column n of C is output channel n.
//
// int8: acc[m][n] = bias[n] + sum_k (A[m][k] - a_zp) * (B[k][n] - b_zp), accumulated in int32
// modulo 2^32 (the optimized kernels reorder the sum; wrapping keeps them bit-exact and UB-free),
// then out = clamp(out_zp + multiply_by_quantized_multiplier(acc, mult[n], shift[n]), act_min, act_max).
#pragma once
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/status.hpp"

namespace ctnn::ref {

using kernels::status;

/// @brief Requantization parameters of an int8 GEMM (TFLite convention, see quant.hpp).
struct gemm_s8_params {
  int32_t a_zp;                 ///< activation (A) zero point, in [-128, 127]
  int32_t b_zp;                 ///< weight (B) zero point, usually 0, in [-128, 127]
  int32_t out_zp;               ///< output zero point, in [-128, 127]
  const int32_t* multiplier;    ///< per column (per_channel) or multiplier[0] for all
  const int32_t* shift;         ///< same indexing as multiplier; > 0 left, < 0 right
  bool per_channel;
  int32_t act_min;              ///< output clamp, e.g. ReLU = [out_zp, 127]
  int32_t act_max;
};

namespace detail {

inline int32_t wrap_add(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrap_mul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

inline status check_gemm(int M, int N, int K, const void* A, int lda, const void* B, int ldb,
                         const void* C, int ldc) {
  if (M < 0 || N < 0 || K < 0) return status::bad_size;
  if (M == 0 || N == 0) return status::ok;
  if ((K > 0 && (A == nullptr || B == nullptr)) || C == nullptr) return status::null_pointer;
  if ((K > 0 && (lda < K || ldb < N)) || ldc < N) return status::bad_leading_dim;
  return status::ok;
}

inline bool in_s8(int32_t v) { return v >= -128 && v <= 127; }

}  // namespace detail

/// @brief Checks int8 GEMM requantization parameters (n_cols: columns whose multiplier is read).
inline status check_params(const gemm_s8_params& p, int n_cols) {
  if (!detail::in_s8(p.a_zp) || !detail::in_s8(p.b_zp) || !detail::in_s8(p.out_zp))
    return status::bad_quant_param;
  if (p.act_min > p.act_max || !detail::in_s8(p.act_min) || !detail::in_s8(p.act_max))
    return status::bad_quant_param;
  if (n_cols <= 0) return status::ok;
  if (p.multiplier == nullptr || p.shift == nullptr) return status::null_pointer;
  const int n = p.per_channel ? n_cols : 1;
  for (int i = 0; i < n; ++i)
    if (!quant::valid(quant::requant{p.multiplier[i], p.shift[i]})) return status::bad_quant_param;
  return status::ok;
}

/// @brief C = A.B + bias, int8 in, int32 out (no requantization). Returns a status.
inline status try_gemm_s8_s32(int M, int N, int K, const int8_t* A, int lda, const int8_t* B,
                              int ldb, const int32_t* bias, int32_t* C, int ldc, int32_t a_zp,
                              int32_t b_zp) {
  if (const status s = detail::check_gemm(M, N, K, A, lda, B, ldb, C, ldc); s != status::ok) return s;
  if (!detail::in_s8(a_zp) || !detail::in_s8(b_zp)) return status::bad_quant_param;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int32_t acc = bias != nullptr ? bias[n] : 0;
      for (int k = 0; k < K; ++k) {
        const int32_t a = static_cast<int32_t>(A[static_cast<ptrdiff_t>(m) * lda + k]) - a_zp;
        const int32_t b = static_cast<int32_t>(B[static_cast<ptrdiff_t>(k) * ldb + n]) - b_zp;
        acc = detail::wrap_add(acc, a * b);  // |a*b| <= 65536: the product cannot overflow
      }
      C[static_cast<ptrdiff_t>(m) * ldc + n] = acc;
    }
  return status::ok;
}

/// @brief As try_gemm_s8_s32; on bad arguments it writes nothing.
inline void gemm_s8_s32(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                        const int32_t* bias, int32_t* C, int ldc, int32_t a_zp, int32_t b_zp) {
  (void)try_gemm_s8_s32(M, N, K, A, lda, B, ldb, bias, C, ldc, a_zp, b_zp);
}

/// @brief Requantizes one accumulator of column n (shared by every int8 kernel).
inline int8_t requantize(int32_t acc, int n, const gemm_s8_params& p) {
  const int i = p.per_channel ? n : 0;
  const int32_t v = quant::multiply_by_quantized_multiplier(acc, p.multiplier[i], p.shift[i]);
  // out_zp + v cannot overflow in a way that matters: clamp in int64.
  const int64_t o = static_cast<int64_t>(v) + p.out_zp;
  const int64_t c = o < p.act_min ? p.act_min : (o > p.act_max ? p.act_max : o);
  return static_cast<int8_t>(c);
}

/// @brief C = requant(A.B + bias), int8 in and out. Returns a status.
inline status try_gemm_s8(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                          const int32_t* bias, int8_t* C, int ldc, const gemm_s8_params& p) {
  if (const status s = detail::check_gemm(M, N, K, A, lda, B, ldb, C, ldc); s != status::ok) return s;
  if (const status s = check_params(p, N); s != status::ok) return s;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int32_t acc = bias != nullptr ? bias[n] : 0;
      for (int k = 0; k < K; ++k) {
        const int32_t a = static_cast<int32_t>(A[static_cast<ptrdiff_t>(m) * lda + k]) - p.a_zp;
        const int32_t b = static_cast<int32_t>(B[static_cast<ptrdiff_t>(k) * ldb + n]) - p.b_zp;
        acc = detail::wrap_add(acc, a * b);
      }
      C[static_cast<ptrdiff_t>(m) * ldc + n] = requantize(acc, n, p);
    }
  return status::ok;
}

/// @brief As try_gemm_s8; on bad arguments it writes nothing.
inline void gemm_s8(int M, int N, int K, const int8_t* A, int lda, const int8_t* B, int ldb,
                    const int32_t* bias, int8_t* C, int ldc, const gemm_s8_params& p) {
  (void)try_gemm_s8(M, N, K, A, lda, B, ldb, bias, C, ldc, p);
}

/// @brief C = A.B + bias in float32, summing k in increasing order. Returns a status.
inline status try_gemm_f32(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                           const float* bias, float* C, int ldc) {
  if (const status s = detail::check_gemm(M, N, K, A, lda, B, ldb, C, ldc); s != status::ok) return s;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc += A[static_cast<ptrdiff_t>(m) * lda + k] * B[static_cast<ptrdiff_t>(k) * ldb + n];
      C[static_cast<ptrdiff_t>(m) * ldc + n] = bias != nullptr ? acc + bias[n] : acc;
    }
  return status::ok;
}

/// @brief As try_gemm_f32; on bad arguments it writes nothing.
inline void gemm_f32(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                     const float* bias, float* C, int ldc) {
  (void)try_gemm_f32(M, N, K, A, lda, B, ldb, bias, C, ldc);
}

}  // namespace ctnn::ref
