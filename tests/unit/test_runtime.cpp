// The executor: every op kind on small networks, float32 and int8, each leaf's output equal to a
// direct call of the reference kernel on the recorded inputs and the blob's parameters; the
// optimized backend against the reference backend; in-place and concat-embedded plans; faults.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "ctnn/host/run_buffers.hpp"
#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"
#include "test_kernels_rng.hpp"

using namespace ctnn;
namespace rt = ctnn::runtime;
using kernels::status;

namespace {

// ---- the test networks: together they hold every op kind -------------------------------------

using net_conv = network<"Conv", shape{4, 9, 9},
    conv2d_layer<conv2d_config{4, 6, {3, 2}, {2, 1}, {1, 0, 2, 1}, {1, 2}, 2, true}>,  // grouped, asymmetric
    relu,
    depthwise_conv2d<6, 3, 1, 1, true>,
    conv2d<6, 32, 3, 1, 1>,              // at the peak: no slack for a panel, the direct kernel
    conv2d<32, 4, 1>,                    // pointwise: the input is the GEMM operand
    conv2d<4, 4, 3, 1, 1, 1, 1, false>,  // im2col panels of fewer rows than the output
    global_avg_pool2d, flatten, linear<4, 10>, softmax>;

using net_elementwise = network<"Elementwise", shape{8, 7, 7},
    batch_norm2d<8, 1, 1000>, relu6, max_pool2d<3, 2, 1, true>, zero_pad2d<2, 1, 1, 0>,
    avg_pool2d<3, 1, 1, false, false>, silu, hardswish, tanh_activation, gelu, gelu_tanh, leaky_relu<1, 5>,
    channel_scale<8>, layer_norm2d<8, 1, 100000>, channel_shuffle<4>, channel_slice<2, 6>, dropout<10>, hardsigmoid, sigmoid,
    clamp<1, 3, 4>, adaptive_avg_pool2d<3, 2>, avg_pool2d<2, 1, 0, true, true>, softmax>;

// the epsilons written in the description reach the rows the kernels read
static_assert(net_elementwise::layer(0).geometry.epsilon == 1e-3f);
static_assert(net_elementwise::layer(12).geometry.epsilon == 1e-5f);
static_assert(net_elementwise::layer(12).kind == op::layer_norm2d);
static_assert(net_elementwise::layer(9).geometry.variant == 1 && net_elementwise::layer(8).geometry.variant == 0);

using net_graph = network<"Graph", shape{8, 6, 6},
    concat<identity, sequential<conv2d<8, 4, 3, 1, 1>, relu>>,  // the input branch is copied
    residual<sequential<conv2d<12, 12, 3, 1, 1>, batch_norm2d<12>>>, relu,
    scale<sequential<global_avg_pool2d, conv2d<12, 12, 1>, sigmoid>>,  // broadcast gate
    concat<conv2d<12, 4, 1>, conv2d<12, 4, 3, 1, 1>>,                   // embedded branches
    scale<sequential<conv2d<8, 8, 1>, sigmoid>>>;                         // full-shape gate

// ---- buffers and recording ----------------------------------------------------------------------

using ctnn::host::aligned_bytes;
using recorder = ctnn::host::layer_recorder;

template <class T>
std::vector<T> as(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

template <Network Net, class T>
struct harness {
  static constexpr dtype dt = ctnn::dtype_of<T>;
  static constexpr auto& plan = memory::plan_of<Net, dt>;
  static constexpr auto& layout = rt::param_layout_of<Net, dt>;
  aligned_bytes params{static_cast<size_t>(layout.total_bytes)};
  std::vector<uint8_t> input;

  explicit harness(uint64_t seed) {
    REQUIRE(rt::fill_params<Net, dt>(params.data, params.size, seed));
    std::vector<T> x(static_cast<size_t>(Net::input_shape.elems()));
    rt::fill_input<T>(x.data(), Net::input_shape.elems(), seed + 1, rt::default_tensor_quant<Net>(0));
    input.resize(x.size() * sizeof(T));
    std::memcpy(input.data(), x.data(), input.size());
  }
  rt::run_status run(rt::backend be, recorder& rec) {
    aligned_bytes arena(static_cast<size_t>(plan.arena_bytes));
    std::memset(arena.data, 0x5A, arena.size);
    std::memcpy(arena.data + plan.offset_of(0), input.data(), input.size());
    rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
    return rt::run<Net, T>(arena.data, arena.size, params.data, params.size, be, &recorder::record, &rec);
  }
  template <class U>
  const U* p(uint64_t offset) const {
    return reinterpret_cast<const U*>(params.data + offset);
  }
  rt::tensor_quant quant(int32_t t) const {
    if constexpr (dt == dtype::int8) return {p<float>(layout.quant_scale)[t], p<int32_t>(layout.quant_zp)[t]};
    else return {};
  }
  /// The bytes of tensor t as recorded (0: the input).
  const std::vector<uint8_t>& tensor(const recorder& rec, int32_t t) const {
    return t == 0 ? input : rec.outputs[static_cast<size_t>(t - 1)];
  }
};

kernels::conv_geometry conv_of(const row& r) {
  const layer_geometry& g = r.geometry;
  return {r.in.c, r.in.h, r.in.w, r.out.c, g.kernel.h, g.kernel.w, g.stride.h, g.stride.w, g.padding.top,
          g.padding.bottom, g.padding.left, g.padding.right, g.dilation.h, g.dilation.w, g.groups};
}
kernels::pool_geometry pool_of(const row& r) {
  const layer_geometry& g = r.geometry;
  return {r.in.c, r.in.h, r.in.w, g.kernel.h, g.kernel.w, g.stride.h, g.stride.w, g.padding.top,
          g.padding.bottom, g.padding.left, g.padding.right, g.ceil_mode, g.count_include_pad};
}

/// The leaf's output computed here by calling the reference kernel directly.
template <Network Net, class T>
std::vector<uint8_t> expected(const harness<Net, T>& h, const recorder& rec, int32_t i, std::set<op>& seen) {
  constexpr bool q = std::is_same_v<T, int8_t>;
  using acc_t = std::conditional_t<q, int32_t, float>;
  const row& r = Net::layer(i);
  seen.insert(r.kind);
  const auto& l = h.layout.leaves[static_cast<size_t>(i)];
  std::vector<std::vector<T>> in;
  for (int32_t k = 0; k < r.n_inputs; ++k) in.push_back(as<T>(h.tensor(rec, r.inputs[k])));
  std::vector<T> out(static_cast<size_t>(r.out.elems()));
  const rt::tensor_quant qi = h.quant(r.inputs[0]), qo = h.quant(r.output);
  const T* w = l.w_bytes != 0 ? h.template p<T>(l.w) : nullptr;
  const acc_t* b = l.b_bytes != 0 ? h.template p<acc_t>(l.b) : nullptr;
  const ref::gemm_s8_params gp{qi.zero_point, 0, qo.zero_point, q ? h.template p<int32_t>(l.mult) : nullptr,
                               q ? h.template p<int32_t>(l.shift) : nullptr, true, -128, 127};
  const ref::act_s8_params ap{qi.scale, qi.zero_point, qo.scale, qo.zero_point};
  const int64_t n = r.out.elems(), hw = r.out.h * r.out.w;
  status s = status::ok;
  auto act = [&](ref::activation a) {
    if constexpr (q) s = ref::activation_s8(a, n, in[0].data(), out.data(), ap);
    else s = ref::activation_f32(a, n, in[0].data(), out.data());
  };
  switch (r.kind) {
    case op::conv2d:
      if constexpr (q) s = ref::conv2d_s8(conv_of(r), in[0].data(), w, b, out.data(), gp);
      else s = ref::conv2d_f32(conv_of(r), in[0].data(), w, b, out.data());
      break;
    case op::linear:
      if constexpr (q) s = ref::linear_s8(1, int(r.in.elems()), int(r.out.c), in[0].data(), w, b, out.data(), gp);
      else s = ref::linear_f32(1, int(r.in.elems()), int(r.out.c), in[0].data(), w, b, out.data());
      break;
    case op::max_pool2d: s = ref::max_pool2d<T>(pool_of(r), in[0].data(), out.data()); break;
    case op::avg_pool2d:
      if constexpr (q) s = ref::avg_pool2d_s8(pool_of(r), in[0].data(), out.data(), qi.zero_point);
      else s = ref::avg_pool2d_f32(pool_of(r), in[0].data(), out.data());
      break;
    case op::adaptive_avg_pool2d:
      s = ref::adaptive_avg_pool2d<T>(r.in.c, r.in.h, r.in.w, r.out.h, r.out.w, in[0].data(), out.data());
      break;
    case op::batch_norm2d:
      if constexpr (q) s = ref::batchnorm2d_s8(r.out.c, hw, in[0].data(), w, b, out.data(), gp);
      else s = ref::batchnorm2d_f32(r.out.c, hw, in[0].data(), h.template p<float>(l.mean), h.template p<float>(l.var),
                                    w, b, r.geometry.epsilon, out.data());
      break;
    case op::channel_scale:
      if constexpr (q) s = ref::batchnorm2d_s8(r.out.c, hw, in[0].data(), w, nullptr, out.data(), gp);
      else s = ref::mul_channels_f32(r.out.c, hw, in[0].data(), w, out.data());
      break;
    case op::layer_norm2d:
      if constexpr (q)
        s = ref::layer_norm2d_s8(r.out.c, hw, in[0].data(), h.template p<float>(l.w), h.template p<float>(l.b),
                                 r.geometry.epsilon, out.data(), qi.scale, qi.zero_point, qo.scale, qo.zero_point);
      else s = ref::layer_norm2d_f32(r.out.c, hw, in[0].data(), h.template p<float>(l.w), h.template p<float>(l.b),
                                     r.geometry.epsilon, out.data());
      break;
    case op::relu: act(ref::activation::relu); break;
    case op::relu6: act(ref::activation::relu6); break;
    case op::sigmoid: act(ref::activation::sigmoid); break;
    case op::silu: act(ref::activation::silu); break;
    case op::hardswish:  // int8: TFLite's fixed-point hard swish
      if constexpr (q) {
        ref::hardswish_s8_params hp{};
        s = ref::make_hardswish_s8_params(hp, qi.scale, qi.zero_point, qo.scale, qo.zero_point);
        if (s == status::ok) s = ref::hardswish_s8(n, in[0].data(), out.data(), hp);
      } else {
        act(ref::activation::hardswish);
      }
      break;
    case op::hardsigmoid: act(ref::activation::hardsigmoid); break;
    case op::tanh: act(ref::activation::tanh); break;
    case op::gelu: act(r.geometry.variant == 1 ? ref::activation::gelu_tanh : ref::activation::gelu); break;
    case op::leaky_relu: {  // the definition, written out: x >= 0 ? x : slope * x
      const float slope = r.geometry.alpha;
      auto f = [slope](float x) { return x >= 0.0f ? x : slope * x; };
      if constexpr (q) s = ref::unary_s8(f, n, in[0].data(), out.data(), ap);
      else s = ref::unary_f32(f, n, in[0].data(), out.data());
      break;
    }
    case op::clamp: {  // the definition, written out: min(max(x, lower), upper)
      const float lo = r.geometry.alpha, hi = r.geometry.beta;
      auto f = [lo, hi](float x) { return x < lo ? lo : (x > hi ? hi : x); };
      if constexpr (q) s = ref::unary_s8(f, n, in[0].data(), out.data(), ap);
      else s = ref::unary_f32(f, n, in[0].data(), out.data());
      break;
    }
    case op::flatten: case op::dropout: out = in[0]; break;
    case op::softmax:
      if constexpr (q) s = ref::softmax_channels_s8(r.out.c, hw, in[0].data(), out.data(), qi.scale, qi.zero_point);
      else s = ref::softmax_channels_f32(r.out.c, hw, in[0].data(), out.data());
      break;
    case op::zero_pad2d: {
      const pad4& p = r.geometry.padding;
      s = ref::zero_pad2d<T>(r.in.c, r.in.h, r.in.w, p.top, p.bottom, p.left, p.right, in[0].data(), out.data(),
                             static_cast<T>(qi.zero_point));
      break;
    }
    case op::channel_shuffle: s = ref::channel_shuffle<T>(r.out.c, hw, r.geometry.groups, in[0].data(), out.data()); break;
    case op::channel_slice:
      std::copy_n(in[0].begin() + r.geometry.first_channel * hw, n, out.begin());
      break;
    case op::add:
      if constexpr (q) {
        const rt::tensor_quant qb = h.quant(r.inputs[1]);
        ref::add_s8_params p{};
        s = ref::make_add_s8_params(p, qi.scale, qi.zero_point, qb.scale, qb.zero_point, qo.scale, qo.zero_point);
        if (s == status::ok) s = ref::add_s8(n, in[0].data(), in[1].data(), out.data(), p);
      } else {
        s = ref::add_f32(n, in[0].data(), in[1].data(), out.data());
      }
      break;
    case op::mul: {
      const bool bc = int64_t(in[1].size()) != n;
      if constexpr (q) {
        const rt::tensor_quant qb = h.quant(r.inputs[1]);
        ref::mul_s8_params p{};
        s = ref::make_mul_s8_params(p, qi.scale, qi.zero_point, qb.scale, qb.zero_point, qo.scale, qo.zero_point);
        if (s == status::ok)
          s = bc ? ref::mul_channels_s8(r.out.c, hw, in[0].data(), in[1].data(), out.data(), p)
                 : ref::mul_s8(n, in[0].data(), in[1].data(), out.data(), p);
      } else {
        s = bc ? ref::mul_channels_f32(r.out.c, hw, in[0].data(), in[1].data(), out.data())
               : ref::mul_f32(n, in[0].data(), in[1].data(), out.data());
      }
      break;
    }
    case op::concat: {
      std::vector<const T*> ptr;
      std::vector<int64_t> ch;
      for (const auto& v : in) {
        ptr.push_back(v.data());
        ch.push_back(int64_t(v.size()) / hw);
      }
      s = ref::concat_channels<T>(r.n_inputs, ptr.data(), ch.data(), hw, out.data());
      break;
    }
    case op::container: FAIL("a container is not a leaf"); break;
  }
  REQUIRE(s == status::ok);
  std::vector<uint8_t> bytes(out.size() * sizeof(T));
  std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

/// Runs Net both ways and checks every leaf; returns the op kinds met.
template <Network Net, class T>
void check_net(std::set<op>& seen) {
  constexpr bool q = std::is_same_v<T, int8_t>;
  harness<Net, T> h(7);
  recorder ref_rec, opt_rec;
  const rt::run_status sr = h.run(rt::backend::reference, ref_rec);
  INFO("net " << Net::name << " fault " << rt::name_of(sr.code) << " at leaf " << sr.leaf << " ("
              << kernels::name_of(sr.kernel) << ")");
  REQUIRE(sr.ok());
  const rt::run_status so = h.run(rt::backend::optimized, opt_rec);
  REQUIRE(so.ok());
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    INFO(Net::name << " leaf " << i << " " << Net::layer(i).type);
    const auto want = expected<Net, T>(h, ref_rec, i, seen);
    const auto& got = ref_rec.outputs[static_cast<size_t>(i)];
    REQUIRE(got == want);  // the reference backend is the reference kernel, bit for bit
    // not constant: the parameters and input exercise the layer
    if constexpr (!q) {
      const auto o = as<float>(opt_rec.outputs[static_cast<size_t>(i)]), e = as<float>(want);
      float mag = 1.0f, err = 0.0f;
      for (size_t k = 0; k < e.size(); ++k) {
        mag = std::max(mag, std::fabs(e[k]));
        err = std::max(err, std::fabs(o[k] - e[k]));
      }
      CHECK(err <= 1e-4f * mag);
    } else {
      CHECK(opt_rec.outputs[static_cast<size_t>(i)] == want);  // int8: bit-exact
    }
    CHECK(std::any_of(want.begin(), want.end(), [&](uint8_t v) { return v != want[0]; }) == (want.size() > sizeof(T)));
  }
}

}  // namespace

TEST_CASE_TEMPLATE("every op kind through the executor equals the reference kernel", T, float, int8_t) {
  std::set<op> seen;
  check_net<net_conv, T>(seen);
  check_net<net_elementwise, T>(seen);
  check_net<net_graph, T>(seen);
  check_net<zoo::lenet5, T>(seen);
  // every leaf kind of nn/op.hpp was met
  for (int k = int(op::conv2d); k < op_count; ++k) {
    INFO("op kind " << k);
    CHECK(seen.count(static_cast<op>(k)) == 1);
  }
}

TEST_CASE("the test networks' plans run layers in place, embed concat inputs and copy the others") {
  constexpr auto& pg = memory::plan_of<net_graph, dtype::int8>;
  int in_place = 0, embedded = 0, copied = 0;
  for (int32_t i = 0; i < net_graph::leaf_count; ++i) {
    const row& r = net_graph::layer(i);
    if (r.reuse.in_place_inputs > 0 &&
        pg.offset_of(r.output) == pg.offset_of(r.inputs[0]))
      ++in_place;
    if (r.kind != op::concat) continue;
    uint64_t slice = 0;
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      if (pg.offset_of(r.inputs[k]) == pg.offset_of(r.output) + slice) ++embedded;
      else ++copied;
      slice += uint64_t(net_graph::tensor_shape(r.inputs[k]).elems());
    }
  }
  CHECK(in_place >= 2);
  CHECK(embedded >= 2);
  CHECK(copied >= 1);
  // and convolutions on im2col panels of fewer rows than the output, and a direct one
  for (int dt = 0; dt < 2; ++dt) {
    bool panel = false, direct = false;
    for (int32_t i = 0; i < net_conv::leaf_count; ++i) {
      const row& r = net_conv::layer(i);
      if (r.kind != op::conv2d || r.scratch.max_units == 0) continue;  // no im2col panel asked
      const int32_t rows = dt == 0 ? memory::plan_of<net_conv, dtype::float32>.panel_rows[size_t(i)]
                                   : memory::plan_of<net_conv, dtype::int8>.panel_rows[size_t(i)];
      panel = panel || (rows > 0 && rows < r.out.h);
      direct = direct || rows == 0;
    }
    CHECK(panel);
    CHECK(direct);
  }
}

