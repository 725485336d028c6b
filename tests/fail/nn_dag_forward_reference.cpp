// expect: dag_node_reads_a_value_not_yet_computed<2>
// A dag node that reads a later node's value (here node 2 reads value 3): a cycle cannot be
// written, and the error names the node.
#include "ctnn/nn/layers.hpp"

using namespace ctnn;
#ifndef CTNN_FAIL_CONTROL
using net = network<"Net", shape{4, 8, 8},
    dag<"D", node<"a", relu, 0>, node<"b", relu, 3>, node<"c", join<op::add>, 1, 2>>>;
#else
using net = network<"Net", shape{4, 8, 8},
    dag<"D", node<"a", relu, 0>, node<"b", relu, 1>, node<"c", join<op::add>, 1, 2>>>;
#endif
static_assert(net::leaf_count == 3);
