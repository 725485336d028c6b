// The packed-weight region (runtime/packed.hpp): its compile-time layout, packing at the first run,
// runs that read it bit-exact with the reference backend, and when it is packed again.
#include <doctest/doctest.h>

#include <cstdint>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "ctnn/host/run_buffers.hpp"
#include "ctnn/nn/layers.hpp"
#include "ctnn/runtime/runtime.hpp"
#include "ctnn/zoo/lenet5.hpp"

using namespace ctnn;
namespace rt = ctnn::runtime;
using ctnn::host::aligned_bytes;
using recorder = ctnn::host::layer_recorder;

namespace {

// conv shapes whose GEMM has edges in M, N and K, a grouped conv, a pointwise one (no panels),
// a depthwise one (packs nothing), a residual block, and a linear layer (packs nothing)
using net_packed = network<"Packed", shape{5, 11, 9},
    conv2d<5, 18, 3, 1, 1>, relu,
    conv2d_layer<conv2d_config{18, 6, {3, 2}, {2, 1}, {1, 0, 2, 1}, {1, 1}, 2, true}>,
    depthwise_conv2d<6, 3, 1, 1, true>,
    conv2d<6, 33, 1>,
    residual<sequential<conv2d<33, 33, 3, 1, 1>, relu, conv2d<33, 33, 1>>>, relu,
    global_avg_pool2d, flatten, linear<33, 10>>;

template <Network Net>
constexpr bool layout_is_sane() {
  constexpr auto& l = rt::packed_layout_of<Net, dtype::int8>;
  uint64_t end = 0;
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    const auto& e = l.leaves[static_cast<size_t>(i)];
    if (e.bytes == 0) continue;
    if (e.offset % rt::packed_alignment != 0 || e.offset < end) return false;
    end = e.offset + e.bytes;
  }
  return end <= l.total_bytes;
}
static_assert(layout_is_sane<net_packed>());
static_assert(layout_is_sane<zoo::lenet5>());
// depthwise and linear leaves never pack; float convs where the implicit im2col runs
static_assert(rt::packed_layout_of<net_packed, dtype::int8>.leaves[3].bytes == 0);  // depthwise
static_assert(rt::packed_layout_of<net_packed, dtype::float32>.leaves[3].bytes == 0);
static_assert(rt::packed_layout_of<net_packed, dtype::float32>.leaves[4].bytes == 0);  // pointwise: GEMM on the input
#if !CTNN_KERNELS_SCALAR
// conv2d<5, 18, 3, 1, 1> float: M = 18 rounded up to MR, all of K = 45, in floats
static_assert(rt::packed_layout_of<net_packed, dtype::float32>.leaves[0].bytes ==
              kernels::conv2d_f32_packed_bytes(rt::conv_of(net_packed::layer(0))));
static_assert(rt::packed_layout_of<net_packed, dtype::float32>.leaves[0].bytes >= 18 * 45 * 4);
#else
static_assert(rt::packed_layout_of<net_packed, dtype::float32>.total_bytes == 0);
#endif
#if !CTNN_KERNELS_SCALAR
// conv2d<5, 18, 3>: M = 18 -> 24 rows (MR 8 AVX-512; 4 otherwise: 20), K = 45 -> 48
static_assert(rt::packed_layout_of<net_packed, dtype::int8>.leaves[0].bytes ==
              kernels::conv2d_s8_packed_bytes(rt::conv_of(net_packed::layer(0))));
static_assert(rt::packed_layout_of<net_packed, dtype::int8>.leaves[0].bytes > 18 * 45);
#else
static_assert(rt::packed_layout_of<net_packed, dtype::int8>.total_bytes == 0);  // no GEMM on RISC-V
#endif

