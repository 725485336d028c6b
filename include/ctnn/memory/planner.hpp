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
// Packing: the root buffers are placed best fit in several greedy orders (by size, first use, last
// use, size x lifetime) and the smallest arena is kept; greedy-by-size is reported as the baseline.
// Scratch goes into the holes: a leaf that asks for scratch (a convolution's im2col panel rows)
// gets the most units, up to its request, that fit in the largest free hole at its step of the
// packed tensors, so scratch never raises the arena; where not one unit fits, it gets none (the
// convolution then runs its direct kernel). On a tie of arenas the order granting the most units
// wins. The work is about linear in the leaves (see plan_rows), so a plan of hundreds of leaves
// compiles within the compilers' default constant-evaluation limits.
#pragma once
#include "ctnn/nn/network.hpp"

namespace ctnn::memory {

inline constexpr uint64_t default_alignment = 16;

// tensor_plan and buffer_plan have no default member initializers: value-initializing the large
// arrays of them in a constant plan is then a zero fill, which the compiler does at no cost; the
// planner writes every field of each entry it uses.
struct tensor_plan {
  uint64_t bytes;   ///< exact bytes of the tensor
  int32_t first;    ///< step that writes it (0 for the network input)
  int32_t last;     ///< last step that reads it (the last step for the network output)
  int32_t buffer;   ///< the buffer holding it
  uint64_t offset;  ///< absolute offset in the arena
};

struct buffer_plan {
  uint64_t bytes;             ///< size rounded up to the alignment
  uint64_t content;           ///< largest tensor held (exact bytes)
  uint64_t smallest;          ///< smallest tensor held (exact bytes)
  int32_t first;              ///< first step any tensor in it (or embedded in it) is alive
  int32_t last;               ///< last such step
  int32_t parent;             ///< the concat buffer it is embedded in, -1 for a root
  uint64_t offset_in_parent;
  uint64_t offset;            ///< absolute offset in the arena
  int32_t scratch_of;         ///< the leaf whose scratch this is, -1 for a tensor buffer
  bool holds_input;           ///< holds the network input (never embedded elsewhere)
};

enum class strategy : uint8_t { size_best_fit, start_best_fit, area_best_fit, last_best_fit };
inline constexpr int strategy_count = 4;

constexpr const char* name_of(strategy s) {
  switch (s) {
    case strategy::size_best_fit: return "greedy-by-size, best fit";
    case strategy::start_best_fit: return "by first use, best fit";
    case strategy::area_best_fit: return "by size x lifetime, best fit";
    case strategy::last_best_fit: return "by last use, best fit";
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

/// @brief The planner's zero-initialized working memory, provided by the caller: ints_for(T, L)
/// int32_t and wides_for(T, L) uint64_t entries for T tensors and L leaves (a constant plan keeps
/// them in local arrays). The arrays it writes before reading, it allocates itself.
struct plan_workspace {
  int32_t* ints = nullptr;
  uint64_t* wides = nullptr;

  /// Five per-step arrays (L + 1 entries) and four per-buffer arrays (T + L + 1 entries).
  static constexpr size_t ints_for(size_t tensors, size_t leaves) { return 5 * (leaves + 1) + 4 * (tensors + leaves + 1); }
  /// One per-step array.
  static constexpr size_t wides_for(size_t, size_t leaves) { return leaves + 1; }
};

namespace detail {

/// @brief n entries that the planner writes before it reads them: new[] without initialization,
/// which a constant evaluation allows (C++20) and does at no cost, freed at scope exit.
template <class T>
class list_storage {
 public:
  constexpr explicit list_storage(int64_t n) : data_(new T[static_cast<size_t>(n > 0 ? n : 1)]) {}
  constexpr ~list_storage() { delete[] data_; }
  list_storage(const list_storage&) = delete;
  list_storage& operator=(const list_storage&) = delete;
  [[nodiscard]] constexpr T* get() const { return data_; }

 private:
  T* data_;
};

/// @brief Sorts the ids a[0..n): larger k1[id] first, then larger k2[id], then the smaller id. A
/// bottom-up merge sort (n log n comparisons) on key arrays, using tmp (n entries).
constexpr void sort_ids(int32_t* a, int32_t n, int32_t* tmp, const uint64_t* k1, const uint64_t* k2) {
  int32_t* from = a;
  int32_t* to = tmp;
  for (int32_t width = 1; width < n; width *= 2) {
    for (int32_t lo = 0; lo < n; lo += 2 * width) {
      const int32_t mid = lo + width < n ? lo + width : n;
      const int32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int32_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        const int32_t x = from[i], y = from[j];
        const bool y_first = k1[y] != k1[x] ? k1[y] > k1[x] : k2[y] != k2[x] ? k2[y] > k2[x] : y < x;
        to[k++] = y_first ? from[j++] : from[i++];
      }
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    int32_t* swap = from;
    from = to;
    to = swap;
  }
  if (from != a)
    for (int32_t k = 0; k < n; ++k) a[k] = from[k];
}

/// One packing of the buffers `order` (count of them), each placed, best fit, in the smallest gap
/// between the placed buffers alive together with it (meets[meets_at[x] .. meets_at[x + 1])) that
/// holds it, or above them all. offsets[b] receives each placement; returns the arena size.
/// `placed` marks the buffers placed in this packing with `stamp`; `near` holds up to the longest
/// list of meetings.
constexpr uint64_t pack(const buffer_plan* bufs, const int32_t* order, int32_t count, const int32_t* meets_at,
                        const int32_t* meets, uint64_t* offsets, int32_t* placed, int32_t stamp, int32_t* near) {
  uint64_t arena = 0;
  for (int32_t oi = 0; oi < count; ++oi) {
    const int32_t x = order[oi];
    const uint64_t bytes = bufs[x].bytes;
    int32_t n = 0;  // the placed buffers alive together with x, by offset
    for (int32_t e = meets_at[x], end = meets_at[x + 1]; e < end; ++e) {
      const int32_t y = meets[e];
      if (placed[y] != stamp) continue;
      const uint64_t oy = offsets[y];
      int32_t pos = n++;
      while (pos > 0 && offsets[near[pos - 1]] > oy) {
        near[pos] = near[pos - 1];
        --pos;
      }
      near[pos] = y;
    }
    uint64_t cursor = 0;
    uint64_t best = ~uint64_t{0};
    uint64_t best_gap = ~uint64_t{0};
    for (int32_t k = 0; k < n; ++k) {
      const uint64_t po = offsets[near[k]];
      if (po > cursor && po - cursor >= bytes && po - cursor < best_gap) {
        best = cursor;
        best_gap = po - cursor;
      }
      const uint64_t end = po + bufs[near[k]].bytes;
      if (end > cursor) cursor = end;
    }
    const uint64_t at = best != ~uint64_t{0} ? best : cursor;
    offsets[x] = at;
    placed[x] = stamp;
    if (at + bytes > arena) arena = at + bytes;
  }
  return arena;
}

/// @brief Lists, in one sweep over the steps, the root buffers each root meets (alive together
/// at some step) at meets[meets_at[b] ..], and those alive at each step that wants scratch at
/// alive[alive_at[s] ..]. by_first[first_at[s] .. first_at[s + 1]) are the roots that start at
/// step s; `active` and `cursor` are zero working arrays.
constexpr void list_meetings(const buffer_plan* buffers, int32_t steps, const int32_t* first_at, const int32_t* by_first,
                             const int32_t* wants, int32_t* active, const int32_t* meets_at, int32_t* cursor,
                             int32_t* meets, const int32_t* alive_at, int32_t* alive) {
  int32_t n_active = 0;
  for (int32_t s = 0; s < steps; ++s) {
    int32_t kept = 0;
    for (int32_t k = 0; k < n_active; ++k)
      if (buffers[active[k]].last >= s) active[kept++] = active[k];
    n_active = kept;
    for (int32_t k = first_at[s], end = first_at[s + 1]; k < end; ++k) {
      const int32_t y = by_first[k];
      for (int32_t j = 0; j < n_active; ++j) {
        const int32_t x = active[j];
        meets[meets_at[x] + cursor[x]++] = y;
        meets[meets_at[y] + cursor[y]++] = x;
      }
      active[n_active++] = y;
    }
    if (wants[s] != 0)
      for (int32_t k = 0; k < n_active; ++k) alive[alive_at[s] + k] = active[k];
  }
}

/// @brief What fit_scratch reads: the n scratch requests (their steps, unit bytes and most units),
/// the root buffers alive at each step, room to sort them, and where the holes go.
struct scratch_fit {
  const buffer_plan* buffers;
  int32_t n;
  const int32_t* steps;
  const uint64_t* unit_bytes;
  const uint64_t* max_units;
  const int32_t* alive_at;
  const int32_t* alive;
  int32_t* here;
  uint64_t* hole_at;
};

/// @brief Scratch in a packing (offsets `at`, arena size `arena`): each request gets the most units,
/// up to its request, that fit in the largest free hole at its step (between the buffers alive
/// there, or above them up to the arena's top), at that hole's start, so scratch never raises the
/// arena. Returns the units granted in all; with `granted`, writes each request's units there
/// and its hole's offset to f.hole_at.
constexpr uint64_t fit_scratch(const scratch_fit& f, const uint64_t* at, uint64_t arena, uint64_t* granted) {
  uint64_t total = 0;
  int32_t* const here = f.here;
  for (int32_t q = 0; q < f.n; ++q) {
    const int32_t i = f.steps[q];
    int32_t n = 0;  // the buffers alive at step i, by offset
    for (int32_t e = f.alive_at[i], end = f.alive_at[i + 1]; e < end; ++e) {
      const int32_t x = f.alive[e];
      const uint64_t ox = at[x];
      int32_t pos = n++;
      while (pos > 0 && at[here[pos - 1]] > ox) {
        here[pos] = here[pos - 1];
        --pos;
      }
      here[pos] = x;
    }
    uint64_t cursor = 0, hole_at = 0, hole = 0;
    for (int32_t k = 0; k < n; ++k) {
      const uint64_t next = at[here[k]];
      if (next > cursor && next - cursor > hole) {
        hole = next - cursor;
        hole_at = cursor;
      }
      const uint64_t end = next + f.buffers[here[k]].bytes;
      if (end > cursor) cursor = end;
    }
    if (arena > cursor && arena - cursor > hole) {
      hole = arena - cursor;
      hole_at = cursor;
    }
    const uint64_t fits = hole / f.unit_bytes[q];
    const uint64_t units = fits < f.max_units[q] ? fits : f.max_units[q];
    total += units;
    if (granted == nullptr) continue;
    granted[q] = units;
    f.hole_at[q] = hole_at;
  }
  return total;
}

/// @brief Plans the tensors of the network v, `elem` bytes per element, with alignment `Align` (a
/// power of two), into p (zero-initialized), working in w (zero-initialized): the one planner of
/// typed and run-time rows. Its time is about linear in the leaves, the buffers, the pairs of
/// buffers alive together and the sum of the lifetimes (n log n for two sorts), and its loops read
/// each row once: a plan of hundreds of leaves stays well inside the compilers' constant-
/// evaluation limits and adds little to a translation unit's compile time.
constexpr void plan_rows(const rows_view& v, uint64_t elem, uint64_t Align, const plan_target& p,
                         const plan_workspace& w) {
  plan_summary& sum = *p.summary;
  // the arrays as locals: a constant evaluation then reads no struct member per access
  tensor_plan* const tensors = p.tensors;
  buffer_plan* const buffers = p.buffers;
  int32_t* const panel_rows = p.panel_rows;
  int32_t* const scratch_buffer = p.scratch_buffer;
  uint64_t* const scratch_bytes = p.scratch_bytes;
  uint64_t* const scratch_offset = p.scratch_offset;
  const row* const rows = v.rows;
  const int32_t* const leaf_rows = v.leaf_rows;
  const int32_t n_tensors = v.tensor_count();
  const int32_t steps = v.leaf_count;
  const int32_t last_step = steps - 1;
  const uint64_t up = Align - 1;  // x rounded up to the alignment: (x + up) & ~up
  sum.alignment = Align;
  sum.steps = steps;
  sum.n_tensors = n_tensors;

  // zero-initialized (the caller's): per step, then per buffer
  int32_t* const first_at = w.ints;                // roots that start before step s
  int32_t* const filled = first_at + (steps + 1);  // ... and at step s, listed so far
  int32_t* const count = filled + (steps + 1);     // roots alive at step s; a counting sort's counts
  int32_t* const wants = count + (steps + 1);      // 1 at a step whose leaf asks for scratch
  int32_t* const alive_at = wants + (steps + 1);   // where the roots alive at scratch step s are listed
  int32_t* const seen_at = alive_at + (steps + 1);  // 1 + the concat leaf that last read this buffer
  int32_t* const meets_at = seen_at + (n_tensors + steps + 1);  // where the roots buffer b meets are listed
  int32_t* const meets_cursor = meets_at + (n_tensors + steps + 1);
  int32_t* const placed = meets_cursor + (n_tensors + steps + 1);  // the packing that placed buffer b
  uint64_t* const delta = w.wides;  // live bytes: + at the first step, - after the last
  // written before read: allocated here (at no cost in a constant evaluation)
  const list_storage<int32_t> scratch_list(steps);
  const list_storage<uint64_t> scratch_facts(4 * static_cast<int64_t>(steps));
  int32_t* const scratch_steps = scratch_list.get();  // per scratch request: its step,
  uint64_t* const unit_bytes = scratch_facts.get();   // the bytes of a unit,
  uint64_t* const max_units = unit_bytes + steps;     // the units asked for,
  uint64_t* const hole_at = max_units + steps;        // the hole it gets
  uint64_t* const granted = hole_at + steps;          // and the units granted

  // ---- lifetimes of the tensors (a leaf's inputs are earlier tensors), the scratch requests
  tensors[0].bytes = static_cast<uint64_t>(v.input.c * v.input.h * v.input.w) * elem;
  int32_t n_scratch = 0;
  for (int32_t i = 0; i < steps; ++i) {
    const row& r = rows[leaf_rows[i]];
    tensor_plan& out = tensors[i + 1];
    out.bytes = static_cast<uint64_t>(r.out.c * r.out.h * r.out.w) * elem;
    out.first = i;
    out.last = i;
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      tensor_plan& in = tensors[r.inputs[k]];
      if (i > in.last) in.last = i;
    }
    if (r.scratch.max_units > 0 && r.scratch.unit_elems > 0) {
      scratch_steps[n_scratch] = i;
      unit_bytes[n_scratch] = r.scratch.unit_elems * elem;
      max_units[n_scratch++] = static_cast<uint64_t>(r.scratch.max_units);
      wants[i] = 1;
    }
  }
  tensors[v.output_tensor].last = last_step;

  auto tallest = [delta, steps](int32_t* at_step) {  // the largest running sum; zeroes delta
    uint64_t live = 0, peak = 0;
    for (int32_t s = 0; s < steps; ++s) {
      live += delta[s];  // wraps through the subtractions; the running sum is exact
      delta[s] = 0;
      if (live > peak) {
        peak = live;
        if (at_step != nullptr) *at_step = s;
      }
    }
    delta[steps] = 0;
    return peak;
  };

  // ---- plain liveness of the unmodified network (every tensor its own buffer, no scratch)
  for (int32_t t = 0; t < n_tensors; ++t) {
    const tensor_plan& tp = tensors[t];
    const uint64_t bytes = (tp.bytes + up) & ~up;
    delta[tp.first] += bytes;
    delta[tp.last + 1] -= bytes;
  }
  sum.plain_liveness_bytes = tallest(nullptr);

  // ---- buffers: aliases, in-place, concat embedding
  auto new_buffer = [buffers, &sum, up](uint64_t bytes, int32_t first, int32_t last) {
    buffer_plan& b = buffers[sum.n_buffers];
    b.bytes = (bytes + up) & ~up;
    b.content = bytes;
    b.smallest = bytes;
    b.first = first;
    b.last = last;
    b.parent = -1;
    b.scratch_of = -1;
    return sum.n_buffers++;
  };
  tensors[0].buffer = new_buffer(tensors[0].bytes, 0, tensors[0].last);
  buffers[0].holds_input = true;
  for (int32_t i = 0; i < steps; ++i) {
    const row& r = rows[leaf_rows[i]];
    tensor_plan& out = tensors[i + 1];
    int32_t target = -1;
    if (r.reuse.alias) {
      target = tensors[r.inputs[0]].buffer;
    } else if (r.reuse.in_place_inputs > 0) {
      // of the candidates that die here, the most recently created buffer: the choice does not
      // depend on the order of a commutative op's operands (x + f(x) and f(x) + x plan alike)
      const int32_t candidates = r.reuse.in_place_inputs < r.n_inputs ? r.reuse.in_place_inputs : r.n_inputs;
      for (int32_t k = 0; k < candidates; ++k) {
        const tensor_plan& in = tensors[r.inputs[k]];
        const buffer_plan& ib = buffers[in.buffer];
        if (in.bytes == out.bytes && ib.last == i && ib.parent < 0 && in.buffer > target) target = in.buffer;
      }
    }
    if (target >= 0) {
      buffer_plan& b = buffers[target];
      out.buffer = target;
      if (out.last > b.last) b.last = out.last;
      if (out.bytes > b.content) b.content = out.bytes;
      if (out.bytes < b.smallest) b.smallest = out.bytes;
      if (((out.bytes + up) & ~up) > b.bytes) b.bytes = (out.bytes + up) & ~up;
      continue;
    }
    const int32_t nb = new_buffer(out.bytes, i, out.last);
    out.buffer = nb;
    if (!r.reuse.concat_slices) continue;
    // the inputs that die here are embedded in the concat's buffer at their channel slices
    uint64_t at = 0;
    for (int32_t k = 0; k < r.n_inputs; ++k) {
      const tensor_plan& in = tensors[r.inputs[k]];
      buffer_plan& ib = buffers[in.buffer];
      const bool distinct = seen_at[in.buffer] != i + 1;  // not an earlier input of this concat
      seen_at[in.buffer] = i + 1;
      if (distinct && !ib.holds_input && ib.parent < 0 && ib.scratch_of < 0 && ib.last == i &&
          ib.content == in.bytes && ib.smallest == in.bytes && (at & up) == 0) {
        ib.parent = nb;
        ib.offset_in_parent = at;
        buffer_plan& cb = buffers[nb];
        if (ib.first < cb.first) cb.first = ib.first;
      }
      at += in.bytes;  // the inputs' heights and widths are the concat's
    }
  }
  // an embedded buffer's lifetime is part of its root's
  for (int32_t b = 0; b < sum.n_buffers; ++b) {
    int32_t root = b;
    while (buffers[root].parent >= 0) root = buffers[root].parent;
    if (root == b) continue;
    buffer_plan& rb = buffers[root];
    const buffer_plan& bb = buffers[b];
    if (bb.first < rb.first) rb.first = bb.first;
    if (bb.last > rb.last) rb.last = bb.last;
  }
  const int32_t tensor_buffers = sum.n_buffers;
  const list_storage<int32_t> id_lists(7 * static_cast<int64_t>(tensor_buffers));
  int32_t* const roots = id_lists.get();  // the root buffers,
  int32_t* const by_first = roots + tensor_buffers;  // by first step,
  int32_t* const by_size = by_first + tensor_buffers;  // by size,
  int32_t* const order = by_size + tensor_buffers;  // in a strategy's order;
  int32_t* const tmp = order + tensor_buffers;  // a sort's room,
  int32_t* const near = tmp + tensor_buffers;  // the buffers alive with one, by offset,
  int32_t* const active = near + tensor_buffers;  // the buffers alive at a step
  const list_storage<uint64_t> placements(2 * static_cast<int64_t>(n_tensors + steps) + 2 * tensor_buffers);
  uint64_t* const offsets = placements.get();  // a packing's offsets,
  uint64_t* const best_offsets = offsets + (n_tensors + steps);  // the best one's (scratch too),
  uint64_t* const k1 = best_offsets + (n_tensors + steps);  // the sort keys
  uint64_t* const k2 = k1 + tensor_buffers;

  // ---- the root buffers by first step; the number alive at each step (a difference array);
  // from these, how many others each root meets (alive together at some step): those alive at its
  // first step, and those that start later within its lifetime
  int32_t n_roots = 0;
  for (int32_t b = 0; b < tensor_buffers; ++b) {
    const buffer_plan& bb = buffers[b];
    if (bb.parent >= 0) continue;
    roots[n_roots++] = b;
    ++first_at[bb.first + 1];
    ++count[bb.first];
    --count[bb.last + 1];
  }
  for (int32_t s = 0; s < steps; ++s) {
    first_at[s + 1] += first_at[s];
    if (s > 0) count[s] += count[s - 1];  // count[s]: the roots alive at step s
    alive_at[s + 1] = alive_at[s] + (wants[s] != 0 ? count[s] : 0);
  }
  int32_t most_meetings = 0;
  for (int32_t k = 0; k < n_roots; ++k) {
    const int32_t b = roots[k];
    const buffer_plan& bb = buffers[b];
    by_first[first_at[bb.first] + filled[bb.first]++] = b;
    const int32_t meetings = count[bb.first] - 1 + first_at[bb.last + 1] - first_at[bb.first + 1];
    meets_at[b + 1] = meetings;
    if (meetings > most_meetings) most_meetings = meetings;
  }
  for (int32_t b = 0; b < tensor_buffers; ++b) meets_at[b + 1] += meets_at[b];
  const list_storage<int32_t> meets(meets_at[tensor_buffers]), alive(alive_at[steps]);
  list_meetings(buffers, steps, first_at, by_first, wants, active, meets_at, meets_cursor, meets.get(), alive_at,
                alive.get());
  const scratch_fit fit{buffers, n_scratch, scratch_steps, unit_bytes, max_units, alive_at, alive.get(), near, hole_at};

  // ---- packing: the root tensor buffers in each strategy's order, then the scratch in the holes;
  // the smallest arena is kept (on a tie, the one granting the most scratch units). The orders:
  // by size (larger first, then by first use, then by id), and from it by stable counting sorts,
  // by first use (earlier first, then by size) and by last use (later first, then by size)
  auto by_step = [&](bool last_use) {
    for (int32_t s = 0; s <= steps; ++s) count[s] = 0;
    for (int32_t k = 0; k < n_roots; ++k) {
      const buffer_plan& bb = buffers[by_size[k]];
      ++count[(last_use ? last_step - bb.last : bb.first) + 1];
    }
    for (int32_t s = 0; s < steps; ++s) count[s + 1] += count[s];
    for (int32_t k = 0; k < n_roots; ++k) {
      const buffer_plan& bb = buffers[by_size[k]];
      order[count[last_use ? last_step - bb.last : bb.first]++] = by_size[k];
    }
  };
  // no packing goes below the tallest column of live root buffers: once one reaches it and grants
  // every scratch unit asked for, no other strategy can do better
  for (int32_t k = 0; k < n_roots; ++k) {
    const buffer_plan& bb = buffers[roots[k]];
    delta[bb.first] += bb.bytes;
    delta[bb.last + 1] -= bb.bytes;
  }
  const uint64_t tensor_bound = tallest(nullptr);
  uint64_t units_asked = 0;
  for (int32_t q = 0; q < n_scratch; ++q) units_asked += max_units[q];
  uint64_t best_arena = ~uint64_t{0};
  uint64_t best_units = 0;
  for (int si = 0; si < strategy_count; ++si) {
    const auto st = static_cast<strategy>(si);
    if (st == strategy::size_best_fit || st == strategy::area_best_fit) {
      for (int32_t k = 0; k < n_roots; ++k) {
        const int32_t b = roots[k];
        const buffer_plan& bb = buffers[b];
        order[k] = b;
        if (st == strategy::size_best_fit) {
          k1[b] = bb.bytes;
          k2[b] = static_cast<uint64_t>(-static_cast<int64_t>(bb.first));
        } else {
          k1[b] = bb.bytes * static_cast<uint64_t>(bb.last - bb.first + 1);
          k2[b] = bb.bytes;
        }
      }
      sort_ids(order, n_roots, tmp, k1, k2);
      if (st == strategy::size_best_fit)
        for (int32_t k = 0; k < n_roots; ++k) by_size[k] = order[k];
    } else {
      by_step(st == strategy::last_best_fit);
    }
    const uint64_t arena = pack(buffers, order, n_roots, meets_at, meets.get(), offsets, placed, si + 1, near);
    if (st == strategy::size_best_fit) sum.baseline_bytes = arena;
    if (arena > best_arena) continue;
    const uint64_t units = fit_scratch(fit, offsets, arena, nullptr);
    if (arena < best_arena || units > best_units) {
      best_arena = arena;
      best_units = units;
      sum.chosen = st;
      for (int32_t k = 0; k < n_roots; ++k) best_offsets[roots[k]] = offsets[roots[k]];
    }
    if (best_arena == tensor_bound && best_units == units_asked) break;
  }
  sum.arena_bytes = best_arena;
  // the scratch in the holes of the chosen packing: a buffer for each leaf granted units
  for (int32_t i = 0; i < steps; ++i) scratch_buffer[i] = -1;
  fit_scratch(fit, best_offsets, best_arena, granted);
  for (int32_t q = 0; q < n_scratch; ++q) {
    const int32_t i = scratch_steps[q];
    panel_rows[i] = static_cast<int32_t>(granted[q]);
    if (granted[q] == 0) continue;
    const uint64_t sb = unit_bytes[q] * granted[q];
    const int32_t sbuf = new_buffer(sb, i, i);
    buffers[sbuf].scratch_of = i;
    best_offsets[sbuf] = hole_at[q];
    scratch_buffer[i] = sbuf;
    scratch_bytes[i] = sb;
    if (sb > sum.scratch_total_bytes) sum.scratch_total_bytes = sb;
  }

  // ---- the lower bound: the tallest column of live root buffers, scratch included
  for (int32_t b = 0; b < sum.n_buffers; ++b) {
    const buffer_plan& bb = buffers[b];
    if (bb.parent >= 0) continue;
    delta[bb.first] += bb.bytes;
    delta[bb.last + 1] -= bb.bytes;
  }
  sum.lower_bound_bytes = tallest(&sum.peak_step);

  // ---- absolute offsets (a parent is created after the buffers embedded in it)
  for (int32_t b = sum.n_buffers - 1; b >= 0; --b) {
    buffer_plan& bb = buffers[b];
    bb.offset = bb.parent < 0 ? best_offsets[b] : buffers[bb.parent].offset + bb.offset_in_parent;
  }
  for (int32_t t = 0; t < n_tensors; ++t) tensors[t].offset = buffers[tensors[t].buffer].offset;
  for (int32_t q = 0; q < n_scratch; ++q) {
    const int32_t i = scratch_steps[q];
    if (scratch_buffer[i] >= 0) scratch_offset[i] = buffers[scratch_buffer[i]].offset;
  }
}
}  // namespace detail

/// @brief Plans Net's tensors in dtype T with the given alignment (a power of two).
template <Network Net, dtype T, uint64_t Align = default_alignment>
constexpr auto make_plan() {
  static_assert(Align > 0 && (Align & (Align - 1)) == 0, "ctnn: arena planner: the alignment must be a power of two");
  constexpr size_t NT = static_cast<size_t>(Net::tensor_count);
  constexpr size_t NL = static_cast<size_t>(Net::leaf_count);
  arena_plan<NT, NL> p{};
  int32_t ints[plan_workspace::ints_for(NT, NL)] = {};
  uint64_t wides[plan_workspace::wides_for(NT, NL)] = {};
  detail::plan_rows(Net::view(), size_of(T), Align,
                    plan_target{&p, p.tensors.data(), p.buffers.data(), p.scratch_buffer.data(), p.scratch_bytes.data(),
                                p.scratch_offset.data(), p.panel_rows.data()},
                    plan_workspace{ints, wides});
  return p;
}

/// @brief The plan of Net in dtype T, a constant: `ctnn::memory::plan_of<Net, dtype::int8>.arena_bytes`.
template <Network Net, dtype T, uint64_t Align = default_alignment>
inline constexpr auto plan_of = make_plan<Net, T, Align>();

}  // namespace ctnn::memory
