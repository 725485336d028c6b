// The executor: runs a network type on one arena laid out by memory::plan_of and one parameter
// blob laid out by param_layout_of, leaf by leaf in execution order, on the reference or the
// optimized CPU kernels. Every fault is a returned status naming the leaf, never UB.
//
//   arena (plan_of<Net, T>)                           params (param_layout_of<Net, T>)
//   +-------+-----------+--------+---------+          +------+------+-----+--------+
//   | input | tensor 3  | panel  | ...     |  <-->    | w0   | b0   | ... | quant  |
//   +-------+-----------+--------+---------+          +------+------+-----+--------+
//     offset_of(t)        scratch_offset[i]             leaves[i].w, .b, .mult, ...
//
// The caller places the input at offset_of(0) and finds the output at
// offset_of(Net::output_tensor). The GEMM packing workspace of the optimized kernels is the
// static workspace of tiled.hpp (it depends on the tiling only): run() is not reentrant.
//
// Packed weights: the run() overloads taking a packed_weights<Net, T> (runtime/packed.hpp) pack
// the weights of the ops that define it (int8 conv2d) into the region at the first run with a
// blob, and hand each leaf its packed bytes (leaf_call::packed); the others pack in every call.
// With them, float32 on the optimized kernels and no layer callback, a convolution's CPU chain
// (runtime/fold.hpp: the batch norm folded in, the ReLU / ReLU6 / Clamp as its store's clamp)
// runs as that one leaf, offered to the offload hook as the convolution alone.
//
// Offload: run(..., off) first asks off.offload(leaf) for each leaf, which may run the leaf on a
// device (done), refuse it (declined: the CPU kernels run it) or fail (the run stops with
// fault::offload, the leaf and the hook's code). Optional members off.leaf_begin(i) and
// off.leaf_end(i) bracket the execution of leaf i alone (offload attempt and CPU kernel), for
// per-layer profiles that leave out the executor's bookkeeping and the layer callback.
//
// Asynchronous offload: a hook with `offload_result off.settle()` may return `done` for a leaf
// whose device work still runs (its jobs queued or in flight). The executor calls settle() before
// the CPU reads or writes the arena again: before a CPU leaf runs (unless it is an alias whose
// output is its input's bytes: nothing is read or written), after each offloaded leaf when a
// layer callback is given (inside leaf_begin/leaf_end: the per-leaf profile and CRCs stay those
// of the leaf alone), and before run() returns. Its `failed` stops the run as the leaf's own
// would, naming the leaf `off.failed_leaf()` (the leaf whose device work failed, when the hook
// has it) instead of the current one. Between offloaded leaves nothing waits: the device's work
// must run in issue order, each piece after the ones before it ended (the accelerator runs one
// job at a time), so a leaf's jobs see their inputs written and an arena buffer the plan reuses
// is overwritten only after its last reader's job ended.
//
// Fused offload (int8): a hook with `offload_result off.offload_fused(chain, f, roles)` is offered a
// conv2d or linear leaf together with the leaves after it that its device jobs can finish
// (fusion_of<Net>, the one place that decides it), in this order:
//
//   producer ─► [ReLU / ReLU6 / Clamp] ─► [add ─► [ReLU / ReLU6 / Clamp]] ─► [2x2/2 max or avg pool]
//               the job's output clamp     the residual add and its clamp    conv2d only
//
// each leaf the only reader of the one before it (the add: of one of its inputs) and no output
// but the last the network's output. chain[k] is leaf i + k. The buffers the device writes (the
// chain's output, and with a pool the pool's input C as well) must not overlap what it reads
// (the producer's inputs, the add's other input). `done` means the device wrote the chain's
// output (and C) and all its leaves are done; `declined` makes the executor offer the chain cut
// before its last leaf, down to the producer alone (offload). No chain is offered when a layer
// callback is given: the callback sees every leaf's output, so every output must exist (the
// firmware demos' per-leaf CRCs). leaf_begin(i) / leaf_end(i) bracket the chain.
#pragma once
#include "ctnn/memory/planner.hpp"
#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/packed.hpp"
#include "ctnn/runtime/params.hpp"

