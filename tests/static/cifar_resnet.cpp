// The firmware demo's CIFAR-sized network: its figures, counted by hand from the layer list.
#include "ctnn/analysis/budget.hpp"
#include "ctnn/memory/planner.hpp"
#include "ctnn/zoo/cifar_resnet.hpp"

namespace {
using net = ctnn::zoo::cifar_resnet;
// conv1 3·8·9 + 8, conv2 and conv3 8·8·9 + 8 each, fc 512·10 + 10
static_assert(net::params == 224 + 584 + 584 + 5130);
// conv1 8·32·32·27, conv2 and conv3 8·16·16·72 each, fc 512·10
static_assert(net::macs == 221'184 + 2 * 147'456 + 5'120);
static_assert(net::leaf_count == 11);
static_assert(net::output_shape == ctnn::features(10));
static_assert(net::layer(6).kind == ctnn::op::add && net::layer(6).n_inputs == 2);
static_assert(net::layer(9).out == ctnn::features(512));
static_assert(ctnn::fits<net, int8_t>(16 * 1024));
}  // namespace
