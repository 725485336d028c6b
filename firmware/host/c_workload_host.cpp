// Host twin of the c_workload firmware test: prints the lines the target must print too.
#include <cstdio>

#include "c_workload.h"

static void report(const char* name, uint32_t value) {
  std::printf("work: %s 0x%08x\n", name, static_cast<unsigned>(value));
}

int main() {
  workload_run(report);
  return 0;
}
