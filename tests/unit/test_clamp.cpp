// clamp<LoNum, HiNum, Den>, an activation of the description language (nn/clamp.hpp): PyTorch's
// values, its row (bounds, in place, no parameters), both backends in float32 and int8, and that
// clamp<0, 6> computes what relu6 does.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/runtime.hpp"

using namespace ctnn;
namespace rt = ctnn::runtime;

using net = network<"Clamp", shape{4, 5, 5}, conv2d<4, 6, 3, 1, 1>, clamp<-1, 1>, conv2d<6, 3, 1>, clamp<-3, 5, 10>>;

static_assert(net::layer(1).kind == op::clamp);
static_assert(net::layer(1).geometry.alpha == -1.0f && net::layer(1).geometry.beta == 1.0f);
static_assert(net::layer(3).geometry.alpha == -0.3f && net::layer(3).geometry.beta == 0.5f);
static_assert(clamp<-25, 5, 10>::lower == -2.5f && clamp<-25, 5, 10>::upper == 0.5f);
// one open bound: torch.clamp(x, min=-0.25), torch.clamp(x, max=3) (ONNX Clip with one input)
static_assert(clamp_min<-1, 4>::lower == -0.25f && clamp_min<-1, 4>::upper == __builtin_huge_valf());
static_assert(clamp_max<3>::lower == -__builtin_huge_valf() && clamp_max<3>::upper == 3.0f);
using open_net = network<"OpenClamp", shape{2, 3, 3}, clamp_min<-1, 4>, conv2d<2, 2, 1>, clamp_max<3>>;
static_assert(open_net::layer(0).geometry.alpha == -0.25f && open_net::layer(2).geometry.beta == 3.0f);
static_assert(net::layer(1).params() == 0 && net::layer(1).counts.ext_ops == 6 * 5 * 5);
static_assert(net::layer(1).reuse.in_place_inputs == 1 && net::layer(1).scratch.max_units == 0);
static_assert(string_equal(net::layer(1).type, "Clamp"));
// in place: the activation writes over the convolution's output
static_assert(memory::plan_of<net, dtype::float32>.offset_of(2) == memory::plan_of<net, dtype::float32>.offset_of(1));

