// AlexNet as torchvision defines it (3×224×224): 61,100,840 parameters, 714,188,480 MACs.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn::zoo {

using alexnet = network<"AlexNet", shape{3, 224, 224},
    named<"features", sequential<
        conv2d<3, 64, 11, 4, 2>, relu, max_pool2d<3, 2>,
        conv2d<64, 192, 5, 1, 2>, relu, max_pool2d<3, 2>,
        conv2d<192, 384, 3, 1, 1>, relu,
        conv2d<384, 256, 3, 1, 1>, relu,
        conv2d<256, 256, 3, 1, 1>, relu, max_pool2d<3, 2>>>,
    named<"avgpool", adaptive_avg_pool2d<6, 6>>,
    flatten,
    named<"classifier", sequential<
        dropout<50>, linear<9216, 4096>, relu,
        dropout<50>, linear<4096, 4096>, relu,
        linear<4096, 1000>>>>;

}  // namespace ctnn::zoo
