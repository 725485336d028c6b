// Firmware demo: the CIFAR-sized residual CNN (ctnn::zoo::cifar_resnet, 3x32x32) on the CPU and, on
// the SoC, on the accelerator; every leaf's CRC-32 against the host's golden table (demo_runner.hpp).
#include "demo_runner.hpp"
#include "golden_cifar_resnet.hpp"

extern "C" int ctnn_test_run(void) {
  return ctnn_fw::demo::run_demo<ctnn::zoo::cifar_resnet, ctnn_fw::golden::cifar_resnet>("cifar_resnet");
}
