// Compile-time checks of the quantization helpers (compiling is passing).
#include "ctnn/kernels/quant.hpp"

namespace q = ctnn::quant;

static_assert(q::saturating_rounding_doubling_high_mul(q::int32_min, q::int32_min) == q::int32_max);
static_assert(q::rounding_divide_by_pot(-5, 1) == -3);
static_assert(q::multiply_by_quantized_multiplier(1000, 1 << 30, -2) == 125);   // 1000 * 0.125
static_assert(q::multiply_by_quantized_multiplier(3, 1 << 30, 3) == 12);        // 3 * 4
static_assert(q::quantize_multiplier(0.5) == q::requant{1 << 30, 0});
static_assert(q::quantize_multiplier(0.0078125) == q::requant{1 << 30, -6});
#if defined(__cpp_nontype_template_args) && __cpp_nontype_template_args >= 201911L
static_assert(q::static_multiplier<0.25>::value == q::requant{1 << 30, -1});
#endif
static_assert(q::static_multiplier_ratio<3, 4>::value == q::requant{1610612736, 0});
static_assert(q::static_multiplier_ratio<1, 1024>::value == q::requant{1 << 30, -9});
static_assert(q::static_requant<1 << 30, -3>::value.shift == -3);
static_assert(q::static_zero_point<-128>::value == -128);
static_assert(q::static_zero_point<255, uint8_t>::value == 255);
static_assert(q::static_weight_zero_point<0>::value == 0);
static_assert(q::valid(q::requant{0, 0}) && !q::valid(q::requant{5, 0}) && !q::valid(q::requant{1 << 30, 31}));
static_assert(q::quantize<int8_t>(0.26f, 0.1f, 0) == 3);
