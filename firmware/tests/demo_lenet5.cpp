// Firmware demo: LeNet-5 int8 (ctnn::zoo::lenet5) on the CPU and, on the SoC, on the accelerator;
// every leaf's CRC-32 against the host's golden table (see demo_runner.hpp).
#include "demo_runner.hpp"
#include "golden_lenet5.hpp"

extern "C" int ctnn_test_run(void) {
  return ctnn_fw::demo::run_demo<ctnn::zoo::lenet5, ctnn_fw::golden::lenet5>("lenet5");
}
