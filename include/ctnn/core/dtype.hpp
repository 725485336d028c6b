// Element types ctnn knows, with their byte sizes, and the accumulator/bias type of each.
#pragma once
#include "ctnn/core/utility.hpp"

namespace ctnn {

enum class dtype : uint8_t { int8, uint8, int16, int32, float32 };

/// Bytes of one element.
constexpr uint64_t size_of(dtype t) {
  switch (t) {
    case dtype::int8:
    case dtype::uint8: return 1;
    case dtype::int16: return 2;
    case dtype::int32:
    case dtype::float32: return 4;
  }
  return 0;
}

/// Bytes of one bias element for layers computed in `t`: quantized layers keep their bias in the
/// accumulator type (int32 for 8-bit, int64 for 16-bit, as TFLite does), float keeps float.
constexpr uint64_t bias_size_of(dtype t) {
  switch (t) {
    case dtype::int8:
    case dtype::uint8: return 4;
    case dtype::int16: return 8;
    case dtype::int32:
    case dtype::float32: return 4;
  }
  return 0;
}

constexpr const char* name_of(dtype t) {
  switch (t) {
    case dtype::int8: return "int8";
    case dtype::uint8: return "uint8";
    case dtype::int16: return "int16";
    case dtype::int32: return "int32";
    case dtype::float32: return "float32";
  }
  return "?";
}

/// The dtype of a C++ element type: dtype_of<int8_t> == dtype::int8.
template <class T> inline constexpr bool has_dtype = false;
template <class T> inline constexpr dtype dtype_of = dtype::float32;
template <> inline constexpr bool has_dtype<int8_t> = true;
template <> inline constexpr dtype dtype_of<int8_t> = dtype::int8;
template <> inline constexpr bool has_dtype<uint8_t> = true;
template <> inline constexpr dtype dtype_of<uint8_t> = dtype::uint8;
template <> inline constexpr bool has_dtype<int16_t> = true;
template <> inline constexpr dtype dtype_of<int16_t> = dtype::int16;
template <> inline constexpr bool has_dtype<int32_t> = true;
template <> inline constexpr dtype dtype_of<int32_t> = dtype::int32;
template <> inline constexpr bool has_dtype<float> = true;
template <> inline constexpr dtype dtype_of<float> = dtype::float32;

}  // namespace ctnn