template <Network Net>
struct setup {
  static constexpr auto& plan = memory::plan_of<Net, dtype::int8>;
  static constexpr auto& layout = rt::param_layout_of<Net, dtype::int8>;
  aligned_bytes arena{static_cast<size_t>(plan.arena_bytes)};
  std::vector<int8_t> input = std::vector<int8_t>(static_cast<size_t>(Net::input_shape.elems()));
  explicit setup(uint64_t seed) {
    rt::fill_input<int8_t>(input.data(), Net::input_shape.elems(), seed, rt::default_tensor_quant<Net>(0));
  }
  void place() {
    std::memset(arena.data, 0x5A, arena.size);
    std::memcpy(arena.data + plan.offset_of(0), input.data(), input.size());
  }
  recorder reference(const aligned_bytes& params) {
    recorder rec;
    rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
    place();
    REQUIRE(rt::run<Net, int8_t>(arena.data, arena.size, params.data, params.size, rt::backend::reference,
                                 &recorder::record, &rec)
                .ok());
    return rec;
  }
  recorder packed_run(const aligned_bytes& params, rt::packed_weights<Net, int8_t>& pk) {
    recorder rec;
    rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
    place();
    REQUIRE(rt::run<Net, int8_t, rt::backend::optimized>(arena.data, arena.size, params.data, params.size, pk,
                                                         &recorder::record, &rec)
                .ok());
    return rec;
  }
};

template <Network Net>
aligned_bytes filled(uint64_t seed) {
  aligned_bytes p(static_cast<size_t>(rt::param_layout_of<Net, dtype::int8>.total_bytes));
  REQUIRE(rt::fill_params<Net, dtype::int8>(p.data, p.size, seed));
  return p;
}

}  // namespace

TEST_CASE_TEMPLATE("int8 runs with packed weights equal the reference backend, leaf by leaf", Net, net_packed,
                   zoo::lenet5) {
  setup<Net> s(3);
  const aligned_bytes params = filled<Net>(5);
  const recorder want = s.reference(params);
  auto pk = std::make_unique<rt::packed_weights<Net, int8_t>>();
  CHECK_FALSE(pk->packed_from(params.data));
  const recorder first = s.packed_run(params, *pk);  // packs
  CHECK(pk->packed_from(params.data));
  const recorder second = s.packed_run(params, *pk);  // reads the packing
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    INFO("leaf " << i);
    CHECK(first.outputs[static_cast<size_t>(i)] == want.outputs[static_cast<size_t>(i)]);
    CHECK(second.outputs[static_cast<size_t>(i)] == want.outputs[static_cast<size_t>(i)]);
  }
  // another blob: packed again from it
  const aligned_bytes other = filled<Net>(9);
  const recorder want_other = s.reference(other);
  CHECK(s.packed_run(other, *pk).outputs == want_other.outputs);
  CHECK(pk->packed_from(other.data));
  CHECK_FALSE(pk->packed_from(params.data));
}

TEST_CASE("packed weights are what the conv reads: changed in place they stay until invalidate()") {
  using Net = net_packed;
  setup<Net> s(4);
  aligned_bytes params = filled<Net>(6);
  const recorder old_want = s.reference(params);
  auto pk = std::make_unique<rt::packed_weights<Net, int8_t>>();
  REQUIRE(pk->pack(params.data) == kernels::status::ok);
  // new weights (only: bias and requantization stay) at the same address
  const aligned_bytes fresh = filled<Net>(7);
  for (const auto& l : rt::param_layout_of<Net, dtype::int8>.leaves)
    std::memcpy(params.data + l.w, fresh.data + l.w, static_cast<size_t>(l.w_bytes));
  const recorder new_want = s.reference(params);
  REQUIRE(new_want.outputs.back() != old_want.outputs.back());
  const recorder stale = s.packed_run(params, *pk);
#if !CTNN_KERNELS_SCALAR
  // the first conv runs on the packed (old) weights: its output is the old one
  CHECK(stale.outputs[0] == old_want.outputs[0]);
  CHECK(stale.outputs[0] != new_want.outputs[0]);
#else
  CHECK(stale.outputs == new_want.outputs);  // nothing packed: the blob is read
#endif
  pk->invalidate();
  CHECK(s.packed_run(params, *pk).outputs == new_want.outputs);
}

