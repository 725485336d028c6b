// Host-only: runs a network known only at run time (host::graph_rows, a model read from a file)
// on the executor's own kernels (op_def<K>::run through runtime::detail::run_leaf), leaf by leaf
// in execution order. No plan: every tensor has a buffer of its own, so all of them can be read
// after a run (ctnn-import's calibration reads every tensor of the float32 network, its SQNR check
// every layer of the int8 one). Convolutions get no scratch and run their direct kernels.
//
//   arena: | tensor 0 (input) | tensor 1 | tensor 2 | ... | tensor L |   each 16-byte aligned
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "ctnn/host/run_buffers.hpp"
#include "ctnn/host/runtime_graph.hpp"
#include "ctnn/runtime/executor.hpp"

namespace ctnn::host {

/// @brief Runs graph `g` in element type T (float or int8_t) with the parameter blob `params`
/// laid out by `layout` (param_layout(g, dtype_of<T>)); int8 reads each tensor's quantization
/// from the blob's table. The graph, the blob and the layout must outlive the runner.
template <class T>
class graph_runner {
 public:
  graph_runner(const graph_rows& g, const std::uint8_t* params, const graph_param_layout& layout)
      : g_(g), params_(params), layout_(layout) {
    const auto tensors = static_cast<std::size_t>(g.tensor_count());
    offset_.resize(tensors);
    std::uint64_t at = 0;
    for (std::size_t t = 0; t < tensors; ++t) {
      offset_[t] = at;
      const auto bytes = static_cast<std::uint64_t>(g.tensor_shape(static_cast<int32_t>(t)).elems()) * sizeof(T);
      at = (at + bytes + 15) / 16 * 16;
    }
    arena_ = std::make_unique<aligned_bytes>(static_cast<std::size_t>(at));
    if constexpr (std::is_same_v<T, int8_t>) {
      quant_.resize(tensors);
      for (std::size_t t = 0; t < tensors; ++t) {
        quant_[t].scale = reinterpret_cast<const float*>(params + layout.quant_scale)[t];
        quant_[t].zero_point = reinterpret_cast<const std::int32_t*>(params + layout.quant_zp)[t];
      }
    }
  }

  /// @brief Runs the graph on `input` (tensor 0's elements) on backend `be`; the status of the
  /// first leaf that fails (its index in run_status::leaf), or ok.
  runtime::run_status run(const T* input, runtime::backend be) {
    std::memcpy(data(0), input, static_cast<std::size_t>(elems(0)) * sizeof(T));
    std::vector<const T*> in;
    std::vector<std::uint64_t> in_offset;
    std::vector<std::int64_t> in_elems;
    std::vector<runtime::tensor_quant> q_in;
    for (int32_t i = 0; i < g_.leaf_count(); ++i) {
      const row& r = g_.layer(i);
      const auto n = static_cast<std::size_t>(r.n_inputs);
      in.assign(n, nullptr);
      in_offset.assign(n, 0);
      in_elems.assign(n, 0);
      q_in.assign(n, {});
      for (std::size_t k = 0; k < n; ++k) {
        const int32_t t = r.inputs[k];
        in[k] = data(t);
        in_offset[k] = offset_[static_cast<std::size_t>(t)];
        in_elems[k] = elems(t);
        if constexpr (std::is_same_v<T, int8_t>) q_in[k] = quant_[static_cast<std::size_t>(t)];
      }
      runtime::leaf_call<T> c{};
      c.index = i;
      c.r = &r;
      c.out = data(r.output);
      c.out_offset = offset_[static_cast<std::size_t>(r.output)];
      c.in = in.data();
      c.in_offset = in_offset.data();
      c.in_elems = in_elems.data();
      c.q_in = q_in.data();
      if constexpr (std::is_same_v<T, int8_t>) c.q_out = quant_[static_cast<std::size_t>(r.output)];
      c.params = params_;
      c.lp = &layout_.leaves[static_cast<std::size_t>(i)];
      const runtime::leaf_result res = runtime::detail::run_leaf<T, all_kinds>(c, be);
      if (res.code != runtime::fault::none) return {res.code, res.kernel, i};
    }
    return {};
  }

  /// The elements of tensor t (0: the input, i + 1: leaf i's output) after a run.
  [[nodiscard]] const T* tensor(int32_t t) const { return data(t); }
  [[nodiscard]] std::int64_t elems(int32_t t) const { return g_.tensor_shape(t).elems(); }

 private:
  const graph_rows& g_;
  const std::uint8_t* params_;
  const graph_param_layout& layout_;
  std::vector<std::uint64_t> offset_;
  std::unique_ptr<aligned_bytes> arena_;
  std::vector<runtime::tensor_quant> quant_;
  T* data(int32_t t) const { return reinterpret_cast<T*>(arena_->data + offset_[static_cast<std::size_t>(t)]); }
};

}  // namespace ctnn::host
