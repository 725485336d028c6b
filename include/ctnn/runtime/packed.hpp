// The packed-weight region of a network: per leaf, its weights rearranged once into the layout its
// optimized kernel reads (int8 conv2d: the GEMM's u8 panels and row sums, kernels/tiled.hpp), so
// no run packs them again. Laid out at compile time like the parameter blob, from each op's
// `op_def<K>::packed_bytes(row, dtype)`; filled from the blob by the op's `pack`, at the first
// run() that is given the region (or by pack() beforehand).
//
//   params (param_layout_of, read-only, may be .rodata)     packed_weights<Net, T>
//   +------+------+-----+--------+                          +--------+----------+-----------+
//   | w0   | b0   | ... | quant  |  -- pack, once -->       | source | leaf 0   | leaf 3 ... |
//   +------+------+-----+--------+                          +--------+----------+-----------+
//                                                             blob it was packed from, then
//                                                             packed_layout_of<Net, T> offsets
//
// The region remembers the blob it was packed from (its address): a run with another blob packs
// again. Weights changed in place at the same address need invalidate() (or pack()) before the
// next run. float32 conv2d packs its weights for the implicit-im2col GEMM (kernels::
// conv2d_f32_packed_bytes); a float32 convolution followed by a batch norm it runs as a CPU chain
// (runtime/fold.hpp) also keeps its weights and bias with the batch norm folded in (a copy as
// large as its weights: packed_leaf::folded), and its packing is made from those. A leaf whose op packs nothing (0 bytes: the other float ops,
// depthwise, RISC-V builds) reads its raw weights as before; the region then holds nothing for it.
#pragma once
#include "ctnn/core/dtype.hpp"
#include "ctnn/nn/network.hpp"
#include "ctnn/nn/op_def.hpp"
#include "ctnn/runtime/fold.hpp"
#include "ctnn/runtime/params.hpp"

namespace ctnn::runtime {

/// @brief Where one leaf's packed weights live in the packed region (0 bytes: none), and a float32
/// convolution's weights and bias with the batch norm after it folded in (runtime/fold.hpp):
/// their regions of the packed region (w_bytes 0: none), in the blob's own form.
struct packed_leaf {
  uint64_t offset = 0, bytes = 0;
  leaf_param_layout folded{};
};

/// @brief The packed region of a network in one dtype.
template <size_t Leaves>
struct packed_layout {
  array<packed_leaf, Leaves> leaves{};
  uint64_t total_bytes = 0;
};

/// The alignment of every leaf's packed weights (a cache line: the kernels' panel loads).
inline constexpr uint64_t packed_alignment = 64;

namespace detail {
template <Network Net, dtype T>
constexpr auto make_packed_layout() {
  packed_layout<static_cast<size_t>(Net::leaf_count)> p{};
  uint64_t at = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    const uint64_t bytes =
        visit_kind<kinds_of<Net>>(r.kind, [&]<op K>() { return ctnn::detail::packed_bytes_of<K>(r, T); }, uint64_t{0});
    packed_leaf& l = p.leaves[static_cast<size_t>(i)];
    l.bytes = bytes;
    l.offset = bytes != 0 ? at : 0;
    at = round_up(at + bytes, packed_alignment);
    if constexpr (T == dtype::float32) {
      if (cpu_chain_of<Net>.at[static_cast<size_t>(i)].fold != 0) {
        l.folded.channels = r.out.c;
        l.folded.w = at;
        l.folded.w_bytes = r.counts.weights * 4;
        at = round_up(at + l.folded.w_bytes, packed_alignment);
        l.folded.b = at;
        l.folded.b_bytes = static_cast<uint64_t>(r.out.c) * 4;
        at = round_up(at + l.folded.b_bytes, packed_alignment);
      }
    }
  }
  p.total_bytes = at;
  return p;
}
}  // namespace detail

/// @brief The packed-weight layout of Net in dtype T, a constant:
/// `packed_layout_of<Net, dtype::int8>.total_bytes` sizes the region.
template <Network Net, dtype T>
inline constexpr auto packed_layout_of = detail::make_packed_layout<Net, T>();

