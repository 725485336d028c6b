// The compile-time arena planner: every tensor's offset in one static arena, the scratch of each
// kernel, in-place execution where it is legal, and the lower bound next to the result.
//
//   offset ▲
//          │        ┌───────────┐
//          │ ┌──────┤ tensor 3  ├─────┐       each box: a buffer, alive over the steps
//          │ │ t1   └───────────┘ t5  │       (x) at an offset (y); the planner packs the
//          │ ├────────┐   ┌───────────┤       boxes so that no two alive at the same step
//          │ │ t0     │   │ t4 (in-   │       overlap, and reports the tallest column of
//          │ └────────┘   │ place t2) │       live bytes (the lower bound) beside the arena.
//          └──────────────┴───────────┴──► step
//
// The planner knows no op: it reads each leaf row's buffer facts, which the op declares
// (nn/op_def.hpp): `reuse` (alias, in place over one of its first N inputs, concat slices) and
// `scratch` (units of scratch its kernel asks for). Buffers: a tensor gets its own buffer unless
//  - the leaf is an alias (flatten, dropout): its output is its input's buffer;
//  - the leaf may run in place (batch norm, activations, add, multiply) and one of those inputs
//    of the same size dies at this step: the output takes over that input's buffer;
//  - it is an input of a concat-slices leaf that dies there: it is embedded in the concat's buffer
//    at its channel slice, so the branch writes straight into place (no copy).
// Scratch follows the plan: a leaf that asks for scratch (a convolution's im2col panel rows) gets
// the most units, up to its request, that fit under the peak of live tensors at its step, so
// scratch never raises the peak; where not even one unit fits, it gets none (the convolution then
// runs its direct kernel).
// Root buffers (and scratch) are then packed by several greedy orders (size, start, area) with
// best- or first-fit, and the smallest arena is kept; greedy-by-size with best fit is reported as
// the baseline.
#pragma once
#include "ctnn/nn/network.hpp"

namespace ctnn::memory {

inline constexpr uint64_t default_alignment = 16;

struct tensor_plan {
  uint64_t bytes = 0;   ///< exact bytes of the tensor
  int32_t first = 0;    ///< step that writes it (0 for the network input)
  int32_t last = 0;     ///< last step that reads it (the last step for the network output)
  int32_t buffer = -1;  ///< the buffer holding it
  uint64_t offset = 0;  ///< absolute offset in the arena
};

struct buffer_plan {
  uint64_t bytes = 0;        ///< size rounded up to the alignment
  uint64_t content = 0;      ///< largest tensor held (exact bytes)
  uint64_t smallest = 0;     ///< smallest tensor held (exact bytes)
  int32_t first = 0;         ///< first step any tensor in it (or embedded in it) is alive
  int32_t last = 0;          ///< last such step
  int32_t parent = -1;       ///< the concat buffer it is embedded in, -1 for a root
  uint64_t offset_in_parent = 0;
  uint64_t offset = 0;       ///< absolute offset in the arena
  int32_t scratch_of = -1;   ///< the leaf whose scratch this is, -1 for a tensor buffer
  bool holds_input = false;  ///< holds the network input (never embedded elsewhere)
};

enum class strategy : uint8_t {
  size_best_fit, size_first_fit, start_best_fit, area_best_fit, last_best_fit, breadth_best_fit,
  tensors_then_scratch_best_fit
};
inline constexpr int strategy_count = 7;

constexpr const char* name_of(strategy s) {
  switch (s) {
    case strategy::size_best_fit: return "greedy-by-size, best fit";
    case strategy::size_first_fit: return "greedy-by-size, first fit";
    case strategy::start_best_fit: return "by first use, best fit";
    case strategy::area_best_fit: return "by size x lifetime, best fit";
    case strategy::last_best_fit: return "by last use, best fit";
    case strategy::breadth_best_fit: return "greedy-by-breadth, best fit";
    case strategy::tensors_then_scratch_best_fit: return "tensors by size, then scratch, best fit";
  }
  return "?";
}

/// @brief The figures of a plan, whatever holds its tensors and buffers.
struct plan_summary {
  uint64_t alignment = default_alignment;
  uint64_t arena_bytes = 0;           ///< the planned arena
  uint64_t lower_bound_bytes = 0;     ///< largest sum of live (aligned) buffers over all steps
  int32_t peak_step = 0;              ///< the step (leaf) where that sum is reached
  uint64_t baseline_bytes = 0;        ///< greedy by size with best fit
  uint64_t plain_liveness_bytes = 0;  ///< unmodified network: each tensor its own buffer, no scratch
  uint64_t scratch_total_bytes = 0;   ///< largest scratch of one layer
  strategy chosen = strategy::size_best_fit;
  int32_t steps = 0;
  int32_t n_tensors = 0;
  int32_t n_buffers = 0;
};

/// @brief The plan of one network in one dtype. Tensors: 0 = input, i + 1 = output of leaf i.
template <size_t Tensors, size_t Leaves>
struct arena_plan : plan_summary {
  static constexpr size_t max_buffers = Tensors + Leaves;
  array<tensor_plan, Tensors> tensors{};
  array<buffer_plan, max_buffers> buffers{};
  array<int32_t, Leaves> scratch_buffer{};  ///< buffer of leaf i's scratch, -1 when none
  array<uint64_t, Leaves> scratch_bytes{};
  array<uint64_t, Leaves> scratch_offset{};
  array<int32_t, Leaves> panel_rows{};  ///< scratch units granted to leaf i (a convolution's im2col
                                        ///< panel rows; 0 = its direct kernel)

