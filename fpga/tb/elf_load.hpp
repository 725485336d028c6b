// Loads an RV32 ELF executable into a byte image of the SoC RAM, for ctnn-soc-sim and
// ctnn-core-sim (host-only testbench code).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ctnn/regs/soc_map.hpp"

namespace ctnn_tb {

inline constexpr std::uint32_t ram_base = ctnn::regs::soc::ram.base;

[[nodiscard]] inline std::uint32_t le32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) | static_cast<std::uint32_t>(b[at + 1]) << 8 |
         static_cast<std::uint32_t>(b[at + 2]) << 16 | static_cast<std::uint32_t>(b[at + 3]) << 24;
}

[[nodiscard]] inline std::uint16_t le16(const std::vector<std::uint8_t>& b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] | b[at + 1] << 8);
}

// Loads the PT_LOAD segments of an ELF32 little-endian RISC-V executable into ram (a byte image
// of the SoC RAM starting at ram_base). Returns an error message, empty on success.
[[nodiscard]] inline std::string load_elf(const std::string& path, std::vector<std::uint8_t>& ram) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    return "cannot open " + path;
  }
  const std::vector<std::uint8_t> b{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  constexpr std::size_t ehdr_size = 52;
  constexpr std::size_t phdr_size = 32;
  if (b.size() < ehdr_size || std::memcmp(b.data(), "\x7f" "ELF", 4) != 0) {
    return path + ": not an ELF file";
  }
  if (b[4] != 1 || b[5] != 1) {
    return path + ": not ELF32 little-endian";
  }
  constexpr std::uint16_t et_exec = 2;
  constexpr std::uint16_t em_riscv = 243;
  if (le16(b, 16) != et_exec || le16(b, 18) != em_riscv) {
    return path + ": not a RISC-V executable";
  }
  const std::uint32_t entry = le32(b, 24);
  const std::uint32_t phoff = le32(b, 28);
  const std::uint16_t phentsize = le16(b, 42);
  const std::uint16_t phnum = le16(b, 44);
  if (entry != ram_base) {
    return path + ": entry point is not the SoC boot address (start of RAM)";
  }
  if (phentsize < phdr_size || phoff + std::uint64_t{phentsize} * phnum > b.size()) {
    return path + ": bad program header table";
  }
  constexpr std::uint32_t pt_load = 1;
  int loaded = 0;
  for (std::uint16_t i = 0; i < phnum; ++i) {
    const std::size_t ph = phoff + std::size_t{i} * phentsize;
    if (le32(b, ph) != pt_load) {
      continue;
    }
    const std::uint32_t offset = le32(b, ph + 4);
    const std::uint32_t paddr = le32(b, ph + 12);
    const std::uint32_t filesz = le32(b, ph + 16);
    const std::uint32_t memsz = le32(b, ph + 20);
    if (memsz == 0) {
      continue;
    }
    if (filesz > memsz || std::uint64_t{offset} + filesz > b.size()) {
      return path + ": segment " + std::to_string(i) + " lies outside the file";
    }
    if (paddr < ram_base || std::uint64_t{paddr - ram_base} + memsz > ram.size()) {
      return path + ": segment " + std::to_string(i) + " does not fit the SoC RAM";
    }
    const std::size_t at = paddr - ram_base;
    std::memcpy(ram.data() + at, b.data() + offset, filesz);
    std::memset(ram.data() + at + filesz, 0, memsz - filesz);
    ++loaded;
  }
  if (loaded == 0) {
    return path + ": no loadable segment";
  }
  return {};
}

/// A function symbol of an ELF: [addr, addr + size).
struct elf_function {
  std::uint32_t addr = 0, size = 0;
  std::string name;
};

// The STT_FUNC symbols of the ELF's symbol table (sorted by address), for the simulators'
// profiles. Returns an error message, empty on success (an ELF without a symbol table has none).
[[nodiscard]] inline std::string read_functions(const std::string& path, std::vector<elf_function>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "cannot open " + path;
  const std::vector<std::uint8_t> b{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  if (b.size() < 52 || std::memcmp(b.data(), "\x7f" "ELF", 4) != 0) return path + ": not an ELF file";
  const std::uint32_t shoff = le32(b, 32);
  const std::uint16_t shentsize = le16(b, 46), shnum = le16(b, 48);
  if (shentsize < 40 || shoff + std::uint64_t{shentsize} * shnum > b.size()) return path + ": bad section header table";
  constexpr std::uint32_t sht_symtab = 2;
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::size_t sh = shoff + std::size_t{i} * shentsize;
    if (le32(b, sh + 4) != sht_symtab) continue;
    const std::uint32_t off = le32(b, sh + 16), size = le32(b, sh + 20), link = le32(b, sh + 24);
    const std::uint32_t entsize = le32(b, sh + 36);
    if (link >= shnum || entsize < 16 || std::uint64_t{off} + size > b.size()) return path + ": bad symbol table";
    const std::size_t strsh = shoff + std::size_t{link} * shentsize;
    const std::uint32_t stroff = le32(b, strsh + 16), strsize = le32(b, strsh + 20);
    if (std::uint64_t{stroff} + strsize > b.size()) return path + ": bad string table";
    for (std::uint32_t at = off; at + 16 <= off + size; at += entsize) {
      const std::uint32_t name = le32(b, at), value = le32(b, at + 4), sz = le32(b, at + 8);
      constexpr std::uint8_t stt_func = 2;
      if ((b[at + 12] & 0xf) != stt_func || name >= strsize) continue;
      const char* s = reinterpret_cast<const char*>(b.data() + stroff + name);
      out.push_back({value, sz, std::string(s, strnlen(s, strsize - name))});
    }
  }
  std::sort(out.begin(), out.end(), [](const elf_function& x, const elf_function& y) { return x.addr < y.addr; });
  return {};
}

}  // namespace ctnn_tb
