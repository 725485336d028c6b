// network: a named, input-shaped composition of nodes, and everything the compiler knows of it:
// the rows (per layer and per container), the shapes, parameters, MACs and bytes.
#pragma once
#include "ctnn/nn/graph.hpp"

namespace ctnn {

namespace detail {
template <size_t Rows, size_t Leaves, size_t Inputs>
struct walk_result {
  builder<Rows, Leaves, Inputs> b{};
  value out{};
};
}  // namespace detail

/// @brief The rows of a network, wherever they are held: a network type's constants
/// (`Net::view()`) or rows built at run time from a model file (host::graph_rows::view()). The
/// network-level figures, the arena planner and the reports read a network through this view
/// only, so a typed network and an imported one are analyzed by the same code.
struct rows_view {
  const row* rows = nullptr;          ///< rows in depth-first order; rows[0] is the network
  int32_t row_count = 0;
  const int32_t* leaf_rows = nullptr; ///< leaf_rows[i]: the row of the leaf executed i-th
  int32_t leaf_count = 0;
  shape input{};
  shape output{};
  int32_t output_tensor = 0;

  [[nodiscard]] constexpr int32_t tensor_count() const { return leaf_count + 1; }
  /// The leaf executed i-th.
  [[nodiscard]] constexpr const row& layer(int32_t i) const { return rows[leaf_rows[i]]; }
  /// Shape of tensor t (0 = input, i + 1 = output of leaf i).
  [[nodiscard]] constexpr shape tensor_shape(int32_t t) const { return t == 0 ? input : layer(t - 1).out; }

  [[nodiscard]] constexpr uint64_t weight_bytes(dtype t) const { return rows[0].param_bytes(t); }
  [[nodiscard]] constexpr uint64_t buffer_bytes(dtype t) const { return rows[0].buffer_bytes(t); }
  [[nodiscard]] constexpr uint64_t input_bytes(dtype t) const { return static_cast<uint64_t>(input.elems()) * size_of(t); }
  [[nodiscard]] constexpr uint64_t output_bytes(dtype t) const { return static_cast<uint64_t>(output.elems()) * size_of(t); }
  [[nodiscard]] constexpr uint64_t activation_bytes_sum(dtype t) const {
    uint64_t s = 0;
    for (int32_t i = 0; i < leaf_count; ++i) s += layer(i).output_bytes(t);
    return s;
  }
  [[nodiscard]] constexpr uint64_t read_bytes(dtype t) const {
    uint64_t s = 0;
    for (int32_t i = 0; i < leaf_count; ++i) s += layer(i).read_bytes(t);
    return s;
  }
  [[nodiscard]] constexpr uint64_t write_bytes(dtype t) const { return activation_bytes_sum(t); }
  [[nodiscard]] constexpr int32_t peak_io_layer(dtype t) const {
    int32_t best = 0;
    uint64_t best_bytes = 0;
    for (int32_t i = 0; i < leaf_count; ++i) {
      const uint64_t b = layer(i).in_elems * size_of(t) + layer(i).output_bytes(t);
      if (b > best_bytes) {
        best_bytes = b;
        best = i;
      }
    }
    return best;
  }
  [[nodiscard]] constexpr uint64_t peak_io_bytes(dtype t) const {
    if (leaf_count == 0) return 0;
    const row& r = layer(peak_io_layer(t));
    return r.in_elems * size_of(t) + r.output_bytes(t);
  }
};

/// @brief A network of Nodes run in sequence on a single input of shape In (batch 1).
///
/// Everything is a constant expression: `Net::rows[i]`, `Net::output_shape`, `Net::params`,
/// `Net::macs`, `Net::peak_io_bytes(dtype::int8)`. A malformed network does not compile, and the
/// first fault is reported with the position and type of the layer where it happens.
template <fixed_string Name, shape In, class... Nodes>
struct network {
  static_assert(In.valid(), "ctnn: network: the input shape must be non-empty");
  using body = block<Name, Nodes...>;

  static constexpr const char* name = Name.c_str();
  static constexpr shape input_shape = In;
  static constexpr int32_t leaf_count = body::leaf_count;
  static constexpr int32_t row_count = body::row_count;
  static constexpr int32_t tensor_count = leaf_count + 1;  ///< the input and one output per leaf
  static constexpr int32_t input_count = body::input_count;  ///< input tensor ids of all leaves

 private:
  static constexpr auto walk() {
    detail::walk_result<static_cast<size_t>(row_count), static_cast<size_t>(leaf_count),
                        static_cast<size_t>(input_count > 0 ? input_count : 1)>
        r{};
    r.out = body::emit(r.b, value{0, In}, context{0, -1, 0});
    return r;
  }
  static constexpr auto result = walk();

