// Matrix-vector kernels for linear layers: y = W x + b, W [m x k] row-major (PyTorch's Linear
// weight), one input vector. A GEMM with a single column wastes its packing and register block
// (the column is padded to NR and all of W is re-packed per call); here W is read once, in place,
// four rows at a time against the same vector of x:
//
//   y[r..r+3] = b[r..r+3] + sum_k W[r..r+3][k] . x[k]
//
// float: two vectors of x per step and row, eight accumulators (enough to hide the multiply-add
// latency), summed across lanes at the end; the order of the additions differs from the
// reference's, so results agree within float rounding.
// int8: x - a_zp is widened once to int16 (the caller's workspace), each weight row widened to
// int16 minus b_zp, pairs multiplied and added into int32 lanes (vpmaddwd / vpdpwssd under AVX2 /
// AVX-512, a plain loop elsewhere): exact products, wrapping int32 sums, so bit-exact with
// ref::linear_s8, requantized by ref::requantize.
#pragma once
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/simd.hpp"
#include "ctnn/kernels/status.hpp"
#include "ctnn/kernels/x86.hpp"


namespace ctnn::kernels {

/// Floats ahead in each of the four rows that gemv_f32 prefetches (x86 vector builds): W is read
/// once, from L3 or memory, and the four row streams outran the hardware prefetcher. 1000 x 512
/// (2 MB): 0.93 -> 1.03-1.05 of cblas_sgemv with 128 (256, 512 alike; AMD Zen 5, medians of 31
/// interleaved rounds).
inline constexpr int gemv_f32_prefetch_floats = 128;

/// @brief y = W x (+ bias), float32; W [m x k] row-major. In place of a one-column GEMM.
inline status gemv_f32(int m, int k, const float* w, const float* x, const float* bias, float* y) {
  if (m < 0 || k < 0) return status::bad_size;
  if (m == 0) return status::ok;
  if (y == nullptr || (k > 0 && (w == nullptr || x == nullptr))) return status::null_pointer;
  using V = simd::vf32;
  constexpr int L = simd::f32_lanes;
  const int kv = k - k % (2 * L);  // columns covered by the two-vector steps
  const auto row = [w, k](int r) { return w + static_cast<ptrdiff_t>(r) * k; };
  int r = 0;
  for (; r + 4 <= m; r += 4) {
    const float* w0 = row(r);
    const float* w1 = row(r + 1);
    const float* w2 = row(r + 2);
    const float* w3 = row(r + 3);
    V a0{}, a1{}, a2{}, a3{}, c0{}, c1{}, c2{}, c3{};
    for (int j = 0; j < kv; j += 2 * L) {
#if CTNN_KERNELS_X86
      if constexpr (L >= 8) {  // a line (16 floats) at a time; the address may lie past W's end
        const float* const rows4[4] = {w0, w1, w2, w3};
        for (int q = 0; q < 2 * L; q += 16)
          for (const float* wr : rows4)
            __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(wr) +
                                                             static_cast<uintptr_t>(j + q + gemv_f32_prefetch_floats) * sizeof(float)));
      }
#endif
      const V x0 = simd::load<V>(x + j), x1 = simd::load<V>(x + j + L);
      a0 += simd::load<V>(w0 + j) * x0;
      c0 += simd::load<V>(w0 + j + L) * x1;
      a1 += simd::load<V>(w1 + j) * x0;
      c1 += simd::load<V>(w1 + j + L) * x1;
      a2 += simd::load<V>(w2 + j) * x0;
      c2 += simd::load<V>(w2 + j + L) * x1;
      a3 += simd::load<V>(w3 + j) * x0;
      c3 += simd::load<V>(w3 + j + L) * x1;
    }
    a0 += c0;
    a1 += c1;
    a2 += c2;
    a3 += c3;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
#if defined(__AVX512F__) && CTNN_KERNELS_X86
    if constexpr (L == 16) {  // halving trees, the four rows side by side (the lane loop below,
      s0 = _mm512_reduce_add_ps(a0);  // which GCC vectorizes across the rows, was 12 % of a
      s1 = _mm512_reduce_add_ps(a1);  // 1000 x 512 call, AMD Zen 5)
      s2 = _mm512_reduce_add_ps(a2);
      s3 = _mm512_reduce_add_ps(a3);
    } else
#endif
      for (int l = 0; l < L; ++l) {
        s0 += a0[l];
        s1 += a1[l];
        s2 += a2[l];
        s3 += a3[l];
      }
    for (int j = kv; j < k; ++j) {
      s0 += w0[j] * x[j];
      s1 += w1[j] * x[j];
      s2 += w2[j] * x[j];
      s3 += w3[j] * x[j];
    }
    if (bias != nullptr) {
      s0 += bias[r];
      s1 += bias[r + 1];
      s2 += bias[r + 2];
      s3 += bias[r + 3];
    }
    y[r] = s0;
    y[r + 1] = s1;
    y[r + 2] = s2;
    y[r + 3] = s3;
  }
  for (; r < m; ++r) {
    const float* w0 = row(r);
    V a0{}, c0{};
    for (int j = 0; j < kv; j += 2 * L) {
      a0 += simd::load<V>(w0 + j) * simd::load<V>(x + j);
      c0 += simd::load<V>(w0 + j + L) * simd::load<V>(x + j + L);
    }
    a0 += c0;
    float s0 = 0.0f;
    for (int l = 0; l < L; ++l) s0 += a0[l];
    for (int j = kv; j < k; ++j) s0 += w0[j] * x[j];
    y[r] = bias != nullptr ? s0 + bias[r] : s0;
  }
  return status::ok;
}

