// leaky_relu, the op added to prove "one op, one place" (nn/leaky_relu.hpp): PyTorch's values,
// its row (slope, in place, no parameters, no scratch), and both backends in float32 and int8.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/runtime.hpp"

using namespace ctnn;
namespace rt = ctnn::runtime;

using net = network<"Leaky", shape{4, 5, 5}, conv2d<4, 6, 3, 1, 1>, leaky_relu<>, conv2d<6, 3, 1>, leaky_relu<1, 5>>;

static_assert(net::layer(1).kind == op::leaky_relu && net::layer(1).geometry.alpha == 0.01f);
static_assert(net::layer(3).geometry.alpha == 0.2f);
static_assert(net::layer(1).params() == 0 && net::layer(1).counts.ext_ops == 6 * 5 * 5);
static_assert(net::layer(1).reuse.in_place_inputs == 1 && net::layer(1).scratch.max_units == 0);
static_assert(string_equal(net::layer(1).type, "LeakyReLU"));
// in place: the activation writes over the convolution's output
static_assert(memory::plan_of<net, dtype::int8>.offset_of(2) == memory::plan_of<net, dtype::int8>.offset_of(1));

TEST_CASE("leaky_relu_fn is PyTorch's LeakyReLU (negative_slope 0.01 by default)") {
  // torch.nn.functional.leaky_relu(torch.tensor([-2., -0.5, 0., 0.5, 3.])) = [-0.02, -0.005, 0, 0.5, 3]
  const leaky_relu_fn f{leaky_relu<>::negative_slope};
  CHECK(f(-2.0f) == doctest::Approx(-0.02f));
  CHECK(f(-0.5f) == doctest::Approx(-0.005f));
  CHECK(f(0.0f) == 0.0f);
  CHECK(f(0.5f) == 0.5f);
  CHECK(f(3.0f) == 3.0f);
  CHECK(leaky_relu_fn{0.2f}(-1.0f) == doctest::Approx(-0.2f));
}

TEST_CASE("int8 leaky_relu: the optimized table equals the reference on every input byte") {
  const ref::act_s8_params ps[] = {{1.0f / 32, 0, 1.0f / 32, 0}, {0.05f, -7, 0.02f, 11}, {1.0f / 16, 127, 0.1f, -128}};
  for (const ref::act_s8_params& p : ps) {
    for (float slope : {0.01f, 0.2f, 0.3f}) {
      const leaky_relu_fn f{slope};
      std::vector<int8_t> x(256), want(256), got(256);
      for (int i = 0; i < 256; ++i) x[size_t(i)] = int8_t(i - 128);
      REQUIRE(ref::unary_s8(f, 256, x.data(), want.data(), p) == kernels::status::ok);
      REQUIRE(kernels::activation_s8(kernels::make_unary_table(f, p), 256, x.data(), got.data()) == kernels::status::ok);
      CHECK(want == got);
      // and it is the definition: quantize(f(dequantize(x)))
      for (int i = 0; i < 256; ++i) {
        const float real = (float(x[size_t(i)]) - float(p.in_zp)) * p.in_scale;
        CHECK(want[size_t(i)] == quant::quantize<int8_t>(real >= 0 ? real : slope * real, p.out_scale, p.out_zp));
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

TEST_CASE("leaky_relu through the executor: optimized equals reference, negatives scaled") {
  const std::vector<float> ref_f = run_net<float>(rt::backend::reference);
  const std::vector<float> opt_f = run_net<float>(rt::backend::optimized);
  REQUIRE(ref_f.size() == opt_f.size());
  int negatives = 0;
  for (size_t i = 0; i < ref_f.size(); ++i) {
    CHECK(opt_f[i] == doctest::Approx(ref_f[i]).epsilon(1e-4));
    negatives += ref_f[i] < 0 ? 1 : 0;
  }
  CHECK(negatives > 0);  // the slope let negative values through
  CHECK(run_net<int8_t>(rt::backend::reference) == run_net<int8_t>(rt::backend::optimized));
}
