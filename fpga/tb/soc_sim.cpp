// ctnn-soc-sim: runs an RV32IM ELF on the Verilated ctnn_soc; UART to stdout, exit code from the
// exit device, "ctnn-soc-sim: cycles=... instret=..." on stderr. Its own statuses: 2 a bad command
// line, 3 a file that is no loadable ELF, 5 stdout, the --vcd trace or the --profile table not
// written, 125 no exit within --max-cycles; each with one line on stderr.
//
// --profile FILE: the cycles of the run by function of the ELF's symbol table (the core's PC each
// cycle), each split into cycles while the accelerator was busy and while it was idle, most
// cycles first: where the CPU spends the time the accelerator waits for it. The runtime helpers
// the compiler calls (memcpy, memset, memmove, memcmp, the libgcc __* routines) are leaf
// functions that keep the return address in ra: their cycles are listed again by caller.
#include <cxxabi.h>

#include <cstdint>
#include <utility>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Vctnn_soc.h"
#include "Vctnn_soc___024root.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

#include "ctnn/host/cli.hpp"
#include "ctnn/regs/soc_map.hpp"
#include "elf_load.hpp"

namespace {

// Exit statuses of the simulator itself (the program's own code is passed through otherwise).
constexpr int exit_usage = 2;
constexpr int exit_load_error = 3;
constexpr int exit_output = 5;  // the UART output (stdout) or the --vcd trace could not be written
constexpr int exit_max_cycles = 125;

using ctnn_tb::ram_base;
using ctnn_tb::load_elf;

struct options {
  std::string elf;
  std::string vcd;
  std::string profile;
  std::uint64_t max_cycles = 100'000'000;
};

constexpr const char* usage_line = "usage: ctnn-soc-sim [--max-cycles N] [--vcd FILE] [--profile FILE] program.elf";

/// The options, or the fault of the command line (one line, without the tool's name).
[[nodiscard]] std::string parse_args(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--max-cycles" || a == "--vcd" || a == "--profile") {
      if (i + 1 >= argc) return std::string(a) + " needs a value";
      const std::string_view v = argv[++i];
      if (a == "--vcd" || a == "--profile") {
        if (v.empty()) return std::string(a) + ": the file name is empty";
        (a == "--vcd" ? o.vcd : o.profile) = v;
      } else if (std::string why = ctnn::cli::number_option(a, v, 1, UINT64_MAX, o.max_cycles); !why.empty()) {
        return why;
      }
    } else if (!a.empty() && a[0] == '-') {
      return "unknown option '" + std::string(a) + "'";
    } else if (o.elf.empty()) {
      o.elf = a;
    } else {
      return "unexpected argument '" + std::string(a) + "'";
    }
  }
  if (o.elf.empty()) return "no program given";
  return {};
}

/// Cycles at one PC: all, and those while the accelerator was busy.
struct pc_cycles {
  std::uint64_t all = 0, busy = 0;
};

std::string demangled(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string r = (status == 0 && d != nullptr) ? std::string(d) : name;
  std::free(d);
  return r;
}

/// The function holding pc (index into fns), or fns.size() for none.
std::size_t function_at(const std::vector<ctnn_tb::elf_function>& fns, std::uint32_t pc) {
  auto it = std::upper_bound(fns.begin(), fns.end(), pc,
                             [](std::uint32_t v, const ctnn_tb::elf_function& f) { return v < f.addr; });
  if (it != fns.begin() && pc - std::prev(it)->addr < std::max<std::uint32_t>(std::prev(it)->size, 1))
    return static_cast<std::size_t>(std::prev(it) - fns.begin());
  return fns.size();
}

/// A runtime helper: a leaf function whose caller is in ra.
bool is_helper(const std::string& name) {
  return name == "memcpy" || name == "memset" || name == "memmove" || name == "memcmp" || name.rfind("__", 0) == 0;
}