TEST_CASE("bad arenas and parameter blobs return a status, no leaf runs") {
  using net = zoo::lenet5;
  constexpr auto& plan = memory::plan_of<net, dtype::int8>;
  constexpr auto& layout = rt::param_layout_of<net, dtype::int8>;
  aligned_bytes arena(plan.arena_bytes + 16), params(layout.total_bytes + 16);
  REQUIRE(rt::fill_params<net, dtype::int8>(params.data, layout.total_bytes, 3));
  CHECK_FALSE(rt::fill_params<net, dtype::int8>(params.data, layout.total_bytes - 1, 3));
  CHECK_FALSE(rt::fill_params<net, dtype::int8>(params.data + 1, layout.total_bytes, 3));
  int calls = 0;
  auto count = [](void* u, int32_t, const void*, size_t) { ++*static_cast<int*>(u); };
  const auto be = rt::backend::optimized;
  auto run = [&](uint8_t* a, size_t an, const uint8_t* p, size_t pn) {
    return rt::run<net, int8_t>(a, an, p, pn, be, count, &calls);
  };
  rt::run_status s = run(nullptr, plan.arena_bytes, params.data, layout.total_bytes);
  CHECK(s.code == rt::fault::null_arena);
  CHECK(s.leaf == -1);
  CHECK(run(arena.data, plan.arena_bytes - 1, params.data, layout.total_bytes).code == rt::fault::arena_too_small);
  CHECK(run(arena.data + 4, plan.arena_bytes, params.data, layout.total_bytes).code == rt::fault::misaligned_arena);
  CHECK(run(arena.data, plan.arena_bytes, nullptr, 0).code == rt::fault::null_params);
  CHECK(run(arena.data, plan.arena_bytes, params.data, layout.total_bytes - 1).code == rt::fault::params_too_small);
  CHECK(calls == 0);
  CHECK(run(arena.data, plan.arena_bytes, params.data, layout.total_bytes).ok());
  CHECK(calls == net::leaf_count);
  // a corrupt requantization shift in conv2 (leaf 3): a kernel status naming that leaf
  auto* shift = reinterpret_cast<int32_t*>(params.data + layout.leaves[3].shift);
  shift[0] = 99;
  for (auto b : {rt::backend::reference, rt::backend::optimized}) {
    calls = 0;
    s = rt::run<net, int8_t>(arena.data, plan.arena_bytes, params.data, layout.total_bytes, b, count, &calls);
    CHECK(s.code == rt::fault::kernel);
    CHECK(s.kernel == status::bad_quant_param);
    CHECK(s.leaf == 3);
    CHECK(calls == 3);
  }
}