  [[nodiscard]] constexpr uint64_t offset_of(int32_t tensor) const { return tensors[static_cast<size_t>(tensor)].offset; }
  /// True when leaf i writes its output over (a prefix of) an input's buffer or aliases it.
  [[nodiscard]] constexpr bool shares_input_buffer(int32_t leaf, int32_t input_tensor) const {
    return tensors[static_cast<size_t>(leaf + 1)].buffer == tensors[static_cast<size_t>(input_tensor)].buffer;
  }
};

/// @brief Where the planner writes a plan of a network with T tensors and L leaves: the summary,
/// T tensors, T + L buffers and L entries of each per-leaf array.
struct plan_target {
  plan_summary* summary = nullptr;
  tensor_plan* tensors = nullptr;
  buffer_plan* buffers = nullptr;
  int32_t* scratch_buffer = nullptr;
  uint64_t* scratch_bytes = nullptr;
  uint64_t* scratch_offset = nullptr;
  int32_t* panel_rows = nullptr;
};

/// @brief The planner's working arrays, zero-initialized: T + L entries each, but the two per-step
/// arrays (L entries).
struct plan_workspace {
  int32_t* roots = nullptr;
  int32_t* order = nullptr;
  int32_t* by_breadth = nullptr;
  int32_t* placed = nullptr;
  bool* taken = nullptr;
  uint64_t* offsets = nullptr;
  uint64_t* best_offsets = nullptr;
  int32_t* steps_sorted = nullptr;
  uint64_t* step_live = nullptr;
};

namespace detail {

/// One packing of the root buffers in a given order; returns the arena size.
constexpr uint64_t pack(const buffer_plan* bufs, const int32_t* order, int32_t count, bool best_fit,
                        uint64_t* offsets, int32_t* placed /* placed buffer ids sorted by offset */) {
  int32_t m = 0;
  uint64_t arena = 0;
  for (int32_t oi = 0; oi < count; ++oi) {
    const int32_t x = order[oi];
    const buffer_plan& bx = bufs[static_cast<size_t>(x)];
    uint64_t cursor = 0;
    uint64_t best = ~uint64_t{0};
    uint64_t best_gap = ~uint64_t{0};
    for (int32_t k = 0; k < m; ++k) {
      const int32_t p = placed[k];
      const buffer_plan& bp = bufs[static_cast<size_t>(p)];
      if (bp.last < bx.first || bx.last < bp.first) continue;  // not alive together
      const uint64_t po = offsets[p];
      if (po > cursor) {
        const uint64_t gap = po - cursor;
        if (gap >= bx.bytes && (best_fit ? gap < best_gap : best == ~uint64_t{0})) {
          best = cursor;
          best_gap = gap;
        }
      }
      if (po + bp.bytes > cursor) cursor = po + bp.bytes;
    }
    const uint64_t at = best != ~uint64_t{0} ? best : cursor;
    offsets[x] = at;
    if (at + bx.bytes > arena) arena = at + bx.bytes;
    // insert x into placed, keeping it sorted by offset
    int32_t pos = m;
    while (pos > 0 && offsets[placed[pos - 1]] > at) {
      placed[pos] = placed[pos - 1];
      --pos;
    }
    placed[pos] = x;
    ++m;
  }
  return arena;
}

/// Sort key of a root buffer for a strategy: larger keys are placed first.
constexpr bool goes_before(strategy s, const buffer_plan& a, int32_t ia, const buffer_plan& b, int32_t ib) {
  auto lexi = [&](uint64_t ka, uint64_t kb, uint64_t ta, uint64_t tb) {
    if (ka != kb) return ka > kb;
    if (ta != tb) return ta > tb;
    return ia < ib;
  };
  const uint64_t la = static_cast<uint64_t>(a.last - a.first + 1), lb = static_cast<uint64_t>(b.last - b.first + 1);
  switch (s) {
    case strategy::size_best_fit:
    case strategy::size_first_fit:
      return lexi(a.bytes, b.bytes, static_cast<uint64_t>(-static_cast<int64_t>(a.first)),
                  static_cast<uint64_t>(-static_cast<int64_t>(b.first)));
    case strategy::start_best_fit:
      return lexi(static_cast<uint64_t>(1'000'000'000 - a.first), static_cast<uint64_t>(1'000'000'000 - b.first),
                  a.bytes, b.bytes);
    case strategy::area_best_fit: return lexi(a.bytes * la, b.bytes * lb, a.bytes, b.bytes);
    case strategy::last_best_fit:
      return lexi(static_cast<uint64_t>(a.last), static_cast<uint64_t>(b.last), a.bytes, b.bytes);
    case strategy::breadth_best_fit: break;  // ordered by steps, see make_plan
    case strategy::tensors_then_scratch_best_fit:
      if ((a.scratch_of < 0) != (b.scratch_of < 0)) return a.scratch_of < 0;
      return lexi(a.bytes, b.bytes, static_cast<uint64_t>(-static_cast<int64_t>(a.first)),
                  static_cast<uint64_t>(-static_cast<int64_t>(b.first)));
  }
  return ia < ib;
}

}  // namespace detail

namespace detail {
/// @brief Plans the tensors of the network v, `elem` bytes per element, with alignment `Align` (a
/// power of two), into p (zero-initialized), using w: the one planner of typed and run-time rows.
constexpr void plan_rows(const rows_view& v, uint64_t elem, uint64_t Align, const plan_target& p,
                         const plan_workspace& w) {
  plan_summary& sum = *p.summary;
  sum.alignment = Align;
  sum.steps = v.leaf_count;
  sum.n_tensors = v.tensor_count();
  const int32_t last_step = v.leaf_count - 1;

  // ---- lifetimes of the tensors
  for (int32_t t = 0; t < v.tensor_count(); ++t) {
    tensor_plan& tp = p.tensors[static_cast<size_t>(t)];
    tp.bytes = static_cast<uint64_t>(v.tensor_shape(t).elems()) * elem;
    tp.first = t == 0 ? 0 : t - 1;
    tp.last = tp.first;
  }
  for (int32_t i = 0; i < v.leaf_count; ++i) {
    const row& r = v.layer(i);
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      tensor_plan& tp = p.tensors[static_cast<size_t>(r.inputs[k])];
      if (i > tp.last) tp.last = i;
    }
  }
  p.tensors[static_cast<size_t>(v.output_tensor)].last = last_step;

