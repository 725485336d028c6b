// ctnn-core-sim: ctnn_core alone against a C++ model of the ctnn bus and the QEMU virt devices,
// with randomly stalled req_ready. Checks the core's side of BUS.md every cycle (request held
// stable until accepted, word-aligned address, wstrb 0 on reads, one request outstanding) and
// exercises the retry states the always-ready SoC never reaches.
//   ctnn-core-sim [--stall-percent P] [--seed S] [--max-cycles N] program.elf
// Exit: the program's code; 2 a bad command line, 3 no loadable ELF, 4 a bus protocol violation,
// 5 stdout not written, 125 no exit within --max-cycles; each with one line on stderr.
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

#include "Vctnn_core.h"
#include "Vctnn_core___024root.h"
#include "verilated.h"

#include "ctnn/host/cli.hpp"
#include "ctnn/regs/exit.hpp"
#include "ctnn/regs/soc_map.hpp"
#include "ctnn/regs/uart.hpp"
#include "elf_load.hpp"

namespace {

namespace map = ctnn::regs::soc;
namespace uart = ctnn::regs::uart;
using finisher = ctnn::regs::exit::finisher;

constexpr int exit_usage = 2;
constexpr int exit_load_error = 3;
constexpr int exit_protocol = 4;
constexpr int exit_output = 5;  // the program's UART output could not be written to stdout
constexpr int exit_max_cycles = 125;

struct options {
  std::string elf;
  std::uint64_t max_cycles = 100'000'000;
  unsigned stall_percent = 30;
  std::uint64_t seed = 1;
};

constexpr const char* usage_line =
    "usage: ctnn-core-sim [--stall-percent P] [--seed S] [--max-cycles N] program.elf";

/// The options, or the fault of the command line (one line, without the tool's name).
[[nodiscard]] std::string parse_args(int argc, char** argv, options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--max-cycles" || a == "--stall-percent" || a == "--seed") {
      if (i + 1 >= argc) return std::string(a) + " needs a value";
      const std::string_view v = argv[++i];
      std::uint64_t percent = 0;
      std::string why = a == "--max-cycles"      ? ctnn::cli::number_option(a, v, 1, UINT64_MAX, o.max_cycles)
                        : a == "--stall-percent" ? ctnn::cli::number_option(a, v, 0, 90, percent)
                                                 : ctnn::cli::number_option(a, v, 0, UINT64_MAX, o.seed);
      if (!why.empty()) return why;
      if (a == "--stall-percent") o.stall_percent = static_cast<unsigned>(percent);
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

using ctnn_tb::load_elf;

struct request {
  std::uint32_t addr = 0;
  bool we = false;
  std::uint32_t wdata = 0;
  std::uint8_t wstrb = 0;
  bool operator==(const request&) const = default;
};

// The golden bus model: RAM, the 16550 THR/LSR, the exit device; errors elsewhere.
struct bus_model {
  std::vector<std::uint8_t> ram = std::vector<std::uint8_t>(map::ram.size, 0);
  std::optional<int> exit_code;

  struct response {
    std::uint32_t rdata = 0;
    bool err = false;
  };

  response access(const request& r) {
    if (r.addr >= map::ram.base && r.addr - map::ram.base < ram.size()) {
      std::uint8_t* p = ram.data() + (r.addr - map::ram.base);
      if (!r.we) {
        return {static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
                    static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24,
                false};
      }
      for (unsigned lane = 0; lane < 4; ++lane) {
        if ((r.wstrb >> lane) & 1u) p[lane] = static_cast<std::uint8_t>(r.wdata >> (8 * lane));
      }
      return {};
    }
    // byte registers on word addresses: a register's word and its byte lane in it
    constexpr auto word = [](std::uint32_t address) { return address & ~3u; };
    constexpr auto lane = [](std::uint32_t address) { return 8u * (address & 3u); };
    if (r.addr == word(uart::thr::address)) {   // THR, no DLAB in this model
      if (r.we && ((r.wstrb >> (lane(uart::thr::address) / 8u)) & 1u))
        std::fputc(static_cast<int>((r.wdata >> lane(uart::thr::address)) & uart::thr::data::max_value), stdout);
      return {};
    }
    if (r.addr == word(uart::lsr::address)) {   // LSR: always ready to send
      return {r.we ? 0u : (uart::lsr::thre::mask | uart::lsr::temt::mask) << lane(uart::lsr::address), false};
    }
    if (r.addr == finisher::address && r.we && r.wstrb == 0xf) {
      const std::uint32_t status = (r.wdata & finisher::status::mask) >> finisher::status::lo;
      if (r.wdata == finisher::status::pass) {
        exit_code = 0;
        return {};
      }
      if (status == finisher::status::fail) {
        exit_code = static_cast<int>((r.wdata & finisher::code::mask) >> finisher::code::lo);
        return {};
      }
    }
    return {0, true};
  }
};

}  // namespace

int main(int argc, char** argv) {
  options o;
  if (const std::string why = parse_args(argc, argv, o); !why.empty()) {
    std::fprintf(stderr, "ctnn-core-sim: %s (%s)\n", why.c_str(), usage_line);
    return exit_usage;
  }
  const options* opt = &o;
  bus_model bus;
  if (const std::string err = load_elf(opt->elf, bus.ram); !err.empty()) {
    std::fprintf(stderr, "ctnn-core-sim: %s\n", err.c_str());
    return exit_load_error;
  }

  auto context = std::make_unique<VerilatedContext>();
  auto core = std::make_unique<Vctnn_core>(context.get());
  std::uint64_t rng = opt->seed * 0x9E3779B97F4A7C15ull + 1;
  auto random_percent = [&rng]() {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((rng >> 33) % 100);
  };

  auto tick = [&]() {
    core->clk_i = 1;
    core->eval();
    core->clk_i = 0;
    core->eval();
  };
  core->clk_i = 0;
  core->rst_ni = 0;
  core->req_ready_i = 0;
  core->rsp_valid_i = 0;
  core->rsp_rdata_i = 0;
  core->rsp_err_i = 0;
  core->eval();
  tick();
  tick();
  core->rst_ni = 1;

  bool held = false;                    // a request was offered last cycle and not accepted
  request held_req;
  std::optional<bus_model::response> pending;   // accepted last cycle: answered this cycle
  std::uint64_t cycles = 0;
  std::uint64_t stalls = 0;
  auto protocol_error = [&](const char* what) {
    std::fprintf(stderr, "ctnn-core-sim: bus protocol violation at cycle %llu: %s\n",
                 static_cast<unsigned long long>(cycles), what);
    return exit_protocol;
  };

  while (!bus.exit_code && cycles < opt->max_cycles) {
    // Inputs of this cycle: the response to last cycle's request, a random ready.
    core->rsp_valid_i = pending.has_value();
    core->rsp_rdata_i = pending ? pending->rdata : 0;
    core->rsp_err_i = pending ? pending->err : false;
    const bool ready = random_percent() >= opt->stall_percent;
    core->req_ready_i = ready;
    core->eval();

    if (core->req_valid_o) {
      const request r{core->req_addr_o, core->req_we_o != 0, core->req_wdata_o,
                      static_cast<std::uint8_t>(core->req_wstrb_o)};
      if ((r.addr & 3u) != 0) return protocol_error("req_addr not word aligned");
      if (!r.we && r.wstrb != 0) return protocol_error("req_wstrb not 0 on a read");
      if (held && !(held_req == r)) return protocol_error("request changed before it was accepted");
      if (ready) {
        pending = bus.access(r);
        held = false;
      } else {
        pending.reset();
        held = true;
        held_req = r;
        ++stalls;
      }
    } else {
      if (held) return protocol_error("req_valid dropped before acceptance");
      pending.reset();
    }
    tick();
    ++cycles;
  }
  const bool written = ctnn::cli::stdout_written("ctnn-core-sim");
  const std::uint64_t instret = core->rootp->ctnn_core__DOT__u_csr__DOT__minstret_q;
  core->final();
  std::fprintf(stderr, "ctnn-core-sim: cycles=%llu instret=%llu stalled=%llu\n",
               static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(instret),
               static_cast<unsigned long long>(stalls));
  if (!bus.exit_code) {
    std::fprintf(stderr, "ctnn-core-sim: no exit after --max-cycles %llu\n",
                 static_cast<unsigned long long>(opt->max_cycles));
    return exit_max_cycles;
  }
  if (!written) return exit_output;
  if (*bus.exit_code != 0 && (*bus.exit_code & 0xff) == 0) return 1;
  return *bus.exit_code;
}