TEST_CASE("int8 concat of differently quantized inputs is refused with the leaf") {
  constexpr auto& layout = rt::param_layout_of<net_graph, dtype::int8>;
  constexpr auto& plan = memory::plan_of<net_graph, dtype::int8>;
  aligned_bytes arena(plan.arena_bytes), params(layout.total_bytes);
  REQUIRE(rt::fill_params<net_graph, dtype::int8>(params.data, params.size, 5));
  reinterpret_cast<float*>(params.data + layout.quant_scale)[0] = 1.0f / 64.0f;  // the input's scale
  const rt::run_status s =
      rt::run<net_graph, int8_t>(arena.data, arena.size, params.data, params.size, rt::backend::reference);
  CHECK(s.code == rt::fault::quant_mismatch);
  CHECK(net_graph::layer(s.leaf).kind == op::concat);
}

TEST_CASE("crc32 and the parameter layout") {
  static_assert(crc32("123456789") == 0xCBF43926u);
  static_assert(crc32("") == 0u);
  const uint8_t abc[3] = {'a', 'b', 'c'};
  CHECK(crc32(abc, 3) == 0x352441C2u);
  CHECK(crc32_update(crc32(abc, 1), abc + 1, 2) == crc32(abc, 3));
  // LeNet-5: every parameter has its place, int8 adds per-channel requantization and the quant table
  constexpr auto& f = rt::param_layout_of<zoo::lenet5, dtype::float32>;
  constexpr auto& q = rt::param_layout_of<zoo::lenet5, dtype::int8>;
  static_assert(f.total_bytes >= zoo::lenet5::params * 4);
  static_assert(q.total_bytes >= zoo::lenet5::weights + zoo::lenet5::biases * 4 + 2 * 4 * (6 + 16 + 120 + 84 + 10));
  static_assert(q.leaves[0].w_bytes == 150 && q.leaves[0].b_bytes == 24);
  static_assert(f.leaves[7].w_bytes == 400 * 120 * 4);
}

