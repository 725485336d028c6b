// ctnn umbrella header: the freestanding core (description language, analysis, budget, zoo).
// Host-only reports are in ctnn/host/, the kernels in ctnn/kernels/, MMIO in ctnn/mmio/.
#pragma once
#include "ctnn/analysis/budget.hpp"
#include "ctnn/core/bits.hpp"
#include "ctnn/core/dtype.hpp"
#include "ctnn/core/shape.hpp"
#include "ctnn/nn/layers.hpp"
#include "ctnn/zoo/zoo.hpp"
