// Scalar int8 kernels for cores without SIMD (rv32im): 32-bit index arithmetic, accumulators in
// registers, weights used in place, requantization in 32-bit multiplies. Each is bit-exact with its
// reference in ref_layers.hpp (tests/unit/test_kernels_scalar.cpp on random and edge shapes);
// layers.hpp runs them when CTNN_KERNELS_SCALAR is set (RISC-V by default) and keeps the tiled
// GEMM and the AVX-512 paths elsewhere.
//
// Zero points leave the inner loops: every accumulator is taken modulo 2^32, as the reference's
// wrapping adds are, so with x the activation (zero point az) and w the weight (zero point bz)
//
//   sum_k (x - az)(w - bz) = sum_k x w  -  az sum_k w  -  bz sum_k x  +  K az bz
//
// conv: the weight sums are taken per output channel and block of pixels, the activation sums
// per pixel while the pixels are lowered (only when bz != 0).
//
// conv through a pixel-major im2col of a block of up to 64 pixels (the buffer the caller has:
// the plan's panel or the GEMM workspace), then tiles of 4 output channels x 2 pixels:
//
//   col [P/2][K][2]: the patches of pixels p, p+1 interleaved, K = (in_c/groups) kh kw in the
//                    weights' OIHW order (an odd last pixel alone: [K])
//   w   [oc][K]:     used in place
//
//   acc[i][j] += w[oc+i][k] * col[p/2][k][j]      6 loads feed 8 multiply-adds per k
//
// depthwise: 3x3 keeps the nine (w - bz) in registers, over a copy of the plane padded with the
// input zero point (or, for planes beyond 1 KiB, over the windows inside the input with the
// border pixels on their clipped windows). linear: the input minus its zero point once into an
// int16 row, then 4 output rows at a time. add: when one input's rescaling is exact (the larger
// scale's), two table lookups, an add and a shift per element (the lattice path: add_s8);
// otherwise per-input tables and one 64-bit floor per element.
#pragma once
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/status.hpp"

#if !defined(CTNN_KERNELS_SCALAR)
#if defined(__riscv)
#define CTNN_KERNELS_SCALAR 1
#else
#define CTNN_KERNELS_SCALAR 0
#endif
#endif