  // ---- plain liveness of the unmodified network (every tensor its own buffer, no scratch)
  for (int32_t s = 0; s <= last_step; ++s) {
    uint64_t live = 0;
    for (int32_t t = 0; t < v.tensor_count(); ++t) {
      const tensor_plan& tp = p.tensors[static_cast<size_t>(t)];
      if (tp.first <= s && s <= tp.last) live += round_up(tp.bytes, Align);
    }
    if (live > sum.plain_liveness_bytes) sum.plain_liveness_bytes = live;
  }

  // ---- buffers: aliases, in-place, concat embedding, scratch
  auto new_buffer = [&p, &sum, Align](uint64_t bytes, int32_t first, int32_t last) {
    buffer_plan& b = p.buffers[static_cast<size_t>(sum.n_buffers)];
    b.bytes = round_up(bytes, Align);
    b.content = bytes;
    b.smallest = bytes;
    b.first = first;
    b.last = last;
    return sum.n_buffers++;
  };
  auto join = [&p, Align](int32_t t, int32_t buf) {
    tensor_plan& tp = p.tensors[static_cast<size_t>(t)];
    buffer_plan& b = p.buffers[static_cast<size_t>(buf)];
    tp.buffer = buf;
    if (tp.last > b.last) b.last = tp.last;
    if (tp.bytes > b.content) b.content = tp.bytes;
    if (tp.bytes < b.smallest) b.smallest = tp.bytes;
    if (round_up(tp.bytes, Align) > b.bytes) b.bytes = round_up(tp.bytes, Align);
  };
  {
    const int32_t b0 = new_buffer(p.tensors[0].bytes, 0, p.tensors[0].last);
    p.tensors[0].buffer = b0;
    p.buffers[static_cast<size_t>(b0)].holds_input = true;
  }
  for (int32_t i = 0; i < v.leaf_count; ++i) {
    const row& r = v.layer(i);
    const int32_t t = i + 1;
    tensor_plan& out = p.tensors[static_cast<size_t>(t)];
    auto dies_here = [&](int32_t in_tensor) {
      const buffer_plan& b = p.buffers[static_cast<size_t>(p.tensors[static_cast<size_t>(in_tensor)].buffer)];
      return b.last == i && b.parent < 0;
    };
    int32_t target = -1;
    if (r.reuse.alias) {
      target = p.tensors[static_cast<size_t>(r.inputs[0])].buffer;
    } else if (r.reuse.in_place_inputs > 0) {
      // of the candidates, the most recently created buffer: the choice does not depend on the
      // order of a commutative op's operands (x + f(x) and f(x) + x plan alike)
      const int32_t candidates = min<int32_t>(r.reuse.in_place_inputs, r.n_inputs);
      for (int32_t k = 0; k < candidates; ++k) {
        const int32_t in_t = r.inputs[k];
        const int32_t in_b = p.tensors[static_cast<size_t>(in_t)].buffer;
        if (p.tensors[static_cast<size_t>(in_t)].bytes == out.bytes && dies_here(in_t) && in_b > target) target = in_b;
      }
    }
    if (target >= 0) {
      join(t, target);
    } else {
      const int32_t nb = new_buffer(out.bytes, i, out.last);
      out.buffer = nb;
      if (r.reuse.concat_slices) {
        const uint64_t slice_unit = static_cast<uint64_t>(r.out.h * r.out.w) * elem;
        uint64_t slice = 0;
        for (int32_t k = 0; k < r.n_inputs; ++k) {
          const tensor_plan& in = p.tensors[static_cast<size_t>(r.inputs[k])];
          buffer_plan& ib = p.buffers[static_cast<size_t>(in.buffer)];
          bool distinct = true;
          for (int32_t j = 0; j < k; ++j)
            if (p.tensors[static_cast<size_t>(r.inputs[j])].buffer == in.buffer) distinct = false;
          const bool ok = distinct && !ib.holds_input && ib.parent < 0 && ib.scratch_of < 0 && ib.last == i &&
                          ib.content == in.bytes && ib.smallest == in.bytes && slice % Align == 0;
          if (ok) {
            ib.parent = nb;
            ib.offset_in_parent = slice;
            buffer_plan& cb = p.buffers[static_cast<size_t>(nb)];
            if (ib.first < cb.first) cb.first = ib.first;
          }
          slice += static_cast<uint64_t>(v.tensor_shape(r.inputs[k]).c) * slice_unit;
        }
      }
    }
  }
  // an embedded buffer's lifetime is part of its root's
  for (int32_t b = 0; b < sum.n_buffers; ++b) {
    int32_t root = b;
    while (p.buffers[static_cast<size_t>(root)].parent >= 0) root = p.buffers[static_cast<size_t>(root)].parent;
    buffer_plan& rb = p.buffers[static_cast<size_t>(root)];
    const buffer_plan& bb = p.buffers[static_cast<size_t>(b)];
    if (bb.first < rb.first) rb.first = bb.first;
    if (bb.last > rb.last) rb.last = bb.last;
  }