TEST_CASE_TEMPLATE("float runs with packed weights equal the unpacked runs bit for bit", Net, net_packed, zoo::lenet5) {
  // the implicit-im2col GEMM reads the packed panels in the order it reads the weights in place
  constexpr auto& plan = memory::plan_of<Net, dtype::float32>;
  aligned_bytes params(static_cast<size_t>(rt::param_layout_of<Net, dtype::float32>.total_bytes));
  REQUIRE(rt::fill_params<Net, dtype::float32>(params.data, params.size, 5));
  aligned_bytes arena{static_cast<size_t>(plan.arena_bytes)};
  std::vector<float> input(static_cast<size_t>(Net::input_shape.elems()));
  rt::fill_input<float>(input.data(), Net::input_shape.elems(), 3, {});
  const auto run = [&](rt::packed_weights<Net, float>* pk, rt::backend be) {
    recorder rec;
    rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
    std::memcpy(arena.data + plan.offset_of(0), input.data(), input.size() * sizeof(float));
    if (pk != nullptr)
      REQUIRE(rt::run<Net, float>(arena.data, arena.size, params.data, params.size, *pk, be, &recorder::record, &rec)
                  .ok());
    else
      REQUIRE(rt::run<Net, float>(arena.data, arena.size, params.data, params.size, be, &recorder::record, &rec).ok());
    return rec;
  };
  auto pk = std::make_unique<rt::packed_weights<Net, float>>();
  const recorder plain = run(nullptr, rt::backend::optimized);
  const recorder first = run(pk.get(), rt::backend::optimized);  // packs
  CHECK(pk->packed_from(params.data));
  const recorder second = run(pk.get(), rt::backend::optimized);
  const recorder ref = run(nullptr, rt::backend::reference);
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    INFO("leaf " << i);
    const auto& p = plain.outputs[static_cast<size_t>(i)];
    CHECK(first.outputs[static_cast<size_t>(i)] == p);
    CHECK(second.outputs[static_cast<size_t>(i)] == p);
    // and within float tolerance of the reference kernels
    std::vector<float> a(p.size() / 4), b(a.size());
    std::memcpy(a.data(), p.data(), p.size());
    std::memcpy(b.data(), ref.outputs[static_cast<size_t>(i)].data(), p.size());
    float scale = 1.0f, diff = 0.0f;
    for (size_t j = 0; j < a.size(); ++j) {
      scale = std::max(scale, std::fabs(b[j]));
      diff = std::max(diff, std::fabs(a[j] - b[j]));
    }
    CHECK(diff <= 1e-4f * scale);
  }
}

namespace {
// float32 CPU chains (runtime/fold.hpp): conv -> BN -> ReLU6 through the im2col/slab path (stride
// 2, no bias), depthwise -> BN -> ReLU, pointwise -> BN (the residual add reads it), a biased
// 3x3 conv -> BN -> Clamp of 64 channels on 90 pixels (the pixel-row GEMM, its packing made from
// the folded weights), a conv
// whose output is read twice (by a BN and by the residual add: no chain), and conv -> ReLU6 (no
// BN), the network's output, last
using net_chains = network<"Chains", shape{3, 20, 18},
    conv2d<3, 16, 3, 2, 1, 1, 1, false>, batch_norm2d<16>, relu6,
    depthwise_conv2d<16, 3, 1, 1>, batch_norm2d<16>, relu,
    residual<sequential<conv2d<16, 24, 1, 1, 0, 1, 1, false>, batch_norm2d<24>, relu,
                        conv2d<24, 16, 1, 1, 0, 1, 1, false>, batch_norm2d<16>>>,
    conv2d<16, 64, 3, 1, 1>, batch_norm2d<64>, clamp<-1, 1>,
    conv2d<64, 20, 3, 1, 1>, residual<sequential<batch_norm2d<20>, relu>>,
    conv2d<20, 8, 1>, relu6>;
constexpr auto& chains_of = rt::cpu_chain_of<net_chains>;
static_assert(chains_of.at[0].count == 2 && chains_of.at[0].fold == 1 && chains_of.at[0].clamp == 2);
static_assert(chains_of.at[3].count == 2 && chains_of.at[3].fold == 1 && chains_of.at[3].clamp == 2);
static_assert(chains_of.at[6].count == 2 && chains_of.at[9].count == 1 && chains_of.at[9].fold == 1);
static_assert(chains_of.at[12].count == 2 && chains_of.at[12].clamp == 2);
static_assert(chains_of.rows[12].geometry.act == fused_act::clamp && chains_of.rows[12].geometry.act_lo == -1.0f &&
              chains_of.rows[12].geometry.act_hi == 1.0f);
static_assert(chains_of.rows[0].geometry.act == fused_act::relu6 && chains_of.rows[0].output == 3);
static_assert(net_chains::layer(18).kind == op::add && chains_of.at[15].count == 0);
static_assert(chains_of.at[19].count == 1 && chains_of.at[19].clamp == 1 && chains_of.at[19].fold == 0);
static_assert(rt::packed_layout_of<net_chains, dtype::float32>.leaves[3].folded.w_bytes == 16 * 9 * 4);
static_assert(rt::packed_layout_of<net_chains, dtype::float32>.leaves[19].folded.w_bytes == 0);
static_assert(rt::packed_layout_of<net_chains, dtype::int8>.leaves[3].folded.w_bytes == 0);  // float32 only
#if !CTNN_KERNELS_SCALAR
static_assert(kernels::detail::conv_rows_applies(rt::conv_of(net_chains::layer(12))));
#endif
// Winograd's packing made from folded weights: 32 channels, 6 x 6 tiles of 4 x 4
using net_chains_wino = network<"ChainsWinograd", shape{32, 24, 24}, conv2d<32, 32, 3, 1, 1>, batch_norm2d<32>, relu,
                                global_avg_pool2d>;
static_assert(rt::cpu_chain_of<net_chains_wino>.at[0].count == 2);
#if !CTNN_KERNELS_SCALAR
static_assert(kernels::detail::winograd_f32_applies(rt::conv_of(net_chains_wino::layer(0))));
#endif

float max_abs(const float* a, size_t n) {
  float m = 1.0f;
  for (size_t i = 0; i < n; ++i) m = std::max(m, std::fabs(a[i]));
  return m;
}
}  // namespace