namespace ctnn::kernels::scalar {

/// @brief One channel's requantization, prepared once: bit-exact with ref::requantize for the
/// multipliers quant::valid accepts (0 or [2^30, 2^31): the doubling high multiply's single
/// saturating case, INT32_MIN x INT32_MIN, cannot occur).
///
///   s = x << left (wrapping);  v = (s m + 2^30) >> 31     the doubling high multiply: its nudge
///                                                         rounds half up for either sign
///   q = v >> right, + 1 when (v & mask) > half + (v < 0)  the rounding divide, ties away from 0
///   clamp(q, lo, hi) + zp                                 lo, hi: the activation range minus zp
struct requant32 {
  int32_t mult = 0;
  uint32_t left = 0;
  uint32_t right = 0;
  int32_t mask = 0, half = 0;
  int32_t lo = 0, hi = 0, zp = 0;
};

inline requant32 make_requant32(int32_t multiplier, int32_t shift, int32_t out_zp, int32_t act_min, int32_t act_max) {
  requant32 r{};
  r.mult = multiplier;
  r.left = shift > 0 ? static_cast<uint32_t>(shift) : 0u;
  r.right = shift > 0 ? 0u : static_cast<uint32_t>(-shift);
  r.mask = static_cast<int32_t>((uint32_t{1} << r.right) - 1u);  // right <= 31
  r.half = r.mask >> 1;
  r.lo = act_min - out_zp;
  r.hi = act_max - out_zp;
  r.zp = out_zp;
  return r;
}

inline requant32 channel_requant(const ref::gemm_s8_params& p, int32_t ch) {
  const int32_t i = p.per_channel ? ch : 0;
  return make_requant32(p.multiplier[i], p.shift[i], p.out_zp, p.act_min, p.act_max);
}

/// quant::multiply_by_quantized_multiplier(x, r.mult, shift) in 32-bit operations (a mul, a mulh).
inline int32_t mbqm(int32_t x, const requant32& r) {
  const auto s = static_cast<int32_t>(static_cast<uint32_t>(x) << r.left);
  const int64_t prod = static_cast<int64_t>(s) * r.mult;
  const auto v = static_cast<int32_t>((prod + (int64_t{1} << 30)) >> 31);
  const int32_t thr = r.half + static_cast<int32_t>(static_cast<uint32_t>(v) >> 31);
  return (v >> r.right) + ((v & r.mask) > thr ? 1 : 0);
}

/// The int8 output of an accumulator (ref::requantize).
inline int8_t requantize(uint32_t acc, const requant32& r) {
  int32_t v = mbqm(static_cast<int32_t>(acc), r);
  v = v < r.lo ? r.lo : v;
  v = v > r.hi ? r.hi : v;
  return static_cast<int8_t>(v + r.zp);
}

namespace detail {

/// Ends one k of an unrolled dot-product loop: no load moves above this point, and the given
/// accumulators are held in registers here. Without it GCC hoists all the step's loads to its
/// top and sums a step's products first (reassociation), which runs out of registers: the
/// accumulators were spilled (conv 4 x 2 tile 4.6 instructions per MAC at -O2, 3.76 with it;
/// linear needs only the load barrier: 4.22 -> 3.90, and holding its 4 accumulators costs moves
/// at -Os).
__attribute__((always_inline)) inline void in_register(uint32_t& v) { __asm__("" : "+r"(v)); }
template <class... Acc>
__attribute__((always_inline)) inline void one_k_at_a_time(Acc&... acc) {
  (in_register(acc), ...);
  __asm__ volatile("" ::: "memory");
}

inline int32_t ceil_div32(int32_t a, int32_t b) { return (a + b - 1) / b; }  // a >= 0, b > 0

/// The conv geometry as 32-bit numbers (conv_geometry::valid bounds every element count by 2^31).
struct conv32 {
  int32_t in_h, in_w, kh, kw, sh, sw, pt, pl, dh, dw, oh, ow, icg, ocg, ksz, k;
  explicit conv32(const conv_geometry& g)
      : in_h(static_cast<int32_t>(g.in_h)), in_w(static_cast<int32_t>(g.in_w)), kh(static_cast<int32_t>(g.kh)),
        kw(static_cast<int32_t>(g.kw)), sh(static_cast<int32_t>(g.sh)), sw(static_cast<int32_t>(g.sw)),
        pt(static_cast<int32_t>(g.pt)), pl(static_cast<int32_t>(g.pl)), dh(static_cast<int32_t>(g.dh)),
        dw(static_cast<int32_t>(g.dw)), oh(static_cast<int32_t>(g.out_h())), ow(static_cast<int32_t>(g.out_w())),
        icg(static_cast<int32_t>(g.in_c_per_group())), ocg(static_cast<int32_t>(g.out_c_per_group())),
        ksz(static_cast<int32_t>(g.kh * g.kw)), k(static_cast<int32_t>(g.gemm_k())) {}
};

/// Lowers pixels [p0, p0 + n) of one group (output row-major) into col, pixels in pairs with
/// their patches interleaved (k-major: col[pair][k][2], 2K bytes a pair; an odd last pixel
/// alone, K bytes), so one pointer walks both pixels of a tile. Padding taps hold pad (the input
/// zero point: it adds (az - az) w = 0, as the reference's skipped taps do). xsum[j]: the sum of
/// pixel j's patch (wrapping), when xsum != nullptr.
inline void im2col_pixels(const conv32& c, const int8_t* in_g, int32_t p0, int32_t n, int8_t pad, int8_t* col,
                          int32_t* xsum) {
  const int32_t plane = c.in_h * c.in_w;
  int32_t oy = p0 / c.ow, ox = p0 - oy * c.ow;
  for (int32_t j = 0; j < n; ++j) {
    const int32_t y0 = oy * c.sh - c.pt, x0 = ox * c.sw - c.pl;
    const int32_t step = (j | 1) < n ? 2 : 1;  // stride between k of this pixel
    int8_t* const first = col + (j >> 1) * 2 * c.k + (j & 1);
    int8_t* dst = first;
    const bool inside = y0 >= 0 && x0 >= 0 && y0 + (c.kh - 1) * c.dh < c.in_h && x0 + (c.kw - 1) * c.dw < c.in_w;
    for (int32_t ic = 0; ic < c.icg; ++ic) {
      const int8_t* pl = in_g + ic * plane;
      for (int32_t ky = 0; ky < c.kh; ++ky) {
        const int32_t iy = y0 + ky * c.dh;
        if (inside) {
          const int8_t* row = pl + iy * c.in_w + x0;
          for (int32_t kx = 0; kx < c.kw; ++kx, dst += step) *dst = row[kx * c.dw];
        } else if (iy < 0 || iy >= c.in_h) {
          for (int32_t kx = 0; kx < c.kw; ++kx, dst += step) *dst = pad;
        } else {
          const int8_t* row = pl + iy * c.in_w;
          for (int32_t kx = 0; kx < c.kw; ++kx, dst += step) {
            const int32_t ix = x0 + kx * c.dw;
            *dst = (ix >= 0 && ix < c.in_w) ? row[ix] : pad;
          }
        }
      }
    }
    if (xsum != nullptr) {
      uint32_t sum = 0;
      for (int32_t t = 0; t < c.k; ++t) sum += static_cast<uint32_t>(static_cast<int32_t>(first[t * step]));
      xsum[j] = static_cast<int32_t>(sum);
    }
    if (++ox == c.ow) {
      ox = 0;
      ++oy;
    }
  }
}

/// acc[i][j] = sum_k w[i][k] * x[k * NP + j] for MO weight rows (stride ldw) and the NP
/// interleaved pixels of col, wrapping.
template <int MO, int NP>
inline void dot_tile(int32_t K, const int8_t* w, int32_t ldw, const int8_t* x, uint32_t (&out)[MO][NP]) {
  const int8_t* wp[MO];
  for (int i = 0; i < MO; ++i) wp[i] = w + i * ldw;
  // local accumulators: the int8 loads may alias any object, so `out` is written once at the end
  uint32_t a[MO][NP] = {};
  for (int32_t k = 0; k < K; ++k) {
    int32_t xv[NP];
    for (int j = 0; j < NP; ++j) xv[j] = x[k * NP + j];
    for (int i = 0; i < MO; ++i) {
      const int32_t wv = wp[i][k];
      for (int j = 0; j < NP; ++j) a[i][j] += static_cast<uint32_t>(wv * xv[j]);
    }
  }
  for (int i = 0; i < MO; ++i)
    for (int j = 0; j < NP; ++j) out[i][j] = a[i][j];
}

/// The 4 x 2 tile, written out: 8 accumulators, 5 pointers, four k per step with immediate
/// offsets (6 loads feed 8 multiply-adds per k).
template <>
inline void dot_tile<4, 2>(int32_t K, const int8_t* w, int32_t ldw, const int8_t* x, uint32_t (&out)[4][2]) {
  const int8_t *w0 = w, *w1 = w + ldw, *w2 = w + 2 * ldw, *w3 = w + 3 * ldw;
  uint32_t a00 = 0, a01 = 0, a10 = 0, a11 = 0, a20 = 0, a21 = 0, a30 = 0, a31 = 0;
  auto step = [&](int32_t q) __attribute__((always_inline)) {
    const int32_t u0 = x[2 * q], u1 = x[2 * q + 1];
    int32_t v = w0[q];
    a00 += static_cast<uint32_t>(v * u0), a01 += static_cast<uint32_t>(v * u1);
    v = w1[q];
    a10 += static_cast<uint32_t>(v * u0), a11 += static_cast<uint32_t>(v * u1);
    v = w2[q];
    a20 += static_cast<uint32_t>(v * u0), a21 += static_cast<uint32_t>(v * u1);
    v = w3[q];
    a30 += static_cast<uint32_t>(v * u0), a31 += static_cast<uint32_t>(v * u1);
    one_k_at_a_time(a00, a01, a10, a11, a20, a21, a30, a31);
  };
  const int8_t* const w0_end = w0 + (K & ~3);
  while (w0 != w0_end) {
    step(0), step(1), step(2), step(3);
    x += 8, w0 += 4, w1 += 4, w2 += 4, w3 += 4;
  }
  for (int32_t q = 0; q < (K & 3); ++q) step(q);
  out[0][0] = a00, out[0][1] = a01, out[1][0] = a10, out[1][1] = a11;
  out[2][0] = a20, out[2][1] = a21, out[3][0] = a30, out[3][1] = a31;
}

/// One tile of MO channels x NP pixels: the dot products, the zero-point terms, requantization.
template <int MO, int NP>
inline void conv_tile(int32_t K, const int8_t* w, const int8_t* col, const uint32_t* base, const int32_t* xsum,
                      uint32_t bz, const requant32* rq, int8_t* out, int32_t ldo) {
  uint32_t acc[MO][NP];
  dot_tile<MO, NP>(K, w, K, col, acc);
#pragma GCC unroll 4
  for (int i = 0; i < MO; ++i)
#pragma GCC unroll 4
    for (int j = 0; j < NP; ++j) {
      uint32_t a = acc[i][j] + base[i];
      if (xsum != nullptr) a -= bz * static_cast<uint32_t>(xsum[j]);
      out[i * ldo + j] = requantize(a, rq[i]);
    }
}

}  // namespace detail

/// @brief Pixels conv2d_s8 lowers at once into a buffer of `bytes` bytes (0: fewer than 2 fit).
inline int32_t conv_block_pixels(const conv_geometry& g, size_t bytes) {
  const size_t k = static_cast<size_t>(g.gemm_k());
  const size_t n = k == 0 ? 0 : bytes / k;
  const size_t cap = 64;  // the activation sums live on the stack
  return n < 2 ? 0 : static_cast<int32_t>(n < cap ? n : cap);
}

/// @brief conv2d int8, not depthwise, through a pixel-major im2col of blocks of pixels into
/// `col` (`col_bytes` bytes: conv_block_pixels(g, col_bytes) >= 2). Bit-exact with ref::conv2d_s8.
inline status conv2d_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias, int8_t* out,
                        const ref::gemm_s8_params& p, void* col_buf, size_t col_bytes) {
  if (!g.valid()) return status::bad_geometry;
  if (in == nullptr || w == nullptr || out == nullptr || col_buf == nullptr) return status::null_pointer;
  if (const status s = ref::check_params(p, static_cast<int>(g.out_c)); s != status::ok) return s;
  const int32_t block = conv_block_pixels(g, col_bytes);
  if (block == 0) return status::scratch_too_small;
  const detail::conv32 c(g);
  const int32_t npix = c.oh * c.ow, K = c.k;
  const uint32_t az = static_cast<uint32_t>(p.a_zp), bz = static_cast<uint32_t>(p.b_zp);
  const uint32_t k_term = static_cast<uint32_t>(K) * az * bz;
  auto* col = static_cast<int8_t*>(col_buf);
  int32_t xsum_buf[64];
  int32_t* xsum = p.b_zp != 0 ? xsum_buf : nullptr;
  const auto groups = static_cast<int32_t>(g.groups);
  for (int32_t grp = 0; grp < groups; ++grp) {
    const int8_t* in_g = in + grp * c.icg * c.in_h * c.in_w;
    for (int32_t p0 = 0; p0 < npix; p0 += block) {
      const int32_t n = npix - p0 < block ? npix - p0 : block;
      detail::im2col_pixels(c, in_g, p0, n, static_cast<int8_t>(p.a_zp), col, xsum);
      for (int32_t o = 0; o < c.ocg;) {
        const int32_t oc = grp * c.ocg + o;
        const int32_t mo = c.ocg - o >= 4 ? 4 : 1;
        uint32_t base[4];
        requant32 rq[4];
        for (int32_t i = 0; i < mo; ++i) {
          const int8_t* wr = w + (oc + i) * K;
          uint32_t ws = 0;
          if (az != 0)
            for (int32_t t = 0; t < K; ++t) ws += static_cast<uint32_t>(static_cast<int32_t>(wr[t]));
          base[i] = (bias != nullptr ? static_cast<uint32_t>(bias[oc + i]) : 0u) - az * ws + k_term;
          rq[i] = channel_requant(p, oc + i);
        }
        const int8_t* wo = w + oc * K;
        int8_t* dst = out + oc * npix + p0;
        int32_t j = 0;
        if (mo == 4) {
          for (; j + 2 <= n; j += 2)
            detail::conv_tile<4, 2>(K, wo, col + j * K, base, xsum != nullptr ? xsum + j : nullptr, bz, rq, dst + j, npix);
          if (j < n) detail::conv_tile<4, 1>(K, wo, col + j * K, base, xsum != nullptr ? xsum + j : nullptr, bz, rq, dst + j, npix);
        } else {
          for (; j + 2 <= n; j += 2)
            detail::conv_tile<1, 2>(K, wo, col + j * K, base, xsum != nullptr ? xsum + j : nullptr, bz, rq, dst + j, npix);
          if (j < n) detail::conv_tile<1, 1>(K, wo, col + j * K, base, xsum != nullptr ? xsum + j : nullptr, bz, rq, dst + j, npix);
        }
        o += mo;
      }
    }
  }
  return status::ok;
}