/// @brief The packed weights of Net for element type T (float or int8_t): a region of
/// packed_layout_of<Net, dtype_of<T>>.total_bytes bytes and the blob it was packed from. Large
/// (a network's weights): allocate it statically or on the heap, not on the stack.
template <Network Net, class T>
struct packed_weights {
  static constexpr auto& layout = packed_layout_of<Net, dtype_of<T>>;
  static constexpr uint64_t total_bytes = layout.total_bytes;

  /// @brief Packs every leaf from `params` (a blob of param_layout_of<Net, dtype_of<T>>) and
  /// remembers it; on a fault, nothing is remembered and the leaf's status is returned.
  kernels::status pack(const uint8_t* params) {
    source_ = nullptr;
    if constexpr (total_bytes != 0) {
      if (params == nullptr) return kernels::status::null_pointer;
      constexpr auto& pl = param_layout_of<Net, dtype_of<T>>;
      for (int32_t i = 0; i < Net::leaf_count; ++i) {
        const auto ui = static_cast<size_t>(i);
        const packed_leaf& l = layout.leaves[ui];
        // a float32 chain's convolution: its weights and bias with the batch norm folded in,
        // then its packing made from them
        const uint8_t* from = params;
        const leaf_param_layout* from_lp = &pl.leaves[ui];
        if constexpr (is_same_v<T, float>) {
          if (l.folded.w_bytes != 0) {
            fold(i, params, l.folded);
            from = bytes_;
            from_lp = &l.folded;
          }
        }
        if (l.bytes == 0) continue;
        const row& r = Net::layer(i);
        const pack_call c{&r, from, from_lp, bytes_ + l.offset, l.bytes, dtype_of<T>};
        const kernels::status s = visit_kind<kinds_of<Net>>(
            r.kind,
            [&]<op K>() {
              if constexpr (requires { op_def<K>::pack(c); }) {
                return op_def<K>::pack(c);
              } else {
                static_assert(!requires { op_def<K>::packed_bytes(r, dtype_of<T>); },
                              "ctnn: an op with packed_bytes must define pack(const runtime::pack_call&)");
                return kernels::status::ok;
              }
            },
            kernels::status::ok);
        if (s != kernels::status::ok) return s;
      }
    }
    source_ = params;
    return kernels::status::ok;
  }
  /// @brief True when the region holds the packing of `params`.
  [[nodiscard]] bool packed_from(const uint8_t* params) const { return params != nullptr && source_ == params; }
  /// @brief Forgets the packing: the next run packs again (after changing weights in place).
  void invalidate() { source_ = nullptr; }
  /// @brief Leaf i's packed weights, or null when its op packs nothing.
  [[nodiscard]] const uint8_t* leaf(int32_t i) const {
    const packed_leaf& l = layout.leaves[static_cast<size_t>(i)];
    return l.bytes != 0 ? bytes_ + l.offset : nullptr;
  }
  /// @brief The region's first byte: packed_leaf::folded's offsets are from it.
  [[nodiscard]] const uint8_t* base() const { return bytes_; }

 private:
  /// Leaf i's weights and bias with the batch norm of its CPU chain folded in, into `to`.
  void fold(int32_t i, const uint8_t* params, const leaf_param_layout& to) {
    constexpr auto& pl = param_layout_of<Net, dtype::float32>;
    const int32_t k = i + cpu_chain_of<Net>.at[static_cast<size_t>(i)].fold;
    const row& r = Net::layer(i);
    const row& bn = Net::layer(k);
    const leaf_param_layout& cl = pl.leaves[static_cast<size_t>(i)];
    const fold_call f{&bn,
                      params,
                      &pl.leaves[static_cast<size_t>(k)],
                      r.out.c,
                      static_cast<int64_t>(r.counts.weights) / r.out.c,
                      reinterpret_cast<const float*>(params + cl.w),
                      cl.b_bytes != 0 ? reinterpret_cast<const float*>(params + cl.b) : nullptr,
                      reinterpret_cast<float*>(bytes_ + to.w),
                      reinterpret_cast<float*>(bytes_ + to.b)};
    visit_kind<kinds_of<Net>>(
        bn.kind,
        [&]<op K>() {
          if constexpr (requires { op_def<K>::fold(f); }) op_def<K>::fold(f);
          return 0;
        },
        0);
  }

  const uint8_t* source_ = nullptr;
  alignas(packed_alignment) uint8_t bytes_[total_bytes != 0 ? total_bytes : 1] = {};
};

}  // namespace ctnn::runtime
