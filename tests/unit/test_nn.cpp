// Unit tests of the description language: shape formulas against brute force, graph dataflow,
// container sums, and the rows of every zoo model.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ctnn/nn/layers.hpp"
#include "ctnn/zoo/zoo.hpp"

using namespace ctnn;

namespace {
/// Counts the window positions of a convolution/pool along one axis by walking them: a window at
/// start s (in padded coordinates) is valid when its last tap lies inside the padded input.
int64_t brute_force_extent(int64_t in, int64_t pad_lo, int64_t pad_hi, int64_t k, int64_t s, int64_t d) {
  int64_t n = 0;
  for (int64_t start = 0; start + d * (k - 1) < in + pad_lo + pad_hi; start += s) ++n;
  return n;
}
}  // namespace

TEST_CASE("conv output extent equals the number of window positions") {
  std::mt19937 rng(1234);
  for (int i = 0; i < 20000; ++i) {
    const int64_t in = 1 + static_cast<int64_t>(rng() % 40);
    const int64_t k = 1 + static_cast<int64_t>(rng() % 7);
    const int64_t s = 1 + static_cast<int64_t>(rng() % 4);
    const int64_t d = 1 + static_cast<int64_t>(rng() % 3);
    const int64_t plo = static_cast<int64_t>(rng() % 4);
    const int64_t phi = static_cast<int64_t>(rng() % 4);
    if (d * (k - 1) + 1 > in + plo + phi) continue;
    CHECK(conv_out_extent(in, plo, phi, k, s, d) == brute_force_extent(in, plo, phi, k, s, d));
  }
}

TEST_CASE("pool ceil_mode: one more window only when it starts inside the input or left padding") {
  // PyTorch: MaxPool2d(2, 2, padding=1, ceil_mode=True) on 5 -> 3; floor mode -> 3; on 6 -> 4.
  CHECK(pool_out_extent(5, 1, 2, 2, 1, true) == 3);
  CHECK(pool_out_extent(5, 1, 2, 2, 1, false) == 3);
  CHECK(pool_out_extent(6, 1, 2, 2, 1, true) == 4);
  // GoogLeNet's ceil-mode pools: 112 -> 56 -> 28 -> 14 -> (2x2) 7.
  CHECK(pool_out_extent(112, 0, 3, 2, 1, true) == 56);
  CHECK(pool_out_extent(56, 0, 3, 2, 1, true) == 28);
  CHECK(pool_out_extent(28, 0, 3, 2, 1, true) == 14);
  CHECK(pool_out_extent(14, 0, 2, 2, 1, true) == 7);
  // Hand-computed with PyTorch's rule: a ceil-mode extra window must start inside the input
  // or the left padding.
  CHECK(pool_out_extent(3, 0, 2, 2, 1, true) == 2);
  CHECK(pool_out_extent(3, 0, 2, 2, 1, false) == 1);
  CHECK(pool_out_extent(4, 1, 3, 2, 1, true) == 3);
  CHECK(pool_out_extent(4, 1, 3, 2, 1, false) == 2);
  CHECK(pool_out_extent(2, 0, 2, 1, 1, true) == 1);
  // Ceil mode never loses a window of floor mode and adds at most one.
  for (int64_t in = 1; in < 40; ++in)
    for (int64_t k = 1; k < 6; ++k)
      for (int64_t s = 1; s < 5; ++s)
        for (int64_t p = 0; p <= k / 2; ++p) {
          if (in + 2 * p < k) continue;
          const int64_t f = pool_out_extent(in, p, k, s, 1, false);
          const int64_t c = pool_out_extent(in, p, k, s, 1, true);
          CHECK((c == f || c == f + 1));
          CHECK(f == conv_out_extent(in, p, p, k, s, 1));
          if (c == f + 1) CHECK((c - 1) * s < in + p);  // the extra window starts inside
        }
}

