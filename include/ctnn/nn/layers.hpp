// Every layer and graph node of the description language, each with its op.
#pragma once
#include "ctnn/nn/activation.hpp"
#include "ctnn/nn/batch_norm2d.hpp"
#include "ctnn/nn/conv2d.hpp"
#include "ctnn/nn/dag.hpp"
#include "ctnn/nn/graph.hpp"
#include "ctnn/nn/join.hpp"
#include "ctnn/nn/leaky_relu.hpp"
#include "ctnn/nn/linear.hpp"
#include "ctnn/nn/network.hpp"
#include "ctnn/nn/normalization.hpp"
#include "ctnn/nn/pool.hpp"
#include "ctnn/nn/reshape.hpp"
