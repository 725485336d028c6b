// The golden-model interface the accelerator testbench links against: exact signatures of
// quant.hpp and reference.hpp, checked at compile time (compiling is passing).
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/reference.hpp"

namespace q = ctnn::quant;
namespace r = ctnn::ref;
using ctnn::is_same_v;

static_assert(is_same_v<decltype(&q::saturating_rounding_doubling_high_mul), int32_t (*)(int32_t, int32_t)>);
static_assert(is_same_v<decltype(&q::rounding_divide_by_pot), int32_t (*)(int32_t, int)>);
static_assert(is_same_v<decltype(&q::multiply_by_quantized_multiplier), int32_t (*)(int32_t, int32_t, int)>);
static_assert(is_same_v<decltype(&q::quantize_multiplier), q::requant (*)(double)>);
static_assert(is_same_v<decltype(&q::make_requant), ctnn::kernels::status (*)(q::requant&, double)>);
static_assert(is_same_v<decltype(q::requant::multiplier), int32_t> && is_same_v<decltype(q::requant::shift), int32_t>);
static_assert(sizeof(q::requant) == 8);
// constexpr: usable in constant expressions
static_assert(q::multiply_by_quantized_multiplier(100, q::quantize_multiplier(0.5).multiplier, 0) == 50);

static_assert(is_same_v<decltype(&r::gemm_s8_s32),
                        void (*)(int, int, int, const int8_t*, int, const int8_t*, int, const int32_t*, int32_t*, int,
                                 int32_t, int32_t)>);
static_assert(is_same_v<decltype(&r::gemm_s8), void (*)(int, int, int, const int8_t*, int, const int8_t*, int,
                                                         const int32_t*, int8_t*, int, const r::gemm_s8_params&)>);
static_assert(is_same_v<decltype(&r::gemm_f32), void (*)(int, int, int, const float*, int, const float*, int,
                                                          const float*, float*, int)>);
// field order of gemm_s8_params (aggregate initialization in the documented order)
constexpr int32_t one_mult = 1 << 30, zero_shift = 0;
constexpr r::gemm_s8_params params{1, 2, 3, &one_mult, &zero_shift, true, -4, 5};
static_assert(params.a_zp == 1 && params.b_zp == 2 && params.out_zp == 3 && params.multiplier == &one_mult &&
              params.shift == &zero_shift && params.per_channel && params.act_min == -4 && params.act_max == 5);
