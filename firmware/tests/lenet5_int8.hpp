// LeNet-5 int8 through ctnn's kernels, shared by the firmware test (QEMU, SoC) and its host twin.
// The host runs the optimized layers (kernels::) and the reference layers (ref::) on the same
// synthetic weights and input and requires them to agree bit for bit; the target runs the
// optimized layers and must print the same per-layer hashes and logits as the host (the CTest
// runner compares the lines), so every layer is checked on the target without the slow reference.
//
//   1x32x32 -conv1 5x5-> 6x28x28 -relu,pool2-> 6x14x14 -conv2 5x5-> 16x10x10 -relu,pool2->
//   16x5x5 = 400 -fc1-> 120 -relu-> -fc2-> 84 -relu-> -fc3-> 10 logits
//
// Weights and input are not trained: an LCG fills them (deterministic, the same on every target).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "ctnn/kernels/geometry.hpp"
#include "ctnn/kernels/layers.hpp"
#include "ctnn/kernels/quant.hpp"
#include "ctnn/kernels/ref_layers.hpp"
#include "ctnn/kernels/reference.hpp"

namespace ctnn_fw::lenet5 {

namespace k = ctnn::kernels;

inline constexpr k::conv_geometry conv1_g{.in_c = 1, .in_h = 32, .in_w = 32, .out_c = 6, .kh = 5, .kw = 5};
inline constexpr k::pool_geometry pool1_g{.c = 6, .in_h = 28, .in_w = 28, .kh = 2, .kw = 2, .sh = 2, .sw = 2};
inline constexpr k::conv_geometry conv2_g{.in_c = 6, .in_h = 14, .in_w = 14, .out_c = 16, .kh = 5, .kw = 5};
inline constexpr k::pool_geometry pool2_g{.c = 16, .in_h = 10, .in_w = 10, .kh = 2, .kw = 2, .sh = 2, .sw = 2};
inline constexpr int fc1_in = 400, fc1_out = 120, fc2_out = 84, fc3_out = 10;

// Requantization scales picked so that the synthetic activations stay mostly inside int8.
inline constexpr ctnn::quant::requant q_conv1 = ctnn::quant::quantize_multiplier(1.0 / 300.0);
inline constexpr ctnn::quant::requant q_fc1 = ctnn::quant::quantize_multiplier(1.0 / 2500.0);
inline constexpr ctnn::quant::requant q_fc2 = ctnn::quant::quantize_multiplier(1.0 / 1200.0);
inline constexpr ctnn::quant::requant q_fc3 = ctnn::quant::quantize_multiplier(1.0 / 150.0);

// conv2 is requantized per output channel: scales 1/2000 .. 1/1250.
struct per_channel_q {
  int32_t multiplier[16];
  int32_t shift[16];
};
inline constexpr per_channel_q q_conv2 = [] {
  per_channel_q q{};
  for (int i = 0; i < 16; ++i) {
    const ctnn::quant::requant r = ctnn::quant::quantize_multiplier(1.0 / (2000.0 - 50.0 * i));
    q.multiplier[i] = r.multiplier;
    q.shift[i] = r.shift;
  }
  return q;
}();

struct tensors {
  int8_t input[1 * 32 * 32];
  int8_t w_conv1[6 * 25];
  int32_t b_conv1[6];
  int8_t w_conv2[16 * 150];
  int32_t b_conv2[16];
  int8_t w_fc1[fc1_out * fc1_in];
  int32_t b_fc1[fc1_out];
  int8_t w_fc2[fc2_out * fc1_out];
  int32_t b_fc2[fc2_out];
  int8_t w_fc3[fc3_out * fc2_out];
  int32_t b_fc3[fc3_out];
};

struct activations {
  int8_t conv1[6 * 28 * 28];
  int8_t pool1[6 * 14 * 14];
  int8_t conv2[16 * 10 * 10];
  int8_t pool2[fc1_in];
  int8_t fc1[fc1_out];
  int8_t fc2[fc2_out];
  int8_t fc3[fc3_out];
};

inline void fill(uint32_t& state, int8_t* p, size_t n, int span) {
  for (size_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    p[i] = static_cast<int8_t>(static_cast<int32_t>((state >> 16) % static_cast<uint32_t>(2 * span + 1)) - span);
  }
}

inline void fill(uint32_t& state, int32_t* p, size_t n, int span) {
  for (size_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    p[i] = static_cast<int32_t>((state >> 8) % static_cast<uint32_t>(2 * span + 1)) - span;
  }
}

inline void make_tensors(tensors& t) {
  uint32_t s = 0x2545f491u;
  fill(s, t.input, sizeof t.input, 127);
  fill(s, t.w_conv1, sizeof t.w_conv1, 100);
  fill(s, t.b_conv1, 6, 2000);
  fill(s, t.w_conv2, sizeof t.w_conv2, 60);
  fill(s, t.b_conv2, 16, 2000);
  fill(s, t.w_fc1, sizeof t.w_fc1, 40);
  fill(s, t.b_fc1, fc1_out, 3000);
  fill(s, t.w_fc2, sizeof t.w_fc2, 60);
  fill(s, t.b_fc2, fc2_out, 3000);
  fill(s, t.w_fc3, sizeof t.w_fc3, 80);
  fill(s, t.b_fc3, fc3_out, 3000);
}

// ReLU layers are fused into the requantization clamp (act_min = out_zp = 0).
inline ctnn::ref::gemm_s8_params params(const int32_t* m, const int32_t* s, bool per_channel, bool relu) {
  return {.a_zp = 0, .b_zp = 0, .out_zp = 0, .multiplier = m, .shift = s, .per_channel = per_channel,
          .act_min = relu ? 0 : -128, .act_max = 127};
}

/// Scratch of the optimized path: the largest of the conv im2col/packing and the fc workspaces.
inline constexpr size_t scratch_bytes = [] {
  size_t n = k::conv2d_s8_scratch_bytes(conv1_g);
  const size_t c2 = k::conv2d_s8_scratch_bytes(conv2_g);
  const size_t f = k::default_s8_tiling::workspace_bytes(fc1_in);
  n = n > c2 ? n : c2;
  return n > f ? n : f;
}();

// One-element multiplier/shift arrays of the per-tensor layers (the params point at them).
inline constexpr int32_t m_conv1[1] = {q_conv1.multiplier}, s_conv1[1] = {q_conv1.shift};
inline constexpr int32_t m_fc1[1] = {q_fc1.multiplier}, s_fc1[1] = {q_fc1.shift};
inline constexpr int32_t m_fc2[1] = {q_fc2.multiplier}, s_fc2[1] = {q_fc2.shift};
inline constexpr int32_t m_fc3[1] = {q_fc3.multiplier}, s_fc3[1] = {q_fc3.shift};

/// The requantization of every layer (ReLU fused into the clamp, except after fc3).
struct layer_params {
  ctnn::ref::gemm_s8_params conv1, conv2, fc1, fc2, fc3;
};
inline layer_params params_of_layers() {
  return {params(m_conv1, s_conv1, false, true), params(q_conv2.multiplier, q_conv2.shift, true, true),
          params(m_fc1, s_fc1, false, true), params(m_fc2, s_fc2, false, true), params(m_fc3, s_fc3, false, false)};
}

/// Runs the network on the CPU; Opt selects the optimized kernels, else the reference ones.
/// Returns 0, or 100 + the number of the layer whose kernel reported an error.
template <bool Opt>
inline int run(const tensors& t, activations& a, void* scratch) {
  const layer_params lp = params_of_layers();
  const auto& p1 = lp.conv1;
  const auto& p2 = lp.conv2;
  const auto& pf1 = lp.fc1;
  const auto& pf2 = lp.fc2;
  const auto& pf3 = lp.fc3;
  k::status st[7];
  if constexpr (Opt) {
    st[0] = k::conv2d_s8(conv1_g, t.input, t.w_conv1, t.b_conv1, a.conv1, p1, scratch, scratch_bytes);
    st[1] = k::max_pool2d(pool1_g, a.conv1, a.pool1);
    st[2] = k::conv2d_s8(conv2_g, a.pool1, t.w_conv2, t.b_conv2, a.conv2, p2, scratch, scratch_bytes);
    st[3] = k::max_pool2d(pool2_g, a.conv2, a.pool2);
    st[4] = k::linear_s8(1, fc1_in, fc1_out, a.pool2, t.w_fc1, t.b_fc1, a.fc1, pf1, scratch, scratch_bytes);
    st[5] = k::linear_s8(1, fc1_out, fc2_out, a.fc1, t.w_fc2, t.b_fc2, a.fc2, pf2, scratch, scratch_bytes);
    st[6] = k::linear_s8(1, fc2_out, fc3_out, a.fc2, t.w_fc3, t.b_fc3, a.fc3, pf3, scratch, scratch_bytes);
  } else {
    st[0] = ctnn::ref::conv2d_s8(conv1_g, t.input, t.w_conv1, t.b_conv1, a.conv1, p1);
    st[1] = ctnn::ref::max_pool2d(pool1_g, a.conv1, a.pool1);
    st[2] = ctnn::ref::conv2d_s8(conv2_g, a.pool1, t.w_conv2, t.b_conv2, a.conv2, p2);
    st[3] = ctnn::ref::max_pool2d(pool2_g, a.conv2, a.pool2);
    st[4] = ctnn::ref::linear_s8(1, fc1_in, fc1_out, a.pool2, t.w_fc1, t.b_fc1, a.fc1, pf1);
    st[5] = ctnn::ref::linear_s8(1, fc1_out, fc2_out, a.fc1, t.w_fc2, t.b_fc2, a.fc2, pf2);
    st[6] = ctnn::ref::linear_s8(1, fc2_out, fc3_out, a.fc2, t.w_fc3, t.b_fc3, a.fc3, pf3);
  }
  for (int i = 0; i < 7; ++i)
    if (st[i] != k::status::ok) return 100 + i;
  return 0;
}

/// FNV-1a hash of each layer's output, in order conv1 pool1 conv2 pool2 fc1 fc2 fc3.
inline void layer_hashes(const activations& a, uint32_t (&h)[7]) {
  const struct {
    const int8_t* p;
    size_t n;
  } layers[] = {{a.conv1, sizeof a.conv1}, {a.pool1, sizeof a.pool1}, {a.conv2, sizeof a.conv2},
                {a.pool2, sizeof a.pool2}, {a.fc1, sizeof a.fc1},     {a.fc2, sizeof a.fc2},
                {a.fc3, sizeof a.fc3}};
  for (int l = 0; l < 7; ++l) {
    uint32_t x = 2166136261u;
    for (size_t i = 0; i < layers[l].n; ++i) x = (x ^ static_cast<uint8_t>(layers[l].p[i])) * 16777619u;
    h[l] = x;
  }
}

inline constexpr const char* layer_names[7] = {"conv1", "pool1", "conv2", "pool2", "fc1", "fc2", "fc3"};

/// 0 when the two runs agree on every layer, else 200 + the first layer that differs.
inline int compare(const activations& x, const activations& y) {
  const struct {
    const int8_t* a;
    const int8_t* b;
    size_t n;
  } layers[] = {{x.conv1, y.conv1, sizeof x.conv1}, {x.pool1, y.pool1, sizeof x.pool1},
                {x.conv2, y.conv2, sizeof x.conv2}, {x.pool2, y.pool2, sizeof x.pool2},
                {x.fc1, y.fc1, sizeof x.fc1},       {x.fc2, y.fc2, sizeof x.fc2},
                {x.fc3, y.fc3, sizeof x.fc3}};
  for (int l = 0; l < 7; ++l)
    for (size_t i = 0; i < layers[l].n; ++i)
      if (layers[l].a[i] != layers[l].b[i]) return 200 + l;
  return 0;
}

/// Logits that all saturate to one value would hide bugs: the test requires them to differ.
inline bool logits_vary(const activations& a) {
  for (int i = 1; i < fc3_out; ++i)
    if (a.fc3[i] != a.fc3[0]) return true;
  return false;
}

}  // namespace ctnn_fw::lenet5
