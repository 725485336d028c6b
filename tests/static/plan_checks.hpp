// Plans of large networks, each in its own translation unit (plan_*.cpp): they must compile with
// the compilers' default constant-evaluation limits (no -fconstexpr-ops-limit or
// -fconstexpr-steps), reach their lower bound, and never grow past the arena recorded here.
#pragma once
#include "ctnn/memory/planner.hpp"

namespace ctnn_test_models {

/// True when Net's plan in dtype T reaches its lower bound within `RecordedBytes` (the arena
/// measured when the test was written: a plan may shrink, never grow).
template <class Net, ctnn::dtype T, uint64_t RecordedBytes>
constexpr bool plans_to_bound() {
  constexpr const auto& p = ctnn::memory::plan_of<Net, T>;
  static_assert(p.arena_bytes == p.lower_bound_bytes, "the plan does not reach its lower bound");
  static_assert(p.arena_bytes <= RecordedBytes, "the arena grew past the recorded one");
  static_assert(p.steps == Net::leaf_count);
  return true;
}

}  // namespace ctnn_test_models