namespace ctnn::runtime {

/// @brief The result of run(): ok, or the fault, the kernel status and the leaf (-1 before any leaf).
struct run_status {
  fault code = fault::none;
  kernels::status kernel = kernels::status::ok;
  int32_t leaf = -1;    ///< fault::bad_tensor_quant: the leaf that writes the tensor (-1: the input)
  uint32_t detail = 0;  ///< fault::offload: the code the offload hook returned; bad_tensor_quant: the tensor
  [[nodiscard]] constexpr bool ok() const { return code == fault::none; }
};

/// @brief Called after each leaf with its index, its output and the output's size in bytes.
using layer_callback = void (*)(void* user, int32_t leaf, const void* output, size_t bytes);

/// @brief What an offload hook did with a leaf.
struct offload_result {
  enum class verdict : uint8_t {
    declined,  ///< not for this device: the CPU kernels run the leaf
    done,      ///< the device wrote the leaf's output
    failed,    ///< the device failed: run() stops with fault::offload and `code`
  };
  verdict v = verdict::declined;
  uint32_t code = 0;  ///< failed: the hook's reason (e.g. a device error cause)
  static constexpr offload_result declined() { return {verdict::declined, 0}; }
  static constexpr offload_result done() { return {verdict::done, 0}; }
  static constexpr offload_result failed(uint32_t why) { return {verdict::failed, why}; }
};

/// @brief An offload hook for element type T: `offload_result o.offload(const leaf_call<T>&)`.
/// Optional: `o.leaf_begin(int32_t)` and `o.leaf_end(int32_t)`, called around each leaf.
template <class O, class T>
concept offload_hook = requires(O& o, const leaf_call<T>& c) {
  requires is_same_v<decltype(o.offload(c)), offload_result>;
};

/// @brief The leaves that follow a conv2d or linear leaf into its device jobs (fusion_of<Net>):
/// their positions in the chain (chain[0] = the producer, chain[k] = leaf i + k), 0 where a role
/// is absent, roles in this order: producer [clamp] [add [add_clamp]] [pool].
struct fusion {
  int32_t count = 0;      ///< leaves after the producer
  int32_t clamp = 0;      ///< ReLU / ReLU6 / Clamp on the producer's output
  int32_t add = 0;        ///< a two-input add reading the chain's output
  int32_t add_clamp = 0;  ///< ReLU / ReLU6 / Clamp on the add's output
  int32_t pool = 0;       ///< max or average pool, 2x2 kernel, stride 2, no padding (conv2d producer)
  /// The chain without its last leaf.
  [[nodiscard]] constexpr fusion shorter() const {
    fusion f = *this;
    if (f.pool == f.count) f.pool = 0;
    if (f.add_clamp == f.count) f.add_clamp = 0;
    if (f.add == f.count) f.add = 0;
    if (f.clamp == f.count) f.clamp = 0;
    f.count = f.count > 0 ? f.count - 1 : 0;
    return f;
  }
  /// Position of the leaf whose output the job's GEMM writes (C): the pool's input with a pool.
  [[nodiscard]] constexpr int32_t c_at() const { return pool != 0 ? pool - 1 : count; }
};
inline constexpr int32_t max_fused = 4;  ///< clamp, add, add_clamp, pool

/// True for a max or average pool a device job can append: 2x2 kernel, stride 2, no padding, no
/// dilation, floor(in / 2) out.
constexpr bool pool_2x2_kind(const row& r) {
  const layer_geometry& g = r.geometry;
  return (r.kind == op::max_pool2d || r.kind == op::avg_pool2d) && r.n_inputs == 1 && g.kernel.h == 2 &&
         g.kernel.w == 2 && g.stride.h == 2 && g.stride.w == 2 && g.padding.top == 0 && g.padding.bottom == 0 &&
         g.padding.left == 0 && g.padding.right == 0 && g.dilation.h == 1 && g.dilation.w == 1 &&
         r.in.rank == 3 && r.out.h == r.in.h / 2 && r.out.w == r.in.w / 2 && r.out.c == r.in.c;
}

/// @brief The int8 clamp a ReLU / ReLU6 / Clamp leaf is: with one quantization in and out
/// (fast::relu_is_clamp) the leaf's y = quantize(f(dequantize(x))) is clamp(x, y(-128), y(127))
/// for every x (f clamps, quantize is monotonic and undoes dequantize), so the bounds are the
/// leaf's own outputs at the ends of int8. False for another leaf or quantization.
inline bool as_clamp(const leaf_call<int8_t>& c, act_range& out) {
  if (!clamp_kind(c.r->kind) || c.r->n_inputs != 1 || !fast::relu_is_clamp(c.q_in[0], c.q_out)) return false;
  // ReLU: y(-128) = quantize(0) = zp; y(127) = quantize(s (127 - zp)) = 127 (s (127 - zp) / s is
  // 127 - zp within a few ulps, far from a rounding tie). Exact, and no soft-float on the target:
  // the clamp of every fused ReLU is made while the accelerator waits for the job (offload.hpp).
  if (c.r->kind == op::relu) {
    out = {c.q_out.zero_point, 127};
    return true;
  }
  const ref::act_s8_params p = act_params(c);
  // the functions ref::apply(activation::relu / relu6, .) and the clamp leaf evaluate, named one by
  // one: activation_s8_one's switch over every activation would link erf, tanh, ... into images
  auto at = [&](int8_t x) -> int32_t {
    if (c.r->kind == op::clamp) return ref::unary_s8_one(clamp_fn::of(*c.r), x, p);
    if (c.r->kind == op::relu) return ref::unary_s8_one([](float v) { return kernels::math::relu(v); }, x, p);
    return ref::unary_s8_one([](float v) { return kernels::math::relu6(v); }, x, p);
  };
  out = {at(-128), at(127)};
  return out.min <= out.max;
}

/// @brief The roles that occur in some chain of the network, as a type handed to offload_fused
/// (and to `off.offload(c, roles)` when the hook takes it): a hook compiles only what they need
/// (`if constexpr (Roles::add)`), so an image whose chains have no add links none of the add's
/// parameter arithmetic (double precision, soft float on rv32), and one without a grouped
/// convolution none of a depthwise path.
template <bool Add, bool Grouped = true>
struct fusion_roles {
  static constexpr bool add = Add;
  static constexpr bool grouped = Grouped;   ///< some conv2d leaf is grouped (depthwise among them)
};

/// @brief An offload hook that can also run a producer leaf and the leaves that follow it as one
/// set of device jobs (see the fused offload above).
template <class O, class T>
concept fused_offload_hook = requires(O& o, const leaf_call<T>* chain, const fusion& f) {
  requires is_same_v<decltype(o.offload_fused(chain, f, fusion_roles<true>{})), offload_result>;
};

/// @brief The hook that declines every leaf (run() without offload).
struct no_offload {
  template <class T>
  constexpr offload_result offload(const leaf_call<T>&) const {
    return offload_result::declined();
  }
};

namespace detail {

/// Runs one leaf on backend B: the op_def<K>::run of its kind K, folding over the kinds in Uses
/// (a kind_bit mask; a kind outside it is unsupported, and its kernels are not compiled in).
template <class T, backend B, uint64_t Uses = all_kinds>
inline leaf_result run_leaf(const leaf_call<T>& c) {
  return visit_kind<Uses>(
      c.r->kind, [&]<op K>() { return op_def<K>::template run<T, B>(c); }, unsupported);
}

/// As above with the backend chosen at run time (both backends' kernels are compiled in).
template <class T, uint64_t Uses = all_kinds>
inline leaf_result run_leaf(const leaf_call<T>& c, backend be) {
  return be == backend::optimized ? run_leaf<T, backend::optimized, Uses>(c) : run_leaf<T, backend::reference, Uses>(c);
}

/// A backend fixed at compile time: run_with compiles only its kernels.
template <backend B>
struct backend_constant {
  static constexpr backend value = B;
};

template <class T, uint64_t Uses, class Be>
inline leaf_result run_leaf_on(const leaf_call<T>& c, Be be) {
  if constexpr (is_same_v<Be, backend>) return run_leaf<T, Uses>(c, be);
  else return run_leaf<T, Be::value, Uses>(c);
}

/// True when the backend is the optimized kernels.
constexpr bool optimized(backend be) { return be == backend::optimized; }
template <backend B>
constexpr bool optimized(backend_constant<B>) { return B == backend::optimized; }

/// Older spelling of ctnn::kind_bit (offload hooks name the kinds they own with it).
using ctnn::kind_bit;

}  // namespace detail

namespace detail {

/// The op kinds an offload hook owns (its optional `static constexpr uint64_t owned_kinds`): no
/// CPU kernel of those kinds is compiled in, so a leaf of such a kind that the hook declines
/// stops the run with fault::unsupported. A firmware image that must run them on its device
/// carries none of their CPU kernels.
template <class Offload>
inline constexpr uint64_t owned_kinds = [] {
  if constexpr (requires { Offload::owned_kinds; }) return static_cast<uint64_t>(Offload::owned_kinds);
  else return uint64_t{0};
}();

/// The chain of leaves each leaf i may be offered with to offload_fused (count 0: none): i is a
/// conv2d or linear; each next leaf takes the next free role of fusion's order and reads the
/// chain's output, which nobody else reads (once) and which is not the network's output.
template <Network Net>
struct fusion_table {
  fusion at[Net::leaf_count > 0 ? Net::leaf_count : 1] = {};
  bool any = false;      ///< a network without a chain compiles no fused path
  bool any_add = false;  ///< some chain has an add (fusion_roles::add)
  bool any_grouped = false;  ///< some conv2d leaf is grouped (fusion_roles::grouped)
};
template <Network Net>
inline constexpr fusion_table<Net> fusion_of = [] {
  fusion_table<Net> t{};
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    t.any_grouped = t.any_grouped || (r.kind == op::conv2d && r.geometry.groups > 1);
    if (r.kind != op::conv2d && r.kind != op::linear) continue;
    fusion f{};
    int32_t cur = r.output;
    for (int32_t k = 1; k <= max_fused && i + k < Net::leaf_count; ++k) {
      const row& n = Net::layer(i + k);
      bool reads = false;
      for (int32_t j = 0; j < n.n_inputs; ++j) reads = reads || n.inputs[j] == cur;
      if (cur == Net::output_tensor || readers_of<Net>(cur) != 1 || !reads) break;
      const bool free_before_add = f.add == 0 && f.pool == 0;
      if (clamp_kind(n.kind) && n.n_inputs == 1 && free_before_add && f.clamp == 0) f.clamp = k;
      else if (n.kind == op::add && n.n_inputs == 2 && free_before_add) f.add = k;
      else if (clamp_kind(n.kind) && n.n_inputs == 1 && f.add != 0 && f.add_clamp == 0 && f.pool == 0) f.add_clamp = k;
      else if (r.kind == op::conv2d && pool_2x2_kind(n) && f.pool == 0) f.pool = k;
      else break;
      f.count = k;
      cur = n.output;
    }
    t.at[i] = f;
    t.any = t.any || f.count > 0;
    t.any_add = t.any_add || f.add != 0;
  }
  return t;
}();

/// Arena bytes [lo, hi) of a leaf's input k or of its output.
template <class T>
struct arena_span {
  uint64_t lo = 0, hi = 0;
  static arena_span input(const leaf_call<T>& c, int32_t k) {
    return {c.in_offset[k], c.in_offset[k] + static_cast<uint64_t>(c.in_elems[k]) * sizeof(T)};
  }
  static arena_span output(const leaf_call<T>& c) {
    return {c.out_offset, c.out_offset + static_cast<uint64_t>(c.r->out.elems()) * sizeof(T)};
  }
  [[nodiscard]] bool apart(const arena_span& o) const { return hi <= o.lo || o.hi <= lo; }
};

/// C, the buffer a fused chain's jobs write while they read the producer's inputs, overlaps none
/// of those, and a pooled output does not overlap C. (Whether the pooled output, written after a
/// job's reads, may take an input's place is the hook's call: it knows its jobs.)
template <class T>
inline bool fused_apart(const leaf_call<T>* chain, const fusion& f) {
  const leaf_call<T>& c = chain[0];
  const arena_span<T> cw = arena_span<T>::output(chain[f.c_at()]);
  bool ok = f.pool == 0 || cw.apart(arena_span<T>::output(chain[f.pool]));
  for (int32_t k = 0; k < c.r->n_inputs; ++k) ok = ok && cw.apart(arena_span<T>::input(c, k));
  return ok;
}

template <Network Net, class T, class Be, class Offload>
inline run_status run_with(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes, Be be,
                           Offload& off, layer_callback callback, void* user,
                           packed_weights<Net, T>* packed = nullptr) {
  static_assert(is_same_v<T, float> || is_same_v<T, int8_t>, "ctnn: runtime::run: T must be float or int8_t");
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<Net, dt>;
  constexpr auto& layout = param_layout_of<Net, dt>;
  if (arena == nullptr) return {fault::null_arena, kernels::status::ok, -1};
  if (arena_bytes < plan.arena_bytes) return {fault::arena_too_small, kernels::status::ok, -1};
  if (reinterpret_cast<uintptr_t>(arena) % memory::default_alignment != 0)
    return {fault::misaligned_arena, kernels::status::ok, -1};
  if (params == nullptr && layout.total_bytes != 0) return {fault::null_params, kernels::status::ok, -1};
  if (params_bytes < layout.total_bytes || reinterpret_cast<uintptr_t>(params) % param_alignment != 0)
    return {fault::params_too_small, kernels::status::ok, -1};

  auto quant_of = [&](int32_t t) {
    tensor_quant tq{};
    if constexpr (dt == dtype::int8) {
      tq.scale = reinterpret_cast<const float*>(params + layout.quant_scale)[t];
      tq.zero_point = reinterpret_cast<const int32_t*>(params + layout.quant_zp)[t];
    }
    return tq;
  };
  if constexpr (dt == dtype::int8) {
    // Every tensor's quantization is checked before any leaf runs: a zero, negative or NaN scale
    // or a zero point outside int8 is no quantization (a zero input scale made a residual add
    // drop its body and report ok).
    for (int32_t t = 0; t < Net::tensor_count; ++t) {
      const tensor_quant q = quant_of(t);
      if (!quant::valid_scale(q.scale) || !quant::valid_zero_point(q.zero_point))
        return {fault::bad_tensor_quant, kernels::status::bad_quant_param, t - 1, static_cast<uint32_t>(t)};
    }
  }
  // The packed weights: packed here at the first run with this blob, read by every later run.
  if (packed != nullptr && !packed->packed_from(params))
    if (const kernels::status s = packed->pack(params); s != kernels::status::ok) return {fault::kernel, s, -1};
  constexpr auto fan_in = static_cast<size_t>(Net::max_fan_in);
  // the inputs of leaf i (set 0) and, for a fused chain, of leaf i + k (set k)
  constexpr size_t sets = static_cast<size_t>(max_fused) + 1;
  // written by make_call before any read (entries k < the leaf's inputs): not zeroed per run
  const T* in[sets][fan_in];
  tensor_quant q_in[sets][fan_in];
  // chain[0] is leaf i; chain[k] leaf i + k of a fused chain. make_call fills every field in
  // place: no leaf_call is zeroed or copied per leaf (on rv32 that was ~500 cycles of memset and
  // memcpy per leaf, more than the accelerator's job for LeNet-5's last layers).
  leaf_call<T> chain[sets];
  // what make_call takes from the plan and the network, per leaf: constants of Net and T, read
  // from a table instead of recomputed (64-bit products on rv32) each run; a leaf_call's
  // in_offset and in_elems point into it
  struct leaf_geom {
    uint64_t out_offset;
    uint64_t in_offset[fan_in];
    int64_t in_elems[fan_in];
  };
  struct geom_table {
    leaf_geom g[Net::leaf_count > 0 ? static_cast<size_t>(Net::leaf_count) : 1];
  };
  static constexpr geom_table geo = [] {
    geom_table t{};
    for (int32_t i = 0; i < Net::leaf_count; ++i) {
      const row& r = Net::layer(i);
      leaf_geom& g = t.g[static_cast<size_t>(i)];
      g.out_offset = memory::plan_of<Net, dt>.offset_of(r.output);
      for (int32_t k = 0; k < r.n_inputs; ++k) {
        g.in_offset[k] = memory::plan_of<Net, dt>.offset_of(r.inputs[k]);
        g.in_elems[k] = Net::tensor_shape(r.inputs[k]).elems();
      }
    }
    return t;
  }();
  auto make_call = [&](leaf_call<T>& c, int32_t i, int set) {
    const row& r = Net::layer(i);
    const auto ui = static_cast<size_t>(i);
    const leaf_geom& g = geo.g[ui];
    c.index = i;
    c.r = &r;
    c.out_offset = g.out_offset;
    c.out = reinterpret_cast<T*>(arena + c.out_offset);
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      in[set][k] = reinterpret_cast<const T*>(arena + g.in_offset[k]);
      q_in[set][k] = quant_of(r.inputs[k]);
    }
    c.in = in[set];
    c.in_offset = g.in_offset;
    c.in_elems = g.in_elems;
    c.q_in = q_in[set];
    c.q_out = quant_of(r.output);
    c.scratch = plan.scratch_bytes[ui] != 0 ? arena + plan.scratch_offset[ui] : nullptr;
    c.scratch_bytes = static_cast<size_t>(plan.scratch_bytes[ui]);
    c.panel_rows = plan.panel_rows[ui];
    c.params = params;
    c.lp = &layout.leaves[ui];
    c.packed = nullptr;
    c.packed_bytes = 0;
    c.range = nullptr;
    if constexpr (packed_weights<Net, T>::total_bytes != 0) {
      if (packed != nullptr) {
        c.packed = packed->leaf(i);
        c.packed_bytes = packed_weights<Net, T>::layout.leaves[ui].bytes;
      }
    }
  };
  // device work still in flight: wait for it; failed names the leaf whose work failed
  auto settle = [&]() -> offload_result {
    if constexpr (requires { off.settle(); }) return off.settle();
    else return offload_result::done();
  };
  auto failed_leaf = [&](int32_t i) -> int32_t {
    if constexpr (requires { off.failed_leaf(); }) return off.failed_leaf() >= 0 ? off.failed_leaf() : i;
    else return i;
  };
  [[maybe_unused]] act_range clamp_range;  // an int8 clamp chain's (below)
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    make_call(chain[0], i, 0);
    const leaf_call<T>& c = chain[0];
    if constexpr (is_same_v<T, int8_t> && fused_offload_hook<Offload, T> && fusion_of<Net>.any) {
      // the chain from the table, then (when refused) shorter ones: no copy of the table's entry
      // unless a shorter chain is tried (a struct copy is a memcpy call in the -Os firmware)
      const fusion* fp = &fusion_of<Net>.at[static_cast<size_t>(i)];
      fusion shorter_f;
      if (callback == nullptr && fp->count > 0) {
        for (int32_t k = 1; k <= fp->count; ++k) make_call(chain[k], i + k, static_cast<int>(k));
        bool taken = false;
        for (; fp->count > 0 && !taken; shorter_f = fp->shorter(), fp = &shorter_f) {
          const fusion& f = *fp;
          if (!fused_apart(chain, f)) continue;
          if constexpr (requires { off.leaf_begin(i); }) off.leaf_begin(i);
          const offload_result o =
              off.offload_fused(static_cast<const leaf_call<T>*>(chain), f,
                                fusion_roles<fusion_of<Net>.any_add, fusion_of<Net>.any_grouped>{});
          if constexpr (requires { off.leaf_end(i); }) off.leaf_end(i);
          if (o.v == offload_result::verdict::failed) return {fault::offload, kernels::status::ok, failed_leaf(i), o.code};
          taken = o.v == offload_result::verdict::done;
          if (taken) i += f.count;  // the chain's leaves are done too
        }
        if (taken) continue;
      }
    }
    if constexpr (requires { off.leaf_begin(i); }) off.leaf_begin(i);
    using leaf_roles = fusion_roles<false, fusion_of<Net>.any_grouped>;  // a leaf alone: no add
    offload_result o;
    if constexpr (requires { off.offload(c, leaf_roles{}); }) o = off.offload(c, leaf_roles{});
    else o = off.offload(c);
    leaf_result res = leaf_done;
    int32_t chained = 0;  // leaves after i that ran in its CPU chain
    if (o.v == offload_result::verdict::declined) {
      // the CPU touches the arena: the device's work first (an alias of its input touches nothing)
      if (!(r.reuse.alias && r.n_inputs == 1 && static_cast<const void*>(c.in[0]) == c.out)) o = settle();
      if constexpr (is_same_v<T, float> && cpu_chain_of<Net>.any) {
        // a float32 CPU chain (runtime/fold.hpp): with the packed weights, on the optimized
        // kernels, when no callback must see the chain's inner outputs; else the leaves one by
        // one, a convolution whose packing holds a folded batch norm reading its raw weights
        const auto ui = static_cast<size_t>(i);
        if (cpu_chain_of<Net>.at[ui].count > 0 && packed != nullptr) {
          const leaf_param_layout& folded = packed_weights<Net, T>::layout.leaves[ui].folded;
          if (callback == nullptr && optimized(be)) {
            leaf_call<T>& cc = chain[0];
            cc.r = &cpu_chain_of<Net>.rows[ui];
            cc.out_offset = plan.offset_of(cc.r->output);
            cc.out = reinterpret_cast<T*>(arena + cc.out_offset);
            if (folded.w_bytes != 0) {
              cc.params = packed->base();
              cc.lp = &folded;
            }
            chained = cpu_chain_of<Net>.at[ui].count;
          } else if (folded.w_bytes != 0) {
            chain[0].packed = nullptr;
            chain[0].packed_bytes = 0;
          }
        }
      }
      if constexpr (is_same_v<T, int8_t>) {
        // an int8 batch norm with the ReLU / ReLU6 / Clamp after it as its output clamp
        // (runtime/fold.hpp), as the float32 chains run: with the packed weights given, on the
        // optimized kernels, when no callback must see its own output (a hook's leaf_begin and
        // leaf_end, the roofline's timer, see every leaf of a run without packed weights):
        // clamp(clamp(v, -128, 127), lo, hi) = clamp(v, lo, hi) for as_clamp's int8 bounds, the
        // batch norm's range (leaf_call::range), its row the table's (the clamp's output tensor)
        if constexpr (s8_clamp_chain_of<Net>.any)
          if (s8_clamp_chain_of<Net>.at[static_cast<size_t>(i)] && packed != nullptr && callback == nullptr &&
              optimized(be)) {
            make_call(chain[1], i + 1, 1);
            if (as_clamp(chain[1], clamp_range)) {
              leaf_call<T>& cc = chain[0];
              cc.r = &s8_clamp_chain_of<Net>.rows[static_cast<size_t>(i)];
              cc.range = &clamp_range;
              cc.out_offset = plan.offset_of(cc.r->output);
              cc.out = reinterpret_cast<T*>(arena + cc.out_offset);
              chained = 1;
            }
          }
      }
      if (o.v != offload_result::verdict::failed) res = run_leaf_on<T, kinds_of<Net> & ~owned_kinds<Offload>>(c, be);
    } else if (o.v == offload_result::verdict::done && callback != nullptr) {
      o = settle();   // the callback reads the output; the leaf's profile includes its device work
    }
    if constexpr (requires { off.leaf_end(i); }) off.leaf_end(i);
    if (o.v == offload_result::verdict::failed) return {fault::offload, kernels::status::ok, failed_leaf(i), o.code};
    if (res.code != fault::none) return {res.code, res.kernel, i};
    if (callback != nullptr) callback(user, i, c.out, static_cast<size_t>(r.out.elems()) * sizeof(T));
    i += chained;
  }
  if (const offload_result o = settle(); o.v == offload_result::verdict::failed)
    return {fault::offload, kernels::status::ok, failed_leaf(Net::leaf_count - 1), o.code};
  return {};
}

}  // namespace detail