// ---- offload hooks ------------------------------------------------------------------------------

namespace {

/// Takes conv2d and linear leaves and computes them with the reference kernels from what the
/// executor hands over (leaf_call's parameter accessors), records the order of the hook calls,
/// and fails leaf `fail_at` with code 0xE7.
struct ref_offload {
  std::vector<int32_t> begun, ended, offered, taken;
  int32_t fail_at = -1;
  bool in_leaf = false;
  void leaf_begin(int32_t i) {
    CHECK_FALSE(in_leaf);
    in_leaf = true;
    begun.push_back(i);
  }
  void leaf_end(int32_t i) {
    CHECK(in_leaf);
    in_leaf = false;
    ended.push_back(i);
  }
  rt::offload_result offload(const rt::leaf_call<int8_t>& c) {
    CHECK(in_leaf);
    offered.push_back(c.index);
    const row& r = *c.r;
    if (r.kind != op::conv2d && r.kind != op::linear) return rt::offload_result::declined();
    if (c.index == fail_at) return rt::offload_result::failed(0xE7);
    REQUIRE(c.weights() != nullptr);
    REQUIRE(c.multipliers() != nullptr);
    REQUIRE(c.shifts() != nullptr);
    const ref::gemm_s8_params gp{c.q_in[0].zero_point, 0, c.q_out.zero_point, c.multipliers(), c.shifts(),
                                 true, -128, 127};
    status s = status::ok;
    if (r.kind == op::conv2d)
      s = ref::conv2d_s8(conv_of(r), c.in[0], c.weights(), c.bias(), c.out, gp);
    else
      s = ref::linear_s8(1, static_cast<int>(r.in.elems()), static_cast<int>(r.out.c), c.in[0], c.weights(), c.bias(),
                         c.out, gp);
    if (s != status::ok) return rt::offload_result::failed(1000 + static_cast<uint32_t>(s));
    taken.push_back(c.index);
    return rt::offload_result::done();
  }
};

/// Records in which order callback and hooks ran.
struct order_log {
  ref_offload* off = nullptr;
  std::vector<int32_t> callbacks;
  static void record(void* u, int32_t leaf, const void*, size_t) {
    auto* self = static_cast<order_log*>(u);
    CHECK_FALSE(self->off->in_leaf);
    CHECK(self->off->ended.back() == leaf);  // the callback comes after leaf_end: outside the timing
    self->callbacks.push_back(leaf);
  }
};

static_assert(rt::offload_hook<ref_offload, int8_t>);
static_assert(!rt::offload_hook<ref_offload, float>);
static_assert(rt::offload_hook<rt::no_offload, float>);
static_assert(!rt::offload_hook<int, int8_t>);

}  // namespace