TEST_CASE("asymmetric padding, dilation and groups") {
  using c = conv2d_layer<conv2d_config{.in_channels = 8, .out_channels = 16, .kernel = {3, 5}, .stride = {2, 1},
                                       .padding = {0, 1, 2, 2}, .dilation = {2, 1}, .groups = 4, .bias = false}>;
  const shape o = c::output(shape{8, 20, 10});
  CHECK(o == shape{16, (20 + 0 + 1 - 2 * 2 - 1) / 2 + 1, (10 + 4 - 4 - 1) / 1 + 1});
  const leaf_counts k = c::counts(shape{8, 20, 10});
  CHECK(k.weights == 16 * (8 / 4) * 3 * 5);
  CHECK(k.biases == 0);
  CHECK(k.macs == static_cast<uint64_t>(o.elems()) * (8 / 4) * 3 * 5);
  using dw = depthwise_conv2d<32, 3, 2, 1>;
  CHECK(dw::depthwise);
  CHECK(dw::counts(shape{32, 16, 16}).weights == 32 * 9);
}

TEST_CASE("zero_pad2d crops with negative values and channel_shuffle keeps the shape") {
  using net = network<"N", shape{4, 10, 10}, zero_pad2d<3, 4, 1, 2>, zero_pad2d<-1, -1, -1, -1>, channel_shuffle<2>>;
  CHECK(net::layer(0).out == shape{4, 17, 13});
  CHECK(net::output_shape == shape{4, 15, 11});
  CHECK(net::macs == 0);
}

TEST_CASE("residual dataflow: the add reads the body's output and the shortcut's") {
  using net = network<"N", shape{8, 16, 16},
                      residual<sequential<conv2d<8, 16, 3, 2, 1>, relu>, sequential<conv2d<8, 16, 1, 2>>>>;
  REQUIRE(net::leaf_count == 4);
  const row& add = net::layer(3);
  CHECK(add.kind == op::add);
  CHECK(add.n_inputs == 2);
  CHECK(add.inputs[0] == 2);  // relu's output
  CHECK(add.inputs[1] == 3);  // the projection's output
  CHECK(net::layer(2).inputs[0] == 0);  // the projection reads the block input
  CHECK(net::output_shape == shape{16, 8, 8});
}

TEST_CASE("concat: branches read the same input and the concat reads every branch") {
  using net = network<"N", shape{4, 8, 8}, concat<conv2d<4, 2, 1>, identity, sequential<conv2d<4, 3, 3, 1, 1>, relu>>>;
  const row& cat = net::layer(net::leaf_count - 1);
  CHECK(cat.kind == op::concat);
  CHECK(cat.n_inputs == 3);
  CHECK(cat.inputs[0] == 1);
  CHECK(cat.inputs[1] == 0);  // the identity branch is the input itself
  CHECK(cat.inputs[2] == 3);
  CHECK(net::output_shape == shape{9, 8, 8});
}

TEST_CASE("scale: squeeze-and-excitation broadcasts a (C, 1, 1) gate") {
  using se = scale<sequential<global_avg_pool2d, conv2d<16, 4, 1>, relu, conv2d<4, 16, 1>, hardsigmoid>>;
  using net = network<"N", shape{16, 8, 8}, se>;
  const row& mul = net::layer(net::leaf_count - 1);
  CHECK(mul.kind == op::mul);
  CHECK(mul.inputs[0] == 0);
  CHECK(mul.inputs[1] == net::leaf_count - 1);
  CHECK(net::output_shape == shape{16, 8, 8});
  CHECK(net::params == (16 * 4 + 4) + (4 * 16 + 16));
}

TEST_CASE("repeat and named: copies are siblings with consecutive indices") {
  using net = network<"N", shape{4, 8, 8}, named<"stage", sequential<repeat<3, conv2d<4, 4, 3, 1, 1>>>>>;
  CHECK(net::leaf_count == 3);
  CHECK(net::rows[1].name != nullptr);
  CHECK(net::rows[2].index == 0);
  CHECK(net::rows[4].index == 2);
  CHECK(net::rows[4].depth == 2);
}

TEST_CASE("batch norm epsilon: PyTorch's default, torchvision GoogLeNet's 1e-3, any ratio") {
  int bn = 0;
  for (const row& r : zoo::googlenet::rows)
    if (r.kind == op::batch_norm2d) {
      CHECK(r.geometry.epsilon == 1e-3f);  // torchvision BasicConv2d: BatchNorm2d(eps=0.001)
      ++bn;
    }
  CHECK(bn == 57);
  for (const row& r : zoo::resnet18::rows)
    if (r.kind == op::batch_norm2d) CHECK(r.geometry.epsilon == 1e-5f);
  CHECK(batch_norm2d<8, 1001, 100000000>::eps == 1.001e-5f);  // Keras' ResNet
  CHECK(layer_norm2d<8>::eps == 1e-6f);
}

