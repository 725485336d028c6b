// Host-only: the arena plan of rows known only at run time (a model read from a file), computed
// by the same planner as the constant memory::plan_of of a network type
// (memory::detail::plan_rows), into vectors instead of fixed arrays.
// Uses the C++ standard library; firmware never includes this header.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ctnn/memory/planner.hpp"

namespace ctnn::host {

/// @brief A plan with vectors of tensors, buffers and per-leaf entries (see memory::arena_plan).
struct dynamic_plan : memory::plan_summary {
  std::vector<memory::tensor_plan> tensors;
  std::vector<memory::buffer_plan> buffers;
  std::vector<std::int32_t> scratch_buffer;
  std::vector<std::uint64_t> scratch_bytes;
  std::vector<std::uint64_t> scratch_offset;
  std::vector<std::int32_t> panel_rows;

  [[nodiscard]] std::uint64_t offset_of(std::int32_t tensor) const {
    return tensors.at(static_cast<std::size_t>(tensor)).offset;
  }
};

/// @brief Plans the tensors of v with `elem_bytes` per element and alignment `align` (a power of
/// two); equal, field by field, to memory::plan_of of the network type with the same rows.
inline dynamic_plan plan_rows(const rows_view& v, std::uint64_t elem_bytes,
                              std::uint64_t align = memory::default_alignment) {
  if (align == 0 || (align & (align - 1)) != 0) throw std::invalid_argument("ctnn: the alignment must be a power of two");
  if (v.leaf_count < 1) throw std::invalid_argument("ctnn: a network without layers has no plan");
  const auto nt = static_cast<std::size_t>(v.tensor_count());
  const auto nl = static_cast<std::size_t>(v.leaf_count);
  const std::size_t nb = nt + nl;
  dynamic_plan p;
  p.tensors.resize(nt);
  p.buffers.resize(nb);
  p.scratch_buffer.resize(nl);
  p.scratch_bytes.resize(nl);
  p.scratch_offset.resize(nl);
  p.panel_rows.resize(nl);
  std::vector<std::int32_t> ints(memory::plan_workspace::ints_for(nt, nl));
  std::vector<std::uint64_t> wides(memory::plan_workspace::wides_for(nt, nl));
  memory::detail::plan_rows(v, elem_bytes, align,
                            memory::plan_target{&p, p.tensors.data(), p.buffers.data(), p.scratch_buffer.data(),
                                                p.scratch_bytes.data(), p.scratch_offset.data(), p.panel_rows.data()},
                            memory::plan_workspace{ints.data(), wides.data()});
  return p;
}

}  // namespace ctnn::host