TEST_CASE_TEMPLATE("an offload hook runs the leaves it takes, the CPU the others, with identical outputs", Net,
                   zoo::lenet5, net_conv, net_graph) {
  harness<Net, int8_t> h(11);
  recorder cpu;
  REQUIRE(h.run(rt::backend::reference, cpu).ok());
  for (auto be : {rt::backend::reference, rt::backend::optimized}) {
    ref_offload off;
    order_log log{&off, {}};
    aligned_bytes arena(static_cast<size_t>(h.plan.arena_bytes));
    std::memset(arena.data, 0x5A, arena.size);
    std::memcpy(arena.data + h.plan.offset_of(0), h.input.data(), h.input.size());
    std::vector<std::vector<uint8_t>> outs(static_cast<size_t>(Net::leaf_count));
    struct both {
      order_log* log;
      std::vector<std::vector<uint8_t>>* outs;
    } u{&log, &outs};
    auto cb = [](void* p, int32_t leaf, const void* o, size_t n) {
      auto* b = static_cast<both*>(p);
      order_log::record(b->log, leaf, o, n);
      const auto* bytes = static_cast<const uint8_t*>(o);
      (*b->outs)[static_cast<size_t>(leaf)].assign(bytes, bytes + n);
    };
    const rt::run_status s =
        rt::run<Net, int8_t>(arena.data, arena.size, h.params.data, h.params.size, be, off, cb, &u);
    REQUIRE(s.ok());
    std::vector<int32_t> all(static_cast<size_t>(Net::leaf_count)), gemms;
    for (int32_t i = 0; i < Net::leaf_count; ++i) {
      all[static_cast<size_t>(i)] = i;
      if (Net::layer(i).kind == op::conv2d || Net::layer(i).kind == op::linear) gemms.push_back(i);
      CHECK(outs[static_cast<size_t>(i)] == cpu.outputs[static_cast<size_t>(i)]);
    }
    CHECK(off.begun == all);
    CHECK(off.ended == all);
    CHECK(off.offered == all);
    CHECK(log.callbacks == all);
    CHECK(off.taken == gemms);
    CHECK_FALSE(gemms.empty());
  }
}

