// Buses for ctnn::mmio: the register types take the bus as a template parameter, so firmware
// uses volatile loads and stores and host tests use an array that counts its accesses.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace ctnn::mmio {

/// @brief What a bus offers: one 32-bit load and one 32-bit store at a byte address.
template <class B>
concept bus = requires(uint32_t addr, uint32_t v) {
  static_cast<uint32_t>(B::load(addr));
  B::store(addr, v);
};

/// @brief The target's bus: one volatile 32-bit access per call.
struct volatile_bus {
  static uint32_t load(uint32_t addr) {
    return *reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(addr));
  }
  static void store(uint32_t addr, uint32_t v) {
    *reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(addr)) = v;
  }
};

/// @brief A host-test bus over an array of words covering [Base, Base + Bytes), with access
/// counters. Tag separates instances with the same window. An access outside the window traps.
template <uint32_t Base, uint32_t Bytes, class Tag = void>
struct array_bus {
  static_assert(Base % 4u == 0 && Bytes % 4u == 0 && Bytes > 0, "array_bus: bad window");
  static inline uint32_t words[Bytes / 4u] = {};
  static inline unsigned loads = 0;
  static inline unsigned stores = 0;
  static inline uint32_t last_store_addr = 0;

  static uint32_t& at(uint32_t addr) {
    if (addr < Base || addr - Base >= Bytes || addr % 4u != 0) __builtin_trap();
    return words[(addr - Base) / 4u];
  }
  static uint32_t load(uint32_t addr) {
    ++loads;
    return at(addr);
  }
  static void store(uint32_t addr, uint32_t v) {
    ++stores;
    last_store_addr = addr;
    at(addr) = v;
  }
  static void reset_counters() { loads = stores = 0; }
};

}  // namespace ctnn::mmio
