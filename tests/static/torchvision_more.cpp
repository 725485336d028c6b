// More torchvision classifiers written in the description language, checked against their
// published parameter counts and GFLOPS (conv + linear MACs, rounded to two decimals):
// ShuffleNetV2 x1.0 (channel split and shuffle), EfficientNet-B0 (MBConv with squeeze-and-
// excitation, SiLU), DenseNet-121 (nested concats), ConvNeXt-Tiny (LayerNorm, GELU, layer scale).
#include "ctnn/nn/layers.hpp"

namespace {
using namespace ctnn;

constexpr bool rounds_to(uint64_t macs, uint64_t centi_gmacs) {
  return macs >= centi_gmacs * 10'000'000 - 5'000'000 && macs < centi_gmacs * 10'000'000 + 5'000'000;
}

// ---- ShuffleNetV2 x1.0 ---------------------------------------------------------
template <int64_t In, int64_t Out, int64_t K = 1, int64_t S = 1, int64_t G = 1>
using conv_bn = sequential<conv2d<In, Out, K, S, (K - 1) / 2, 1, G, false>, batch_norm2d<Out>>;
template <int64_t In, int64_t Out, int64_t K = 1, int64_t S = 1>
using conv_bn_relu = sequential<conv2d<In, Out, K, S, (K - 1) / 2, 1, 1, false>, batch_norm2d<Out>, relu>;

template <int64_t In, int64_t BF, int64_t S>
using shuffle_branch2 = sequential<conv_bn_relu<In, BF>, conv_bn<BF, BF, 3, S, BF>, conv_bn_relu<BF, BF>>;

template <int64_t In, int64_t Out, int64_t S>
using shuffle_unit = conditional_t<(S == 1),
    block<"InvertedResidual",
          concat<channel_slice<0, Out / 2>, sequential<channel_slice<Out / 2, Out>, shuffle_branch2<Out / 2, Out / 2, 1>>>,
          channel_shuffle<2>>,
    block<"InvertedResidual",
          concat<sequential<conv_bn<In, In, 3, S, In>, conv_bn_relu<In, Out / 2>>, shuffle_branch2<In, Out / 2, S>>,
          channel_shuffle<2>>>;

template <int64_t In, int64_t Out, int32_t Repeats>
using shuffle_stage = sequential<shuffle_unit<In, Out, 2>, repeat<Repeats - 1, shuffle_unit<Out, Out, 1>>>;

using shufflenet_v2_x1_0 = network<"ShuffleNetV2", shape{3, 224, 224},
    conv_bn_relu<3, 24, 3, 2>, max_pool2d<3, 2, 1>,
    shuffle_stage<24, 116, 4>, shuffle_stage<116, 232, 8>, shuffle_stage<232, 464, 4>,
    conv_bn_relu<464, 1024>, global_avg_pool2d, flatten, linear<1024, 1000>>;
static_assert(shufflenet_v2_x1_0::params == 2'278'604);
static_assert(rounds_to(shufflenet_v2_x1_0::macs, 14));

// ---- EfficientNet-B0 -------------------------------------------------------------
template <int64_t In, int64_t Out, int64_t K = 1, int64_t S = 1, int64_t G = 1>
using conv_bn_silu = sequential<conv2d<In, Out, K, S, (K - 1) / 2, 1, G, false>, batch_norm2d<Out>, silu>;

template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t E>
using mbconv_body = sequential<
    conditional_t<(E == 1), identity, conv_bn_silu<In, In * E>>,
    conv_bn_silu<In * E, In * E, K, S, In * E>,
    scale<sequential<global_avg_pool2d, conv2d<In * E, max<int64_t>(1, In / 4), 1>, silu,
                     conv2d<max<int64_t>(1, In / 4), In * E, 1>, sigmoid>>,
    conv_bn<In * E, Out>>;

template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t E>
using mbconv = conditional_t<(S == 1 && In == Out),
                             residual<mbconv_body<In, Out, K, S, E>, identity, "MBConv">,
                             block<"MBConv", mbconv_body<In, Out, K, S, E>>>;

template <int64_t E, int64_t K, int64_t S, int64_t In, int64_t Out, int32_t N>
using mb_stage = sequential<mbconv<In, Out, K, S, E>, repeat<N - 1, mbconv<Out, Out, K, 1, E>>>;

using efficientnet_b0 = network<"EfficientNetB0", shape{3, 224, 224},
    conv_bn_silu<3, 32, 3, 2>,
    mb_stage<1, 3, 1, 32, 16, 1>, mb_stage<6, 3, 2, 16, 24, 2>, mb_stage<6, 5, 2, 24, 40, 2>,
    mb_stage<6, 3, 2, 40, 80, 3>, mb_stage<6, 5, 1, 80, 112, 3>, mb_stage<6, 5, 2, 112, 192, 4>,
    mb_stage<6, 3, 1, 192, 320, 1>,
    conv_bn_silu<320, 1280>, global_avg_pool2d, flatten, dropout<20>, linear<1280, 1000>>;
static_assert(efficientnet_b0::params == 5'288'548);
static_assert(rounds_to(efficientnet_b0::macs, 39));

// ---- DenseNet-121 ----------------------------------------------------------------
template <int64_t In>
using dense_layer = concat_named<"DenseLayer", identity,
    sequential<batch_norm2d<In>, relu, conv2d<In, 128, 1, 1, 0, 1, 1, false>,
               batch_norm2d<128>, relu, conv2d<128, 32, 3, 1, 1, 1, 1, false>>>;

template <int64_t In, class Seq> struct dense_block_of;
template <int64_t In, size_t... I>
struct dense_block_of<In, integer_sequence<size_t, I...>> {
  using type = block<"DenseBlock", dense_layer<In + 32 * static_cast<int64_t>(I)>...>;
};
template <int64_t In, size_t Layers>
using dense_block = typename dense_block_of<In, make_index_sequence<Layers>>::type;

template <int64_t In>
using transition = block<"Transition", batch_norm2d<In>, relu, conv2d<In, In / 2, 1, 1, 0, 1, 1, false>, avg_pool2d<2>>;

using densenet121 = network<"DenseNet121", shape{3, 224, 224},
    conv2d<3, 64, 7, 2, 3, 1, 1, false>, batch_norm2d<64>, relu, max_pool2d<3, 2, 1>,
    dense_block<64, 6>, transition<256>, dense_block<128, 12>, transition<512>,
    dense_block<256, 24>, transition<1024>, dense_block<512, 16>,
    batch_norm2d<1024>, relu, global_avg_pool2d, flatten, linear<1024, 1000>>;
static_assert(densenet121::params == 7'978'856);
static_assert(rounds_to(densenet121::macs, 283));

// ---- ConvNeXt-Tiny ---------------------------------------------------------------
template <int64_t C>
using cn_block = residual<sequential<conv2d<C, C, 7, 1, 3, 1, C>, layer_norm2d<C>, conv2d<C, 4 * C, 1>, gelu,
                                     conv2d<4 * C, C, 1>, channel_scale<C>>,
                          identity, "CNBlock">;
template <int64_t C, int32_t N>
using cn_stage = sequential<repeat<N, cn_block<C>>>;
template <int64_t C>
using cn_down = sequential<layer_norm2d<C>, conv2d<C, 2 * C, 2, 2>>;

using convnext_tiny = network<"ConvNeXtTiny", shape{3, 224, 224},
    conv2d<3, 96, 4, 4>, layer_norm2d<96>,
    cn_stage<96, 3>, cn_down<96>, cn_stage<192, 3>, cn_down<192>, cn_stage<384, 9>, cn_down<384>, cn_stage<768, 3>,
    global_avg_pool2d, layer_norm2d<768>, flatten, linear<768, 1000>>;
static_assert(convnext_tiny::params == 28'589'128);
static_assert(rounds_to(convnext_tiny::macs, 446));

}  // namespace