TEST_CASE("a failing offload stops the run with fault::offload, the leaf and the hook's code") {
  using net = zoo::lenet5;
  harness<net, int8_t> h(12);
  for (int32_t fail_at : {0, 3, 11}) {  // conv1, conv2, fc3 (the last leaf)
    REQUIRE(net::layer(fail_at).kind != op::relu);
    ref_offload off;
    off.fail_at = fail_at;
    aligned_bytes arena(static_cast<size_t>(h.plan.arena_bytes));
    std::memcpy(arena.data + h.plan.offset_of(0), h.input.data(), h.input.size());
    int calls = 0;
    auto count = [](void* u, int32_t, const void*, size_t) { ++*static_cast<int*>(u); };
    const rt::run_status s = rt::run<net, int8_t>(arena.data, arena.size, h.params.data, h.params.size,
                                                  rt::backend::optimized, off, count, &calls);
    CHECK(s.code == rt::fault::offload);
    CHECK(s.leaf == fail_at);
    CHECK(s.detail == 0xE7u);
    CHECK(std::string(rt::name_of(s.code)) == "offload");
    CHECK(calls == fail_at);                                   // no callback for the failed leaf
    CHECK(off.ended.back() == fail_at);                         // leaf_end still brackets it
    CHECK(off.offered.size() == static_cast<size_t>(fail_at + 1));  // nothing after it
  }
  // a hook that declines everything is the plain run
  rt::no_offload none;
  recorder plain;
  REQUIRE(h.run(rt::backend::optimized, plain).ok());
  aligned_bytes arena(static_cast<size_t>(h.plan.arena_bytes));
  std::memcpy(arena.data + h.plan.offset_of(0), h.input.data(), h.input.size());
  recorder rec;
  rec.outputs.assign(static_cast<size_t>(net::leaf_count), {});
  REQUIRE(rt::run<net, int8_t>(arena.data, arena.size, h.params.data, h.params.size, rt::backend::optimized, none,
                               &recorder::record, &rec)
              .ok());
  CHECK(rec.outputs == plain.outputs);
}

namespace {
/// Owns linear (no CPU linear kernel is compiled for it) but declines every leaf.
struct owns_linear_declines_all {
  static constexpr uint64_t owned_kinds = rt::detail::kind_bit(op::linear);
  std::vector<int32_t> offered;
  rt::offload_result offload(const rt::leaf_call<int8_t>& c) {
    offered.push_back(c.index);
    return rt::offload_result::declined();
  }
};
}  // namespace

TEST_CASE("a kind the hook owns has no CPU kernel: declining it stops the run with fault::unsupported") {
  using net = zoo::lenet5;
  static_assert(rt::detail::owned_kinds<owns_linear_declines_all> == rt::detail::kind_bit(op::linear));
  static_assert(rt::detail::owned_kinds<rt::no_offload> == 0);
  harness<net, int8_t> h(12);
  owns_linear_declines_all off;
  aligned_bytes arena(static_cast<size_t>(h.plan.arena_bytes));
  std::memcpy(arena.data + h.plan.offset_of(0), h.input.data(), h.input.size());
  const rt::run_status s = rt::run<net, int8_t>(arena.data, arena.size, h.params.data, h.params.size,
                                                rt::backend::optimized, off);
  CHECK(s.code == rt::fault::unsupported);
  CHECK(s.leaf == 7);                               // fc1, the first linear leaf
  CHECK(net::layer(7).kind == op::linear);
  CHECK(off.offered.size() == 8u);                  // conv1 .. fc1 offered, nothing after
}

// ---- the executor's fast paths (runtime/fast_paths.hpp) against the reference kernels ------------

TEST_CASE("fast int8 ReLU equals ref::activation_s8 for every input, scale and zero point tested") {
  for (float s : {1.0f / 32.0f, 0.3f, 7.1f, 1e-3f, 0x1p-20f})
    for (int32_t zp : {-128, -5, 0, 77, 127}) {
      CAPTURE(s);
      CAPTURE(zp);
      const rt::tensor_quant tq{s, zp};
      REQUIRE(rt::fast::relu_is_clamp(tq, tq));
      int8_t x[256], want[256], got[256];
      for (int i = 0; i < 256; ++i) x[i] = static_cast<int8_t>(i - 128);
      REQUIRE(ref::activation_s8(ref::activation::relu, 256, x, want, {s, zp, s, zp}) == status::ok);
      rt::fast::relu_clamp_s8(256, x, got, zp);
      CHECK(std::memcmp(want, got, 256) == 0);
    }
  CHECK_FALSE(rt::fast::relu_is_clamp({0.5f, 0}, {0.25f, 0}));
  CHECK_FALSE(rt::fast::relu_is_clamp({0.5f, 0}, {0.5f, 1}));
}

