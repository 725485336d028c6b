// LeNet-5 on 1×32×32 (ReLU and max-pool variant): 61,706 parameters, 416,520 MACs.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn::zoo {

using lenet5 = network<"LeNet5", shape{1, 32, 32},
    named<"conv1", conv2d<1, 6, 5>>, relu, max_pool2d<2>,
    named<"conv2", conv2d<6, 16, 5>>, relu, max_pool2d<2>,
    flatten,
    named<"fc1", linear<400, 120>>, relu,
    named<"fc2", linear<120, 84>>, relu,
    named<"fc3", linear<84, 10>>>;

}  // namespace ctnn::zoo
