// The plan checker: executes every plan on the host with canary-filled memory, each layer reading
// its inputs and writing its output at the planned offsets, and proves that no tensor is
// overwritten while still live, that scratch never overlaps a live tensor, and arena >= bound.
// Runs on the zoo and on randomized graphs (chains, residuals, concats, SE, repeated blocks).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ctnn/host/plan.hpp"
#include "ctnn/memory/planner.hpp"
#include "ctnn/zoo/zoo.hpp"

using namespace ctnn;

namespace {

constexpr uint64_t guard = 64;
constexpr uint8_t canary = 0xC5;
constexpr uint8_t scratch_fill = 0xEE;

/// A constant plan seen through pointers, so that one compiled checker serves every network
/// (a template per network made this file the slowest of the sanitizer builds: 270 s at -O1).
struct plan_ref {
  const memory::plan_summary& sum;
  const memory::tensor_plan* tensors;
  const memory::buffer_plan* buffers;
  const uint64_t* scratch_bytes;
  const uint64_t* scratch_offset;
  const int32_t* panel_rows;
  const int32_t* scratch_buffer;

  [[nodiscard]] uint64_t offset_of(int32_t t) const { return tensors[static_cast<size_t>(t)].offset; }
  [[nodiscard]] bool shares_input_buffer(int32_t leaf, int32_t input_tensor) const {
    return tensors[static_cast<size_t>(leaf + 1)].buffer == tensors[static_cast<size_t>(input_tensor)].buffer;
  }
};

template <size_t Tensors, size_t Leaves>
plan_ref ref_of(const memory::arena_plan<Tensors, Leaves>& p) {
  return {p, p.tensors.data(), p.buffers.data(), p.scratch_bytes.data(), p.scratch_offset.data(), p.panel_rows.data(),
          p.scratch_buffer.data()};
}

/// Executes plan p of the network v with elements of elem_bytes; returns the number of checked bytes.
uint64_t run_plan(const rows_view& v, const plan_ref& p, uint64_t elem_bytes) {
  CHECK(p.sum.arena_bytes >= p.sum.lower_bound_bytes);
  CHECK(p.sum.arena_bytes <= p.sum.baseline_bytes);
  std::vector<uint8_t> mem(p.sum.arena_bytes + 2 * guard, canary);
  uint8_t* arena = mem.data() + guard;
  uint64_t checked = 0;

  // The byte a tensor holds at position i: its own pattern, or for an alias its input's, or for a
  // concat the byte of the input whose channel slice contains i.
  auto content = [&v, &p](auto&& self, int32_t t, uint64_t i) -> uint8_t {
    if (t > 0) {
      const row& r = v.layer(t - 1);
      if (r.reuse.alias) return self(self, r.inputs[0], i);
      if (r.kind == op::concat) {
        uint64_t start = 0;
        for (int32_t k = 0; k < r.n_inputs; ++k) {
          const uint64_t bytes = p.tensors[static_cast<size_t>(r.inputs[k])].bytes;
          if (i < start + bytes) return self(self, r.inputs[k], i - start);
          start += bytes;
        }
      }
    }
    return static_cast<uint8_t>(static_cast<uint64_t>(t) * 167u + i * 31u + (i >> 8) * 7u + 1u);
  };
  auto write = [&](int32_t t, uint64_t at, uint64_t bytes, uint64_t from) {
    for (uint64_t i = 0; i < bytes; ++i) arena[at + i] = content(content, t, from + i);
  };
  auto verify = [&](int32_t t, int32_t step) {
    const memory::tensor_plan& tp = p.tensors[static_cast<size_t>(t)];
    REQUIRE(tp.offset + tp.bytes <= p.sum.arena_bytes);
    // Every 8th byte and the last is exact here: every buffer, slice and scratch starts at a
    // multiple of the alignment (>= 16), so a write that overlaps this tensor either covers its first
    // byte or starts at a multiple of 8 bytes into it. Sampling keeps the memcheck run short.
    uint64_t bad = 0;
    for (uint64_t i = 0; i < tp.bytes; i += (i + 8 < tp.bytes ? 8 : (tp.bytes - i > 1 ? tp.bytes - 1 - i : 1)))
      bad += arena[tp.offset + i] != content(content, t, i) ? 1 : 0;
    CHECK_MESSAGE(bad == 0, "tensor ", t, " read at step ", step, " was overwritten (", bad, " bytes)");
    checked += tp.bytes;
  };
  auto overlaps = [](uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; };

  write(0, p.offset_of(0), p.tensors[0].bytes, 0);
  for (int32_t i = 0; i < v.leaf_count; ++i) {
    const row& r = v.layer(i);
    const int32_t t = i + 1;
    const memory::tensor_plan& out = p.tensors[static_cast<size_t>(t)];
    for (int32_t k = 0; k < r.n_inputs; ++k) verify(r.inputs[k], i);
    const uint64_t sb = p.scratch_bytes[static_cast<size_t>(i)];
    if (sb > 0) {
      const uint64_t so = p.scratch_offset[static_cast<size_t>(i)];
      REQUIRE(so + sb <= p.sum.arena_bytes);
      for (int32_t k = 0; k < r.n_inputs; ++k)
        CHECK(!overlaps(so, sb, p.offset_of(r.inputs[k]), p.tensors[static_cast<size_t>(r.inputs[k])].bytes));
      CHECK(!overlaps(so, sb, out.offset, out.bytes));
      std::memset(arena + so, scratch_fill, sb);
      for (int32_t k = 0; k < r.n_inputs; ++k) verify(r.inputs[k], i);
      CHECK(r.scratch.elems(p.panel_rows[static_cast<size_t>(i)]) * elem_bytes == sb);
    }
    if (r.reuse.alias) {
      CHECK(out.offset == p.offset_of(r.inputs[0]));
    } else if (r.kind == op::concat) {
      uint64_t start = 0;
      for (int32_t k = 0; k < r.n_inputs; ++k) {
        const memory::tensor_plan& in = p.tensors[static_cast<size_t>(r.inputs[k])];
        if (in.offset != out.offset + start) {  // not embedded: the concat copies it
          CHECK(!overlaps(in.offset, in.bytes, out.offset, out.bytes));
          write(t, out.offset + start, in.bytes, start);
        }
        start += in.bytes;
      }
    } else {
      // an in-place layer may only reuse an input that dies here
      for (int32_t k = 0; k < r.n_inputs; ++k) {
        const memory::tensor_plan& in = p.tensors[static_cast<size_t>(r.inputs[k])];
        if (overlaps(in.offset, in.bytes, out.offset, out.bytes)) {
          CHECK(p.shares_input_buffer(i, r.inputs[k]));
          CHECK(in.last == i);
          CHECK(in.offset == out.offset);
        }
      }
      write(t, out.offset, out.bytes, 0);
    }
  }
  verify(v.output_tensor, v.leaf_count);
  for (uint64_t g = 0; g < guard; ++g) {
    CHECK(mem[g] == canary);
    CHECK(mem[guard + p.sum.arena_bytes + g] == canary);
  }
  // every root buffer is aligned and inside the arena
  for (int32_t b = 0; b < p.sum.n_buffers; ++b) {
    const memory::buffer_plan& bb = p.buffers[static_cast<size_t>(b)];
    if (bb.parent < 0) CHECK(bb.offset % p.sum.alignment == 0);
    CHECK(bb.offset + bb.bytes <= p.sum.arena_bytes);
  }
  return checked;
}

/// The checker on the constant plan of Net in dtype T.
template <class Net, dtype T>
uint64_t run_plan() {
  return run_plan(Net::view(), ref_of(memory::plan_of<Net, T>), size_of(T));
}

// ---- randomized graphs, generated as types from a seed ---------------------
constexpr uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template <uint64_t Seed, int64_t C, int64_t H>
struct random_node {
  static constexpr uint64_t r = mix(Seed);
  static constexpr int kind = static_cast<int>(r % 12);
  static constexpr int64_t c2 = 2 + static_cast<int64_t>((r >> 8) % 7);
  static constexpr int64_t c3 = 1 + static_cast<int64_t>((r >> 16) % 5);
  static constexpr int64_t half = (H - 1) / 2 + 1;
  // kind: 0 conv3x3, 1 conv1x1+bn+relu, 2 residual, 3 strided residual with projection,
  //       4 inception-like concat, 5 repeated residual blocks, 6 max pool, 7 SE scale, 8 dense concat,
  //       9 pre-activation residual (an in-place candidate whose input lives on), 10 concat of an
  //       activation and a conv of the same input, 11 ShuffleNet unit (channel split, shuffle)
  using type = conditional_t<kind == 0, conv2d<C, c2, 3, 1, 1>,
               conditional_t<kind == 1, sequential<conv2d<C, c2, 1>, batch_norm2d<c2>, relu>,
               conditional_t<kind == 2, residual<sequential<conv2d<C, C, 3, 1, 1>, relu, conv2d<C, C, 1>>>,
               conditional_t<kind == 3 && H >= 4,
                             block<"Down", residual<sequential<conv2d<C, c2, 3, 2, 1>, batch_norm2d<c2>>,
                                                    sequential<conv2d<C, c2, 1, 2>>>, relu>,
               conditional_t<kind == 4,
                             concat<conv2d<C, c2, 1>, sequential<conv2d<C, c3, 3, 1, 1>, relu>,
                                    sequential<max_pool2d<3, 1, 1>, conv2d<C, c3, 1>>>,
               conditional_t<kind == 5, repeat<2, residual<sequential<conv2d<C, C, 3, 1, 1>, batch_norm2d<C>, relu>>>,
               conditional_t<kind == 6 && H >= 2, max_pool2d<2>,
               conditional_t<kind == 7, scale<sequential<global_avg_pool2d, conv2d<C, C, 1>, sigmoid>>,
               conditional_t<kind == 8, concat<identity, sequential<conv2d<C, c3, 3, 1, 1>, relu>>,
               conditional_t<kind == 9, residual<sequential<batch_norm2d<C>, relu, conv2d<C, C, 3, 1, 1>>>,
               conditional_t<kind == 10, concat<relu6, conv2d<C, c3, 1>>,
               conditional_t<kind == 11 && C % 2 == 0,
                             block<"Shuffle", concat<channel_slice<0, C / 2>,
                                                     sequential<channel_slice<C / 2, C>, conv2d<C - C / 2, C - C / 2, 3, 1, 1>, gelu>>,
                                   channel_shuffle<2>>,
                             relu>>>>>>>>>>>>;
  static constexpr int64_t out_c = kind == 0 || kind == 1 ? c2
                                   : kind == 3 && H >= 4  ? c2
                                   : kind == 4            ? c2 + 2 * c3
                                   : kind == 8            ? C + c3
                                   : kind == 10           ? C + c3
                                                          : C;
  static constexpr int64_t out_h = kind == 3 && H >= 4 ? half : kind == 6 && H >= 2 ? H / 2 : H;
};

template <uint64_t Seed, int N, int64_t C, int64_t H, class... Nodes>
struct random_chain {
  using node = random_node<Seed, C, H>;
  using type = typename random_chain<mix(Seed), N - 1, node::out_c, node::out_h, Nodes..., typename node::type>::type;
};
template <uint64_t Seed, int64_t C, int64_t H, class... Nodes>
struct random_chain<Seed, 0, C, H, Nodes...> {
  using type = network<"Random", shape{3, 16, 16}, Nodes...>;
};

template <uint64_t Seed>
using random_net = typename random_chain<Seed, 6 + static_cast<int>(Seed % 7), 3, 16>::type;

template <uint64_t... Seeds>
void run_random(uint64_t& checked, int& graphs) {
  ((checked += run_plan<random_net<Seeds>, dtype::float32>() + run_plan<random_net<Seeds>, dtype::int8>(),
    graphs += 1),
   ...);
}

/// The run-time planner (host::plan_rows over Net::view(), as for a model read from a file)
/// gives the constant plan c of the network v field by field.
void same_plan_at_run_time(const rows_view& v, const plan_ref& c, uint64_t elem_bytes, uint64_t align) {
  const host::dynamic_plan d = host::plan_rows(v, elem_bytes, align);
  CHECK(d.arena_bytes == c.sum.arena_bytes);
  CHECK(d.lower_bound_bytes == c.sum.lower_bound_bytes);
  CHECK(d.peak_step == c.sum.peak_step);
  CHECK(d.baseline_bytes == c.sum.baseline_bytes);
  CHECK(d.plain_liveness_bytes == c.sum.plain_liveness_bytes);
  CHECK(d.scratch_total_bytes == c.sum.scratch_total_bytes);
  CHECK(d.chosen == c.sum.chosen);
  CHECK(d.n_buffers == c.sum.n_buffers);
  REQUIRE(d.tensors.size() == static_cast<size_t>(v.tensor_count()));
  REQUIRE(d.scratch_bytes.size() == static_cast<size_t>(v.leaf_count));
  bool same = true;
  for (size_t t = 0; t < d.tensors.size(); ++t) {
    const memory::tensor_plan &a = d.tensors[t], &b = c.tensors[t];
    same = same && a.bytes == b.bytes && a.first == b.first && a.last == b.last && a.buffer == b.buffer && a.offset == b.offset;
  }
  for (int32_t b = 0; b < c.sum.n_buffers; ++b) {
    const memory::buffer_plan &x = d.buffers[static_cast<size_t>(b)], &y = c.buffers[static_cast<size_t>(b)];
    same = same && x.bytes == y.bytes && x.first == y.first && x.last == y.last && x.parent == y.parent &&
           x.offset == y.offset && x.scratch_of == y.scratch_of;
  }
  for (size_t i = 0; i < d.scratch_bytes.size(); ++i)
    same = same && d.scratch_bytes[i] == c.scratch_bytes[i] && d.scratch_offset[i] == c.scratch_offset[i] &&
           d.panel_rows[i] == c.panel_rows[i] && d.scratch_buffer[i] == c.scratch_buffer[i];
  CHECK(same);
}

template <class Net, dtype T, uint64_t Align = memory::default_alignment>
void same_plan_at_run_time() {
  same_plan_at_run_time(Net::view(), ref_of(memory::plan_of<Net, T, Align>), size_of(T), Align);
}

template <int... Seeds>
void same_random_plans() {
  (same_plan_at_run_time<random_net<Seeds>, dtype::float32>(), ...);
  (same_plan_at_run_time<random_net<Seeds>, dtype::int8, 64>(), ...);
}

}  // namespace

