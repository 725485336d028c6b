// The firmware demos' networks and seeds, shared by the firmware (demo_*.cpp) and the host program
// that writes their golden tables (host/ctnn_fw_golden.cpp): one source for both sides.
#pragma once
#include <stdint.h>

#include "ctnn/zoo/cifar_resnet.hpp"
#include "ctnn/zoo/lenet5.hpp"

namespace ctnn_fw::demo {

inline constexpr uint64_t param_seed = 2026;  ///< runtime::fill_params
inline constexpr uint64_t input_seed = 7;     ///< runtime::fill_input (the input tensor's quantization)

}  // namespace ctnn_fw::demo