 public:
  /// The first fault found, if any (report.ok() for a well-formed network), with its leaf's path.
  static constexpr diagnostic first_fault = with_path(result.b.first_fault, result.b.rows.data(), row_count);
  // A fault is this one error (its op's error template names it); the value stays true so that
  // nothing else fails because of it.
  static_assert(raise<first_fault>::value);

  /// Every leaf's input tensor ids, leaf after leaf (row.inputs points into it).
  static constexpr auto input_pool = result.b.input_pool;
  /// Rows in depth-first execution order; row 0 is the network itself.
  static constexpr array<row, static_cast<size_t>(row_count)> rows =
      with_inputs_in(result.b.rows, input_pool.data());
  /// The most tensors one leaf reads.
  static constexpr int32_t max_fan_in = [] {
    int32_t m = 1;
    for (const row& r : rows)
      if (r.n_inputs > m) m = r.n_inputs;
    return m;
  }();
  static constexpr shape output_shape = result.out.s;
  static constexpr int32_t output_tensor = result.out.tensor;

  /// leaf_rows[i]: the row of the leaf executed i-th.
  static constexpr array<int32_t, static_cast<size_t>(leaf_count)> leaf_rows = [] {
    array<int32_t, static_cast<size_t>(leaf_count)> a{};
    for (int32_t i = 0; i < row_count; ++i)
      if (rows[static_cast<size_t>(i)].is_leaf()) a[static_cast<size_t>(rows[static_cast<size_t>(i)].leaf)] = i;
    return a;
  }();

  /// The leaf executed i-th.
  static constexpr const row& layer(int32_t i) { return rows[static_cast<size_t>(leaf_rows[static_cast<size_t>(i)])]; }

  /// Shape of tensor t (0 = input, i + 1 = output of leaf i).
  static constexpr shape tensor_shape(int32_t t) { return t == 0 ? In : layer(t - 1).out; }

  static constexpr leaf_counts totals = rows[0].counts;
  static constexpr uint64_t weights = totals.weights;
  static constexpr uint64_t biases = totals.biases;
  static constexpr uint64_t params = totals.weights + totals.biases;  ///< what torchinfo calls "Total params"
  static constexpr uint64_t buffers = totals.buffers;
  static constexpr uint64_t macs = totals.macs;               ///< conv + linear MACs (torchvision's GFLOPS)
  static constexpr uint64_t ext_ops = totals.ext_ops;          ///< all other operations
  static constexpr uint64_t macs_total = totals.macs + totals.ext_ops;

  /// The rows as the analysis and the planner read them (rows_view): the same figures for a
  /// network type and for rows built at run time from a file.
  static constexpr rows_view view() {
    return rows_view{rows.data(), row_count, leaf_rows.data(), leaf_count, In, output_shape, output_tensor};
  }

  /// Bytes of all parameters in dtype t (biases in the accumulator type for integer t).
  static constexpr uint64_t weight_bytes(dtype t) { return view().weight_bytes(t); }
  static constexpr uint64_t buffer_bytes(dtype t) { return view().buffer_bytes(t); }
  static constexpr uint64_t input_bytes(dtype t) { return view().input_bytes(t); }
  static constexpr uint64_t output_bytes(dtype t) { return view().output_bytes(t); }
  /// Sum of every leaf's output bytes (what a framework that keeps every activation allocates).
  static constexpr uint64_t activation_bytes_sum(dtype t) { return view().activation_bytes_sum(t); }
  /// Bytes read from memory by all layers (inputs, parameters, buffers) and written (outputs).
  static constexpr uint64_t read_bytes(dtype t) { return view().read_bytes(t); }
  static constexpr uint64_t write_bytes(dtype t) { return view().write_bytes(t); }
  /// The leaf whose inputs plus output are largest: the naive per-layer peak.
  static constexpr int32_t peak_io_layer(dtype t) { return view().peak_io_layer(t); }
  static constexpr uint64_t peak_io_bytes(dtype t) { return view().peak_io_bytes(t); }
};

/// True for the instantiations of network<>.
template <class T> inline constexpr bool is_network_v = false;
template <fixed_string N, shape I, class... Ns> inline constexpr bool is_network_v<network<N, I, Ns...>> = true;

/// @brief A network type: ctnn::network<...> or a type derived from one (a zoo model).
template <class T>
concept Network = requires {
  T::rows;
  T::leaf_count;
  T::input_shape;
  T::output_shape;
};

}  // namespace ctnn