/// @brief Depthwise conv2d int8 (groups == in_c, out_c = in_c * multiplier), bit-exact with
/// ref::conv2d_s8. 3x3 with dw == 1: the nine taps in registers, over a copy of the plane padded
/// with the input zero point when it fits 1 KiB (every pixel the same loop), else over the
/// windows inside the input; border pixels and other kernels walk their clipped window.
inline status depthwise_conv2d_s8(const conv_geometry& g, const int8_t* in, const int8_t* w, const int32_t* bias,
                                  int8_t* out, const ref::gemm_s8_params& p) {
  if (!g.valid() || !g.depthwise()) return status::bad_geometry;
  if (in == nullptr || w == nullptr || out == nullptr) return status::null_pointer;
  if (const status s = ref::check_params(p, static_cast<int>(g.out_c)); s != status::ok) return s;
  const detail::conv32 c(g);
  const auto out_c = static_cast<int32_t>(g.out_c), mult = static_cast<int32_t>(g.out_c / g.in_c);
  const int32_t az = p.a_zp, bz = p.b_zp;
  // interior rows [y_lo, y_hi) and columns [x_lo, x_hi): every tap inside the input
  const int32_t y_lo = detail::ceil_div32(c.pt, c.sh), x_lo = detail::ceil_div32(c.pl, c.sw);
  const int32_t y_last = c.in_h - 1 - (c.kh - 1) * c.dh + c.pt, x_last = c.in_w - 1 - (c.kw - 1) * c.dw + c.pl;
  int32_t y_hi = y_last < 0 ? 0 : y_last / c.sh + 1, x_hi = x_last < 0 ? 0 : x_last / c.sw + 1;
  y_hi = y_hi > c.oh ? c.oh : y_hi;
  x_hi = x_hi > c.ow ? c.ow : x_hi;
  const bool three = c.kh == 3 && c.kw == 3 && c.dw == 1;
  const bool fast3 = three && y_lo < y_hi && x_lo < x_hi;
  const int32_t plane = c.in_h * c.in_w;
  // a 3x3 plane whose padded copy fits 1 KiB of stack runs every pixel through the 9-tap loop
  const int32_t pw = c.in_w + c.pl + static_cast<int32_t>(g.pr), ph = c.in_h + c.pt + static_cast<int32_t>(g.pb);
  const bool use_pad = three && pw * ph <= 1024;
  int8_t padded[1024];
  int32_t padded_ic = -1;
  for (int32_t oc = 0; oc < out_c; ++oc) {
    const int8_t* src = in + (oc / mult) * plane;
    const int8_t* k = w + oc * c.ksz;
    int8_t* o = out + oc * c.oh * c.ow;
    const uint32_t b = bias != nullptr ? static_cast<uint32_t>(bias[oc]) : 0u;
    const requant32 rq = channel_requant(p, oc);
    // border pixel (or any pixel of a kernel other than 3x3): the reference's sum over the
    // taps inside the input
    auto clipped = [&](int32_t oy, int32_t ox) {
      uint32_t acc = b;
      const int32_t y0 = oy * c.sh - c.pt, x0 = ox * c.sw - c.pl;
      for (int32_t ky = 0; ky < c.kh; ++ky) {
        const int32_t iy = y0 + ky * c.dh;
        if (iy < 0 || iy >= c.in_h) continue;
        const int8_t* row = src + iy * c.in_w;
        for (int32_t kx = 0; kx < c.kw; ++kx) {
          const int32_t ix = x0 + kx * c.dw;
          if (ix >= 0 && ix < c.in_w) acc += static_cast<uint32_t>((row[ix] - az) * (k[ky * c.kw + kx] - bz));
        }
      }
      o[oy * c.ow + ox] = requantize(acc, rq);
    };
    if (!fast3 && !use_pad) {
      for (int32_t oy = 0; oy < c.oh; ++oy)
        for (int32_t ox = 0; ox < c.ow; ++ox) clipped(oy, ox);
      continue;
    }
    const int32_t k0 = k[0] - bz, k1 = k[1] - bz, k2 = k[2] - bz, k3 = k[3] - bz, k4 = k[4] - bz, k5 = k[5] - bz,
                  k6 = k[6] - bz, k7 = k[7] - bz, k8 = k[8] - bz;
    const uint32_t base =
        b - static_cast<uint32_t>(az) * static_cast<uint32_t>(k0 + k1 + k2 + k3 + k4 + k5 + k6 + k7 + k8);
    if (use_pad) {
      const int32_t ic = oc / mult;
      if (ic != padded_ic) {  // the plane with its padding, which holds az: (az - az) w = 0, the skipped taps
        __builtin_memset(padded, static_cast<int8_t>(az), static_cast<size_t>(pw * ph));
        for (int32_t y = 0; y < c.in_h; ++y)
          __builtin_memcpy(padded + (y + c.pt) * pw + c.pl, src + y * c.in_w, static_cast<size_t>(c.in_w));
        padded_ic = ic;
      }
      const int32_t step = c.dh * pw, next_row = c.sh * pw;
      const int8_t* row = padded;
      int8_t* dst = o;
      for (int32_t oy = 0; oy < c.oh; ++oy, row += next_row) {
        const int8_t* r0 = row;
        for (int32_t ox = 0; ox < c.ow; ++ox, r0 += c.sw) {
          const int8_t* r1 = r0 + step;
          const int8_t* r2 = r1 + step;
          uint32_t acc = base;
          acc += static_cast<uint32_t>(r0[0] * k0 + r0[1] * k1 + r0[2] * k2);
          acc += static_cast<uint32_t>(r1[0] * k3 + r1[1] * k4 + r1[2] * k5);
          acc += static_cast<uint32_t>(r2[0] * k6 + r2[1] * k7 + r2[2] * k8);
          *dst++ = requantize(acc, rq);
        }
      }
      continue;
    }
    const int32_t row_step = c.dh * c.in_w;
    for (int32_t oy = 0; oy < c.oh; ++oy) {
      if (oy < y_lo || oy >= y_hi) {
        for (int32_t ox = 0; ox < c.ow; ++ox) clipped(oy, ox);
        continue;
      }
      for (int32_t ox = 0; ox < x_lo; ++ox) clipped(oy, ox);
      const int8_t* r0 = src + (oy * c.sh - c.pt) * c.in_w + (x_lo * c.sw - c.pl);
      int8_t* dst = o + oy * c.ow + x_lo;
      for (int32_t ox = x_lo; ox < x_hi; ++ox) {
        const int8_t* r1 = r0 + row_step;
        const int8_t* r2 = r1 + row_step;
        uint32_t acc = base;
        acc += static_cast<uint32_t>(r0[0] * k0 + r0[1] * k1 + r0[2] * k2);
        acc += static_cast<uint32_t>(r1[0] * k3 + r1[1] * k4 + r1[2] * k5);
        acc += static_cast<uint32_t>(r2[0] * k6 + r2[1] * k7 + r2[2] * k8);
        *dst++ = requantize(acc, rq);
        r0 += c.sw;
      }
      for (int32_t ox = x_hi; ox < c.ow; ++ox) clipped(oy, ox);
    }
  }
  return status::ok;
}