TEST_CASE_TEMPLATE("zoo rows are consistent", Net, zoo::lenet5, zoo::alexnet, zoo::vgg16, zoo::googlenet,
                   zoo::resnet18, zoo::resnet50, zoo::mobilenet_v2) {
  uint64_t params = 0, macs = 0, ext = 0, buffers = 0;
  int leaves = 0;
  for (const row& r : Net::rows) {
    if (!r.is_leaf()) {
      // a container's counts are the sums over the leaves of its subtree
      uint64_t p = 0;
      for (int32_t k = static_cast<int32_t>(&r - Net::rows.begin()) + 1; k < r.end; ++k)
        if (Net::rows[static_cast<size_t>(k)].is_leaf()) p += Net::rows[static_cast<size_t>(k)].params();
      CHECK(p == r.params());
      continue;
    }
    CHECK(r.leaf == leaves);
    CHECK(r.output == r.leaf + 1);
    CHECK(r.n_inputs >= 1);
    for (int32_t i = 0; i < r.n_inputs; ++i) {
      CHECK(r.inputs[i] <= r.leaf);  // reads only tensors produced earlier
      CHECK(Net::tensor_shape(r.inputs[i]).elems() > 0);
    }
    CHECK(r.in == Net::tensor_shape(r.inputs[0]));
    CHECK(r.out.valid());
    params += r.params();
    macs += r.counts.macs;
    ext += r.counts.ext_ops;
    buffers += r.counts.buffers;
    ++leaves;
  }
  CHECK(leaves == Net::leaf_count);
  CHECK(params == Net::params);
  CHECK(macs == Net::macs);
  CHECK(ext == Net::ext_ops);
  CHECK(buffers == Net::buffers);
  CHECK(Net::tensor_shape(Net::output_tensor) == Net::output_shape);
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const row& r = Net::layer(i);
    CHECK(r.in_elems * 4 + r.output_bytes(dtype::float32) <= Net::peak_io_bytes(dtype::float32));
  }
  CHECK(Net::weight_bytes(dtype::float32) == Net::params * 4);
  CHECK(Net::weight_bytes(dtype::int8) == Net::weights + Net::biases * 4);
}

// Every layer that works on height and width refuses a flat input (after flatten, or a network
// whose input is features(N)) with its own "not a (C, H, W) feature map" fault: the run-time rows
// of an imported graph call the same check.
TEST_CASE_TEMPLATE("2-D-only layers refuse a flat input", L, conv2d<8, 4, 1>, depthwise_conv2d<8, 3>, max_pool2d<2>,
                   avg_pool2d<2>, adaptive_avg_pool2d<2, 2>, global_avg_pool2d, batch_norm2d<8>, layer_norm2d<8>,
                   channel_scale<8>, zero_pad2d<1>, channel_shuffle<2>, channel_slice<0, 4>) {
  CHECK(L::check(shape{8, 4, 4}).ok());
  const fault_report f = L::check(features(8));
  CHECK_FALSE(f.ok());
  CHECK(f.actual_shape == features(8));  // the flat input, as the error's got_shape
  CHECK(f.expected_shape == shape{8, 0, 0, 3});
}

TEST_CASE("conv2d's shorthand takes non-square kernels, strides and (h, w) padding") {
  using a = conv2d<192, 160, hw{1, 7}, 1, hw{0, 3}, 1, 1, false>;
  using b = conv2d_layer<conv2d_config{192, 160, {1, 7}, {1, 1}, {0, 0, 3, 3}, {1, 1}, 1, false}>;
  static_assert(is_same_v<a, b>);
  using c = conv2d<8, 8, hw{3, 5}, hw{2, 1}, pad4{1, 0, 2, 2}>;  // pad4: top, bottom, left, right
  CHECK(c::output(shape{8, 9, 9}) == shape{8, 4, 9});  // h: (9 + 1 - 3) / 2 + 1, w: 9 + 4 - 5 + 1
  CHECK(c::counts(shape{8, 9, 9}).macs == 8ull * 4 * 9 * (8 * 15));
}

