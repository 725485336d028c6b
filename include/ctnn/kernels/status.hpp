// Status codes the kernels return on runtime faults (bad sizes, null pointers), instead of UB.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn::kernels {

/// @brief Result of a kernel call. Every kernel checks its arguments before touching memory.
enum class status : uint8_t {
  ok = 0,
  bad_size,          ///< a negative dimension, or a geometry whose output is empty
  bad_leading_dim,   ///< lda/ldb/ldc smaller than the row length
  null_pointer,      ///< a required pointer is null while its tensor is not empty
  bad_quant_param,   ///< zero point, multiplier, shift or clamp range out of range
  bad_geometry,      ///< stride/dilation < 1, channels not divisible by groups, ...
  scratch_too_small  ///< the caller's scratch buffer is below the size the planner computes
};

constexpr const char* name_of(status s) {
  switch (s) {
    case status::ok: return "ok";
    case status::bad_size: return "bad_size";
    case status::bad_leading_dim: return "bad_leading_dim";
    case status::null_pointer: return "null_pointer";
    case status::bad_quant_param: return "bad_quant_param";
    case status::bad_geometry: return "bad_geometry";
    case status::scratch_too_small: return "scratch_too_small";
  }
  return "?";
}

}  // namespace ctnn::kernels