/// The --profile table: per function of the ELF (PCs outside every function: "(no symbol)"),
/// then the helpers' cycles by (helper, caller).
[[nodiscard]] bool write_profile(const options& o, std::FILE* f, const std::vector<ctnn_tb::elf_function>& fns,
                                 const std::vector<pc_cycles>& at,
                                 const std::vector<std::pair<std::uint64_t, std::uint64_t>>& helper_calls,
                                 std::uint64_t cycles) {
  struct row {
    std::string name;
    pc_cycles c;
  };
  std::vector<row> rows(fns.size() + 1);
  rows.back().name = "(no symbol)";
  for (std::size_t i = 0; i < fns.size(); ++i) rows[i].name = demangled(fns[i].name);
  std::uint64_t busy = 0;
  for (std::size_t w = 0; w < at.size(); ++w) {
    if (at[w].all == 0) continue;
    busy += at[w].busy;
    const std::uint32_t pc = ram_base + static_cast<std::uint32_t>(4 * w);
    const std::size_t r = function_at(fns, pc);
    rows[r].c.all += at[w].all;
    rows[r].c.busy += at[w].busy;
  }
  std::sort(rows.begin(), rows.end(), [](const row& x, const row& y) { return x.c.all > y.c.all; });
  std::fprintf(f, "# ctnn-soc-sim --profile %s: %llu cycles, accelerator busy %llu\n", o.elf.c_str(),
               static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(busy));
  std::fprintf(f, "# cycles share accel_busy accel_idle function\n");
  for (const row& r : rows) {
    if (r.c.all == 0) continue;
    std::fprintf(f, "%llu %.2f%% %llu %llu %s\n", static_cast<unsigned long long>(r.c.all),
                 100.0 * static_cast<double>(r.c.all) / static_cast<double>(cycles ? cycles : 1),
                 static_cast<unsigned long long>(r.c.busy), static_cast<unsigned long long>(r.c.all - r.c.busy),
                 r.name.c_str());
  }
  std::fprintf(f, "# helpers by caller: cycles helper <- caller\n");
  std::vector<std::pair<std::uint64_t, std::uint64_t>> hc = helper_calls;   // (cycles, helper * n + caller)
  std::sort(hc.begin(), hc.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  const std::uint64_t n = fns.size() + 1;
  for (const auto& [c, key] : hc) {
    const std::size_t h = static_cast<std::size_t>(key / n), caller = static_cast<std::size_t>(key % n);
    std::fprintf(f, "%llu %s <- %s\n", static_cast<unsigned long long>(c), fns[h].name.c_str(),
                 caller < fns.size() ? demangled(fns[caller].name).c_str() : "(no symbol)");
  }
  return std::fclose(f) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  if (const std::string why = parse_args(argc, argv, o); !why.empty()) {
    std::fprintf(stderr, "ctnn-soc-sim: %s (%s)\n", why.c_str(), usage_line);
    return exit_usage;
  }
  const options* opt = &o;

  auto context = std::make_unique<VerilatedContext>();
  context->traceEverOn(!opt->vcd.empty());
  auto top = std::make_unique<Vctnn_soc>(context.get());

  auto& mem = top->rootp->ctnn_soc__DOT__u_ram__DOT__mem_q;
  constexpr std::size_t ram_words = sizeof(mem.m_storage) / sizeof(mem.m_storage[0]);
  std::vector<std::uint8_t> image(ram_words * 4, 0);
  if (const std::string err = load_elf(opt->elf, image); !err.empty()) {
    std::fprintf(stderr, "ctnn-soc-sim: %s\n", err.c_str());
    return exit_load_error;
  }
  for (std::size_t w = 0; w < ram_words; ++w) {
    mem.m_storage[w] = static_cast<std::uint32_t>(image[4 * w]) |
                       static_cast<std::uint32_t>(image[4 * w + 1]) << 8 |
                       static_cast<std::uint32_t>(image[4 * w + 2]) << 16 |
                       static_cast<std::uint32_t>(image[4 * w + 3]) << 24;
  }

  std::unique_ptr<VerilatedVcdC> vcd;
  if (!opt->vcd.empty()) {
    vcd = std::make_unique<VerilatedVcdC>();
    top->trace(vcd.get(), 99);
    vcd->open(opt->vcd.c_str());
    if (!vcd->isOpen()) {
      std::fprintf(stderr, "ctnn-soc-sim: --vcd: cannot write '%s'\n", opt->vcd.c_str());
      return exit_output;
    }
  }
  std::uint64_t time = 0;
  auto half_cycle = [&](std::uint8_t clk) {
    top->clk_i = clk;
    top->eval();
    if (vcd) {
      vcd->dump(time);
    }
    ++time;
  };

  // Reset for two cycles; cycles are counted from the first edge with rst_ni high.
  top->rst_ni = 0;
  for (int i = 0; i < 2; ++i) {
    half_cycle(0);
    half_cycle(1);
  }
  top->rst_ni = 1;
  half_cycle(0);

  std::uint64_t cycles = 0;
  std::optional<int> code;
  std::vector<pc_cycles> prof(opt->profile.empty() ? 0 : ram_words);
  std::vector<ctnn_tb::elf_function> fns;
  std::vector<bool> helper;                                   // per function
  std::vector<std::pair<std::uint64_t, std::uint64_t>> helper_calls;   // (cycles, helper * n + caller)
  std::vector<std::uint64_t> helper_at;                       // cycles by helper * n + caller
  std::FILE* prof_file = nullptr;   // opened before the run: an unwritable name fails at once
  if (!prof.empty()) {
    prof_file = std::fopen(opt->profile.c_str(), "w");
    if (prof_file == nullptr) {
      std::fprintf(stderr, "ctnn-soc-sim: --profile: cannot write '%s'\n", opt->profile.c_str());
      return exit_output;
    }
    if (const std::string err = ctnn_tb::read_functions(opt->elf, fns); !err.empty()) {
      std::fprintf(stderr, "ctnn-soc-sim: --profile: %s\n", err.c_str());
      return exit_load_error;
    }
    for (const auto& fn : fns) helper.push_back(is_helper(fn.name));
  }
  std::size_t last_w = SIZE_MAX, last_fn = 0;
  while (!code && cycles < opt->max_cycles) {
    half_cycle(1);
    ++cycles;
    if (!prof.empty()) {
      const std::uint32_t pc = top->rootp->ctnn_soc__DOT__u_core__DOT__pc_q;
      const std::size_t w = (pc - ram_base) / 4;
      if (pc >= ram_base && w < prof.size()) {
        ++prof[w].all;
        prof[w].busy += top->rootp->ctnn_soc__DOT__g_accel__DOT__u_accel__DOT__u_ctrl__DOT__busy_q;
        if (w != last_w) {
          last_w = w;
          last_fn = function_at(fns, pc);
        }
        if (last_fn < fns.size() && helper[last_fn]) {
          const std::uint32_t ra = top->rootp->ctnn_soc__DOT__u_core__DOT__rf_q[0];   // x1
          const std::uint64_t n = fns.size() + 1;
          const std::uint64_t key = last_fn * n + function_at(fns, ra);
          if (helper_at.size() <= key) helper_at.resize(key + 1, 0);
          ++helper_at[key];
        }
      }
    }
    if (top->uart_tx_valid_o) {
      std::fputc(top->uart_tx_data_o, stdout);
      // line by line: a long run (a model over hundreds of images) shows its progress in a log
      if (top->uart_tx_data_o == '\n') std::fflush(stdout);
    }
    if (top->exit_valid_o) {
      code = top->exit_code_o;
    }
    half_cycle(0);
  }
  const bool written = ctnn::cli::stdout_written("ctnn-soc-sim");
  const std::uint64_t instret = top->rootp->ctnn_soc__DOT__u_core__DOT__u_csr__DOT__minstret_q;
  if (vcd) {
    vcd->close();
  }
  top->final();

  std::fprintf(stderr, "ctnn-soc-sim: cycles=%llu instret=%llu\n",
               static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(instret));
  if (!code) {
    std::fprintf(stderr, "ctnn-soc-sim: no exit after --max-cycles %llu\n",
                 static_cast<unsigned long long>(opt->max_cycles));
    return exit_max_cycles;
  }
  if (!written) return exit_output;
  for (std::size_t key = 0; key < helper_at.size(); ++key)
    if (helper_at[key] != 0) helper_calls.emplace_back(helper_at[key], key);
  if (prof_file != nullptr && !write_profile(o, prof_file, fns, prof, helper_calls, cycles)) return exit_output;
  // Like QEMU, pass the program's code through; a nonzero code that the 8-bit exit status
  // would turn into 0 becomes 1 so that a failure never reads as a pass.
  if (*code != 0 && (*code & 0xff) == 0) {
    return 1;
  }
  return *code;
}