TEST_CASE_TEMPLATE("the run-time planner gives the constant plan of every zoo model", Net, zoo::lenet5, zoo::alexnet,
                   zoo::vgg16, zoo::googlenet, zoo::resnet18, zoo::resnet50, zoo::mobilenet_v2) {
  same_plan_at_run_time<Net, dtype::float32>();
  same_plan_at_run_time<Net, dtype::int8>();
  same_plan_at_run_time<Net, dtype::int16, 64>();
}

TEST_CASE("the run-time planner gives the constant plan of randomized graphs") {
  same_random_plans<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20>();
}

TEST_CASE("the run-time planner refuses a bad alignment") {
  using chain = network<"Chain", shape{3, 8, 8}, conv2d<3, 4, 3, 1, 1>, relu>;
  CHECK_THROWS(host::plan_rows(chain::view(), 4, 48));
  CHECK_THROWS(host::plan_rows(chain::view(), 4, 0));
}

TEST_CASE_TEMPLATE("the plan of every zoo model executes without clobbering a live tensor", Net, zoo::lenet5,
                   zoo::alexnet, zoo::vgg16, zoo::googlenet, zoo::resnet18, zoo::resnet50, zoo::mobilenet_v2) {
  CHECK(run_plan<Net, dtype::float32>() > 0);
  CHECK(run_plan<Net, dtype::int8>() > 0);
  constexpr const auto& p = memory::plan_of<Net, dtype::float32>;
  CHECK(p.arena_bytes <= p.plain_liveness_bytes);  // in-place reuse keeps us at or below plain liveness
}

