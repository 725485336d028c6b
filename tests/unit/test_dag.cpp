// dag<>: explicit dataflow. The same leaves written nested (sequential, residual, concat) and as a
// dag give the same rows, the same plan and the same outputs, byte for byte, in float32 and int8;
// a dag expresses what nesting cannot (DenseNet's concatenation of all earlier features).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ctnn/host/run_buffers.hpp"
#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/runtime.hpp"

using namespace ctnn;
namespace rt = ctnn::runtime;

namespace {

using conv = conv2d<4, 4, 3, 1, 1>;

using nested = network<"Nested", shape{4, 8, 8},
    conv, relu, concat<identity, residual<conv>>, global_avg_pool2d, flatten, linear<8, 3>>;

using as_dag = network<"Dag", shape{4, 8, 8},
    dag<"Body",
        node<"conv1", conv, 0>,
        node<"relu1", relu, 1>,
        node<"conv2", conv, 2>,
        node<"add", join<op::add>, 3, 2>,
        node<"cat", join<op::concat>, 2, 4>>,
    global_avg_pool2d, flatten, linear<8, 3>>;

// DenseNet's form: every layer reads the concatenation of the input and all earlier outputs.
using dense = network<"Dense", shape{4, 6, 6},
    dag<"DenseBlock",
        node<"l1", sequential<batch_norm2d<4>, relu, conv2d<4, 2, 3, 1, 1>>, 0>,  // value 1
        node<"cat1", join<op::concat>, 0, 1>,                                       // value 2: 6 ch
        node<"l2", sequential<batch_norm2d<6>, relu, conv2d<6, 2, 3, 1, 1>>, 2>,   // value 3
        node<"cat2", join<op::concat>, 0, 1, 3>,                                    // value 4: 8 ch
        node<"l3", sequential<batch_norm2d<8>, relu, conv2d<8, 2, 3, 1, 1>>, 4>,   // value 5
        node<"cat3", join<op::concat>, 0, 1, 3, 5>>,                                // value 6: 10 ch
    global_avg_pool2d, flatten, linear<10, 4>>;

static_assert(nested::leaf_count == as_dag::leaf_count);
static_assert(dense::output_shape == features(4));
static_assert(dense::layer(11).kind == op::concat && dense::layer(11).n_inputs == 4 && dense::layer(11).out.c == 10);
static_assert(dense::layer(11).inputs[0] == 0 && dense::layer(11).inputs[1] == 3 && dense::layer(11).inputs[3] == 11);

// A concatenation of 13 values (more than the 8 a row could keep inline before): DenseNet-121's
// widest concat reads 25. As a dag and as a nested concat of 12 branches plus the input.
template <int64_t Out>
using branch = conv2d<3, Out, 1>;
using wide_dag = network<"WideDag", shape{3, 4, 4},
    dag<"Wide",
        node<"b1", branch<1>, 0>, node<"b2", branch<2>, 0>, node<"b3", branch<3>, 0>, node<"b4", branch<1>, 0>,
        node<"b5", branch<2>, 0>, node<"b6", branch<3>, 0>, node<"b7", branch<1>, 0>, node<"b8", branch<2>, 0>,
        node<"b9", branch<3>, 0>, node<"b10", branch<1>, 0>, node<"b11", branch<2>, 0>, node<"b12", branch<3>, 0>,
        node<"cat", join<op::concat>, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12>>>;
using wide_nested = network<"WideNested", shape{3, 4, 4},
    concat<identity, branch<1>, branch<2>, branch<3>, branch<1>, branch<2>, branch<3>, branch<1>, branch<2>,
           branch<3>, branch<1>, branch<2>, branch<3>>>;
static_assert(wide_dag::layer(12).n_inputs == 13 && wide_dag::max_fan_in == 13 && wide_dag::output_shape.c == 27);
static_assert(wide_dag::input_count == 12 + 13 && wide_dag::layer(12).inputs[12] == 12);
static_assert(wide_nested::layer(12).n_inputs == 13 && wide_nested::layer(12).inputs[0] == 0);

template <Network Net, class T>
std::vector<uint8_t> run_once(uint64_t seed, rt::backend be) {
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<Net, dt>;
  constexpr auto& layout = rt::param_layout_of<Net, dt>;
  host::aligned_bytes params(static_cast<size_t>(layout.total_bytes));
  REQUIRE(rt::fill_params<Net, dt>(params.data, params.size, seed));
  std::vector<T> x(static_cast<size_t>(Net::input_shape.elems()));
  rt::fill_input<T>(x.data(), Net::input_shape.elems(), seed + 1, rt::default_tensor_quant<Net>(0));
  host::aligned_bytes arena(static_cast<size_t>(plan.arena_bytes));
  std::memcpy(arena.data + plan.offset_of(0), x.data(), x.size() * sizeof(T));
  REQUIRE(rt::run<Net, T>(arena.data, arena.size, params.data, params.size, be).ok());
  const uint8_t* out = arena.data + plan.offset_of(Net::output_tensor);
  return {out, out + Net::output_shape.elems() * static_cast<int64_t>(sizeof(T))};
}

}  // namespace

