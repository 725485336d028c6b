// Host-only: what every command-line tool (ctnn-report, ctnn-golden, ctnn-import, the model
// runners, the simulators) needs to end a bad command line, or an output the system did not take,
// in one line on stderr and a non-zero exit code:
//   - parse_uint64: a whole decimal number, or nothing (no sign, no blanks, no trailing text, no
//     overflow), where std::stoull would throw or accept "12abc" and "-1", and strtoull would
//     take "-1" as 2^64 - 1 and an overflow as its largest value;
//   - number_option: the same within [lo, hi], or the one-line fault naming the option;
//   - stdout_written: flushes stdout and says whether every byte written to it reached the file
//     (a full disk or a closed pipe), which printf and fwrite return silently.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace ctnn::cli {

/// @brief The value of a decimal number that fills the whole text, if it fits in uint64_t.
inline std::optional<uint64_t> parse_uint64(std::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  for (const char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(ch - '0');
    if (v > (UINT64_MAX - digit) / 10u) return std::nullopt;
    v = v * 10u + digit;
  }
  return v;
}

/// @brief The value of option `name` given as `text`: a decimal integer in [lo, hi], written to
/// `out`. Returns the fault ("--seed needs a decimal integer from 0 to 9, got 'abc'") or "".
inline std::string number_option(std::string_view name, std::string_view text, uint64_t lo, uint64_t hi,
                                 uint64_t& out) {
  const std::optional<uint64_t> v = parse_uint64(text);
  if (v && *v >= lo && *v <= hi) {
    out = *v;
    return {};
  }
  return std::string(name) + " needs a decimal integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
         ", got '" + std::string(text) + "'";
}

/// @brief Flushes stdout; false (and one line on stderr naming the tool) when the output, or any
/// part of it written before, could not be written.
inline bool stdout_written(const char* tool) {
  errno = 0;
  const bool ok = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  if (!ok) {
    std::fprintf(stderr, "%s: cannot write to standard output: %s\n", tool,
                 errno != 0 ? std::strerror(errno) : "write error");
  }
  return ok;
}

}  // namespace ctnn::cli
