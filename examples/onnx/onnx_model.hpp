// Host-only: reads an ONNX model (Debian's libonnx: the official protobuf definitions, the
// checker and shape inference) and lowers it to ctnn leaves: one host::graph_node per ctnn leaf,
// with its float32 parameters in ctnn's layouts (weights OIHW or [out][in], bias, batch-norm
// gamma, beta, mean, var). Every refusal is an import_error whose text is one line:
//   FILE: node 'NAME' (OpType): what is wrong
#pragma once
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ctnn/host/runtime_graph.hpp"
#include "onnx_validate.hpp"

namespace ctnn::onnx_import {

/// @brief A refused model: the message is one line naming the file, the node and the fault.
struct import_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief The float32 parameters of one leaf, in ctnn's layouts (empty = absent).
struct leaf_params {
  std::vector<float> w, b, mean, var;
};

/// @brief A model lowered to ctnn leaves.
struct model {
  std::string file;
  shape input{};
  std::string input_name, output_name;
  std::vector<host::graph_node> nodes;
  std::vector<leaf_params> params;      ///< one per node
  std::vector<std::string> outputs;     ///< per node: the ONNX tensor it computes
};

namespace detail {

using onnx::AttributeProto;
using onnx::NodeProto;
using onnx::TensorProto;

/// A value of the graph during lowering: an activation (a ctnn value) or a constant tensor.
struct val {
  bool is_const = false;
  int32_t id = -1;  ///< activation: 0 = input, k = node k
  shape s{};
  std::vector<int64_t> dims;  ///< constant: its dims
  std::vector<float> f;       ///< constant: float data (integers converted too)
  std::vector<int64_t> i;     ///< constant: integer data
};

class lowering {
 public:
  explicit lowering(std::string file) { m_.file = std::move(file); }

  model run(onnx::ModelProto& mp) {
    onnx::GraphProto& g = *mp.mutable_graph();
    for (const TensorProto& t : g.initializer()) consts_[t.name()] = tensor(t, "initializer '" + t.name() + "'");
    std::vector<const onnx::ValueInfoProto*> inputs;
    for (const onnx::ValueInfoProto& v : g.input())
      if (!consts_.count(v.name())) inputs.push_back(&v);
    if (inputs.size() != 1) fail_model("the graph has " + std::to_string(inputs.size()) + " inputs, ctnn takes one");
    set_input(*inputs[0]);
    if (g.output_size() != 1) fail_model("the graph has " + std::to_string(g.output_size()) + " outputs, ctnn takes one");
    m_.output_name = g.output(0).name();
    for (const NodeProto& n : g.node())
      for (const std::string& in : n.input()) ++uses_[in];
    ++uses_[m_.output_name];
    for (int i = 0; i < g.node_size(); ++i) {
      node_ = &g.node(i);
      if (skip_.count(i)) continue;
      lower(i, g);
    }
    node_ = nullptr;
    auto it = vals_.find(m_.output_name);
    if (it == vals_.end() || it->second.is_const) fail_model("the graph output '" + m_.output_name + "' is not computed by any node");
    if (it->second.id != static_cast<int32_t>(m_.nodes.size()))
      fail_model("the graph output is not the last computed value");
    return std::move(m_);
  }

 private:
  model m_;
  const NodeProto* node_ = nullptr;
  std::map<std::string, val> vals_, consts_;
  std::map<std::string, int> uses_;
  std::set<int> skip_;
  std::vector<shape> shapes_;  ///< output shape of node k at k - 1

  [[noreturn]] void fail(const std::string& what) const {
    if (node_ == nullptr) fail_model(what);
    throw import_error(m_.file + ": node '" + node_->name() + "' (" + node_->op_type() + "): " + what);
  }
  [[noreturn]] void fail_model(const std::string& what) const { throw import_error(m_.file + ": " + what); }

