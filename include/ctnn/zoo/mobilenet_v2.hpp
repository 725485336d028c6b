// MobileNetV2 (width 1.0) as torchvision defines it: 3,504,872 parameters.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn::zoo {

/// @brief torchvision's Conv2dNormActivation with ReLU6: conv (no bias) + BN + ReLU6, "same" padding.
template <int64_t In, int64_t Out, int64_t Kernel = 3, int64_t Stride = 1, int64_t Groups = 1>
using conv_bn_relu6 = block<"Conv2dNormActivation",
    conv2d<In, Out, Kernel, Stride, (Kernel - 1) / 2, 1, Groups, false>, batch_norm2d<Out>, relu6>;

namespace detail {
template <int64_t In, int64_t Out, int64_t Stride, int64_t Expand>
using inverted_residual_body = conditional_t<(Expand == 1),
    sequential<conv_bn_relu6<In, In, 3, Stride, In>,
               conv2d<In, Out, 1, 1, 0, 1, 1, false>, batch_norm2d<Out>>,
    sequential<conv_bn_relu6<In, In * Expand, 1>,
               conv_bn_relu6<In * Expand, In * Expand, 3, Stride, In * Expand>,
               conv2d<In * Expand, Out, 1, 1, 0, 1, 1, false>, batch_norm2d<Out>>>;
}  // namespace detail

/// @brief MobileNetV2's InvertedResidual: expand 1×1, depthwise 3×3, project 1×1; a residual
/// connection when the stride is 1 and the channel count is kept.
template <int64_t In, int64_t Out, int64_t Stride, int64_t Expand>
using inverted_residual = conditional_t<(Stride == 1 && In == Out),
    residual<detail::inverted_residual_body<In, Out, Stride, Expand>, identity, "InvertedResidual">,
    block<"InvertedResidual", detail::inverted_residual_body<In, Out, Stride, Expand>>>;

/// @brief A MobileNetV2 stage (t, c, n, s): n blocks, the first with stride s.
template <int64_t In, int64_t Out, int64_t Blocks, int64_t Stride, int64_t Expand>
using mobilenet_v2_stage = sequential<inverted_residual<In, Out, Stride, Expand>,
                                      repeat<static_cast<int32_t>(Blocks - 1), inverted_residual<Out, Out, 1, Expand>>>;

using mobilenet_v2 = network<"MobileNetV2", shape{3, 224, 224},
    named<"features", sequential<
        conv_bn_relu6<3, 32, 3, 2>,
        inverted_residual<32, 16, 1, 1>,
        inverted_residual<16, 24, 2, 6>, inverted_residual<24, 24, 1, 6>,
        inverted_residual<24, 32, 2, 6>, repeat<2, inverted_residual<32, 32, 1, 6>>,
        inverted_residual<32, 64, 2, 6>, repeat<3, inverted_residual<64, 64, 1, 6>>,
        inverted_residual<64, 96, 1, 6>, repeat<2, inverted_residual<96, 96, 1, 6>>,
        inverted_residual<96, 160, 2, 6>, repeat<2, inverted_residual<160, 160, 1, 6>>,
        inverted_residual<160, 320, 1, 6>,
        conv_bn_relu6<320, 1280, 1>>>,
    named<"avgpool", adaptive_avg_pool2d<1, 1>>, flatten,
    named<"classifier", sequential<dropout<20>, linear<1280, 1000>>>>;

}  // namespace ctnn::zoo