  // ---- the tallest column of live root buffers, without scratch
  auto live_at = [&p, &sum](int32_t s) {
    uint64_t live = 0;
    for (int32_t b = 0; b < sum.n_buffers; ++b) {
      const buffer_plan& bb = p.buffers[static_cast<size_t>(b)];
      if (bb.parent < 0 && bb.first <= s && s <= bb.last) live += bb.bytes;
    }
    return live;
  };
  uint64_t tensor_peak = 0;
  for (int32_t s = 0; s <= last_step; ++s) {
    const uint64_t live = live_at(s);
    if (live > tensor_peak) tensor_peak = live;
  }

  // ---- scratch: the most units of each request that fit under that peak at the leaf's step
  const int32_t tensor_buffers = sum.n_buffers;
  for (int32_t i = 0; i < v.leaf_count; ++i) {
    const scratch_request& rq = v.layer(i).scratch;
    p.scratch_buffer[static_cast<size_t>(i)] = -1;
    if (rq.max_units <= 0 || rq.unit_elems == 0) continue;
    uint64_t live = 0;
    for (int32_t b = 0; b < tensor_buffers; ++b) {
      const buffer_plan& bb = p.buffers[static_cast<size_t>(b)];
      if (bb.parent < 0 && bb.first <= i && i <= bb.last) live += bb.bytes;
    }
    const uint64_t slack = tensor_peak - live;
    int64_t units = rq.max_units;
    while (units > 0 && round_up(rq.elems(units) * elem, Align) > slack) --units;
    p.panel_rows[static_cast<size_t>(i)] = static_cast<int32_t>(units);
    const uint64_t sb = rq.elems(units) * elem;
    p.scratch_bytes[static_cast<size_t>(i)] = sb;
    if (sb == 0) continue;
    const int32_t sbuf = new_buffer(sb, i, i);
    p.buffers[static_cast<size_t>(sbuf)].scratch_of = i;
    p.scratch_buffer[static_cast<size_t>(i)] = sbuf;
    if (sb > sum.scratch_total_bytes) sum.scratch_total_bytes = sb;
  }

