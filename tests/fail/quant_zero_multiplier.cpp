// expect: real_multiplier_must_be_finite_and_positive
// A zero real multiplier comes from a zero scale: in a constant expression quantize_multiplier
// fails to compile (at run time it gives invalid_requant, which every kernel refuses) instead of
// the silent {0, 0} that made an int8 add drop one of its inputs.
#include "ctnn/kernels/quant.hpp"
constexpr double in_scale = 0.0, w_scale = 0.01, out_scale = 0.05;
#ifndef CTNN_FAIL_CONTROL
constexpr auto r = ctnn::quant::quantize_multiplier(in_scale * w_scale / out_scale);
#else
constexpr auto r = ctnn::quant::quantize_multiplier((in_scale + 0.1) * w_scale / out_scale);
#endif
static_assert(ctnn::quant::valid(r));
