// GoogLeNet as torchvision defines it: BasicConv2d = conv (no bias) + batch norm + ReLU,
// ceil-mode max pools, a 3×3 conv in the so-called 5×5 branch, no auxiliary heads.
// 6,624,904 parameters.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn::zoo {

/// @brief torchvision's BasicConv2d (its batch norm has eps = 0.001).
template <int64_t In, int64_t Out, int64_t Kernel, int64_t Stride = 1, int64_t Padding = 0>
using basic_conv2d = block<"BasicConv2d", conv2d<In, Out, Kernel, Stride, Padding, 1, 1, false>,
                           batch_norm2d<Out, 1, 1000>, relu>;

/// @brief The Inception module: four branches concatenated along channels.
template <int64_t In, int64_t Ch1x1, int64_t Ch3x3Red, int64_t Ch3x3, int64_t Ch5x5Red, int64_t Ch5x5,
          int64_t PoolProj>
using inception = concat_named<"Inception",
    named<"branch1", basic_conv2d<In, Ch1x1, 1>>,
    named<"branch2", sequential<basic_conv2d<In, Ch3x3Red, 1>, basic_conv2d<Ch3x3Red, Ch3x3, 3, 1, 1>>>,
    named<"branch3", sequential<basic_conv2d<In, Ch5x5Red, 1>, basic_conv2d<Ch5x5Red, Ch5x5, 3, 1, 1>>>,
    named<"branch4", sequential<max_pool2d<3, 1, 1, true>, basic_conv2d<In, PoolProj, 1>>>>;

using googlenet = network<"GoogLeNet", shape{3, 224, 224},
    named<"conv1", basic_conv2d<3, 64, 7, 2, 3>>,
    named<"maxpool1", max_pool2d<3, 2, 0, true>>,
    named<"conv2", basic_conv2d<64, 64, 1>>,
    named<"conv3", basic_conv2d<64, 192, 3, 1, 1>>,
    named<"maxpool2", max_pool2d<3, 2, 0, true>>,
    named<"inception3a", inception<192, 64, 96, 128, 16, 32, 32>>,
    named<"inception3b", inception<256, 128, 128, 192, 32, 96, 64>>,
    named<"maxpool3", max_pool2d<3, 2, 0, true>>,
    named<"inception4a", inception<480, 192, 96, 208, 16, 48, 64>>,
    named<"inception4b", inception<512, 160, 112, 224, 24, 64, 64>>,
    named<"inception4c", inception<512, 128, 128, 256, 24, 64, 64>>,
    named<"inception4d", inception<512, 112, 144, 288, 32, 64, 64>>,
    named<"inception4e", inception<528, 256, 160, 320, 32, 128, 128>>,
    named<"maxpool4", max_pool2d<2, 2, 0, true>>,
    named<"inception5a", inception<832, 256, 160, 320, 32, 128, 128>>,
    named<"inception5b", inception<832, 384, 192, 384, 48, 128, 128>>,
    named<"avgpool", adaptive_avg_pool2d<1, 1>>,
    flatten,
    named<"dropout", dropout<20>>,
    named<"fc", linear<1024, 1000>>>;

}  // namespace ctnn::zoo