  // ---- the lower bound: the tallest column of live root buffers, scratch included
  for (int32_t s = 0; s <= last_step; ++s) {
    const uint64_t live = live_at(s);
    if (live > sum.lower_bound_bytes) {
      sum.lower_bound_bytes = live;
      sum.peak_step = s;
    }
  }

  // ---- packing: try every strategy, keep the smallest arena
  int32_t* roots = w.roots;
  int32_t n_roots = 0;
  for (int32_t b = 0; b < sum.n_buffers; ++b)
    if (p.buffers[static_cast<size_t>(b)].parent < 0) roots[n_roots++] = b;
  uint64_t* best_offsets = w.best_offsets;
  uint64_t best_arena = ~uint64_t{0};
  for (int si = 0; si < strategy_count; ++si) {
    const strategy st_ = static_cast<strategy>(si);
    int32_t* order = w.order;
    // size order first (every strategy's tie-break, and the order within a step for breadth)
    const strategy key = st_ == strategy::breadth_best_fit ? strategy::size_best_fit : st_;
    for (int32_t k = 0; k < n_roots; ++k) {  // insertion sort by the strategy's key
      const int32_t x = roots[k];
      int32_t pos = k;
      while (pos > 0 && goes_before(key, p.buffers[static_cast<size_t>(x)], x,
                                            p.buffers[static_cast<size_t>(order[pos - 1])], order[pos - 1])) {
        order[pos] = order[pos - 1];
        --pos;
      }
      order[pos] = x;
    }
    if (st_ == strategy::breadth_best_fit) {
      // greedy by breadth: visit the steps from the most to the least live bytes and place the
      // unplaced buffers alive at each, largest first
      int32_t* steps_sorted = w.steps_sorted;
      uint64_t* step_live = w.step_live;
      for (int32_t st = 0; st <= last_step; ++st) {
        step_live[st] = live_at(st);
        int32_t pos = st;
        while (pos > 0 && step_live[steps_sorted[pos - 1]] < step_live[st]) {
          steps_sorted[pos] = steps_sorted[pos - 1];
          --pos;
        }
        steps_sorted[pos] = st;
      }
      int32_t* by_breadth = w.by_breadth;
      bool* taken = w.taken;
      for (int32_t j = 0; j < n_roots; ++j) taken[roots[j]] = false;
      int32_t n = 0;
      for (int32_t k = 0; k <= last_step; ++k) {
        const int32_t st = steps_sorted[k];
        for (int32_t j = 0; j < n_roots; ++j) {
          const int32_t b = order[j];
          const buffer_plan& bb = p.buffers[static_cast<size_t>(b)];
          if (!taken[b] && bb.first <= st && st <= bb.last) {
            taken[b] = true;
            by_breadth[n++] = b;
          }
        }
      }
      for (int32_t j = 0; j < n_roots; ++j) order[j] = by_breadth[j];
    }
    uint64_t* offsets = w.offsets;
    const uint64_t arena = pack(p.buffers, order, n_roots, st_ != strategy::size_first_fit, offsets, w.placed);
    if (st_ == strategy::size_best_fit) sum.baseline_bytes = arena;
    if (arena < best_arena) {
      best_arena = arena;
      sum.chosen = st_;
      for (int32_t b = 0; b < sum.n_buffers; ++b) best_offsets[b] = offsets[b];
    }
  }
  sum.arena_bytes = best_arena;

