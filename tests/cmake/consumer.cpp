// A program that uses ctnn the way a downstream project does, through its CMake package.
#include <ctnn/ctnn.hpp>

using net = ctnn::network<"Tiny", ctnn::shape{1, 16, 16}, ctnn::conv2d<1, 4, 3, 1, 1>, ctnn::relu,
                          ctnn::max_pool2d<2>, ctnn::flatten, ctnn::linear<256, 10>>;
static_assert(net::params == (4 * 9 + 4) + (256 * 10 + 10));
static_assert(ctnn::fits<net, int8_t>(4 * 1024));

int main() { return net::output_shape == ctnn::features(10) ? 0 : 1; }
