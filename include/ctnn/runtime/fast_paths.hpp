// Special cases the executor takes on the optimized backend when the plan's geometry or the
// tensors' quantization reduce a layer to plain integer work, each bit-exact with the reference
// kernel by construction (tests/unit/test_runtime.cpp: ReLU and add exhaustively, pooling on random shapes):
//
//   ReLU, int8, same quantization in and out     y = max(x, zp): dequantize, ReLU, quantize is the
//                                                identity on x >= zp (|x - zp| <= 255 survives the
//                                                float round trip), zp below
//   add, int8, the three scales equal            y = clamp(qa - za + qb - zb + zo): TFLite's
//                                                multipliers are then 1/2, 1/2 and 2^-19 exactly
//   max pooling whose windows lie in the input   the reference loop without bounds tests, 32-bit
//   (no padding, no dilation)                    indices (no 64-bit arithmetic on rv32)
//
// Indices are size_t: on rv32 a 64-bit loop counter costs several instructions per element.
#pragma once
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn::runtime::fast {

/// Scales whose products and quotients by powers of two stay exact normal numbers.
/// On the bits alone (no soft-float call on rv32): a float in [2^-100, 2^100] is positive and
/// finite, and for those the order of the bits is the order of the values; negative values,
/// zeros, infinities and NaNs all fall outside the bit range.
constexpr bool sane_scale(float s) {
  const uint32_t b = __builtin_bit_cast(uint32_t, s);
  return b >= __builtin_bit_cast(uint32_t, 0x1p-100f) && b <= __builtin_bit_cast(uint32_t, 0x1p100f);
}

/// True when an int8 ReLU from `in` to `out` is max(x, zero point). Equal sane scales are equal
/// bits (the values where == and the bits disagree, zeros and NaNs, are not sane).
constexpr bool relu_is_clamp(const tensor_quant& in, const tensor_quant& out) {
  return __builtin_bit_cast(uint32_t, in.scale) == __builtin_bit_cast(uint32_t, out.scale) &&
         in.zero_point == out.zero_point && sane_scale(in.scale);
}

/// max(x, zp) of the four signed bytes of a word at once (SWAR). Signed bytes become unsigned by
/// flipping their top bit; then per byte, with H = the top bits:
///   d = (a | H) - (b & ~H)   never borrows across bytes; top bit of a byte: low7(a) >= low7(b)
///   a >= b  is  a's top bit where the top bits differ, else d's top bit
/// and the bytes where a < b take b.
constexpr uint32_t max_s8x4(uint32_t x, uint32_t zp4) {
  constexpr uint32_t h = 0x80808080u;
  const uint32_t a = x ^ h, b = zp4 ^ h;
  const uint32_t d = (a | h) - (b & ~h);
  const uint32_t differ = (a ^ b) & h;
  const uint32_t ge = ((differ & a) | (~differ & d)) & h;
  const uint32_t lt = ((~ge & h) >> 7) * 0xFFu;  // 0xFF in each byte where a < b
  return ((a & ~lt) | (b & lt)) ^ h;
}

inline void relu_clamp_s8(size_t n, const int8_t* x, int8_t* y, int32_t zero_point) {
  const auto zp = static_cast<int8_t>(zero_point);
  size_t i = 0;
  if (((reinterpret_cast<uintptr_t>(x) | reinterpret_cast<uintptr_t>(y)) & 3u) == 0) {
    // word-aligned (the planner aligns tensors to 16): four bytes per step
    const uint32_t zp4 = static_cast<uint32_t>(static_cast<uint8_t>(zp)) * 0x01010101u;
    const auto* xw = static_cast<const uint8_t*>(__builtin_assume_aligned(x, 4));
    auto* yw = static_cast<uint8_t*>(__builtin_assume_aligned(y, 4));
    for (; i + 4 <= n; i += 4) {
      uint32_t w;
      __builtin_memcpy(&w, xw + i, 4);
      w = max_s8x4(w, zp4);
      __builtin_memcpy(yw + i, &w, 4);
    }
  }
  for (; i < n; ++i) y[i] = x[i] < zp ? zp : x[i];
}

/// True when an int8 add of a and b into out is an integer sum (equal scales).
constexpr bool add_is_integer(const tensor_quant& a, const tensor_quant& b, const tensor_quant& out) {
  return a.scale == b.scale && a.scale == out.scale && sane_scale(a.scale) && a.zero_point >= -128 &&
         a.zero_point <= 127 && b.zero_point >= -128 && b.zero_point <= 127 && out.zero_point >= -128 &&
         out.zero_point <= 127;
}

inline void add_integer_s8(size_t n, const int8_t* a, const int8_t* b, int8_t* y, int32_t a_zp, int32_t b_zp,
                           int32_t out_zp) {
  const int32_t offset = out_zp - a_zp - b_zp;
  for (size_t i = 0; i < n; ++i) {
    const int32_t v = int32_t{a[i]} + int32_t{b[i]} + offset;
    y[i] = static_cast<int8_t>(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}

/// True when every max-pooling window of g, with the output extent oh x ow, lies in the input.
constexpr bool pool_windows_inside(const kernels::pool_geometry& g, int64_t oh, int64_t ow) {
  return g.valid() && g.pt == 0 && g.pb == 0 && g.pl == 0 && g.pr == 0 && oh > 0 && ow > 0 &&
         (oh - 1) * g.sh + g.kh <= g.in_h && (ow - 1) * g.sw + g.kw <= g.in_w;
}

/// Max pooling over windows inside the input; the reference's order (first element, then > in
/// row-major window order), so float NaN handling is the reference's too.
template <class T>
inline void max_pool_inside(const kernels::pool_geometry& g, int64_t oh, int64_t ow, const T* in, T* out) {
  const auto c_n = static_cast<size_t>(g.c), h = static_cast<size_t>(g.in_h), w = static_cast<size_t>(g.in_w);
  const auto kh = static_cast<size_t>(g.kh), kw = static_cast<size_t>(g.kw), sh = static_cast<size_t>(g.sh),
             sw = static_cast<size_t>(g.sw), oh_n = static_cast<size_t>(oh), ow_n = static_cast<size_t>(ow);
  if (kh == 2 && kw == 2) {  // the common 2x2 window, unrolled in the same order
    for (size_t c = 0; c < c_n; ++c)
      for (size_t oy = 0; oy < oh_n; ++oy) {
        const T* p = in + (c * h + oy * sh) * w;
        for (size_t ox = 0; ox < ow_n; ++ox, p += sw) {
          T best = p[0];
          if (p[1] > best) best = p[1];
          if (p[w] > best) best = p[w];
          if (p[w + 1] > best) best = p[w + 1];
          *out++ = best;
        }
      }
    return;
  }
  for (size_t c = 0; c < c_n; ++c) {
    const T* plane = in + c * h * w;
    for (size_t oy = 0; oy < oh_n; ++oy) {
      const T* row = plane + oy * sh * w;
      for (size_t ox = 0; ox < ow_n; ++ox) {
        const T* p = row + ox * sw;
        T best = p[0];
        for (size_t ky = 0; ky < kh; ++ky)
          for (size_t kx = 0; kx < kw; ++kx) {
            const T v = p[ky * w + kx];
            if (v > best) best = v;
          }
        *out++ = best;
      }
    }
  }
}

}  // namespace ctnn::runtime::fast
