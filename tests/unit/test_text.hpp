// Helpers of the unit tests that check generated text (JSON, SVG).
#pragma once
#include <cstddef>
#include <string>

namespace ctnn_test {
/// How many times `what` occurs in `s` (overlapping occurrences counted).
inline int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}
}  // namespace ctnn_test