TEST_CASE("a dag and its nested twin: same leaves, inputs, plan") {
  for (int32_t i = 0; i < nested::leaf_count; ++i) {
    const row& a = nested::layer(i);
    const row& b = as_dag::layer(i);
    CHECK(a.kind == b.kind);
    CHECK(a.out == b.out);
    CHECK(a.n_inputs == b.n_inputs);
    for (int32_t k = 0; k < a.n_inputs; ++k) CHECK(a.inputs[k] == b.inputs[k]);
  }
  CHECK(memory::plan_of<nested, dtype::int8>.arena_bytes == memory::plan_of<as_dag, dtype::int8>.arena_bytes);
  CHECK(memory::plan_of<nested, dtype::float32>.arena_bytes == memory::plan_of<as_dag, dtype::float32>.arena_bytes);
  // node names name the rows
  CHECK(std::string(as_dag::layer(0).name) == "conv1");
  CHECK(std::string(as_dag::layer(4).name) == "cat");
  CHECK(std::string(as_dag::rows[1].type) == "Body");
}

TEST_CASE_TEMPLATE("a dag runs byte for byte like its nested twin", T, float, int8_t) {
  for (rt::backend be : {rt::backend::reference, rt::backend::optimized}) {
    CHECK(run_once<nested, T>(7, be) == run_once<as_dag, T>(7, be));
  }
}

TEST_CASE_TEMPLATE("a concat of 13 inputs: each input lands in its channel slice, dag and nesting agree", T, float,
                   int8_t) {
  using Net = wide_dag;
  constexpr dtype dt = dtype_of<T>;
  constexpr auto& plan = memory::plan_of<Net, dt>;
  constexpr auto& layout = rt::param_layout_of<Net, dt>;
  host::aligned_bytes params(static_cast<size_t>(layout.total_bytes));
  REQUIRE(rt::fill_params<Net, dt>(params.data, params.size, 5));
  host::aligned_bytes arena(static_cast<size_t>(plan.arena_bytes));
  rt::fill_input<T>(reinterpret_cast<T*>(arena.data + plan.offset_of(0)), Net::input_shape.elems(), 6,
                    rt::default_tensor_quant<Net>(0));
  const std::vector<uint8_t> input(arena.data + plan.offset_of(0),
                                   arena.data + plan.offset_of(0) + Net::input_shape.elems() * int64_t{sizeof(T)});
  host::layer_recorder rec;
  rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
  REQUIRE(rt::run<Net, T>(arena.data, arena.size, params.data, params.size, rt::backend::reference,
                          &host::layer_recorder::record, &rec)
              .ok());
  const std::vector<uint8_t>& cat = rec.outputs[12];
  REQUIRE(cat.size() == size_t{27 * 16 * sizeof(T)});
  // slice 0 is the network input, slice k the output of branch k, in order
  size_t at = 0;
  CHECK(std::memcmp(cat.data(), input.data(), input.size()) == 0);
  at += input.size();
  for (size_t k = 0; k < 12; ++k) {
    const std::vector<uint8_t>& b = rec.outputs[k];
    REQUIRE(at + b.size() <= cat.size());
    CHECK(std::memcmp(cat.data() + at, b.data(), b.size()) == 0);
    at += b.size();
  }
  CHECK(at == cat.size());
  for (rt::backend be : {rt::backend::reference, rt::backend::optimized})
    CHECK(run_once<wide_dag, T>(9, be) == run_once<wide_nested, T>(9, be));
}

TEST_CASE("a DenseNet-style dag: concatenations of all earlier values run, both backends agree") {
  CHECK(run_once<dense, float>(3, rt::backend::reference).size() == 16);
  const auto r = run_once<dense, int8_t>(3, rt::backend::reference);
  CHECK(r == run_once<dense, int8_t>(3, rt::backend::optimized));
  // the concatenation embeds the inputs that die there and copies those that live on
  constexpr auto& p = memory::plan_of<dense, dtype::int8>;
  CHECK(p.arena_bytes <= p.plain_liveness_bytes);
}
