// More torchvision classifiers written in the description language (the checks of their
// published figures are in torchvision_more.cpp; plan_*.cpp plan them):
// ShuffleNetV2 x1.0 (channel split and shuffle), EfficientNet-B0 (MBConv with squeeze-and-
// excitation, SiLU), DenseNet-121 (nested concats), ConvNeXt-Tiny (LayerNorm, GELU, layer scale),
// Inception-v3 (1x7 and 7x1 kernels, nested concats), SqueezeNet 1.0 (ceil-mode pooling) and
// MNASNet 1.0.
#pragma once
#include "ctnn/nn/layers.hpp"

namespace ctnn_test_models {
using namespace ctnn;

/// True when `macs` rounds to centi_gmacs / 100 GMACs (torchvision's GFLOPS column).
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

// ---- EfficientNet-B0 -------------------------------------------------------------
template <int64_t In, int64_t Out, int64_t K = 1, int64_t S = 1, int64_t G = 1>
using conv_bn_silu = sequential<conv2d<In, Out, K, S, (K - 1) / 2, 1, G, false>, batch_norm2d<Out>, silu>;

// Block Id of 16 (0-based) drops its residual branch with probability 0.2 * Id / 16 = Id / 80 in
// training (torchvision's StochasticDepth, mode "row"): a leaf at the end of the residual body,
// the identity at inference. Blocks without a residual connection never call theirs.
template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t E, class Tail = identity>
using mbconv_body = sequential<
    conditional_t<(E == 1), identity, conv_bn_silu<In, In * E>>,
    conv_bn_silu<In * E, In * E, K, S, In * E>,
    scale<sequential<global_avg_pool2d, conv2d<In * E, max<int64_t>(1, In / 4), 1>, silu,
                     conv2d<max<int64_t>(1, In / 4), In * E, 1>, sigmoid>>,
    conv_bn<In * E, Out>, Tail>;

template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t E, int64_t Id>
using mbconv = conditional_t<(S == 1 && In == Out),
                             residual<mbconv_body<In, Out, K, S, E, stochastic_depth<Id, 80>>, identity, "MBConv">,
                             block<"MBConv", mbconv_body<In, Out, K, S, E>>>;

template <int64_t E, int64_t K, int64_t S, int64_t In, int64_t Out, int64_t First, class Rest>
struct mb_stage_of;
template <int64_t E, int64_t K, int64_t S, int64_t In, int64_t Out, int64_t First, size_t... I>
struct mb_stage_of<E, K, S, In, Out, First, integer_sequence<size_t, I...>> {
  using type = sequential<mbconv<In, Out, K, S, E, First>,
                          mbconv<Out, Out, K, 1, E, First + 1 + static_cast<int64_t>(I)>...>;
};
/// A stage of N blocks whose first is block First of the network (for its drop probability).
template <int64_t E, int64_t K, int64_t S, int64_t In, int64_t Out, int32_t N, int64_t First>
using mb_stage = typename mb_stage_of<E, K, S, In, Out, First, make_index_sequence<static_cast<size_t>(N - 1)>>::type;

using efficientnet_b0 = network<"EfficientNetB0", shape{3, 224, 224},
    conv_bn_silu<3, 32, 3, 2>,
    mb_stage<1, 3, 1, 32, 16, 1, 0>, mb_stage<6, 3, 2, 16, 24, 2, 1>, mb_stage<6, 5, 2, 24, 40, 2, 3>,
    mb_stage<6, 3, 2, 40, 80, 3, 5>, mb_stage<6, 5, 1, 80, 112, 3, 8>, mb_stage<6, 5, 2, 112, 192, 4, 11>,
    mb_stage<6, 3, 1, 192, 320, 1, 15>,
    conv_bn_silu<320, 1280>, global_avg_pool2d, flatten, dropout<20>, linear<1280, 1000>>;

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

// ---- ConvNeXt-Tiny ---------------------------------------------------------------
// Block Id of 18 (0-based) has torchvision's StochasticDepth with p = 0.1 * Id / 17 = Id / 170.
template <int64_t C, int64_t Id>
using cn_block = residual<sequential<conv2d<C, C, 7, 1, 3, 1, C>, layer_norm2d<C>, conv2d<C, 4 * C, 1>, gelu,
                                     conv2d<4 * C, C, 1>, channel_scale<C>, stochastic_depth<Id, 170>>,
                          identity, "CNBlock">;
template <int64_t C, int64_t First, class Seq> struct cn_stage_of;
template <int64_t C, int64_t First, size_t... I>
struct cn_stage_of<C, First, integer_sequence<size_t, I...>> {
  using type = sequential<cn_block<C, First + static_cast<int64_t>(I)>...>;
};
/// A stage of N blocks whose first is block First of the network (for its drop probability).
template <int64_t C, int32_t N, int64_t First>
using cn_stage = typename cn_stage_of<C, First, make_index_sequence<static_cast<size_t>(N)>>::type;
template <int64_t C>
using cn_down = sequential<layer_norm2d<C>, conv2d<C, 2 * C, 2, 2>>;

using convnext_tiny = network<"ConvNeXtTiny", shape{3, 224, 224},
    conv2d<3, 96, 4, 4>, layer_norm2d<96>,
    cn_stage<96, 3, 0>, cn_down<96>, cn_stage<192, 3, 3>, cn_down<192>, cn_stage<384, 9, 6>, cn_down<384>, cn_stage<768, 3, 15>,
    global_avg_pool2d, layer_norm2d<768>, flatten, linear<768, 1000>>;

// ---- Inception-v3 (eval: no auxiliary classifier) -----------------------------------
// Named as torchvision names its modules (Mixed_6c.branch7x7_2.conv), so a fault's path reads
// as the module's name. BasicConv2d: a convolution without bias, BatchNorm and ReLU; the (1, 7)
// and (7, 1) kernels are conv2d's non-square form, padding (h, w).
template <fixed_string Name, int64_t In, int64_t Out, int64_t KH, int64_t KW, int64_t S = 1, int64_t PH = 0,
          int64_t PW = 0>
using basic_conv = named<Name, sequential<named<"conv", conv2d<In, Out, hw{KH, KW}, S, hw{PH, PW}, 1, 1, false>>,
                                          named<"bn", batch_norm2d<Out, 1, 1000>>, relu>>;
template <fixed_string Name, int64_t In, int64_t Out, int64_t K, int64_t S = 1, int64_t P = 0>
using basic_conv_sq = basic_conv<Name, In, Out, K, K, S, P, P>;

template <int64_t In, int64_t PoolFeatures>
using inception_a = concat_named<"InceptionA", basic_conv_sq<"branch1x1", In, 64, 1>,
    sequential<basic_conv_sq<"branch5x5_1", In, 48, 1>, basic_conv_sq<"branch5x5_2", 48, 64, 5, 1, 2>>,
    sequential<basic_conv_sq<"branch3x3dbl_1", In, 64, 1>, basic_conv_sq<"branch3x3dbl_2", 64, 96, 3, 1, 1>,
               basic_conv_sq<"branch3x3dbl_3", 96, 96, 3, 1, 1>>,
    sequential<avg_pool2d<3, 1, 1>, basic_conv_sq<"branch_pool", In, PoolFeatures, 1>>>;
template <int64_t In>
using inception_b = concat_named<"InceptionB", basic_conv_sq<"branch3x3", In, 384, 3, 2>,
    sequential<basic_conv_sq<"branch3x3dbl_1", In, 64, 1>, basic_conv_sq<"branch3x3dbl_2", 64, 96, 3, 1, 1>,
               basic_conv_sq<"branch3x3dbl_3", 96, 96, 3, 2>>,
    max_pool2d<3, 2>>;
template <int64_t In, int64_t C7, int64_t In7 = In>
using inception_c = concat_named<"InceptionC", basic_conv_sq<"branch1x1", In, 192, 1>,
    sequential<basic_conv_sq<"branch7x7_1", In7, C7, 1>, basic_conv<"branch7x7_2", C7, C7, 1, 7, 1, 0, 3>,
               basic_conv<"branch7x7_3", C7, 192, 7, 1, 1, 3, 0>>,
    sequential<basic_conv_sq<"branch7x7dbl_1", In, C7, 1>, basic_conv<"branch7x7dbl_2", C7, C7, 7, 1, 1, 3, 0>,
               basic_conv<"branch7x7dbl_3", C7, C7, 1, 7, 1, 0, 3>, basic_conv<"branch7x7dbl_4", C7, C7, 7, 1, 1, 3, 0>,
               basic_conv<"branch7x7dbl_5", C7, 192, 1, 7, 1, 0, 3>>,
    sequential<avg_pool2d<3, 1, 1>, basic_conv_sq<"branch_pool", In, 192, 1>>>;
template <int64_t In>
using inception_d = concat_named<"InceptionD",
    sequential<basic_conv_sq<"branch3x3_1", In, 192, 1>, basic_conv_sq<"branch3x3_2", 192, 320, 3, 2>>,
    sequential<basic_conv_sq<"branch7x7x3_1", In, 192, 1>, basic_conv<"branch7x7x3_2", 192, 192, 1, 7, 1, 0, 3>,
               basic_conv<"branch7x7x3_3", 192, 192, 7, 1, 1, 3, 0>, basic_conv_sq<"branch7x7x3_4", 192, 192, 3, 2>>,
    max_pool2d<3, 2>>;
template <int64_t In>
using inception_e = concat_named<"InceptionE", basic_conv_sq<"branch1x1", In, 320, 1>,
    sequential<basic_conv_sq<"branch3x3_1", In, 384, 1>,
               concat<basic_conv<"branch3x3_2a", 384, 384, 1, 3, 1, 0, 1>, basic_conv<"branch3x3_2b", 384, 384, 3, 1, 1, 1, 0>>>,
    sequential<basic_conv_sq<"branch3x3dbl_1", In, 448, 1>, basic_conv_sq<"branch3x3dbl_2", 448, 384, 3, 1, 1>,
               concat<basic_conv<"branch3x3dbl_3a", 384, 384, 1, 3, 1, 0, 1>,
                      basic_conv<"branch3x3dbl_3b", 384, 384, 3, 1, 1, 1, 0>>>,
    sequential<avg_pool2d<3, 1, 1>, basic_conv_sq<"branch_pool", In, 192, 1>>>;

/// Inception-v3; Mixed6c is Mixed_6c's block (a fail test swaps in a faulty one).
template <class Mixed6c = inception_c<768, 160>>
using inception_v3_with = network<"InceptionV3", shape{3, 299, 299},
    basic_conv_sq<"Conv2d_1a_3x3", 3, 32, 3, 2>, basic_conv_sq<"Conv2d_2a_3x3", 32, 32, 3>,
    basic_conv_sq<"Conv2d_2b_3x3", 32, 64, 3, 1, 1>, named<"maxpool1", max_pool2d<3, 2>>,
    basic_conv_sq<"Conv2d_3b_1x1", 64, 80, 1>, basic_conv_sq<"Conv2d_4a_3x3", 80, 192, 3>,
    named<"maxpool2", max_pool2d<3, 2>>,
    named<"Mixed_5b", inception_a<192, 32>>, named<"Mixed_5c", inception_a<256, 64>>,
    named<"Mixed_5d", inception_a<288, 64>>, named<"Mixed_6a", inception_b<288>>,
    named<"Mixed_6b", inception_c<768, 128>>, named<"Mixed_6c", Mixed6c>, named<"Mixed_6d", inception_c<768, 160>>,
    named<"Mixed_6e", inception_c<768, 192>>, named<"Mixed_7a", inception_d<768>>,
    named<"Mixed_7b", inception_e<1280>>, named<"Mixed_7c", inception_e<2048>>,
    named<"avgpool", global_avg_pool2d>, named<"dropout", dropout<1, 2>>, flatten, named<"fc", linear<2048, 1000>>>;
using inception_v3 = inception_v3_with<>;

// ---- SqueezeNet 1.0 -----------------------------------------------------------------
template <int64_t In, int64_t Squeeze, int64_t E1, int64_t E3>
using fire = block<"Fire", conv2d<In, Squeeze, 1>, relu,
                   concat<sequential<conv2d<Squeeze, E1, 1>, relu>, sequential<conv2d<Squeeze, E3, 3, 1, 1>, relu>>>;

using squeezenet1_0 = network<"SqueezeNet1_0", shape{3, 224, 224},
    conv2d<3, 96, 7, 2>, relu, max_pool2d<3, 2, 0, true>,
    fire<96, 16, 64, 64>, fire<128, 16, 64, 64>, fire<128, 32, 128, 128>, max_pool2d<3, 2, 0, true>,
    fire<256, 32, 128, 128>, fire<256, 48, 192, 192>, fire<384, 48, 192, 192>, fire<384, 64, 256, 256>,
    max_pool2d<3, 2, 0, true>, fire<512, 64, 256, 256>,
    dropout<50>, conv2d<512, 1000, 1>, relu, global_avg_pool2d, flatten>;

// ---- MNASNet 1.0 ----------------------------------------------------------------------
template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t E>
using mnas_body = sequential<conv_bn_relu<In, In * E>, conv2d<In * E, In * E, K, S, K / 2, 1, In * E, false>,
                             batch_norm2d<In * E>, relu, conv_bn<In * E, Out>>;
template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t E>
using mnas_block = conditional_t<(S == 1 && In == Out), residual<mnas_body<In, Out, K, S, E>, identity, "InvertedResidual">,
                                 block<"InvertedResidual", mnas_body<In, Out, K, S, E>>>;
template <int64_t In, int64_t Out, int64_t K, int64_t S, int64_t E, int32_t N>
using mnas_stack = sequential<mnas_block<In, Out, K, S, E>, repeat<N - 1, mnas_block<Out, Out, K, 1, E>>>;

using mnasnet1_0 = network<"MNASNet1_0", shape{3, 224, 224},
    conv_bn_relu<3, 32, 3, 2>, conv2d<32, 32, 3, 1, 1, 1, 32, false>, batch_norm2d<32>, relu, conv_bn<32, 16>,
    mnas_stack<16, 24, 3, 2, 3, 3>, mnas_stack<24, 40, 5, 2, 3, 3>, mnas_stack<40, 80, 5, 2, 6, 3>,
    mnas_stack<80, 96, 3, 1, 6, 2>, mnas_stack<96, 192, 5, 2, 6, 4>, mnas_stack<192, 320, 3, 1, 6, 1>,
    conv_bn_relu<320, 1280>, global_avg_pool2d, flatten, dropout<20>, linear<1280, 1000>>;

}  // namespace ctnn_test_models