/// @brief Bytes of workspace linear_s8 needs: the input minus its zero point as int16.
constexpr size_t linear_workspace_bytes(int in_f) { return in_f > 0 ? 2u * static_cast<size_t>(in_f) : 0u; }

/// @brief linear int8, one input row (batch 1 at a time), bit-exact with ref::linear_s8:
/// x - a_zp once into `workspace` (2-byte aligned, linear_workspace_bytes(in_f)), then four
/// weight rows at a time against it, the weights read in place.
inline status linear_s8(int batch, int in_f, int out_f, const int8_t* x, const int8_t* w, const int32_t* bias,
                        int8_t* y, const ref::gemm_s8_params& p, void* workspace, size_t workspace_bytes) {
  if (batch < 0 || in_f < 0 || out_f < 0) return status::bad_size;
  if (batch == 0 || out_f == 0) return status::ok;
  if ((in_f > 0 && (x == nullptr || w == nullptr)) || y == nullptr) return status::null_pointer;
  if (const status s = ref::check_params(p, out_f); s != status::ok) return s;
  if (in_f > 0 && workspace == nullptr) return status::null_pointer;
  if ((reinterpret_cast<uintptr_t>(workspace) & 1u) != 0) return status::bad_size;
  if (workspace_bytes < linear_workspace_bytes(in_f)) return status::scratch_too_small;
  auto* xs = static_cast<int16_t*>(workspace);
  const uint32_t bz = static_cast<uint32_t>(p.b_zp);
  for (int b = 0; b < batch; ++b) {
    const int8_t* xb = x + b * in_f;
    uint32_t xsum = 0;
    for (int i = 0; i < in_f; ++i) {
      const int32_t v = xb[i] - p.a_zp;
      xs[i] = static_cast<int16_t>(v);
      xsum += static_cast<uint32_t>(v);
    }
    const uint32_t corr = bz * xsum;  // sum (x - az)(w - bz) = sum (x - az) w - bz sum (x - az)
    int8_t* yb = y + b * out_f;
    for (int o = 0; o < out_f;) {
      const int mo = out_f - o >= 4 ? 4 : 1;
      const int8_t* w0 = w + o * in_f;
      uint32_t acc[4] = {0, 0, 0, 0};
      if (mo == 4) {
        const int8_t* w1 = w0 + in_f;
        const int8_t* w2 = w1 + in_f;
        const int8_t* w3 = w2 + in_f;
        const int16_t* xp = xs;
        uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        int i = 0;
        auto step = [&](int q) __attribute__((always_inline)) {
          const int32_t v = xp[q];
          a0 += static_cast<uint32_t>(v * w0[q]);
          a1 += static_cast<uint32_t>(v * w1[q]);
          a2 += static_cast<uint32_t>(v * w2[q]);
          a3 += static_cast<uint32_t>(v * w3[q]);
          detail::one_k_at_a_time();
        };
        for (; i + 4 <= in_f; i += 4) {
          step(0), step(1), step(2), step(3);
          xp += 4, w0 += 4, w1 += 4, w2 += 4, w3 += 4;
        }
        for (; i < in_f; ++i) {
          const int32_t v = *xp++;
          a0 += static_cast<uint32_t>(v * *w0++);
          a1 += static_cast<uint32_t>(v * *w1++);
          a2 += static_cast<uint32_t>(v * *w2++);
          a3 += static_cast<uint32_t>(v * *w3++);
        }
        acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
      } else {
        uint32_t a0 = 0;
        for (int i = 0; i < in_f; ++i) a0 += static_cast<uint32_t>(xs[i] * w0[i]);
        acc[0] = a0;
      }
      for (int i = 0; i < mo; ++i) {
        const uint32_t bi = bias != nullptr ? static_cast<uint32_t>(bias[o + i]) : 0u;
        yb[o + i] = requantize(acc[i] + bi - corr, channel_requant(p, o + i));
      }
      o += mo;
    }
  }
  return status::ok;
}