TEST_CASE_TEMPLATE("float CPU chains: conv, batch norm and clamp as one convolution, within float tolerance", Net,
                   net_chains, net_chains_wino) {
  constexpr auto& plan = memory::plan_of<Net, dtype::float32>;
  const size_t n_out = static_cast<size_t>(Net::output_shape.elems());
  aligned_bytes params(static_cast<size_t>(rt::param_layout_of<Net, dtype::float32>.total_bytes));
  REQUIRE(rt::fill_params<Net, dtype::float32>(params.data, params.size, 9));
  aligned_bytes arena{static_cast<size_t>(plan.arena_bytes)};
  std::vector<float> input(static_cast<size_t>(Net::input_shape.elems()));
  rt::fill_input<float>(input.data(), Net::input_shape.elems(), 4, {});
  auto pk = std::make_unique<rt::packed_weights<Net, float>>();
  const auto run = [&](rt::packed_weights<Net, float>* p, rt::backend be) {
    std::memset(arena.data, 0x5A, arena.size);
    std::memcpy(arena.data + plan.offset_of(0), input.data(), input.size() * sizeof(float));
    const rt::run_status s = p != nullptr ? rt::run<Net, float>(arena.data, arena.size, params.data, params.size, *p, be)
                                          : rt::run<Net, float>(arena.data, arena.size, params.data, params.size, be);
    REQUIRE(s.ok());
    const auto* out = reinterpret_cast<const float*>(arena.data + plan.offset_of(Net::output_tensor));
    return std::vector<float>(out, out + n_out);
  };
  const std::vector<float> ref = run(nullptr, rt::backend::reference);
  const std::vector<float> plain = run(nullptr, rt::backend::optimized);
  const std::vector<float> chained = run(pk.get(), rt::backend::optimized);
  const std::vector<float> again = run(pk.get(), rt::backend::optimized);  // packed once, read again
  CHECK(chained == again);
  CHECK(chained != plain);  // the chains ran: the scale multiplies weights, not sums
  const float scale = max_abs(ref.data(), n_out);
  float d_chain = 0.0f, d_plain = 0.0f;
  for (size_t j = 0; j < n_out; ++j) {
    d_chain = std::max(d_chain, std::fabs(chained[j] - ref[j]));
    d_plain = std::max(d_plain, std::fabs(plain[j] - ref[j]));
  }
  INFO("chained " << d_chain << ", leaves one by one " << d_plain << ", scale " << scale);
  CHECK(d_chain <= 1e-4f * scale);
  // the reference backend with the packed region reads the blob: the reference's result
  CHECK(run(pk.get(), rt::backend::reference) == ref);
}

