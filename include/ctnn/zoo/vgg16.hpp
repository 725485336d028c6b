// VGG-16 (configuration D, no batch norm) as torchvision defines it: 138,357,544 parameters.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn::zoo {

namespace detail {
template <int64_t In, int64_t Out>
using vgg_conv = sequential<conv2d<In, Out, 3, 1, 1>, relu>;
}  // namespace detail

using vgg16 = network<"VGG16", shape{3, 224, 224},
    named<"features", sequential<
        detail::vgg_conv<3, 64>, detail::vgg_conv<64, 64>, max_pool2d<2>,
        detail::vgg_conv<64, 128>, detail::vgg_conv<128, 128>, max_pool2d<2>,
        detail::vgg_conv<128, 256>, detail::vgg_conv<256, 256>, detail::vgg_conv<256, 256>, max_pool2d<2>,
        detail::vgg_conv<256, 512>, detail::vgg_conv<512, 512>, detail::vgg_conv<512, 512>, max_pool2d<2>,
        detail::vgg_conv<512, 512>, detail::vgg_conv<512, 512>, detail::vgg_conv<512, 512>, max_pool2d<2>>>,
    named<"avgpool", adaptive_avg_pool2d<7, 7>>,
    flatten,
    named<"classifier", sequential<
        linear<25088, 4096>, relu, dropout<50>,
        linear<4096, 4096>, relu, dropout<50>,
        linear<4096, 1000>>>>;

}  // namespace ctnn::zoo