  val tensor(const TensorProto& t, const std::string& what) const {
    val v;
    v.is_const = true;
    int64_t n = 1;
    for (int64_t d : t.dims()) {
      if (d < 0) fail(what + " has a negative dimension");
      v.dims.push_back(d);
      n *= d;
    }
    const std::string& raw = t.raw_data();
    auto need = [&](std::size_t have, std::size_t elem) {
      if (have != static_cast<std::size_t>(n))
        fail(what + " holds " + std::to_string(have) + " values, its dims say " + std::to_string(n) +
             (elem ? "" : ""));
    };
    if (t.data_location() == TensorProto::EXTERNAL) fail(what + " uses external data (not supported)");
    switch (t.data_type()) {
      case TensorProto::FLOAT:
        if (!raw.empty()) {
          if (raw.size() % 4 != 0) fail(what + " has raw data of " + std::to_string(raw.size()) + " bytes");
          need(raw.size() / 4, 4);
          v.f.resize(static_cast<std::size_t>(n));
          std::memcpy(v.f.data(), raw.data(), raw.size());
        } else {
          need(static_cast<std::size_t>(t.float_data_size()), 4);
          v.f.assign(t.float_data().begin(), t.float_data().end());
        }
        for (float x : v.f) v.i.push_back(static_cast<int64_t>(x));
        break;
      case TensorProto::INT64:
        if (!raw.empty()) {
          if (raw.size() % 8 != 0) fail(what + " has raw data of " + std::to_string(raw.size()) + " bytes");
          need(raw.size() / 8, 8);
          v.i.resize(static_cast<std::size_t>(n));
          std::memcpy(v.i.data(), raw.data(), raw.size());
        } else {
          need(static_cast<std::size_t>(t.int64_data_size()), 8);
          v.i.assign(t.int64_data().begin(), t.int64_data().end());
        }
        for (int64_t x : v.i) v.f.push_back(static_cast<float>(x));
        break;
      case TensorProto::INT32:
        need(static_cast<std::size_t>(raw.empty() ? t.int32_data_size() : static_cast<int>(raw.size() / 4)), 4);
        if (!raw.empty()) {
          std::vector<int32_t> x(static_cast<std::size_t>(n));
          std::memcpy(x.data(), raw.data(), raw.size());
          v.i.assign(x.begin(), x.end());
        } else {
          v.i.assign(t.int32_data().begin(), t.int32_data().end());
        }
        for (int64_t x : v.i) v.f.push_back(static_cast<float>(x));
        break;
      default: fail(what + " has element type " + std::to_string(t.data_type()) + " (ctnn reads float32, int64, int32)");
    }
    return v;
  }

  void set_input(const onnx::ValueInfoProto& in) {
    m_.input_name = in.name();
    const auto& tt = in.type().tensor_type();
    if (tt.elem_type() != TensorProto::FLOAT) fail_model("the input '" + in.name() + "' is not float32");
    std::vector<int64_t> d;
    for (const auto& dim : tt.shape().dim()) {
      if (!dim.has_dim_value()) fail_model("the input '" + in.name() + "' has a dynamic dimension ('" + dim.dim_param() + "'): export with a fixed shape");
      d.push_back(dim.dim_value());
    }
    if (d.empty() || d[0] != 1) fail_model("the input '" + in.name() + "' must have batch 1 (the runner feeds a batch sample by sample)");
    shape s{};
    if (d.size() == 4) s = shape{d[1], d[2], d[3], 3};
    else if (d.size() == 2) s = features(d[1]);
    else fail_model("the input '" + in.name() + "' must be [1, C, H, W] or [1, F]");
    if (!s.valid()) fail_model("the input '" + in.name() + "' has an empty dimension");
    m_.input = s;
    vals_[in.name()] = val{false, 0, s, {}, {}, {}};
  }