namespace detail {

/// add_s8's lattice path (see add_s8): one entry per byte of y, the input whose rescaling is
/// not exact.
struct add_entry {
  uintptr_t cell;  ///< address of the cell of (this y byte, x byte 0)
  int32_t low;     ///< sy's low j bits: the sum's place in its cell
};
inline constexpr int32_t add_max_cells = 768;

/// Where add_s8's lattice path finds the output's step to level k of apply(out, .), for an
/// output multiplier m in [2^30, 2^31) and right shift r in [1, 29]:
///
///   apply(out, s) = floor((s m + B - [s < 0] 2^31) / D),   D = 2^(31 + r), B = 2^30 + 2^(30 + r)
///
/// (the doubling high multiply rounds half up, the divide half away from zero: the [s < 0]). For
/// s >= 0 level k is reached from tp(k) = ceil((k D - B) / m), for s < 0 from
/// tn(k) = ceil((k D - B + 2^31) / m) >= tp(k): the step is at tn(k) while that is negative, then
/// at 0 for at most one level (tp(k) < 0 <= tn(k)), then at tp(k). A sequence goes from one level
/// to the next by D / m, its remainder carried: t m = num + e, 0 <= e < m.
struct add_seq {
  int32_t t;
  uint32_t e;
  bool neg;   ///< tn's sequence (tp's otherwise)
  bool zero;  ///< this level's step is at 0 (tp's sequence, t < 0)
};

/// The sequence at level k (its numerator in int64: a level whose step is an int32). Cold: once,
/// and once more where tn turns >= 0.
__attribute__((noinline)) inline add_seq add_seq_at(int32_t k, int32_t m, int32_t r) {
  auto at = [m](int64_t num) {
    int64_t q = num / m;
    int64_t rem = num - q * m;
    if (rem > 0) ++q, rem -= m;
    return add_seq{static_cast<int32_t>(q), static_cast<uint32_t>(-rem), false, false};
  };
  const int64_t num = k * (int64_t{1} << (31 + r)) - (int64_t{1} << 30) - (int64_t{1} << (30 + r));
  add_seq sp = at(num);
  if (sp.t >= 0) return sp;
  add_seq sn = at(num + (int64_t{1} << 31));
  if (sn.t >= 0) return sp.zero = true, sp;
  return sn.neg = true, sn;
}

/// The cells of add_s8's lattice path: cell u (sums u 2^j + rho, rho in [0, 2^j)) holds c with
/// (rho + c) >> (j + 1) the output, y at the first cell's first sum, y_end at the last one's last
/// (RhoZero: first) sum. Cell after cell, d the distance from the cell's first sum to the next
/// output step (add_seq_at, then D / m at a time): a step in the cell at d makes the cell
/// y + 1 from rho = d on. false: two steps in one cell. RhoZero (every sum a cell's first): the
/// cell holds the output at its first sum, any number of steps apart.
struct add_cells_args {
  int32_t n_cells, u_lo;
  uint32_t j;
  int32_t y, y_end, zp, mo, r;
};

template <bool RhoZero>
__attribute__((noinline)) bool add_cells(int32_t* cells, const add_cells_args& c) {
  const uint32_t j = c.j, k = j + 1;
  const int32_t w = int32_t{1} << j;
  auto one = static_cast<int32_t>(uint32_t{1} << k);
  auto yk = static_cast<int32_t>(static_cast<uint32_t>(c.y) << k);
  int32_t* cell = cells;
  int32_t* const cells_end = cells + c.n_cells;
  constexpr int32_t none = quant::int32_max;  // no step left: d stays > 2^30 over all cells
  int32_t d = none;
  int32_t level = c.y + 1 - c.zp, last = c.y_end - c.zp, event = last;
  int32_t qd = 0, switch_level = 0;
  uint32_t e = 0, rd = 0, um = static_cast<uint32_t>(c.mo);
  const int32_t c0 = c.u_lo * w;
  // the sequence at `level` for the cell at `cell`: tn's while negative, then tp's from the level
  // whose tn is >= 0 (k D - B + 2^31 > -m), where it starts again (at 0 for that one level)
  auto start = [&]() __attribute__((always_inline)) {
    const add_seq q = add_seq_at(level, c.mo, c.r);
    d = (q.zero ? 0 : q.t) - (c0 + static_cast<int32_t>(cell - cells) * w);
    e = q.e;
    event = q.zero ? level : q.neg && level < switch_level && switch_level - 1 < last ? switch_level - 1 : last;
  };
  if (c.y < c.y_end) {
    const int64_t dd = int64_t{1} << (31 + c.r);
    qd = static_cast<int32_t>(dd / c.mo);
    rd = static_cast<uint32_t>(dd - int64_t{qd} * c.mo);
    const int64_t b = (int64_t{1} << 30) + (int64_t{1} << (30 + c.r));
    switch_level = static_cast<int32_t>((b - (int64_t{1} << 31) - c.mo) >> (31 + c.r)) + 1;
    start();
  }
  // opaque: otherwise GCC recomputes them in the loop from their expressions
  __asm__("" : "+r"(qd), "+r"(rd), "+r"(um), "+r"(one));
  auto advance = [&]() __attribute__((always_inline)) {  // to the next level's step
    if (level == event) {
      if (level == last) {
        d = none;
        return;
      }
      ++level;
      start();
      return;
    }
    ++level;
    d += qd;
    if (e < rd) ++d, e += um;
    e -= rd;
  };
  for (; cell != cells_end; ++cell, d -= w) {
    if constexpr (RhoZero) {
      while (d <= 0) yk += one, advance();
      *cell = yk;
    } else {
      if (d >= w) {
        *cell = yk;
        continue;
      }
      yk += one;
      *cell = yk - d;
      advance();
      if (d < w) return false;
    }
  }
  return true;
}

/// add_s8's lattice entries from the y side's sy = q + rem / 2^sh, one byte after the other
/// (sy grows by my / 2^sh a byte: step_q, and step_r / 2^sh carried).
struct add_fill_args {
  int32_t step_q;
  uint32_t step_r, top;
  int32_t low_mask;
  uint32_t j;
  uintptr_t base;
};

__attribute__((noinline)) inline void add_fill(add_entry* en, add_entry* end, int32_t q, uint32_t rem,
                                               const add_fill_args& f) {
  const int32_t step_q = f.step_q, low_mask = f.low_mask;
  const uint32_t step_r = f.step_r, top = f.top, j = f.j;
  const uintptr_t base = f.base;
  for (; en != end; ++en) {
    en->low = q & low_mask;
    en->cell = base + static_cast<uintptr_t>(static_cast<intptr_t>(q >> j) * 4);
    q += step_q;
    rem += step_r;
    if (rem >= top) rem -= top, ++q;
  }
}

/// The tables of add_s8's lattice path, or false when p is not one it takes (add_s8 then uses
/// the general one). x is the input whose rescaling is exact, x_is_a tells which one it is.
inline bool add_s8_lattice_tables(const ref::add_s8_params& p, bool& x_is_a, add_entry* entries, int32_t* cells,
                                  uint32_t& x_shift, uint32_t& k_shift) {
  const int32_t ls = p.left_shift;
  // g: the exact rescaling is (x - zp) 2^g: multiplier 2^30 and a right shift q <= ls - 1
  auto lattice = [ls](const quant::requant& r) { return r.multiplier == (int32_t{1} << 30) && -r.shift <= ls - 1; };
  x_is_a = lattice(p.a);
  if (!x_is_a && !lattice(p.b)) return false;
  const quant::requant& rx = x_is_a ? p.a : p.b;
  const quant::requant& ry = x_is_a ? p.b : p.a;
  const int32_t zx = x_is_a ? p.a_zp : p.b_zp, zy = x_is_a ? p.b_zp : p.a_zp;
  const int32_t g = ls - 1 + rx.shift;
  const int32_t mo = p.out.multiplier, r = -p.out.shift;
  const int32_t my = ry.multiplier, qy = -ry.shift;
  if (mo == 0 || r < 1 || r > 29 || my == 0 || qy > ls || ls > 22) return false;
  // cells of 2^j: at most one output step each (steps are > 2^r - 3 apart); when y's rescaling
  // is exact too, (y - zp) 2^gy, every sum is a multiple of 2^j for j <= gy: only the cells'
  // first sums occur, and a cell may hold any number of steps
  const bool rho_zero = lattice(ry);
  const int32_t gy = ls - 1 + ry.shift;
  const int32_t j = rho_zero ? (g < gy ? g : gy) : (g < r ? g : r);
  const uint32_t uj = static_cast<uint32_t>(j);
  const int32_t w = int32_t{1} << j;

  // y side: sy(v') = floor((v' my + c) / 2^sh) exactly (apply's two roundings as one floor,
  // numerator and denominator divided by 2^ls), c depending on the sign of v' = v - zy
  const uint32_t sh = static_cast<uint32_t>(31 + qy - ls);
  auto c_of = [&](bool negative) -> int64_t {
    if (qy == 0) return int64_t{1} << (30 - ls);
    return (int64_t{1} << (30 - ls)) + (int64_t{1} << (30 + qy - ls)) - (negative ? int64_t{1} << (31 - ls) : 0);
  };
  auto sy_of = [&](int32_t v) { return static_cast<int32_t>((int64_t{v} * my + c_of(v < 0)) >> sh); };
  const int32_t xs = g - j;  // u = x' 2^(g - j) + (sy >> j)
  const int32_t u_lo = (-128 - zx) * (int32_t{1} << xs) + (sy_of(-128 - zy) >> j);
  const int32_t u_hi = (127 - zx) * (int32_t{1} << xs) + (sy_of(127 - zy) >> j);
  const int32_t n_cells = u_hi - u_lo + 1;
  if (n_cells > add_max_cells) return false;

  const int32_t lo = p.act_min, hi = p.act_max, zp = p.out_zp;
  auto out = [&](int32_t s) { return quant::clamp(quant::apply(p.out, s) + zp, lo, hi); };
  const int32_t y = out(u_lo * w);
  const int32_t y_end = out(u_hi * w + (rho_zero ? 0 : w - 1));
  const add_cells_args args{n_cells, u_lo, uj, y, y_end, zp, mo, r};
  if (!(rho_zero ? add_cells<true>(cells, args) : add_cells<false>(cells, args))) return false;

  // entries, indexed by the y byte + 128: sy incrementally, its low j bits and the cell of x = 0
  const auto base = reinterpret_cast<uintptr_t>(cells) -
                    static_cast<uintptr_t>(static_cast<intptr_t>(u_lo + zx * (int32_t{1} << xs)) * 4);
  const uint32_t mask = (uint32_t{1} << sh) - 1u;
  const auto step_q = static_cast<int32_t>(static_cast<uint32_t>(my) >> sh);
  const uint32_t step_r = static_cast<uint32_t>(my) & mask;
  const add_fill_args f{step_q, step_r, mask + 1u, w - 1, uj, base};
  auto fill = [&](int32_t v_from, int32_t v_to) {  // bytes v_from..v_to, v - zy of one sign
    if (v_from > v_to) return;
    const int64_t num = int64_t{v_from - zy} * my + c_of(v_from - zy < 0);
    add_fill(entries + (v_from + 128), entries + (v_to + 129), static_cast<int32_t>(num >> sh),
             static_cast<uint32_t>(num) & mask, f);
  };
  fill(-128, zy - 1);
  fill(zy < -128 ? -128 : zy, 127);
  x_shift = static_cast<uint32_t>(xs + 2);
  k_shift = uj + 1;
  return true;
}

/// add_s8 through the lattice tables: out = (low[y] + cell[y][x]) >> (j + 1), 12 instructions an
/// element on rv32im (lb, slli, add, lw, lw; lb, sll, add, lw; add, sra, sb). false (nothing
/// written) when add_s8_lattice_tables refuses p. 5 KiB of stack on rv32 (7 KiB on 64-bit hosts).
__attribute__((noinline)) inline bool add_s8_lattice(uint32_t count, const int8_t* a, const int8_t* b, int8_t* y,
                                                     const ref::add_s8_params& p) {
  add_entry entries[256];
  int32_t cells[add_max_cells];
  bool x_is_a = true;
  uint32_t xsh = 0, ksh = 0;
  if (!add_s8_lattice_tables(p, x_is_a, entries, cells, xsh, ksh)) return false;
  const int8_t* x = x_is_a ? a : b;
  const int8_t* v = x_is_a ? b : a;
  const add_entry* tb = entries + 128;
  __asm__("" : "+r"(tb));
  auto one = [&](int8_t vx, int8_t vy) __attribute__((always_inline)) {
    const add_entry& en = tb[vy];
    const auto cell = *reinterpret_cast<const int32_t*>(en.cell + static_cast<uintptr_t>(static_cast<intptr_t>(vx) << xsh));
    return static_cast<int8_t>((en.low + cell) >> ksh);
  };
  auto eight = [&](int q) __attribute__((always_inline)) {
    y[q] = one(x[q], v[q]), y[q + 1] = one(x[q + 1], v[q + 1]), y[q + 2] = one(x[q + 2], v[q + 2]);
    y[q + 3] = one(x[q + 3], v[q + 3]), y[q + 4] = one(x[q + 4], v[q + 4]), y[q + 5] = one(x[q + 5], v[q + 5]);
    y[q + 6] = one(x[q + 6], v[q + 6]), y[q + 7] = one(x[q + 7], v[q + 7]);
  };
  const int8_t* const end16 = x + (count & ~15u);
  while (x != end16) {  // 16 elements a step: 3 increments and a branch for 16
    eight(0), eight(8);
    x += 16, v += 16, y += 16;
  }
  const uint32_t rest = count & 15u;
  for (uint32_t i = 0; i < rest; ++i) y[i] = one(x[i], v[i]);
  return true;
}

}  // namespace detail