TEST_CASE("fast int8 add of equally scaled tensors equals ref::add_s8 on all 65,536 input pairs") {
  struct zps {
    int32_t a, b, out;
  };
  for (float s : {1.0f / 32.0f, 0.3f, 1e-3f})
    for (zps z : {zps{0, 0, 0}, zps{-128, 127, 5}, zps{3, -7, -128}, zps{127, 127, 127}, zps{-128, -128, -128}}) {
      CAPTURE(s);
      CAPTURE(z.a);
      CAPTURE(z.b);
      CAPTURE(z.out);
      REQUIRE(rt::fast::add_is_integer({s, z.a}, {s, z.b}, {s, z.out}));
      ref::add_s8_params p{};
      REQUIRE(ref::make_add_s8_params(p, s, z.a, s, z.b, s, z.out) == status::ok);
      std::vector<int8_t> a(65536), b(65536), want(65536), got(65536);
      for (int i = 0; i < 65536; ++i) {
        a[size_t(i)] = static_cast<int8_t>(i / 256 - 128);
        b[size_t(i)] = static_cast<int8_t>(i % 256 - 128);
      }
      REQUIRE(ref::add_s8(65536, a.data(), b.data(), want.data(), p) == status::ok);
      rt::fast::add_integer_s8(65536, a.data(), b.data(), got.data(), z.a, z.b, z.out);
      CHECK(want == got);
    }
  CHECK_FALSE(rt::fast::add_is_integer({0.5f, 0}, {0.25f, 0}, {0.5f, 0}));
  CHECK_FALSE(rt::fast::add_is_integer({0.5f, 0}, {0.5f, 0}, {0.25f, 0}));
}

TEST_CASE_TEMPLATE("fast max pooling over windows inside the input equals ref::max_pool2d", T, float, int8_t) {
  ctnn_test::rng r(99);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    kernels::pool_geometry g{};
    g.c = r.range(1, 4);
    g.in_h = r.range(1, 12);
    g.in_w = r.range(1, 12);
    g.kh = r.range(1, 4);
    g.kw = r.range(1, 4);
    g.sh = r.range(1, 3);
    g.sw = r.range(1, 3);
    g.ceil_mode = r.range(0, 1) == 1;
    if (!g.valid()) continue;
    const int64_t oh = g.out_h(), ow = g.out_w();
    const bool inside = rt::fast::pool_windows_inside(g, oh, ow);
    // ceil_mode's extra window sticks out of the input unless the sizes divide
    if (!inside) continue;
    std::vector<T> in(static_cast<size_t>(g.in_elems())), want(static_cast<size_t>(g.c * oh * ow)),
        got(want.size());
    for (T& v : in) v = static_cast<T>(r.range(-128, 127));
    if constexpr (std::is_same_v<T, float>)
      if (trial % 7 == 0) in[0] = std::nanf("");  // the first element's NaN: same order as ref
    REQUIRE(ref::max_pool2d<T>(g, in.data(), want.data()) == status::ok);
    rt::fast::max_pool_inside<T>(g, oh, ow, in.data(), got.data());
    CHECK(std::memcmp(want.data(), got.data(), want.size() * sizeof(T)) == 0);
    ++checked;
  }
  CHECK(checked > 100);
  kernels::pool_geometry padded{};
  padded.in_h = padded.in_w = 4;
  padded.kh = padded.kw = 3;
  padded.pt = padded.pb = padded.pl = padded.pr = 1;
  CHECK_FALSE(rt::fast::pool_windows_inside(padded, padded.out_h(), padded.out_w()));
}

TEST_CASE("fast int8 ReLU four bytes at a time: every byte against every zero point, every lane and offset") {
  // the word step on its own: each byte value in each lane, with random neighbours
  ctnn_test::rng r(5);
  for (int zp = -128; zp < 128; ++zp) {
    const uint32_t zp4 = static_cast<uint32_t>(static_cast<uint8_t>(zp)) * 0x01010101u;
    for (int v = -128; v < 128; ++v)
      for (int lane = 0; lane < 4; ++lane) {
        uint8_t bytes[4];
        for (auto& b : bytes) b = static_cast<uint8_t>(r.range(0, 255));
        bytes[lane] = static_cast<uint8_t>(v);
        uint32_t w;
        std::memcpy(&w, bytes, 4);
        const uint32_t m = rt::fast::max_s8x4(w, zp4);
        uint8_t out[4];
        std::memcpy(out, &m, 4);
        for (int k = 0; k < 4; ++k) {
          const auto x = static_cast<int8_t>(bytes[k]);
          const int8_t want = x < zp ? static_cast<int8_t>(zp) : x;
          if (static_cast<int8_t>(out[k]) != want) FAIL("zp " << zp << " value " << int(x) << " lane " << k);
        }
      }
  }
  // the whole routine: aligned, misaligned and in-place buffers with tails
  alignas(16) int8_t src[300], dst[300];
  for (int i = 0; i < 300; ++i) src[i] = static_cast<int8_t>(r.range(-128, 127));
  for (int zp : {-128, -1, 0, 1, 100, 127})
    for (size_t off : {size_t{0}, size_t{1}, size_t{4}})
      for (size_t n : {size_t{0}, size_t{3}, size_t{4}, size_t{7}, size_t{256}, size_t{291}}) {
        std::memset(dst, 0x11, sizeof dst);
        rt::fast::relu_clamp_s8(n, src + off, dst + off, zp);
        for (size_t i = 0; i < sizeof dst; ++i) {
          const bool inside = i >= off && i < off + n;
          const int8_t want = inside ? (src[i] < zp ? static_cast<int8_t>(zp) : src[i]) : int8_t{0x11};
          CHECK(dst[i] == want);
        }
        int8_t inplace[300];
        std::memcpy(inplace, src, sizeof inplace);
        rt::fast::relu_clamp_s8(n, inplace + off, inplace + off, zp);
        for (size_t i = off; i < off + n; ++i) CHECK(inplace[i] == (src[i] < zp ? static_cast<int8_t>(zp) : src[i]));
      }
}

