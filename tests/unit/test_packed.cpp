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
