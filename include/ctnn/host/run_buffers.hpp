// Host-only helpers for running networks: a 16-byte aligned byte buffer (an arena or a parameter
// blob) and a recorder of every layer's output, for the executor's per-layer callback.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ctnn::host {

/// @brief A zero-filled byte buffer whose `data` is 16-byte aligned.
struct aligned_bytes {
  std::vector<std::uint8_t> storage;
  std::uint8_t* data = nullptr;
  std::size_t size = 0;
  explicit aligned_bytes(std::size_t n) : storage(n + 16, 0), size(n) {
    const auto p = reinterpret_cast<std::uintptr_t>(storage.data());
    data = storage.data() + ((16 - p % 16) % 16);
  }
};

/// @brief Keeps a copy of each layer's output; pass `&layer_recorder::record` and the recorder.
struct layer_recorder {
  std::vector<std::vector<std::uint8_t>> outputs;  ///< sized by the caller: one per leaf
  static void record(void* user, std::int32_t leaf, const void* out, std::size_t bytes) {
    auto& v = static_cast<layer_recorder*>(user)->outputs.at(static_cast<std::size_t>(leaf));
    v.assign(static_cast<const std::uint8_t*>(out), static_cast<const std::uint8_t*>(out) + bytes);
  }
};

}  // namespace ctnn::host
