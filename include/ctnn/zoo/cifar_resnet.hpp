// A small CIFAR-sized CNN with one residual block, the firmware demo's second network:
// 3×32×32 → conv3×3 (8) → ReLU → max-pool → [conv3×3 → ReLU → conv3×3] + x → ReLU → max-pool →
// linear 512 → 10. 6,522 parameters, 521,216 conv + linear MACs. Not in for_each_model: it is
// a demo network, not a published model.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn::zoo {

using cifar_resnet = network<"CifarResNet", shape{3, 32, 32},
    named<"conv1", conv2d<3, 8, 3, 1, 1>>, relu, max_pool2d<2>,
    named<"block", residual<sequential<named<"conv2", conv2d<8, 8, 3, 1, 1>>, relu,
                                       named<"conv3", conv2d<8, 8, 3, 1, 1>>>>>,
    relu, max_pool2d<2>,
    flatten,
    named<"fc", linear<512, 10>>>;

}  // namespace ctnn::zoo
