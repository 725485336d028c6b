// ctnn-soc-sim: runs an RV32IM ELF on the Verilated ctnn_soc; UART to stdout, exit code from the
// exit device, "ctnn-soc-sim: cycles=... instret=..." on stderr. Its own statuses: 2 a bad command
// line, 3 a file that is no loadable ELF, 5 stdout or the --vcd trace not written, 125 no exit
// within --max-cycles; each with one line on stderr.
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
  std::uint64_t max_cycles = 100'000'000;
};

constexpr const char* usage_line = "usage: ctnn-soc-sim [--max-cycles N] [--vcd FILE] program.elf";

/// The options, or the fault of the command line (one line, without the tool's name).
[[nodiscard]] std::string parse_args(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--max-cycles" || a == "--vcd") {
      if (i + 1 >= argc) return std::string(a) + " needs a value";
      const std::string_view v = argv[++i];
      if (a == "--vcd") {
        if (v.empty()) return "--vcd: the file name is empty";
        o.vcd = v;
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
  while (!code && cycles < opt->max_cycles) {
    half_cycle(1);
    ++cycles;
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
  // Like QEMU, pass the program's code through; a nonzero code that the 8-bit exit status
  // would turn into 0 becomes 1 so that a failure never reads as a pass.
  if (*code != 0 && (*code & 0xff) == 0) {
    return 1;
  }
  return *code;
}