/// @brief int8 add (TFLite's scheme, ref::add_s8) of n >= 0 elements, bit-exact with
/// ref::add_s8_one; p must be ref::valid.
///
/// From 1024 elements, the lattice path when one input x has an exact rescaling (multiplier 2^30,
/// a right shift q <= left_shift - 1: the larger-scale input of make_add_s8_params, both when the
/// scales are equal): its term is (x - zp) 2^g, g = left_shift - 1 - q, so with sy the other
/// input's rescaled value (a table of 256) the sum s = (x - zp) 2^g + sy splits, for j <= g, into
///
///   s = u 2^j + rho,   u = (x - zp) 2^(g - j) + (sy >> j),   rho = sy & (2^j - 1)
///
/// and with cells of 2^j sums holding at most one step of the output (j <= the output's right
/// shift r: steps are more than 2^r - 3 apart), cell u holds c(u) such that for every rho
///
///   out(u 2^j + rho) = (rho + c(u)) >> (j + 1)        (clamp and zero point included)
///
/// (c = y 2^(j+1) for a cell without step, (y + 1) 2^(j+1) - d for one whose step is at rho = d).
/// The cells come from the output's exact thresholds (add_seq_at), at most 768 of them (5 KiB of
/// tables on rv32); the element costs two table lookups, an add and a shift (add_s8_lattice).
/// Each parameter set the unit tests give is checked on all 65,536 byte pairs.
///
/// Otherwise, for 512 elements or more both inputs' rescalings go into tables of 256 int32
/// (2 KiB of stack, made with the 32-bit requantization); the sum's requantization and the
/// clamp run per element:
///
///   y = clamp(F(ta[a] + tb[b]) + zp),  F(s) = rounding_divide(doubling_high_mul(s, m), r)
///
/// and for r >= 1 the two roundings are one floor of the 64-bit product (the doubling high
/// multiply rounds half up, the divide rounds half away from zero, and for P = s m
///   F(s) = (P + 2^30 + 2^(30 + r) - [P < 0] 2^31) >> (31 + r)
/// where [P < 0] stands for [the doubling high multiply < 0]: they differ only on
/// P in [-2^30, 0), where both give 0).
inline void add_s8(int64_t n, const int8_t* a, const int8_t* b, int8_t* y, const ref::add_s8_params& p) {
  if (n > (int64_t{1} << 30)) {  // 32-bit counts below: a larger n (hosts only) in blocks of 2^30
    for (int64_t i = 0; i < n; i += int64_t{1} << 30) {
      const int64_t m = n - i < (int64_t{1} << 30) ? n - i : (int64_t{1} << 30);
      scalar::add_s8(m, a + i, b + i, y + i, p);
    }
    return;
  }
  if (n >= 1024 && detail::add_s8_lattice(static_cast<uint32_t>(n), a, b, y, p)) return;
  const requant32 ra = make_requant32(p.a.multiplier, p.a.shift, 0, -128, 127);
  const requant32 rb = make_requant32(p.b.multiplier, p.b.shift, 0, -128, 127);
  const requant32 ro = make_requant32(p.out.multiplier, p.out.shift, p.out_zp, p.act_min, p.act_max);
  const auto ls = static_cast<uint32_t>(p.left_shift);
  auto side = [ls](int32_t v, int32_t zp, const requant32& r) {
    return mbqm(static_cast<int32_t>(static_cast<uint32_t>(v - zp) << ls), r);
  };
  const auto count = static_cast<uint32_t>(n);
  if (count < 512 || ro.right == 0 || ro.right > 23) {  // 1 <= r <= 23: the constants below fit int64
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t sum = static_cast<uint32_t>(side(a[i], p.a_zp, ra)) + static_cast<uint32_t>(side(b[i], p.b_zp, rb));
      y[i] = requantize(sum, ro);
    }
    return;
  }
  int32_t table[512];  // ta (a + 128), then tb (b + 128), shifted left by the output's left shift
  for (int32_t v = -128; v < 128; ++v) {
    table[v + 128] = static_cast<int32_t>(static_cast<uint32_t>(side(v, p.a_zp, ra)) << ro.left);
    table[v + 384] = static_cast<int32_t>(static_cast<uint32_t>(side(v, p.b_zp, rb)) << ro.left);
  }
  const int32_t* ta = table + 128;
  const int32_t* tb = table + 384;
  // opaque pointers: otherwise GCC rebuilds the stack addresses for every element
  __asm__("" : "+r"(ta));
  __asm__("" : "+r"(tb));
  // the output zero point joins the constant: F(s) + zp = (X + zp 2^(31 + r)) >> (31 + r)
  const int64_t c_pos = (int64_t{1} << 30) + (int64_t{1} << (30 + ro.right)) + int64_t{ro.zp} * (int64_t{1} << (31 + ro.right));
  const int64_t c_neg = c_pos - (int64_t{1} << 31);
  const uint32_t r1 = ro.right - 1;
  const int32_t lo = p.act_min, hi = p.act_max;
  auto one = [&](int8_t va, int8_t vb) __attribute__((always_inline)) {
    const auto s = static_cast<int32_t>(static_cast<uint32_t>(ta[va]) + static_cast<uint32_t>(tb[vb]));
    const int64_t prod = static_cast<int64_t>(s) * ro.mult;
    const int64_t x = prod + (prod < 0 ? c_neg : c_pos);
    int32_t v = static_cast<int32_t>(x >> 32) >> r1;
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    return static_cast<int8_t>(v);
  };
  const int8_t* const end2 = a + (count & ~1u);  // two elements a step: one loop test, 3 increments
  while (a != end2) {
    y[0] = one(a[0], b[0]);
    y[1] = one(a[1], b[1]);
    a += 2, b += 2, y += 2;
  }
  if ((count & 1u) != 0) *y = one(*a, *b);
}