/// @brief Runs Net on `arena` (plan_of<Net, dtype_of<T>>.arena_bytes bytes, 16-byte aligned, the
/// input at offset_of(0)) with the parameters of `params` (param_layout_of<Net, dtype_of<T>>),
/// on backend `be`. After each leaf, `callback(user, leaf, output, bytes)` when given.
/// @tparam Net a network  @tparam T float or int8_t
template <Network Net, class T>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes, backend be,
                      layer_callback callback = nullptr, void* user = nullptr) {
  no_offload none;
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, be, none, callback, user);
}

/// @brief As run() above on backend B fixed at compile time: an image compiles only B's kernels
/// of its network's ops. `run<Net, int8_t, backend::optimized>(arena, ...)`.
template <Network Net, class T, backend B>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes,
                      layer_callback callback = nullptr, void* user = nullptr) {
  no_offload none;
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, detail::backend_constant<B>{}, none,
                                  callback, user);
}

/// @brief As run() above with the weights packed once in `packed` (runtime/packed.hpp): the
/// first run with this blob packs them there, later runs read them and pack nothing. The
/// optimized kernels of the ops that pack (conv2d: int8, float32 on its implicit-im2col path)
/// read the packed form; the rest, and the reference backend, read the blob.
template <Network Net, class T>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes,
                      packed_weights<Net, T>& packed, backend be, layer_callback callback = nullptr,
                      void* user = nullptr) {
  no_offload none;
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, be, none, callback, user, &packed);
}

