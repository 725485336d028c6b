// CPU chains (float32, the optimized backend, weights packed once): a convolution and the leaves
// after it that its kernel can finish run as that one convolution, as PyTorch's frozen graphs and
// oneDNN's post-ops run them:
//
//   conv2d ─► [batch_norm2d] ─► [ReLU / ReLU6 / Clamp]
//             folded into the     the clamp the GEMM's epilogue (or the depthwise kernel)
//             weights and bias    applies as it stores
//
// each leaf the only reader of the one before it, no output but the last the network's output,
// and the convolution's row without a fused activation of its own. The chain writes its last
// leaf's tensor straight away, so that tensor (placed by the plan after the convolution ran)
// must overlap neither the convolution's input nor its scratch: where it would, the chain is cut
// shorter (down to none). cpu_chain_of<Net> decides it at compile time from the plan.
//
// The folded weights w s and bias b s + t (op_def<batch_norm2d>::fold) live in the packed region
// (packed_layout::leaves[i].folded), and the convolution's own packing is made from them; a run
// that does not take the chain (the reference backend, a layer callback, which must see every
// leaf's output, or an offload hook that took the convolution) runs the leaves one by one and the
// convolution reads its raw weights in place. A chain's float32 result differs from the leaves
// run one by one by rounding only (the scale multiplies each weight instead of each sum).
#pragma once
#include "ctnn/kernels/scalar.hpp"
#include "ctnn/memory/planner.hpp"
#include "ctnn/nn/network.hpp"
#include "ctnn/nn/op_def.hpp"

namespace ctnn::runtime {

/// True for the kinds an output clamp can stand for (ReLU, ReLU6, Clamp): the device jobs of
/// the fused offload and the CPU chains apply them as they store.
constexpr bool clamp_kind(op k) { return k == op::relu || k == op::relu6 || k == op::clamp; }

/// @brief The leaves a float32 convolution leaf runs as its CPU chain (count 0: none): their
/// positions after it (0: absent).
struct cpu_chain {
  int32_t count = 0;  ///< leaves after the convolution
  int32_t fold = 0;   ///< a batch norm folded into its weights and bias
  int32_t clamp = 0;  ///< ReLU / ReLU6 / Clamp applied as it stores
};

namespace detail {
/// How many leaves of Net read tensor t (once per input that names it).
template <Network Net>
constexpr int32_t readers_of(int32_t t) {
  int32_t n = 0;
  for (int32_t k = 0; k < Net::leaf_count; ++k) {
    const row& q = Net::layer(k);
    for (int32_t j = 0; j < q.n_inputs; ++j) n += q.inputs[j] == t ? 1 : 0;
  }
  return n;
}

/// True where leaf `leaf` exists, tensor t is its one input and no other leaf reads t, and t is
/// not the network's output: the leaf before it may write t for it alone.
template <Network Net>
constexpr bool sole_reader(int32_t leaf, int32_t t) {
  if (leaf >= Net::leaf_count || t == Net::output_tensor || readers_of<Net>(t) != 1) return false;
  const row& n = Net::layer(leaf);
  return n.n_inputs == 1 && n.inputs[0] == t;
}

/// The bytes [lo, hi) a tensor of Net takes in its dtype's plan (elem_bytes a value).
struct byte_span {
  uint64_t lo, hi;
  constexpr bool apart(byte_span o) const { return hi <= o.lo || o.hi <= lo; }
};
template <Network Net, class Plan>
constexpr byte_span span_of(const Plan& p, int32_t tensor, uint64_t elem_bytes) {
  const uint64_t o = p.offset_of(tensor);
  return {o, o + static_cast<uint64_t>(Net::tensor_shape(tensor).elems()) * elem_bytes};
}

/// True for an op that folds into the float32 convolution before it (op_def<K>::fold).
template <uint64_t Kinds>
constexpr bool folds(op k) {
  return visit_kind<Kinds>(k, []<op K>() { return requires(const fold_call& f) { op_def<K>::fold(f); }; }, false);
}

}  // namespace detail

/// @brief Net's CPU chains: per leaf its chain, and the convolution's row as the chain runs it
/// (the last leaf's output tensor, its clamp as the fused activation).
template <Network Net>
struct cpu_chain_table {
  static constexpr size_t n = Net::leaf_count > 0 ? static_cast<size_t>(Net::leaf_count) : 1;
  cpu_chain at[n] = {};
  row rows[n] = {};
  bool any = false;
};

template <Network Net>
inline constexpr cpu_chain_table<Net> cpu_chain_of = [] {
  cpu_chain_table<Net> t{};
  constexpr auto& net_plan = memory::plan_of<Net, dtype::float32>;
  constexpr uint64_t kinds = kinds_of<Net>;
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    if (r.kind != op::conv2d || r.geometry.act != fused_act::none || r.n_inputs != 1) continue;
    cpu_chain c{};
    int32_t cur = r.output;
    for (int32_t k = 1; k <= 2 && detail::sole_reader<Net>(i + k, cur); ++k) {
      const row& n = Net::layer(i + k);
      if (c.fold == 0 && c.clamp == 0 && detail::folds<kinds>(n.kind)) c.fold = k;
      else if (c.clamp == 0 && clamp_kind(n.kind)) c.clamp = k;
      else break;
      c.count = k;
      cur = n.output;
    }
    // the chain's output written while the convolution reads its input and scratch: apart, or shorter
    const detail::byte_span in = detail::span_of<Net>(net_plan, r.inputs[0], 4);
    const uint64_t s_lo = net_plan.scratch_offset[static_cast<size_t>(i)];
    const detail::byte_span scratch{s_lo, s_lo + net_plan.scratch_bytes[static_cast<size_t>(i)]};
    for (; c.count > 0; --c.count) {
      const detail::byte_span out = detail::span_of<Net>(net_plan, Net::layer(i + c.count).output, 4);
      if (out.apart(in) && (scratch.lo == scratch.hi || out.apart(scratch))) break;
      if (c.clamp == c.count) c.clamp = 0;
      if (c.fold == c.count) c.fold = 0;
    }
    if (c.count == 0) continue;
    t.at[static_cast<size_t>(i)] = c;
    row& cr = t.rows[static_cast<size_t>(i)];
    cr = r;
    cr.output = Net::layer(i + c.count).output;
    if (c.clamp != 0) {  // the clamp leaf as the convolution's fused activation (clamp: its row's alpha, beta)
      const row& cl = Net::layer(i + c.clamp);
      set_fused_clamp(cr.geometry, cl.kind, cl.geometry.alpha, cl.geometry.beta);
    }
    t.any = true;
  }
  return t;
}();

