// Umbrella header of the runtime: parameter layout and generator, the plan-driven executor.
#pragma once
#include "ctnn/core/crc32.hpp"
#include "ctnn/runtime/executor.hpp"
#include "ctnn/runtime/params.hpp"