/// @brief run() with packed weights on backend B fixed at compile time.
template <Network Net, class T, backend B>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes,
                      packed_weights<Net, T>& packed, layer_callback callback = nullptr, void* user = nullptr) {
  no_offload none;
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, detail::backend_constant<B>{}, none,
                                  callback, user, &packed);
}

/// @brief As run() above, but each leaf is first offered to `off` (see offload_hook): the leaves
/// it declines run on the CPU kernels of backend `be`; a leaf it fails stops the run with
/// fault::offload, the leaf and the hook's code in run_status::detail.
/// @tparam Net a network  @tparam T float or int8_t  @tparam Offload an offload_hook for T
template <Network Net, class T, class Offload>
  requires offload_hook<Offload, T>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes, backend be,
                      Offload& off, layer_callback callback = nullptr, void* user = nullptr) {
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, be, off, callback, user);
}

/// @brief run() with an offload hook on backend B fixed at compile time.
template <Network Net, class T, backend B, class Offload>
  requires offload_hook<Offload, T>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes, Offload& off,
                      layer_callback callback = nullptr, void* user = nullptr) {
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, detail::backend_constant<B>{}, off,
                                  callback, user);
}

/// @brief run() with the weights packed once and an offload hook, on backend B fixed at compile time.
template <Network Net, class T, backend B, class Offload>
  requires offload_hook<Offload, T>
inline run_status run(uint8_t* arena, size_t arena_bytes, const uint8_t* params, size_t params_bytes,
                      packed_weights<Net, T>& packed, Offload& off, layer_callback callback = nullptr,
                      void* user = nullptr) {
  return detail::run_with<Net, T>(arena, arena_bytes, params, params_bytes, detail::backend_constant<B>{}, off,
                                  callback, user, &packed);
}

}  // namespace ctnn::runtime