  // ---- absolute offsets (a parent is created after the buffers embedded in it)
  for (int32_t b = sum.n_buffers - 1; b >= 0; --b) {
    buffer_plan& bb = p.buffers[static_cast<size_t>(b)];
    bb.offset = bb.parent < 0 ? best_offsets[b]
                              : p.buffers[static_cast<size_t>(bb.parent)].offset + bb.offset_in_parent;
  }
  for (int32_t t = 0; t < v.tensor_count(); ++t) {
    tensor_plan& tp = p.tensors[static_cast<size_t>(t)];
    tp.offset = p.buffers[static_cast<size_t>(tp.buffer)].offset;
  }
  for (int32_t i = 0; i < v.leaf_count; ++i) {
    const int32_t sb = p.scratch_buffer[static_cast<size_t>(i)];
    p.scratch_offset[static_cast<size_t>(i)] = sb >= 0 ? p.buffers[static_cast<size_t>(sb)].offset : 0;
  }
}
}  // namespace detail

/// @brief Plans Net's tensors in dtype T with the given alignment (a power of two).
template <Network Net, dtype T, uint64_t Align = default_alignment>
constexpr auto make_plan() {
  static_assert(Align > 0 && (Align & (Align - 1)) == 0, "ctnn: arena planner: the alignment must be a power of two");
  constexpr size_t NT = static_cast<size_t>(Net::tensor_count);
  constexpr size_t NL = static_cast<size_t>(Net::leaf_count);
  using plan_t = arena_plan<NT, NL>;
  plan_t p{};
  constexpr size_t NB = plan_t::max_buffers;
  int32_t roots[NB] = {}, order[NB] = {}, by_breadth[NB] = {}, placed[NB] = {};
  bool taken[NB] = {};
  uint64_t offsets[NB] = {}, best_offsets[NB] = {};
  int32_t steps_sorted[NL > 0 ? NL : 1] = {};
  uint64_t step_live[NL > 0 ? NL : 1] = {};
  detail::plan_rows(Net::view(), size_of(T), Align,
                    plan_target{&p, p.tensors.data(), p.buffers.data(), p.scratch_buffer.data(), p.scratch_bytes.data(),
                                p.scratch_offset.data(), p.panel_rows.data()},
                    plan_workspace{roots, order, by_breadth, placed, taken, offsets, best_offsets, steps_sorted, step_live});
  return p;
}

/// @brief The plan of Net in dtype T, a constant: `ctnn::memory::plan_of<Net, dtype::int8>.arena_bytes`.
template <Network Net, dtype T, uint64_t Align = default_alignment>
inline constexpr auto plan_of = make_plan<Net, T, Align>();

}  // namespace ctnn::memory