/// @brief The signed sum of n int8 values, four per word: each word biased to unsigned bytes
/// (x + 128, an exclusive or of 0x80 per byte) and its even and odd bytes added in the 16-bit
/// halves of two accumulators (at most 128 words, 510 per half each, before they are emptied);
/// the bias, 128 per byte of the words, taken off at the end. Head and tail bytes (to and past the last aligned
/// word) one by one. n < 2^24 (the sum then fits int32).
inline int32_t sum_s8(const int8_t* x, uint32_t n) {
  int32_t sum = 0;
  while (n > 0 && (reinterpret_cast<uintptr_t>(x) & 3u) != 0) {
    sum += *x++;
    --n;
  }
  if (n == 0) return sum;  // x may still be unaligned: fewer bytes than its distance to a word
  const uint32_t* w = static_cast<const uint32_t*>(__builtin_assume_aligned(x, 4));
  uint32_t words = n >> 2;
  const auto biased = static_cast<int32_t>((n & ~3u) * 128u);  // the words' bytes, each counted +128
  while (words > 0) {
    const uint32_t chunk = words < 128u ? words : 128u;
    uint32_t even = 0, odd = 0;
    for (uint32_t i = 0; i < chunk; ++i) {
      uint32_t u;
      __builtin_memcpy(&u, w + i, 4);
      u ^= 0x80808080u;
      even += u & 0x00FF00FFu;
      odd += (u >> 8) & 0x00FF00FFu;
    }
    const uint32_t both = even + odd;  // halves of at most 128 * 510 < 2^16 each
    sum += static_cast<int32_t>((both & 0xFFFFu) + (both >> 16));
    w += chunk;
    words -= chunk;
  }
  sum -= biased;
  const int8_t* t = reinterpret_cast<const int8_t*>(w);
  for (uint32_t i = 0; i < (n & 3u); ++i) sum += t[i];
  return sum;
}

/// @brief int8 global average pool (CHW, c planes of n values): each plane's sum (sum_s8), then
/// ref::rounded_average's rounding in 32 bits (TFLite's raw average: one quantization in and out).
/// Bit-exact with ref::adaptive_avg_pool2d to 1 x 1 for n < 2^24.
inline void global_avg_pool2d_s8(uint32_t c, uint32_t n, const int8_t* in, int8_t* out) {
  const auto count = static_cast<int32_t>(n);
  for (uint32_t ch = 0; ch < c; ++ch)
    out[ch] = static_cast<int8_t>(quant::clamp(ref::divide_round_away(sum_s8(in + ch * n, n), count), -128, 127));
}

}  // namespace ctnn::kernels::scalar
