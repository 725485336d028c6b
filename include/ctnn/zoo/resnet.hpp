// ResNet-18 and ResNet-50 as torchvision defines them (v1.5: the stride sits on the 3×3 conv).
// 11,689,512 and 25,557,032 parameters.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn::zoo {

/// 3×3 convolution without bias, padding 1.
template <int64_t In, int64_t Out, int64_t Stride = 1>
using conv3x3 = conv2d<In, Out, 3, Stride, 1, 1, 1, false>;
/// 1×1 convolution without bias.
template <int64_t In, int64_t Out, int64_t Stride = 1>
using conv1x1 = conv2d<In, Out, 1, Stride, 0, 1, 1, false>;

/// @brief The projection shortcut (1×1 conv + BN) when the shape changes, else the identity.
template <int64_t In, int64_t Out, int64_t Stride>
using downsample = conditional_t<(Stride != 1 || In != Out),
                                 named<"downsample", sequential<conv1x1<In, Out, Stride>, batch_norm2d<Out>>>,
                                 identity>;

/// @brief ResNet's BasicBlock: two 3×3 convs, shortcut, ReLU after the add.
template <int64_t In, int64_t Out, int64_t Stride = 1>
using basic_block = block<"BasicBlock",
    residual<sequential<conv3x3<In, Out, Stride>, batch_norm2d<Out>, relu,
                        conv3x3<Out, Out>, batch_norm2d<Out>>,
             downsample<In, Out, Stride>>,
    relu>;

/// @brief ResNet's Bottleneck: 1×1 reduce, 3×3 (strided), 1×1 expand ×4, shortcut, ReLU.
template <int64_t In, int64_t Width, int64_t Stride = 1>
using bottleneck = block<"Bottleneck",
    residual<sequential<conv1x1<In, Width>, batch_norm2d<Width>, relu,
                        conv3x3<Width, Width, Stride>, batch_norm2d<Width>, relu,
                        conv1x1<Width, Width * 4>, batch_norm2d<Width * 4>>,
             downsample<In, Width * 4, Stride>>,
    relu>;

/// @brief A stage: the first block changes shape, the other Blocks−1 keep it.
template <fixed_string Name, int64_t Blocks, class First, class Rest>
using resnet_stage = named<Name, sequential<First, repeat<static_cast<int32_t>(Blocks - 1), Rest>>>;

/// @brief The ResNet stem (7×7/2 conv, BN, ReLU, 3×3/2 max pool).
using resnet_stem = sequential<named<"conv1", conv2d<3, 64, 7, 2, 3, 1, 1, false>>, named<"bn1", batch_norm2d<64>>,
                               relu, named<"maxpool", max_pool2d<3, 2, 1>>>;

using resnet18 = network<"ResNet18", shape{3, 224, 224},
    named<"conv1", conv2d<3, 64, 7, 2, 3, 1, 1, false>>, named<"bn1", batch_norm2d<64>>, relu,
    named<"maxpool", max_pool2d<3, 2, 1>>,
    resnet_stage<"layer1", 2, basic_block<64, 64>, basic_block<64, 64>>,
    resnet_stage<"layer2", 2, basic_block<64, 128, 2>, basic_block<128, 128>>,
    resnet_stage<"layer3", 2, basic_block<128, 256, 2>, basic_block<256, 256>>,
    resnet_stage<"layer4", 2, basic_block<256, 512, 2>, basic_block<512, 512>>,
    named<"avgpool", adaptive_avg_pool2d<1, 1>>, flatten,
    named<"fc", linear<512, 1000>>>;

using resnet50 = network<"ResNet50", shape{3, 224, 224},
    named<"conv1", conv2d<3, 64, 7, 2, 3, 1, 1, false>>, named<"bn1", batch_norm2d<64>>, relu,
    named<"maxpool", max_pool2d<3, 2, 1>>,
    resnet_stage<"layer1", 3, bottleneck<64, 64>, bottleneck<256, 64>>,
    resnet_stage<"layer2", 4, bottleneck<256, 128, 2>, bottleneck<512, 128>>,
    resnet_stage<"layer3", 6, bottleneck<512, 256, 2>, bottleneck<1024, 256>>,
    resnet_stage<"layer4", 3, bottleneck<1024, 512, 2>, bottleneck<2048, 512>>,
    named<"avgpool", adaptive_avg_pool2d<1, 1>>, flatten,
    named<"fc", linear<2048, 1000>>>;

}  // namespace ctnn::zoo
