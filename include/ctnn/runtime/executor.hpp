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
//
// Offload: run(..., off) first asks off.offload(leaf) for each leaf, which may run the leaf on a
// device (done), refuse it (declined: the CPU kernels run it) or fail (the run stops with
// fault::offload, the leaf and the hook's code). Optional members off.leaf_begin(i) and
// off.leaf_end(i) bracket the execution of leaf i alone (offload attempt and CPU kernel), for
// per-layer profiles that leave out the executor's bookkeeping and the layer callback.
//
// Fused offload (int8): a hook with `offload_result off.offload_fused(producer, add)` is offered
// a conv2d or linear leaf together with the next leaf when that one is an add reading the
// producer's output, nobody else reads that output, it is not the network's output, and the
// add's output does not overlap the producer's inputs. `done` means the device wrote the add's
// output (the producer's output is never written) and both leaves are done; `declined` runs
// them one by one as usual. No pair is offered when a layer callback is given: the callback
// sees every leaf's output, so every output must exist (the firmware demos' per-leaf CRCs).
// leaf_begin(i) / leaf_end(i) bracket the pair (nothing for leaf i + 1).
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

/// @brief An offload hook that can also run a producer leaf and the add that consumes it as one
/// job (see the fused offload above).
template <class O, class T>
concept fused_offload_hook = requires(O& o, const leaf_call<T>& c) {
  requires is_same_v<decltype(o.offload_fused(c, c)), offload_result>;
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

/// Leaf i may be offered with leaf i + 1 to offload_fused: i is a conv2d or linear whose output
/// only leaf i + 1, an add, reads (once), and which is not the network's output.
template <Network Net>
struct fusable_table {
  bool at[Net::leaf_count > 0 ? Net::leaf_count : 1] = {};
  bool any = false;  ///< a network without such a pair compiles no fused path
};
template <Network Net>
inline constexpr fusable_table<Net> fusable_of = [] {
  fusable_table<Net> t{};
  for (int32_t i = 0; i + 1 < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    const row& next = Net::layer(i + 1);
    if ((r.kind != op::conv2d && r.kind != op::linear) || next.kind != op::add || next.n_inputs != 2 ||
        r.output == Net::output_tensor)
      continue;
    int32_t uses = 0;
    for (int32_t k = 0; k < Net::leaf_count; ++k) {
      const row& q = Net::layer(k);
      for (int32_t j = 0; j < q.n_inputs; ++j) uses += q.inputs[j] == r.output ? 1 : 0;
    }
    t.at[i] = uses == 1 && (next.inputs[0] == r.output || next.inputs[1] == r.output);
    t.any = t.any || t.at[i];
  }
  return t;
}();

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
  // the inputs of leaf i (set 0) and, for a fused pair, of leaf i + 1 (set 1)
  const T* in[2][fan_in] = {};
  uint64_t in_offset[2][fan_in] = {};
  int64_t in_elems[2][fan_in] = {};
  tensor_quant q_in[2][fan_in] = {};
  auto make_call = [&](int32_t i, int set) {
    const row& r = Net::layer(i);
    const auto ui = static_cast<size_t>(i);
    leaf_call<T> c{};
    c.index = i;
    c.r = &r;
    c.out_offset = plan.offset_of(r.output);
    c.out = reinterpret_cast<T*>(arena + c.out_offset);
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      in_offset[set][k] = plan.offset_of(r.inputs[k]);
      in[set][k] = reinterpret_cast<const T*>(arena + in_offset[set][k]);
      in_elems[set][k] = Net::tensor_shape(r.inputs[k]).elems();
      q_in[set][k] = quant_of(r.inputs[k]);
    }
    c.in = in[set];
    c.in_offset = in_offset[set];
    c.in_elems = in_elems[set];
    c.q_in = q_in[set];
    c.q_out = quant_of(r.output);
    c.scratch = plan.scratch_bytes[ui] != 0 ? arena + plan.scratch_offset[ui] : nullptr;
    c.scratch_bytes = static_cast<size_t>(plan.scratch_bytes[ui]);
    c.panel_rows = plan.panel_rows[ui];
    c.params = params;
    c.lp = &layout.leaves[ui];
    if constexpr (packed_weights<Net, T>::total_bytes != 0) {
      if (packed != nullptr) {
        c.packed = packed->leaf(i);
        c.packed_bytes = packed_weights<Net, T>::layout.leaves[ui].bytes;
      }
    }
    return c;
  };
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    const leaf_call<T> c = make_call(i, 0);
    if constexpr (is_same_v<T, int8_t> && fused_offload_hook<Offload, T> && fusable_of<Net>.any) {
      if (callback == nullptr && fusable_of<Net>.at[static_cast<size_t>(i)]) {
        const leaf_call<T> add = make_call(i + 1, 1);
        // the device reads the producer's inputs while it writes the add's output: no overlap
        const uint64_t out_lo = add.out_offset, out_hi = out_lo + static_cast<uint64_t>(add.r->out.elems()) * sizeof(T);
        bool apart = true;
        for (int32_t k = 0; k < r.n_inputs; ++k) {
          const uint64_t lo = c.in_offset[k], hi = lo + static_cast<uint64_t>(c.in_elems[k]) * sizeof(T);
          apart = apart && (hi <= out_lo || out_hi <= lo);
        }
        if (apart) {
          if constexpr (requires { off.leaf_begin(i); }) off.leaf_begin(i);
          const offload_result o = off.offload_fused(c, add);
          if constexpr (requires { off.leaf_end(i); }) off.leaf_end(i);
          if (o.v == offload_result::verdict::failed) return {fault::offload, kernels::status::ok, i, o.code};
          if (o.v == offload_result::verdict::done) {
            ++i;  // leaf i + 1 is done too
            continue;
          }
        }
      }
    }
    if constexpr (requires { off.leaf_begin(i); }) off.leaf_begin(i);
    const offload_result o = off.offload(c);
    leaf_result res = leaf_done;
    if (o.v == offload_result::verdict::declined) res = run_leaf_on<T, kinds_of<Net> & ~owned_kinds<Offload>>(c, be);
    if constexpr (requires { off.leaf_end(i); }) off.leaf_end(i);
    if (o.v == offload_result::verdict::failed) return {fault::offload, kernels::status::ok, i, o.code};
    if (res.code != fault::none) return {res.code, res.kernel, i};
    if (callback != nullptr) callback(user, i, c.out, static_cast<size_t>(r.out.elems()) * sizeof(T));
  }
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
/// optimized kernels of the ops that pack (int8 conv2d) read the packed form; the rest, and the
/// reference backend, read the blob.
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