/// @brief Workspace bytes of gemv_s8: the input minus its zero point as int16.
constexpr size_t gemv_s8_workspace_bytes(int64_t k) { return k <= 0 ? 0 : 2u * static_cast<size_t>(k); }

namespace detail {

/// sum_j xs[j] * (w[j] - b_zp) for four rows, wrapping int32 (j < k; xs: x - a_zp as int16).
inline void dot4_s8(int k, const int16_t* xs, const int8_t* w0, const int8_t* w1, const int8_t* w2,
                    const int8_t* w3, int32_t b_zp, int32_t* s) {
  int j = 0;
  uint32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
#if defined(__AVX512BW__) && !defined(CTNN_PORTABLE_KERNELS)
  {
    const __m512i zp = _mm512_set1_epi16(static_cast<int16_t>(b_zp));
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    for (; j + 32 <= k; j += 32) {
      const __m512i xv = _mm512_loadu_si512(xs + j);
      const auto wv = [&](const int8_t* wr) {
        return _mm512_sub_epi16(_mm512_cvtepi8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(wr + j))), zp);
      };
#if defined(__AVX512VNNI__)
      a0 = _mm512_dpwssd_epi32(a0, xv, wv(w0));
      a1 = _mm512_dpwssd_epi32(a1, xv, wv(w1));
      a2 = _mm512_dpwssd_epi32(a2, xv, wv(w2));
      a3 = _mm512_dpwssd_epi32(a3, xv, wv(w3));
#else
      a0 = _mm512_add_epi32(a0, _mm512_madd_epi16(xv, wv(w0)));
      a1 = _mm512_add_epi32(a1, _mm512_madd_epi16(xv, wv(w1)));
      a2 = _mm512_add_epi32(a2, _mm512_madd_epi16(xv, wv(w2)));
      a3 = _mm512_add_epi32(a3, _mm512_madd_epi16(xv, wv(w3)));
#endif
    }
    // lanes summed through memory: GCC 12's _mm512_reduce_add_epi32 trips -Wmaybe-uninitialized
    // inside its own header (bug 105593), and this runs once per four rows
    const auto hsum = [](__m512i v) {
      alignas(64) uint32_t lanes[16];
      _mm512_store_si512(lanes, v);
      uint32_t t = 0;
      for (uint32_t l : lanes) t += l;
      return t;
    };
    t0 = hsum(a0);
    t1 = hsum(a1);
    t2 = hsum(a2);
    t3 = hsum(a3);
  }