TEST_CASE("\"same\" padding: output ceil(in / stride), the odd pad element at the end (same) or start (same_lower)") {
  using up = network<"N", shape{4, 8, 8}, conv2d<4, 4, 3, 2, same>>;
  using lo = network<"N", shape{4, 8, 8}, conv2d<4, 4, 3, 2, same_lower>>;
  CHECK(up::output_shape == shape{4, 4, 4});
  CHECK(up::layer(0).geometry.padding == pad4{0, 1, 0, 1});
  CHECK(lo::layer(0).geometry.padding == pad4{1, 0, 1, 0});
  // against the definition, over many sizes: out = ceil(in / s), total padding as small as possible
  for (int64_t in = 1; in <= 20; ++in)
    for (int64_t k = 1; k <= 5; ++k)
      for (int64_t s = 1; s <= 3; ++s)
        for (int64_t d = 1; d <= 2; ++d) {
          int64_t lo_pad = 0, hi_pad = 0;
          same_padding(in, k, s, d, true, lo_pad, hi_pad);
          const int64_t out = (in + s - 1) / s;
          CHECK(hi_pad - lo_pad >= 0);
          CHECK(hi_pad - lo_pad <= 1);
          if (d * (k - 1) + 1 <= in + lo_pad + hi_pad) CHECK(brute_force_extent(in, lo_pad, hi_pad, k, s, d) == out);
        }
  using pool = network<"N", shape{2, 7, 7}, max_pool2d<2, 2, same>>;
  CHECK(pool::output_shape == shape{2, 4, 4});
  CHECK(pool::layer(0).geometry.padding == pad4{0, 1, 0, 1});
}

TEST_CASE("dropout's probability is a ratio; stochastic depth is a leaf of its own") {
  using net = network<"N", shape{8, 4, 4}, dropout<1, 5>, dropout<20>, dropout<>, stochastic_depth<1, 40>, flatten>;
  CHECK(net::layer(0).geometry.alpha == doctest::Approx(0.2));
  CHECK(net::layer(0).geometry == net::layer(1).geometry);
  CHECK(net::layer(2).geometry.alpha == doctest::Approx(0.5));
  CHECK(std::string(net::layer(3).type) == "StochasticDepth");
  CHECK(net::layer(3).kind == op::dropout);
  CHECK(net::layer(3).reuse.alias);
  CHECK(net::layer(3).geometry.alpha == doctest::Approx(0.025));
}

namespace {
template <class Net>
std::vector<std::string> path_of_leaf(int64_t leaf) {
  diagnostic d{};
  d.layer = leaf;
  d.report.code = 1;
  d = with_path(d, Net::rows.data(), Net::row_count);
  std::vector<std::string> steps;
  const char* p = d.steps;
  for (int32_t i = 0; i < d.n_steps; ++i) {
    steps.emplace_back(p);
    p += steps.back().size() + 1;
  }
  return steps;
}
}  // namespace

TEST_CASE("a fault's path: names, block names and indices from the network down") {
  using zoo::resnet18;
  // layer1.1.conv2 in torchvision: the stage is named, its blocks and their bodies are not
  int64_t leaf = -1;
  for (int32_t i = 0; i < resnet18::leaf_count; ++i)
    if (resnet18::layer(i).kind == op::conv2d && leaf < 0 && i > 10) leaf = i;
  const auto steps = path_of_leaf<resnet18>(leaf);
  REQUIRE(steps.size() == 4);
  CHECK(steps[0] == "layer1");
  CHECK(steps[1] == "BasicBlock[1]");
  CHECK(steps[2] == "Residual[0]");
  CHECK(steps[3] == "0");
  CHECK(path_of_leaf<resnet18>(0) == std::vector<std::string>{"conv1"});
  CHECK(path_of_leaf<resnet18>(resnet18::leaf_count - 1) == std::vector<std::string>{"fc"});
  // a path too long for the capacity keeps its deepest steps after "..."
  using deep = network<"N", shape{1, 2, 2},
      named<"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1",
      sequential<named<"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2",
      sequential<named<"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3",
      sequential<named<"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa4",
      sequential<named<"leaf", relu>>>>>>>>>>;
  const auto d = path_of_leaf<deep>(0);
  REQUIRE(d.size() >= 3);
  CHECK(d.front() == "...");
  CHECK(d.back() == "leaf");
}