TEST_CASE_TEMPLATE("float CPU chains: with a layer callback every leaf runs alone, bit for bit the unpacked run", Net,
                   net_chains, net_chains_wino) {
  // the callback sees each leaf's output; a convolution whose packing was made from folded weights
  // then reads its raw weights (a mutant that kept the folded packing fails the pixel-row and
  // Winograd leaves)
  constexpr auto& plan = memory::plan_of<Net, dtype::float32>;
  aligned_bytes params(static_cast<size_t>(rt::param_layout_of<Net, dtype::float32>.total_bytes));
  REQUIRE(rt::fill_params<Net, dtype::float32>(params.data, params.size, 10));
  aligned_bytes arena{static_cast<size_t>(plan.arena_bytes)};
  std::vector<float> input(static_cast<size_t>(Net::input_shape.elems()));
  rt::fill_input<float>(input.data(), Net::input_shape.elems(), 6, {});
  auto pk = std::make_unique<rt::packed_weights<Net, float>>();
  const auto run = [&](rt::packed_weights<Net, float>* p) {
    recorder rec;
    rec.outputs.assign(static_cast<size_t>(Net::leaf_count), {});
    std::memcpy(arena.data + plan.offset_of(0), input.data(), input.size() * sizeof(float));
    if (p != nullptr)
      REQUIRE(rt::run<Net, float>(arena.data, arena.size, params.data, params.size, *p, rt::backend::optimized,
                                  &recorder::record, &rec)
                  .ok());
    else
      REQUIRE(rt::run<Net, float>(arena.data, arena.size, params.data, params.size, rt::backend::optimized,
                                  &recorder::record, &rec)
                  .ok());
    return rec;
  };
  const recorder plain = run(nullptr);
  const recorder packed = run(pk.get());
  for (int32_t i = 0; i < Net::leaf_count; ++i) {
    INFO("leaf " << i);
    CHECK(packed.outputs[static_cast<size_t>(i)] == plain.outputs[static_cast<size_t>(i)]);
  }
}

// int8 clamp chains (runtime/fold.hpp): net_chains' batch norms followed by their only reader, a
// ReLU / ReLU6 / Clamp: leaves 1 -> 2, 4 -> 5, 7 -> 8 and 13 -> 14; 16 -> 17 (a residual branch's
// batch norm and ReLU) too where the plan keeps the ReLU's tensor apart from the BN's input;
// none with the scalar kernels (the rv32 build's)
#if !CTNN_KERNELS_SCALAR
static_assert(rt::s8_clamp_chain_of<net_chains>.at[1] && rt::s8_clamp_chain_of<net_chains>.at[4] &&
              rt::s8_clamp_chain_of<net_chains>.at[7] && rt::s8_clamp_chain_of<net_chains>.at[13]);
static_assert(!rt::s8_clamp_chain_of<net_chains>.at[0] && !rt::s8_clamp_chain_of<net_chains>.at[10]);  // conv; BN, add
#else
static_assert(!rt::s8_clamp_chain_of<net_chains>.any);
#endif

TEST_CASE("int8 clamp chains: a batch norm with the clamp after it as its output clamp, bit for bit the reference") {
  // without a callback the chained ReLU / ReLU6 / Clamp leaves run no pass of their own; the output
  // (and every tensor read later) equals the reference backend's (a mutant whose chain clamps one
  // step narrower at the top fails)
  using Net = net_chains;
  setup<Net> s(4);
  const aligned_bytes params = filled<Net>(12);
  const recorder want = s.reference(params);
  auto pk = std::make_unique<rt::packed_weights<Net, int8_t>>();
  for (int round = 0; round < 2; ++round) {  // packs, then reads the packing
    s.place();
    REQUIRE(rt::run<Net, int8_t, rt::backend::optimized>(s.arena.data, s.arena.size, params.data, params.size, *pk).ok());
    const uint8_t* y = s.arena.data + setup<Net>::plan.offset_of(Net::output_tensor);
    CHECK(std::vector<uint8_t>(y, y + Net::output_shape.elems()) == want.outputs.back());
  }
  // the chains' clamps bite: some ReLU6 / Clamp output differs from its batch norm's input range
  int clamped = 0;
  for (const int32_t i : {1, 4, 7, 13}) {
    const auto& bn = want.outputs[static_cast<size_t>(i)];
    const auto& cl = want.outputs[static_cast<size_t>(i + 1)];
    for (size_t k = 0; k < bn.size(); ++k) clamped += bn[k] != cl[k] ? 1 : 0;
  }
  CHECK(clamped > 0);
}