  // ---- attributes
  const AttributeProto* attr(const std::string& name) const {
    for (const AttributeProto& a : node_->attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  int64_t attr_int(const std::string& name, int64_t dflt) const {
    const AttributeProto* a = attr(name);
    return a == nullptr ? dflt : a->i();
  }
  float attr_float(const std::string& name, float dflt) const {
    const AttributeProto* a = attr(name);
    return a == nullptr ? dflt : a->f();
  }
  std::vector<int64_t> attr_ints(const std::string& name, std::vector<int64_t> dflt) const {
    const AttributeProto* a = attr(name);
    if (a == nullptr) return dflt;
    return {a->ints().begin(), a->ints().end()};
  }
  std::string attr_string(const std::string& name, const std::string& dflt) const {
    const AttributeProto* a = attr(name);
    return a == nullptr ? dflt : a->s();
  }
  void only_attrs(std::initializer_list<const char*> known) const {
    for (const AttributeProto& a : node_->attribute()) {
      bool ok = false;
      for (const char* k : known) ok = ok || a.name() == k;
      if (!ok) fail("unsupported attribute '" + a.name() + "'");
    }
  }

  // ---- values
  const val& input(int k) const {
    if (k >= node_->input_size() || node_->input(k).empty()) fail("input " + std::to_string(k) + " is missing");
    const std::string& name = node_->input(k);
    auto it = vals_.find(name);
    if (it != vals_.end()) return it->second;
    auto c = consts_.find(name);
    if (c != consts_.end()) return c->second;
    fail("input '" + name + "' is not computed before this node (a dangling input or a cycle)");
  }
  bool has_input(int k) const { return k < node_->input_size() && !node_->input(k).empty(); }
  const val& act(int k) const {
    const val& v = input(k);
    if (v.is_const) fail("input " + std::to_string(k) + " ('" + node_->input(k) + "') is a constant where ctnn needs an activation");
    return v;
  }
  const val& constant(int k, const std::string& what) const {
    const val& v = input(k);
    if (!v.is_const) fail(what + " ('" + node_->input(k) + "') must be a constant (an initializer)");
    return v;
  }

  /// Appends a ctnn leaf for the current node and binds its output.
  int32_t emit(op kind, const layer_geometry& g, std::vector<int32_t> inputs, leaf_params p = {},
               const std::string& out = "", const std::string& suffix = "") {
    host::graph_node n{kind, g, std::move(inputs), node_->name() + suffix};
    if (n.name.empty()) n.name = (node_->output_size() > 0 ? node_->output(0) : std::string("node")) + suffix;
    // check the leaf now, with the same arithmetic the compiler uses, to name the node on a fault
    std::vector<shape> ins;
    for (int32_t id : n.inputs) ins.push_back(shape_of(id));
    const ctnn::detail::leaf_facts x = visit_kind<all_kinds>(
        kind, [&]<op K>() { return ctnn::detail::describe_leaf<K>(g, ins.data(), static_cast<int32_t>(ins.size())); },
        ctnn::detail::leaf_facts{});
    const fault_report& f = x.fault;
    if (!f.ok()) fail("ctnn rejects it as " + std::string(visit_kind<all_kinds>(kind, []<op K>() { return op_def<K>::type_name; }, "?")) +
                      " (fault " + std::to_string(f.code) + ": expected " + std::to_string(f.expected) + ", got " +
                      std::to_string(f.actual) + ")");
    const shape o = x.out;
    m_.nodes.push_back(std::move(n));
    m_.params.push_back(std::move(p));
    const int32_t id = static_cast<int32_t>(m_.nodes.size());
    const std::string& name = out.empty() ? node_->output(0) : out;
    m_.outputs.push_back(name);
    shapes_.push_back(o);
    vals_[name] = val{false, id, o, {}, {}, {}};
    return id;
  }
  shape shape_of(int32_t id) const { return id == 0 ? m_.input : shapes_[static_cast<std::size_t>(id - 1)]; }
  void alias(const std::string& out, const val& v) { vals_[out] = v; }

  // ---- window attributes (Conv, pools): pads [top, left, bottom, right], auto_pad
  /// The largest kernel, stride, dilation or pad taken: the shape arithmetic stays far from overflow.
  static constexpr int64_t window_limit = int64_t{1} << 20;
  pad4 pads(shape in, hw k, hw s, hw d) const {
    const std::string ap = attr_string("auto_pad", "NOTSET");
    if (ap == "NOTSET") {
      const std::vector<int64_t> p = attr_ints("pads", {0, 0, 0, 0});
      if (p.size() != 4) fail("pads must have 4 values for a 2-D window");
      for (int64_t x : p) {
        if (x < 0) fail("negative pads");
        if (x > window_limit) fail("pads out of range (at most " + std::to_string(window_limit) + ")");
      }
      return pad4{p[0], p[2], p[1], p[3]};
    }
    if (ap == "VALID") return pad4{};
    if (ap != "SAME_UPPER" && ap != "SAME_LOWER") fail("unknown auto_pad '" + ap + "'");
    auto same = [&](int64_t n, int64_t kk, int64_t ss, int64_t dd, int64_t& lo, int64_t& hi) {
      const int64_t out = (n + ss - 1) / ss;
      const int64_t total = std::max<int64_t>(0, (out - 1) * ss + (kk - 1) * dd + 1 - n);
      lo = ap == "SAME_UPPER" ? total / 2 : total - total / 2;
      hi = total - lo;
    };
    pad4 p{};
    same(in.h, k.h, s.h, d.h, p.top, p.bottom);
    same(in.w, k.w, s.w, d.w, p.left, p.right);
    return p;
  }
  hw pair(const std::string& name, hw dflt) const {
    const std::vector<int64_t> v = attr_ints(name, {dflt.h, dflt.w});
    if (v.size() != 2) fail(name + " must have 2 values for a 2-D window");
    if (v[0] <= 0 || v[1] <= 0) fail(name + " must be positive");
    if (v[0] > window_limit || v[1] > window_limit) fail(name + " out of range (at most " + std::to_string(window_limit) + ")");
    return hw{v[0], v[1]};
  }

  static bool near(float a, double b) { return std::fabs(static_cast<double>(a) - b) <= 1e-6 * (1.0 + std::fabs(b)); }
  bool single_use(const std::string& t) const {
    auto it = uses_.find(t);
    return it != uses_.end() && it->second == 1;
  }

  // ---- the ops
  void lower(int index, const onnx::GraphProto& g);
  void conv();
  void linear_gemm();
  void matmul(int index, const onnx::GraphProto& g);
  void batch_norm();
  void pool(bool is_max);
  void clip();
  void binary(bool is_add, int index, const onnx::GraphProto& g);
  void concat();
  void reduce_mean();
  void reshape(int index, const onnx::GraphProto& g);
  void pad();
  void split();
  void slice();
  void constant_node();
  bool gelu_pattern(int index, const onnx::GraphProto& g);
  const NodeProto* sole_consumer(const onnx::GraphProto& g, const std::string& t, int after, int* at) const {
    if (!single_use(t)) return nullptr;
    for (int j = after + 1; j < g.node_size(); ++j)
      for (const std::string& in : g.node(j).input())
        if (in == t) {
          *at = j;
          return &g.node(j);
        }
    return nullptr;
  }
};

inline void lowering::lower(int index, const onnx::GraphProto& g) {
  const std::string& t = node_->op_type();
  if (!node_->domain().empty() && node_->domain() != "ai.onnx") fail("operator domain '" + node_->domain() + "' is not supported");
  if (t == "Conv") return conv();
  if (t == "Gemm") return linear_gemm();
  if (t == "MatMul") return matmul(index, g);
  if (t == "BatchNormalization") return batch_norm();
  if (t == "MaxPool") return pool(true);
  if (t == "AveragePool") return pool(false);
  if (t == "Clip") return clip();
  if (t == "Add") return binary(true, index, g);
  if (t == "Mul") return binary(false, index, g);
  if (t == "Concat") return concat();
  if (t == "ReduceMean") return reduce_mean();
  if (t == "Reshape") return reshape(index, g);
  if (t == "Pad") return pad();
  if (t == "Split") return split();
  if (t == "Slice") return slice();
  if (t == "Constant") return constant_node();
  if (t == "Div" && gelu_pattern(index, g)) return;
  auto unary = [&](op k, layer_geometry geom = {}) {
    const val& x = act(0);
    emit(k, geom, {x.id});
  };
  if (t == "Relu") return only_attrs({}), unary(op::relu);
  if (t == "Sigmoid") return only_attrs({}), unary(op::sigmoid);
  if (t == "Tanh") return only_attrs({}), unary(op::tanh);
  if (t == "HardSwish") return only_attrs({}), unary(op::hardswish);
  if (t == "Gelu") {
    only_attrs({"approximate"});
    const std::string a = attr_string("approximate", "none");
    layer_geometry geom{};
    geom.variant = a == "tanh" ? 1 : 0;
    if (a != "none" && a != "tanh") fail("unknown approximate '" + a + "'");
    return unary(op::gelu, geom);
  }
  if (t == "HardSigmoid") {
    only_attrs({"alpha", "beta"});
    if (!near(attr_float("alpha", 0.2f), 1.0 / 6.0) || !near(attr_float("beta", 0.5f), 0.5))
      fail("HardSigmoid with alpha " + std::to_string(attr_float("alpha", 0.2f)) +
           " (ctnn's hardsigmoid is PyTorch's: alpha 1/6, beta 0.5)");
    return unary(op::hardsigmoid);
  }
  if (t == "LeakyRelu") {
    only_attrs({"alpha"});
    layer_geometry geom{};
    geom.alpha = attr_float("alpha", 0.01f);
    return unary(op::leaky_relu, geom);
  }
  if (t == "GlobalAveragePool") {
    layer_geometry geom{};
    geom.out_size = hw{1, 1};
    return unary(op::adaptive_avg_pool2d, geom);
  }
  if (t == "Flatten") {
    only_attrs({"axis"});
    if (attr_int("axis", 1) != 1) fail("Flatten axis " + std::to_string(attr_int("axis", 1)) + " (ctnn flattens from axis 1)");
    return unary(op::flatten);
  }
  if (t == "Softmax") {
    only_attrs({"axis"});
    const int64_t axis = attr_int("axis", -1);
    const val& x = act(0);
    if (!(axis == 1 || (axis == -1 && x.s.rank == 1))) fail("Softmax over axis " + std::to_string(axis) + " (ctnn: over the channels)");
    return unary(op::softmax);
  }
  if (t == "Dropout" || t == "Identity") {  // the identity at inference
    alias(node_->output(0), input(0));
    return;
  }
  fail("unsupported operator");
}

inline void lowering::conv() {
  only_attrs({"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"});
  const val& x = act(0);
  const val& w = constant(1, "the weight");
  if (x.s.rank != 3) fail("the input is not a feature map");
  if (w.dims.size() != 4) fail("the weight is not 4-D (ctnn convolutions are 2-D)");
  const int64_t groups = attr_int("group", 1);
  if (groups <= 0) fail("group must be positive");
  layer_geometry g{};
  g.kernel = pair("kernel_shape", hw{w.dims[2], w.dims[3]});
  if (g.kernel.h != w.dims[2] || g.kernel.w != w.dims[3]) fail("kernel_shape differs from the weight's");
  g.stride = pair("strides", hw{1, 1});
  g.dilation = pair("dilations", hw{1, 1});
  g.padding = pads(x.s, g.kernel, g.stride, g.dilation);
  g.groups = groups;
  g.in_channels = x.s.c;
  g.out_channels = w.dims[0];
  if (w.dims[1] * groups != x.s.c)
    fail("the weight has " + std::to_string(w.dims[1]) + " input channels per group, the input " + std::to_string(x.s.c) +
         " channels in " + std::to_string(groups) + " groups");
  leaf_params p;
  p.w = w.f;
  if (has_input(2)) {
    const val& b = constant(2, "the bias");
    if (b.f.size() != static_cast<std::size_t>(g.out_channels)) fail("the bias has " + std::to_string(b.f.size()) + " values, not out_channels");
    p.b = b.f;
    g.bias = true;
  }
  emit(op::conv2d, g, {x.id}, std::move(p));
}

inline void lowering::linear_gemm() {
  only_attrs({"alpha", "beta", "transA", "transB"});
  const val& a = act(0);
  const val& b = constant(1, "B");
  if (attr_int("transA", 0) != 0) fail("transA = 1 (ctnn's linear takes the activation as A)");
  if (a.s.rank != 1) fail("A is a feature map; Gemm needs a flat [1, K] input (insert Flatten)");
  if (b.dims.size() != 2) fail("B is not 2-D");
  const bool tb = attr_int("transB", 0) != 0;
  const int64_t k = tb ? b.dims[1] : b.dims[0], n = tb ? b.dims[0] : b.dims[1];
  if (k != a.s.c) fail("B has K = " + std::to_string(k) + ", the input " + std::to_string(a.s.c) + " features");
  const float alpha = attr_float("alpha", 1.0f), beta = attr_float("beta", 1.0f);
  leaf_params p;
  p.w.resize(static_cast<std::size_t>(n * k));
  for (int64_t o = 0; o < n; ++o)
    for (int64_t i = 0; i < k; ++i)
      p.w[static_cast<std::size_t>(o * k + i)] = alpha * b.f[static_cast<std::size_t>(tb ? o * k + i : i * n + o)];
  layer_geometry g{};
  g.in_channels = k;
  g.out_channels = n;
  if (has_input(2)) {
    const val& c = constant(2, "C");
    if (c.f.size() != static_cast<std::size_t>(n)) fail("C must hold one value per output (no other broadcast)");
    p.b.resize(c.f.size());
    for (std::size_t i = 0; i < c.f.size(); ++i) p.b[i] = beta * c.f[i];
    g.bias = true;
  }
  emit(op::linear, g, {a.id}, std::move(p));
}

inline void lowering::matmul(int index, const onnx::GraphProto& gr) {
  only_attrs({});
  const val& a = act(0);
  const val& b = constant(1, "the right operand");
  if (a.s.rank != 1) fail("MatMul of a feature map (ctnn: a flat [1, K] input times a constant [K, N])");
  if (b.dims.size() != 2 || b.dims[0] != a.s.c) fail("the right operand is not [K, N] with K = the input's features");
  const int64_t k = b.dims[0], n = b.dims[1];
  leaf_params p;
  p.w.resize(static_cast<std::size_t>(n * k));
  for (int64_t o = 0; o < n; ++o)
    for (int64_t i = 0; i < k; ++i) p.w[static_cast<std::size_t>(o * k + i)] = b.f[static_cast<std::size_t>(i * n + o)];
  layer_geometry g{};
  g.in_channels = k;
  g.out_channels = n;
  // MatMul + Add(constant [N]): one linear with bias
  int at = -1;
  const NodeProto* add = sole_consumer(gr, node_->output(0), index, &at);
  if (add != nullptr && add->op_type() == "Add") {
    const std::string& other = add->input(0) == node_->output(0) ? add->input(1) : add->input(0);
    auto c = consts_.find(other);
    if (c != consts_.end() && c->second.f.size() == static_cast<std::size_t>(n)) {
      p.b = c->second.f;
      g.bias = true;
      skip_.insert(at);
      emit(op::linear, g, {a.id}, std::move(p), add->output(0));
      return;
    }
  }
  emit(op::linear, g, {a.id}, std::move(p));
}

inline void lowering::batch_norm() {
  only_attrs({"epsilon", "momentum", "training_mode"});
  if (attr_int("training_mode", 0) != 0) fail("training_mode = 1");
  if (node_->output_size() > 1) fail("the training outputs (running mean and variance) are used");
  const val& x = act(0);
  const int64_t c = x.s.c;
  leaf_params p;
  std::vector<float>* dst[4] = {&p.w, &p.b, &p.mean, &p.var};
  const char* what[4] = {"scale", "B", "input_mean", "input_var"};
  for (int k = 0; k < 4; ++k) {
    const val& v = constant(k + 1, what[k]);
    if (v.f.size() != static_cast<std::size_t>(c)) fail(std::string(what[k]) + " has " + std::to_string(v.f.size()) + " values for " + std::to_string(c) + " channels");
    *dst[k] = v.f;
  }
  layer_geometry g{};
  g.in_channels = g.out_channels = c;
  g.epsilon = attr_float("epsilon", 1e-5f);
  if (!(g.epsilon >= 0.0f)) fail("epsilon must be >= 0");
  emit(op::batch_norm2d, g, {x.id}, std::move(p));
}

inline void lowering::pool(bool is_max) {
  if (is_max) only_attrs({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"});
  else only_attrs({"auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides"});
  if (node_->output_size() > 1 && !node_->output(1).empty()) fail("the Indices output is used");
  const val& x = act(0);
  if (x.s.rank != 3) fail("the input is not a feature map");
  if (attr(std::string("kernel_shape")) == nullptr) fail("kernel_shape is missing");
  layer_geometry g{};
  g.kernel = pair("kernel_shape", hw{1, 1});
  g.stride = pair("strides", hw{1, 1});
  g.dilation = is_max ? pair("dilations", hw{1, 1}) : hw{1, 1};
  g.padding = pads(x.s, g.kernel, g.stride, g.dilation);
  g.ceil_mode = attr_int("ceil_mode", 0) != 0;
  g.count_include_pad = is_max || attr_int("count_include_pad", 0) != 0;
  emit(is_max ? op::max_pool2d : op::avg_pool2d, g, {x.id});
}

inline void lowering::clip() {
  only_attrs({});
  const val& x = act(0);
  const float lo = has_input(1) ? constant(1, "min").f.at(0) : -INFINITY;
  const float hi = has_input(2) ? constant(2, "max").f.at(0) : INFINITY;
  if (lo == 0.0f && hi == 6.0f) return (void)emit(op::relu6, {}, {x.id});
  if (lo == 0.0f && hi == INFINITY) return (void)emit(op::relu, {}, {x.id});
  fail("Clip to [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (ctnn has [0, 6] and [0, inf))");
}

inline void lowering::binary(bool is_add, int, const onnx::GraphProto&) {
  only_attrs({});
  const val& a = input(0);
  const val& b = input(1);
  if (!a.is_const && !b.is_const) {
    if (is_add) return (void)emit(op::add, {}, {a.id, b.id});
    // x * gate: the full-size operand first
    const bool b_full = b.s.elems() > a.s.elems();
    return (void)emit(op::mul, {}, b_full ? std::vector<int32_t>{b.id, a.id} : std::vector<int32_t>{a.id, b.id});
  }
  const val& x = a.is_const ? b : a;
  const val& c = a.is_const ? a : b;
  if (x.is_const) fail("both operands are constants");
  if (!is_add && x.s.rank == 3 && c.f.size() == static_cast<std::size_t>(x.s.c)) {  // layer scale
    layer_geometry g{};
    g.in_channels = g.out_channels = x.s.c;
    leaf_params p;
    p.w = c.f;
    return (void)emit(op::channel_scale, g, {x.id}, std::move(p));
  }
  fail(std::string(is_add ? "Add" : "Mul") + " of an activation and a constant of " + std::to_string(c.f.size()) +
       " values (ctnn folds a bias into the layer before it, a per-channel scale into LayerScale)");
}

inline void lowering::concat() {
  only_attrs({"axis"});
  const int64_t axis = attr_int("axis", 0);
  std::vector<int32_t> ids;
  for (int k = 0; k < node_->input_size(); ++k) ids.push_back(act(k).id);
  const int rank = act(0).s.rank;
  if (!((rank == 3 && (axis == 1 || axis == -3)) || (rank == 1 && (axis == 1 || axis == -1))))
    fail("Concat over axis " + std::to_string(axis) + " (ctnn concatenates channels)");
  emit(op::concat, {}, ids);
}

inline void lowering::reduce_mean() {
  only_attrs({"axes", "keepdims"});
  const val& x = act(0);
  std::vector<int64_t> axes = attr_ints("axes", {});
  for (int64_t& a : axes)
    if (a < 0) a += 4;
  std::sort(axes.begin(), axes.end());
  if (x.s.rank != 3 || axes != std::vector<int64_t>{2, 3}) fail("ReduceMean over axes other than H and W");
  layer_geometry g{};
  g.out_size = hw{1, 1};
  if (attr_int("keepdims", 1) != 0) return (void)emit(op::adaptive_avg_pool2d, g, {x.id});
  const int32_t pooled = emit(op::adaptive_avg_pool2d, g, {x.id}, {}, node_->output(0) + ":pool", ":pool");
  emit(op::flatten, {}, {pooled});
}

inline void lowering::reshape(int index, const onnx::GraphProto& gr) {
  only_attrs({"allowzero"});
  const val& x = act(0);
  const val& s = constant(1, "the shape");
  std::vector<int64_t> d = s.i;
  // ShuffleNet's channel shuffle: Reshape [1, G, C/G, H, W] -> Transpose [0, 2, 1, 3, 4] -> Reshape [1, C, H, W]
  if (d.size() == 5 && x.s.rank == 3 && d[0] == 1 && d[1] * d[2] == x.s.c && d[3] == x.s.h && d[4] == x.s.w) {
    int at1 = -1, at2 = -1;
    const NodeProto* tr = sole_consumer(gr, node_->output(0), index, &at1);
    const NodeProto* back = tr != nullptr ? sole_consumer(gr, tr->output(0), at1, &at2) : nullptr;
    bool perm_ok = false;
    if (tr != nullptr && tr->op_type() == "Transpose")
      for (const AttributeProto& a : tr->attribute())
        if (a.name() == "perm") perm_ok = std::vector<int64_t>(a.ints().begin(), a.ints().end()) == std::vector<int64_t>{0, 2, 1, 3, 4};
    if (perm_ok && back != nullptr && back->op_type() == "Reshape") {
      auto c = consts_.find(back->input(1));
      if (c != consts_.end() && c->second.i.size() == 4 && (c->second.i[1] == x.s.c || c->second.i[1] == -1)) {
        layer_geometry g{};
        g.groups = d[1];
        skip_.insert(at1);
        skip_.insert(at2);
        emit(op::channel_shuffle, g, {x.id}, {}, back->output(0));
        return;
      }
    }
    fail("a 5-D reshape that is not a channel shuffle (Reshape, Transpose [0, 2, 1, 3, 4], Reshape)");
  }
  const int64_t n = x.s.elems();
  if (d.size() == 2 && d[0] == 1 && (d[1] == -1 || d[1] == n)) return (void)emit(op::flatten, {}, {x.id});
  if (d.size() == 2 && d[0] == -1 && d[1] == n) return (void)emit(op::flatten, {}, {x.id});
  std::string txt;
  for (int64_t v : d) txt += (txt.empty() ? "" : ", ") + std::to_string(v);
  fail("Reshape to [" + txt + "] (ctnn reshapes a feature map to [1, C*H*W] only)");
}

inline void lowering::pad() {
  only_attrs({"mode"});
  if (attr_string("mode", "constant") != "constant") fail("Pad mode '" + attr_string("mode", "constant") + "' (ctnn pads with zeros)");
  const val& x = act(0);
  const val& p = constant(1, "pads");
  if (has_input(2) && constant(2, "constant_value").f.at(0) != 0.0f) fail("a non-zero constant_value");
  if (x.s.rank != 3 || p.i.size() != 8 || p.i[0] != 0 || p.i[1] != 0 || p.i[4] != 0 || p.i[5] != 0)
    fail("Pad other than on H and W of a feature map");
  layer_geometry g{};
  g.padding = pad4{p.i[2], p.i[6], p.i[3], p.i[7]};
  emit(op::zero_pad2d, g, {x.id});
}

inline void lowering::split() {
  only_attrs({"axis", "split"});
  const val& x = act(0);
  const int64_t axis = attr_int("axis", 0);
  if (x.s.rank != 3 || !(axis == 1 || axis == -3)) fail("Split over an axis other than the channels");
  std::vector<int64_t> sizes = has_input(1) ? constant(1, "split").i : attr_ints("split", {});
  const int64_t parts = node_->output_size();
  if (sizes.empty()) {
    if (x.s.c % parts != 0) fail("channels do not split evenly");
    sizes.assign(static_cast<std::size_t>(parts), x.s.c / parts);
  }
  if (static_cast<int64_t>(sizes.size()) != parts) fail("split sizes differ from the number of outputs");
  int64_t first = 0;
  for (int64_t k = 0; k < parts; ++k) {
    layer_geometry g{};
    g.first_channel = first;
    g.out_channels = sizes[static_cast<std::size_t>(k)];
    emit(op::channel_slice, g, {x.id}, {}, node_->output(static_cast<int>(k)), ":" + std::to_string(k));
    first += g.out_channels;
  }
}

inline void lowering::slice() {
  only_attrs({});
  const val& x = act(0);
  const std::vector<int64_t> starts = constant(1, "starts").i, ends = constant(2, "ends").i;
  const std::vector<int64_t> axes = has_input(3) ? constant(3, "axes").i : std::vector<int64_t>{0};
  const std::vector<int64_t> steps = has_input(4) ? constant(4, "steps").i : std::vector<int64_t>{1};
  if (x.s.rank != 3 || starts.size() != 1 || axes.size() != 1 || !(axes[0] == 1 || axes[0] == -3) || steps.at(0) != 1)
    fail("Slice other than a contiguous range of channels");
  const int64_t c = x.s.c;
  auto clampi = [c](int64_t v) { return std::min(std::max(v < 0 ? v + c : v, int64_t{0}), c); };
  layer_geometry g{};
  g.first_channel = clampi(starts[0]);
  g.out_channels = clampi(ends.at(0)) - g.first_channel;
  if (g.out_channels <= 0) fail("an empty slice");
  emit(op::channel_slice, g, {x.id});
}

inline void lowering::constant_node() {
  const AttributeProto* v = attr("value");
  if (v == nullptr || !v->has_t()) fail("a Constant other than a tensor value");
  consts_[node_->output(0)] = tensor(v->t(), "the value");
}

/// torch's exact GELU: Div(x, sqrt 2) -> Erf -> Add(1) -> Mul(x) -> Mul(0.5), in any operand order.
inline bool lowering::gelu_pattern(int index, const onnx::GraphProto& gr) {
  auto it = vals_.find(node_->input(0));
  auto c = consts_.find(node_->input(1));
  if (it == vals_.end() || it->second.is_const || c == consts_.end() || c->second.f.size() != 1 ||
      !near(c->second.f[0], std::sqrt(2.0)))
    return false;
  const std::string x = node_->input(0);
  int a1 = -1, a2 = -1, a3 = -1, a4 = -1;
  const NodeProto* erf = sole_consumer(gr, node_->output(0), index, &a1);
  if (erf == nullptr || erf->op_type() != "Erf") return false;
  const NodeProto* add = sole_consumer(gr, erf->output(0), a1, &a2);
  if (add == nullptr || add->op_type() != "Add") return false;
  const std::string& one = add->input(0) == erf->output(0) ? add->input(1) : add->input(0);
  auto k1 = consts_.find(one);
  if (k1 == consts_.end() || k1->second.f.size() != 1 || k1->second.f[0] != 1.0f) return false;
  const NodeProto* mul = sole_consumer(gr, add->output(0), a2, &a3);
  if (mul == nullptr || mul->op_type() != "Mul") return false;
  const std::string& xx = mul->input(0) == add->output(0) ? mul->input(1) : mul->input(0);
  if (xx != x) return false;
  const NodeProto* half = sole_consumer(gr, mul->output(0), a3, &a4);
  if (half == nullptr || half->op_type() != "Mul") return false;
  const std::string& h = half->input(0) == mul->output(0) ? half->input(1) : half->input(0);
  auto k2 = consts_.find(h);
  if (k2 == consts_.end() || k2->second.f.size() != 1 || k2->second.f[0] != 0.5f) return false;
  skip_.insert(a1);
  skip_.insert(a2);
  skip_.insert(a3);
  skip_.insert(a4);
  emit(op::gelu, {}, {it->second.id}, {}, half->output(0));
  return true;
}

}  // namespace detail

/// @brief Reads, checks and lowers the ONNX model in `path`. Throws import_error.
inline model read(const std::string& path) {
  onnx::ModelProto mp;
  // unreadable, not ONNX, truncated, cycles, dangling inputs, initializer sizes, input shape
  if (const std::string fault = load_model(path, mp); !fault.empty()) throw import_error(fault);
  try {
    onnx::checker::check_model(mp);
  } catch (const std::exception& e) {
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    throw import_error(path + ": the ONNX checker refuses it: " + what);
  }
  try {
    onnx::shape_inference::InferShapes(mp);
  } catch (const std::exception& e) {
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    throw import_error(path + ": ONNX shape inference fails: " + what);
  }
  return detail::lowering(path).run(mp);
}

}  // namespace ctnn::onnx_import