TEST_CASE("clamp_fn is torch.clamp (Hardtanh, ONNX Clip)") {
  // torch.clamp(torch.tensor([-3., -1., -0.25, 0., 0.75, 1., 4.]), -1, 1) = [-1, -1, -0.25, 0, 0.75, 1, 1]
  const clamp_fn f{clamp<-1, 1>::lower, clamp<-1, 1>::upper};
  CHECK(f(-3.0f) == -1.0f);
  CHECK(f(-1.0f) == -1.0f);
  CHECK(f(-0.25f) == -0.25f);
  CHECK(f(0.0f) == 0.0f);
  CHECK(f(0.75f) == 0.75f);
  CHECK(f(1.0f) == 1.0f);
  CHECK(f(4.0f) == 1.0f);
  CHECK(f(-std::numeric_limits<float>::infinity()) == -1.0f);
  CHECK(std::isnan(f(std::numeric_limits<float>::quiet_NaN())));  // NaN stays NaN, as in torch.clamp
  // clamp<0, 6> is ReLU6
  const clamp_fn six{clamp<0, 6>::lower, clamp<0, 6>::upper};
  for (float x : {-7.0f, -0.5f, 0.0f, 2.5f, 6.0f, 6.5f, 100.0f}) CHECK(six(x) == ref::apply(ref::activation::relu6, x));
  // torch.clamp(torch.tensor([-1e30, -3., -0.25, 0., 7., 1e30]), min=-0.25) = [-0.25, -0.25, -0.25, 0, 7, 1e30]
  const clamp_fn at_least{clamp_min<-1, 4>::lower, clamp_min<-1, 4>::upper};
  CHECK(at_least(-1e30f) == -0.25f);
  CHECK(at_least(-3.0f) == -0.25f);
  CHECK(at_least(0.0f) == 0.0f);
  CHECK(at_least(7.0f) == 7.0f);
  CHECK(at_least(1e30f) == 1e30f);
  CHECK(at_least(std::numeric_limits<float>::infinity()) == std::numeric_limits<float>::infinity());
  // torch.clamp(torch.tensor([-1e30, -3., 2.9, 3., 4.]), max=3) = [-1e30, -3, 2.9, 3, 3]
  const clamp_fn at_most{clamp_max<3>::lower, clamp_max<3>::upper};
  CHECK(at_most(-1e30f) == -1e30f);
  CHECK(at_most(-3.0f) == -3.0f);
  CHECK(at_most(2.9f) == 2.9f);
  CHECK(at_most(4.0f) == 3.0f);
  CHECK(std::isnan(at_most(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("int8 clamp: the optimized table equals the reference on every input byte") {
  const ref::act_s8_params ps[] = {{1.0f / 32, 0, 1.0f / 32, 0}, {0.05f, -7, 0.02f, 11}, {1.0f / 16, 127, 0.1f, -128}};
  for (const ref::act_s8_params& p : ps) {
    for (const clamp_fn f : {clamp_fn{-1.0f, 1.0f}, clamp_fn{-2.5f, 0.5f}, clamp_fn{0.0f, 6.0f},
                             clamp_fn{clamp_min<-1, 4>::lower, clamp_min<-1, 4>::upper},
                             clamp_fn{clamp_max<3>::lower, clamp_max<3>::upper}}) {
      std::vector<int8_t> x(256), want(256), got(256);
      for (int i = 0; i < 256; ++i) x[size_t(i)] = int8_t(i - 128);
      REQUIRE(ref::unary_s8(f, 256, x.data(), want.data(), p) == kernels::status::ok);
      REQUIRE(kernels::activation_s8(kernels::make_unary_table(f, p), 256, x.data(), got.data()) == kernels::status::ok);
      CHECK(want == got);
      // and it is the definition: quantize(clamp(dequantize(x)))
      for (int i = 0; i < 256; ++i) {
        const float real = (float(x[size_t(i)]) - float(p.in_zp)) * p.in_scale;
        const float y = real < f.lower ? f.lower : (real > f.upper ? f.upper : real);
        CHECK(want[size_t(i)] == quant::quantize<int8_t>(y, p.out_scale, p.out_zp));
      }
    }
  }
}

template <class T>
static std::vector<T> run_net(rt::backend be) {
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<net, dt>;
  constexpr auto& layout = rt::param_layout_of<net, dt>;
  alignas(16) static uint8_t arena[plan.arena_bytes];
  alignas(16) static uint8_t blob[layout.total_bytes];
  REQUIRE(rt::fill_params<net, dt>(blob, sizeof blob, 7));
  rt::fill_input(reinterpret_cast<T*>(arena + plan.offset_of(0)), net::input_shape.elems(), 3,
                 rt::default_tensor_quant<net>(0));
  const rt::run_status s = rt::run<net, T>(arena, sizeof arena, blob, sizeof blob, be);
  REQUIRE(s.ok());
  const T* y = reinterpret_cast<const T*>(arena + plan.offset_of(net::output_tensor));
  return std::vector<T>(y, y + net::output_shape.elems());
}

TEST_CASE("clamp through the executor: optimized equals reference, every output within the bounds") {
  const std::vector<float> ref_f = run_net<float>(rt::backend::reference);
  const std::vector<float> opt_f = run_net<float>(rt::backend::optimized);
  REQUIRE(ref_f.size() == opt_f.size());
  int at_lower = 0, at_upper = 0;
  for (size_t i = 0; i < ref_f.size(); ++i) {
    CHECK(opt_f[i] == doctest::Approx(ref_f[i]).epsilon(1e-4));  // the convolutions round differently
    CHECK(ref_f[i] >= -0.3f);
    CHECK(ref_f[i] <= 0.5f);
    at_lower += ref_f[i] == -0.3f ? 1 : 0;
    at_upper += ref_f[i] == 0.5f ? 1 : 0;
  }
  CHECK(at_upper > 0);  // both bounds were met: the convolution's outputs cross them
  CHECK(at_lower > 0);
  CHECK(run_net<int8_t>(rt::backend::reference) == run_net<int8_t>(rt::backend::optimized));
}
