// Umbrella header of the kernels: quantization, reference and optimized GEMMs and layers,
// fixed-tile splitting. Freestanding (only <stdint.h>, <stddef.h> and compiler builtins).
#pragma once
#include "ctnn/kernels/depthwise.hpp"
#include "ctnn/kernels/fixed_tile.hpp"
#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/math.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"
#include "ctnn/kernels/simd.hpp"
#include "ctnn/kernels/status.hpp"
#include "ctnn/kernels/tiled.hpp"