/// @brief int8 clamp chains (runs given packed weights, as the float32 chains): per leaf, true
/// where an int8 batch_norm2d (no fused activation of its
/// own) runs with the ReLU / ReLU6 / Clamp after it as its output clamp, writing that leaf's
/// tensor, which then has no pass of its own: the batch norm's tensor read by that leaf only and
/// not the network's output, and the clamp's tensor the batch norm's input itself (in place) or
/// apart from it. Whether the clamp leaf is a clamp of its int8 values (as_clamp: one
/// quantization in and out) is asked at run time; where not, both leaves run. None where the
/// kernels are the scalar ones (rv32: as_clamp's float arithmetic would link soft-float code into
/// the image). rows: the batch norm's row as the chain runs it (the clamp leaf's output tensor).
template <Network Net>
struct s8_clamp_chain_table {
  static constexpr size_t n = Net::leaf_count > 0 ? static_cast<size_t>(Net::leaf_count) : 1;
  bool at[n] = {};
  row rows[n] = {};
  bool any = false;
};

template <Network Net>
inline constexpr s8_clamp_chain_table<Net> s8_clamp_chain_of = [] {
  s8_clamp_chain_table<Net> t{};
  if (CTNN_KERNELS_SCALAR) return t;
  constexpr auto& net_plan = memory::plan_of<Net, dtype::int8>;
  for (int32_t i = 0; i + 1 < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    if (r.kind != op::batch_norm2d || r.geometry.act != fused_act::none || r.n_inputs != 1) continue;
    if (!detail::sole_reader<Net>(i + 1, r.output) || !clamp_kind(Net::layer(i + 1).kind)) continue;
    const detail::byte_span in = detail::span_of<Net>(net_plan, r.inputs[0], 1);
    const detail::byte_span out = detail::span_of<Net>(net_plan, Net::layer(i + 1).output, 1);
    if (in.lo != out.lo && !in.apart(out)) continue;  // partly overlapping
    t.at[static_cast<size_t>(i)] = true;
    t.rows[static_cast<size_t>(i)] = r;
    t.rows[static_cast<size_t>(i)].output = Net::layer(i + 1).output;
    t.any = true;
  }
  return t;
}();

}  // namespace ctnn::runtime