TEST_CASE("randomized graphs: chains, residuals, projections, concats, SE, repeats") {
  uint64_t checked = 0;
  int graphs = 0;
  run_random<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
             29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40>(checked, graphs);
  CHECK(graphs == 40);
  CHECK(checked > 0);
}

TEST_CASE("chains plan to their lower bound; alignment is honoured") {
  using chain = network<"Chain", shape{3, 32, 32}, conv2d<3, 8, 3, 1, 1>, batch_norm2d<8>, relu, max_pool2d<2>,
                        conv2d<8, 16, 3, 1, 1>, relu, max_pool2d<2>, flatten, linear<1024, 10>>;
  constexpr const auto& p = memory::plan_of<chain, dtype::int8>;
  CHECK(p.arena_bytes == p.lower_bound_bytes);
  CHECK(p.shares_input_buffer(1, 1));  // batch norm in place over the conv's output
  CHECK(p.shares_input_buffer(2, 2));  // relu in place
  CHECK(p.shares_input_buffer(7, 7));  // flatten is an alias
  constexpr const auto& p64 = memory::plan_of<chain, dtype::int8, 64>;
  for (int32_t t = 0; t < chain::tensor_count; ++t) CHECK(p64.offset_of(t) % 64 == 0);
  CHECK(p64.arena_bytes >= p.arena_bytes);
}

TEST_CASE("concat branches write into their slices") {
  using net = network<"Cat", shape{4, 8, 8}, conv2d<4, 8, 1>, concat<conv2d<8, 4, 1>, sequential<conv2d<8, 4, 3, 1, 1>, relu>>,
                      conv2d<8, 2, 1>>;
  constexpr const auto& p = memory::plan_of<net, dtype::float32>;
  const row& cat = net::layer(4);
  REQUIRE(cat.kind == op::concat);
  CHECK(p.offset_of(cat.inputs[0]) == p.offset_of(5));
  CHECK(p.offset_of(cat.inputs[1]) == p.offset_of(5) + 4 * 8 * 8 * 4);
}
