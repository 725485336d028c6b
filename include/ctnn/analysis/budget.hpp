// The memory-budget check firmware writes as `static_assert(ctnn::fits<Net, int8_t>(256 * 1024))`.
// When the network does not fit, compilation stops with the required bytes, the available bytes
// and the layer where the peak happens.
#pragma once
#include "ctnn/memory/planner.hpp"

namespace ctnn {

/// What the budget is compared with: the RAM the activations need at run time, i.e. the arena the
/// planner computes (tensors and kernel scratch, default 16-byte alignment), and the layer at its peak.
template <class Net, dtype T>
struct memory_requirement {
  static constexpr uint64_t bytes = memory::plan_of<Net, T>.arena_bytes;
  static constexpr int32_t peak_layer = memory::plan_of<Net, T>.peak_step;
  /// Where the peak is: at<path<...>, peak_layer>, as a fault's place is shown.
  static constexpr diagnostic peak_location = leaf_location(Net::rows.data(), Net::row_count, peak_layer);
  using peak_where = detail::where_of<peak_location>;
};

/// The bytes a network needs, as a type: a template argument of the budget's diagnostic.
template <uint64_t Bytes> struct required_bytes {};

namespace error {
/// Not constexpr on purpose: reaching it in a constant expression is the diagnostic. Its template
/// arguments, printed by the compiler, carry the numbers; the budget is the argument of fits().
/// They are types (required_bytes<N>, and at<path<...>, I> and layer_type<"Name"> as in the
/// network's faults) because g++ and clang print a type argument alike, where values come out as
/// "[with long unsigned int RequiredBytes = 23520; ...]" from one and "<23520UL, ...>" from the other.
template <class RequiredBytes, class PeakAtLayer, class PeakLayerType>
void memory_budget_exceeded_required_bytes_at_peak_layer(uint64_t available_bytes) {
  (void)available_bytes;
}
}  // namespace error

/// @brief True when Net's activations in element type T fit in `budget_bytes`; in a constant
/// expression a network that does not fit is a compile error naming required and available bytes.
template <Network Net, class T>
consteval bool fits(uint64_t budget_bytes) {
  static_assert(has_dtype<T>, "ctnn: fits: T must be int8_t, uint8_t, int16_t, int32_t or float");
  using req = memory_requirement<Net, dtype_of<T>>;
  if (req::bytes > budget_bytes) {
    constexpr const row& peak = Net::layer(req::peak_layer);
    error::memory_budget_exceeded_required_bytes_at_peak_layer<
        required_bytes<req::bytes>, typename req::peak_where,
        layer_type<detail::to_fixed<string_length(peak.type) + 1>(peak.type)>>(budget_bytes);
    return false;
  }
  return true;
}

}  // namespace ctnn