#elif defined(__AVX2__) && !defined(CTNN_PORTABLE_KERNELS)
  {
    const __m256i zp = _mm256_set1_epi16(static_cast<int16_t>(b_zp));
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (; j + 16 <= k; j += 16) {
      const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xs + j));
      const auto wv = [&](const int8_t* wr) {
        return _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(wr + j))), zp);
      };
      a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(xv, wv(w0)));
      a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(xv, wv(w1)));
      a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(xv, wv(w2)));
      a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(xv, wv(w3)));
    }
    const auto hsum = [](__m256i v) {
      __m128i h = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
      h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4e));
      h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xb1));
      return static_cast<uint32_t>(_mm_cvtsi128_si32(h));
    };
    t0 = hsum(a0);
    t1 = hsum(a1);
    t2 = hsum(a2);
    t3 = hsum(a3);
  }
#endif
  for (; j < k; ++j) {
    const int32_t xj = xs[j];
    t0 += static_cast<uint32_t>(xj * (w0[j] - b_zp));
    t1 += static_cast<uint32_t>(xj * (w1[j] - b_zp));
    t2 += static_cast<uint32_t>(xj * (w2[j] - b_zp));
    t3 += static_cast<uint32_t>(xj * (w3[j] - b_zp));
  }
  s[0] = static_cast<int32_t>(t0);
  s[1] = static_cast<int32_t>(t1);
  s[2] = static_cast<int32_t>(t2);
  s[3] = static_cast<int32_t>(t3);
}

}  // namespace detail

/// @brief y = requantize(W (x - a_zp) ... ) as ref::linear_s8 for one input vector, bit-exact;
/// W [m x k] int8 row-major with zero point p.b_zp. workspace: gemv_s8_workspace_bytes(k)
/// bytes, 2-byte aligned (the widened input).
inline status gemv_s8(int m, int k, const int8_t* w, const int8_t* x, const int32_t* bias, int8_t* y,
                      const ref::gemm_s8_params& p, void* workspace, size_t workspace_bytes) {
  if (m < 0 || k < 0) return status::bad_size;
  if (m == 0) return status::ok;
  if (y == nullptr || (k > 0 && (w == nullptr || x == nullptr))) return status::null_pointer;
  if (const status s = ref::check_params(p, m); s != status::ok) return s;
  if (k > 0 && workspace == nullptr) return status::null_pointer;
  if ((reinterpret_cast<uintptr_t>(workspace) & 1u) != 0) return status::bad_size;
  if (workspace_bytes < gemv_s8_workspace_bytes(k)) return status::scratch_too_small;
  auto* xs = static_cast<int16_t*>(workspace);
  for (int j = 0; j < k; ++j) xs[j] = static_cast<int16_t>(x[j] - p.a_zp);
  const auto row = [w, k](int r) { return w + static_cast<ptrdiff_t>(r) * k; };
  const auto finish = [&](int r, int32_t dot) {
    const int32_t acc = ref::detail::wrap_add(bias != nullptr ? bias[r] : 0, dot);
    y[r] = ref::requantize(acc, r, p);
  };
  int r = 0;
  int32_t s[4];
  for (; r + 4 <= m; r += 4) {
    detail::dot4_s8(k, xs, row(r), row(r + 1), row(r + 2), row(r + 3), p.b_zp, s);
    for (int i = 0; i < 4; ++i) finish(r + i, s[i]);
  }
  if (r < m) {  // the last 1 to 3 rows: the same kernel, the last row standing in for the missing ones
    const auto last = [&](int i) { return row(r + i < m ? r + i : m - 1); };
    detail::dot4_s8(k, xs, last(0), last(1), last(2), last(3), p.b_zp, s);
    for (int i = 0; r + i < m; ++i) finish(r + i, s[i]);
  }
  return status::ok;
}

}  // namespace ctnn::kernels