// ---- int8 quantization that cannot be valid: refused where it is made, never run as {0, 0} --------

/// x + relu(conv(x)): the add's input 0 is the body, input 1 the shortcut (the network's input).
using net_residual = network<"Residual", shape{4, 6, 6}, residual<sequential<conv2d<4, 4, 3, 1, 1>, relu>>>;

TEST_CASE("a tensor quantization that cannot be valid stops the run before any leaf, naming the tensor") {
  using net = net_residual;
  constexpr auto& layout = rt::param_layout_of<net, dtype::int8>;
  constexpr auto& plan = memory::plan_of<net, dtype::int8>;
  constexpr int32_t add = net::leaf_count - 1;
  static_assert(net::layer(add).kind == op::add);
  const int32_t body = net::layer(add).inputs[0];
  REQUIRE(body == add);  // the relu's output, written by leaf add - 1
  aligned_bytes arena(plan.arena_bytes), params(layout.total_bytes);
  int calls = 0;
  auto count = [](void* u, int32_t, const void*, size_t) { ++*static_cast<int*>(u); };
  struct bad {
    float scale;
    int32_t zero_point;
  };
  const float inf = std::numeric_limits<float>::infinity();
  for (const bad b : {bad{0.0f, 0}, bad{-1.0f / 32.0f, 0}, bad{std::nanf(""), 0}, bad{inf, 0}, bad{1.0f / 32.0f, 128},
                      bad{1.0f / 32.0f, -129}})
    for (const int32_t t : {0, body, net::output_tensor})
      for (const auto be : {rt::backend::reference, rt::backend::optimized}) {
        CAPTURE(b.scale);
        CAPTURE(b.zero_point);
        CAPTURE(t);
        REQUIRE(rt::fill_params<net, dtype::int8>(params.data, params.size, 7));
        reinterpret_cast<float*>(params.data + layout.quant_scale)[t] = b.scale;
        reinterpret_cast<int32_t*>(params.data + layout.quant_zp)[t] = b.zero_point;
        calls = 0;
        const rt::run_status s = rt::run<net, int8_t>(arena.data, arena.size, params.data, params.size, be, count, &calls);
        CHECK(s.code == rt::fault::bad_tensor_quant);
        CHECK(s.kernel == status::bad_quant_param);
        CHECK(s.leaf == t - 1);  // the leaf that writes the tensor; -1: the network's input
        CHECK(s.detail == static_cast<uint32_t>(t));
        CHECK(calls == 0);
      }
  // the control: the blob as filled runs
  REQUIRE(rt::fill_params<net, dtype::int8>(params.data, params.size, 7));
  CHECK(rt::run<net, int8_t>(arena.data, arena.size, params.data, params.size, rt::backend::reference).ok());
}

TEST_CASE("an int8 add whose rescaling multiplier cannot be represented stops at the add, not run with {0, 0}") {
  // Valid scales, but the body's is 2^-36 of the shortcut's: its rescaling multiplier
  // a_scale / (2 * b_scale) lies below 2^-32, where quantize_multiplier flushes to {0, 0}. The add
  // ran "ok" with the body dropped from the sum; now the add's parameters are refused where they
  // are made.
  using net = net_residual;
  constexpr auto& layout = rt::param_layout_of<net, dtype::int8>;
  constexpr auto& plan = memory::plan_of<net, dtype::int8>;
  constexpr int32_t add = net::leaf_count - 1;
  aligned_bytes arena(plan.arena_bytes), params(layout.total_bytes);
  REQUIRE(rt::fill_params<net, dtype::int8>(params.data, params.size, 7));
  float* scale = reinterpret_cast<float*>(params.data + layout.quant_scale);
  REQUIRE(scale[0] == 1.0f / 32.0f);
  scale[net::layer(add).inputs[0]] = std::ldexp(1.0f / 32.0f, -36);
  for (const auto be : {rt::backend::reference, rt::backend::optimized}) {
    const rt::run_status s = rt::run<net, int8_t>(arena.data, arena.size, params.data, params.size, be);
    CHECK(s.code == rt::fault::kernel);
    CHECK(s.kernel == status::bad_quant_param);
    CHECK(s.leaf == add);
  }
  // 2^-30 of the shortcut's scale is still representable: the add runs
  scale[net::layer(add).inputs[0]] = std::ldexp(1.0f / 32.0f, -30);
  CHECK(rt::run<net, int8_t>(arena.data, arena.size, params.data, params.size, rt::backend::optimized).ok());
}
