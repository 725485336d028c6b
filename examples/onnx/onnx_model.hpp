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
  bool nhwc = false;          ///< activation: the ONNX tensor is [1, H, W, C], ctnn's (C, H, W) transposed
  bool integer = false;       ///< constant: an integer element type (int64, int32)
  std::vector<int64_t> dims;  ///< constant: its dims
  std::vector<float> f;       ///< constant: float data (integers converted too)
  std::vector<int64_t> i;     ///< constant: integer data (integer types only)
  static val activation(int32_t id, shape s, bool nhwc = false) {
    val v;
    v.id = id;
    v.s = s;
    v.nhwc = nhwc;
    return v;
  }
};

/// True when constant c holds one value per channel of activation x, broadcast as ONNX would:
/// [C] or [1, C] on a flat or channels-last x, [C, 1, 1] or [1, C, 1, 1] on an [N, C, H, W] x.
inline bool per_channel_of(const val& c, const val& x) {
  if (c.f.size() != static_cast<std::size_t>(x.s.c) || c.dims.empty()) return false;
  if (x.s.rank == 1 || x.nhwc) return c.dims.back() == x.s.c;
  return c.dims.size() >= 3 && c.dims[c.dims.size() - 3] == x.s.c;
}

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
    for (int i = 0; i < g.node_size(); ++i)
      for (const std::string& in : g.node(i).input()) {
        ++uses_[in];
        std::vector<int>& c = consumers_[in];
        if (c.empty() || c.back() != i) c.push_back(i);
      }
    ++uses_[m_.output_name];
    // Constant nodes first: the patterns below look ahead at constants defined after them.
    for (int i = 0; i < g.node_size(); ++i) {
      node_ = &g.node(i);
      if (node_->op_type() == "Constant" && (node_->domain().empty() || node_->domain() == "ai.onnx")) constant_node();
    }
    for (int i = 0; i < g.node_size(); ++i) {
      node_ = &g.node(i);
      if (skip_.count(i)) continue;
      out_nhwc_ = false;
      lower(i, g);
    }
    node_ = nullptr;
    auto it = vals_.find(m_.output_name);
    if (it == vals_.end() || it->second.is_const) fail_model("the graph output '" + m_.output_name + "' is not computed by any node");
    if (it->second.nhwc && (it->second.s.h != 1 || it->second.s.w != 1))
      fail_model("the graph output '" + m_.output_name + "' is channels-last [1, H, W, C] (ctnn's outputs are [1, C, H, W])");
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
  std::map<std::string, std::vector<int>> consumers_;  ///< tensor -> the nodes reading it, in order
  bool out_nhwc_ = false;      ///< the layout of what the current node emits (see val::nhwc)

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
    v.integer = t.data_type() != TensorProto::FLOAT;
    switch (t.data_type()) {
      case TensorProto::FLOAT:
        if (!raw.empty()) {
          if (raw.size() % 4 != 0) fail(what + " has raw data of " + std::to_string(raw.size()) + " bytes");
          need(raw.size() / 4, 4);
          if (reinterpret_cast<std::uintptr_t>(raw.data()) % alignof(float) == 0) {  // one pass, no zero fill first
            const float* p = reinterpret_cast<const float*>(raw.data());
            v.f.assign(p, p + n);
          } else {
            v.f.resize(static_cast<std::size_t>(n));
            std::memcpy(v.f.data(), raw.data(), raw.size());
          }
        } else {
          need(static_cast<std::size_t>(t.float_data_size()), 4);
          v.f.assign(t.float_data().begin(), t.float_data().end());
        }
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
    vals_[in.name()] = val::activation(0, s);
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
  /// An activation in ctnn's layout (C, H, W) or flat.
  const val& act(int k) const {
    const val& v = act_any(k);
    if (v.nhwc)
      fail("input " + std::to_string(k) + " ('" + node_->input(k) +
           "') is channels-last (after a Transpose [0, 2, 3, 1]); ctnn takes it back to [N, C, H, W] first "
           "(channels-last inputs go to MatMul, LayerNorm, elementwise ops and Transpose [0, 3, 1, 2])");
    return v;
  }
  /// An activation in either layout: for ops that work per element or over the channels.
  const val& act_any(int k) const {
    const val& v = input(k);
    if (v.is_const) fail("input " + std::to_string(k) + " ('" + node_->input(k) + "') is a constant where ctnn needs an activation");
    return v;
  }
  /// The const value of tensor t, or null.
  const val* const_of(const std::string& t) const {
    auto it = consts_.find(t);
    if (it != consts_.end()) return &it->second;
    auto v = vals_.find(t);
    return v != vals_.end() && v->second.is_const ? &v->second : nullptr;
  }
  /// The nodes reading tensor t (none for the graph output alone).
  const std::vector<int>& consumers(const std::string& t) const {
    static const std::vector<int> none;
    auto it = consumers_.find(t);
    return it == consumers_.end() ? none : it->second;
  }
  /// The float data of constant input k, moved out when this node is its only reader (the
  /// weights of large models are not copied twice).
  std::vector<float> take(int k, const std::string& what) {
    const val& v = constant(k, what);
    auto it = consts_.find(node_->input(k));
    if (it != consts_.end() && &it->second == &v && single_use(node_->input(k))) return std::move(it->second.f);
    return v.f;
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
    vals_[name] = val::activation(id, o, out_nhwc_);
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
    // the description language's "same" (ctnn::same / same_lower), one definition: core/window.hpp
    const bool upper = ap == "SAME_UPPER";
    pad4 p{};
    same_padding(in.h, k.h, s.h, d.h, upper, p.top, p.bottom);
    same_padding(in.w, k.w, s.w, d.w, upper, p.left, p.right);
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
  void reduce_mean(int index, const onnx::GraphProto& g);
  void reshape(int index, const onnx::GraphProto& g);
  void pad();
  void split();
  void slice();
  void constant_node();
  bool gelu_pattern(int index, const onnx::GraphProto& g);
  bool fold(const std::string& t);
  void transpose();
  void layer_normalization();
  bool layer_norm_pattern(int index, const onnx::GraphProto& g, const val& x);
  void emit_layer_norm(const val& x, const val* gamma, const val* beta, float eps, const std::string& out);
  const NodeProto* sole_consumer(const onnx::GraphProto& g, const std::string& t, int after, int* at) const {
    if (!single_use(t)) return nullptr;
    const std::vector<int>& c = consumers(t);
    if (c.size() != 1 || c[0] <= after) return nullptr;
    *at = c[0];
    return &g.node(c[0]);
  }
};

inline void lowering::lower(int index, const onnx::GraphProto& g) {
  const std::string& t = node_->op_type();
  if (!node_->domain().empty() && node_->domain() != "ai.onnx") fail("operator domain '" + node_->domain() + "' is not supported");
  if (fold(t)) return;  // shape arithmetic over constants
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
  if (t == "ReduceMean") return reduce_mean(index, g);
  if (t == "Reshape") return reshape(index, g);
  if (t == "Pad") return pad();
  if (t == "Split") return split();
  if (t == "Slice") return slice();
  if (t == "Constant") return;  // evaluated before the walk
  if (t == "Transpose") return transpose();
  if (t == "LayerNormalization") return layer_normalization();
  if (t == "Div" && gelu_pattern(index, g)) return;
  auto unary = [&](op k, layer_geometry geom = {}) {  // elementwise: either layout
    const val& x = act_any(0);
    out_nhwc_ = x.nhwc;
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
  p.w = take(1, "the weight");
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
  if (tb && alpha == 1.0f) {  // B is [N][K], ctnn's layout already
    p.w = take(1, "B");
  } else {
    p.w.resize(static_cast<std::size_t>(n * k));
    for (int64_t o = 0; o < n; ++o)
      for (int64_t i = 0; i < k; ++i)
        p.w[static_cast<std::size_t>(o * k + i)] = alpha * b.f[static_cast<std::size_t>(tb ? o * k + i : i * n + o)];
  }
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

/// MatMul by a constant [K, N]: a linear on a flat [1, K] input, a 1x1 convolution on a
/// channels-last [1, H, W, K] one (ConvNeXt's pointwise MLP); a following Add of a constant [N]
/// becomes the bias.
inline void lowering::matmul(int index, const onnx::GraphProto& gr) {
  only_attrs({});
  const val& a = act_any(0);
  const val& b = constant(1, "the right operand");
  if (a.s.rank != 1 && !a.nhwc)
    fail("MatMul of an [N, C, H, W] tensor (ctnn: a flat [1, K] input, or a channels-last [1, H, W, K] one, times a constant [K, N])");
  if (b.dims.size() != 2 || b.dims[0] != a.s.c) fail("the right operand is not [K, N] with K = the input's features or channels");
  const int64_t k = b.dims[0], n = b.dims[1];
  leaf_params p;
  p.w.resize(static_cast<std::size_t>(n * k));
  for (int64_t o = 0; o < n; ++o)
    for (int64_t i = 0; i < k; ++i) p.w[static_cast<std::size_t>(o * k + i)] = b.f[static_cast<std::size_t>(i * n + o)];
  layer_geometry g{};
  g.in_channels = k;
  g.out_channels = n;
  const op kind = a.nhwc ? op::conv2d : op::linear;  // a 1x1 convolution: OIHW = [N][K][1][1]
  out_nhwc_ = a.nhwc;
  std::string out = node_->output(0);
  int at = -1;
  const NodeProto* add = sole_consumer(gr, out, index, &at);
  if (add != nullptr && add->op_type() == "Add") {
    const val* c = const_of(add->input(0) == out ? add->input(1) : add->input(0));
    if (c != nullptr && c->f.size() == static_cast<std::size_t>(n) && !c->dims.empty() && c->dims.back() == n) {
      p.b = c->f;
      g.bias = true;
      skip_.insert(at);
      out = add->output(0);
    }
  }
  emit(kind, g, {a.id}, std::move(p), out);
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
  const val& x = act_any(0);
  out_nhwc_ = x.nhwc;
  auto bound = [&](int k, const char* what, float none) {
    if (!has_input(k)) return none;
    const val& c = constant(k, what);
    if (c.f.size() != 1) fail(std::string(what) + " is not a single value");
    return c.f[0];
  };
  const float lo = bound(1, "min", -INFINITY), hi = bound(2, "max", INFINITY);
  if (std::isnan(lo) || std::isnan(hi) || lo > hi) fail("Clip to [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  if (lo == 0.0f && hi == 6.0f) return (void)emit(op::relu6, {}, {x.id});
  if (lo == 0.0f && hi == INFINITY) return (void)emit(op::relu, {}, {x.id});
  if (lo == INFINITY || hi == -INFINITY) fail("Clip to [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  // any other bounds, open ones included (clamp_min, clamp_max, or no bound at all)
  layer_geometry g{};
  g.alpha = lo;
  g.beta = hi;
  emit(op::clamp, g, {x.id});
}

inline void lowering::binary(bool is_add, int, const onnx::GraphProto&) {
  only_attrs({});
  const val& a = input(0);
  const val& b = input(1);
  if (!a.is_const && !b.is_const) {
    if (a.nhwc != b.nhwc) fail("one operand is channels-last, the other [N, C, H, W]");
    out_nhwc_ = a.nhwc;
    if (is_add) return (void)emit(op::add, {}, {a.id, b.id});
    // x * gate: the full-size operand first
    const bool b_full = b.s.elems() > a.s.elems();
    return (void)emit(op::mul, {}, b_full ? std::vector<int32_t>{b.id, a.id} : std::vector<int32_t>{a.id, b.id});
  }
  const val& x = a.is_const ? b : a;
  const val& c = a.is_const ? a : b;
  if (x.is_const) fail("both operands are constants");
  if (!is_add && x.s.rank == 3 && (per_channel_of(c, x) || c.f.size() == 1)) {  // layer scale, or a scalar
    layer_geometry g{};
    g.in_channels = g.out_channels = x.s.c;
    leaf_params p;
    p.w = c.f.size() == 1 ? std::vector<float>(static_cast<std::size_t>(x.s.c), c.f[0]) : c.f;
    out_nhwc_ = x.nhwc;
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

inline void lowering::reduce_mean(int index, const onnx::GraphProto& gr) {
  only_attrs({"axes", "keepdims"});
  const val& x = act_any(0);
  std::vector<int64_t> axes = attr_ints("axes", {});
  for (int64_t& a : axes)
    if (a < 0) a += 4;
  std::sort(axes.begin(), axes.end());
  if (x.s.rank == 3 && axes == std::vector<int64_t>{x.nhwc ? 3 : 1}) {
    if (layer_norm_pattern(index, gr, x)) return;
    fail("ReduceMean over the channels that does not begin a layer norm ((x - mean) / sqrt(mean((x - mean)^2) + eps) "
         "[* gamma] [+ beta])");
  }
  if (x.s.rank != 3 || axes != (x.nhwc ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{2, 3}))
    fail("ReduceMean over axes other than H and W, or the channels of a layer norm");
  layer_geometry g{};
  g.out_size = hw{1, 1};
  out_nhwc_ = x.nhwc;
  if (attr_int("keepdims", 1) != 0) return (void)emit(op::adaptive_avg_pool2d, g, {x.id});
  const int32_t pooled = emit(op::adaptive_avg_pool2d, g, {x.id}, {}, node_->output(0), ":pool");  // the same values as [1, C]
  out_nhwc_ = false;
  emit(op::flatten, {}, {pooled});
}

/// A layer norm over the channels of x at each position, as exporters decompose it (torch's
/// F.layer_norm below opset 17, ConvNeXt's LayerNorm2d written by hand):
///   m = ReduceMean(x) -> d = Sub(x, m) -> Pow(d, 2) | Mul(d, d) -> ReduceMean -> Add(eps) -> Sqrt
///   -> Div(d, .) [-> Mul(gamma)] [-> Add(beta)]
/// over the last axis of a channels-last x or axis 1 of an [N, C, H, W] x. The current node is
/// the first ReduceMean.
inline bool lowering::layer_norm_pattern(int index, const onnx::GraphProto& gr, const val& x) {
  if (attr_int("keepdims", 1) == 0) return false;
  const std::string xin = node_->input(0), mean = node_->output(0);
  const std::vector<int64_t> axes = attr_ints("axes", {});
  auto next = [&](const std::string& t, const char* op_type, int after, int* at) -> const NodeProto* {
    const NodeProto* n = sole_consumer(gr, t, after, at);
    return n != nullptr && n->op_type() == op_type ? n : nullptr;
  };
  auto other = [](const NodeProto* n, const std::string& t) -> const std::string& {
    return n->input(0) == t ? n->input(1) : n->input(0);
  };
  int a_sub = -1, a_sq = -1, a_rm = -1, a_eps = -1, a_sqrt = -1, a_div = -1;
  const NodeProto* sub = next(mean, "Sub", index, &a_sub);
  if (sub == nullptr || sub->input(0) != xin || sub->input(1) != mean) return false;
  const std::string d = sub->output(0);
  const NodeProto *sq = nullptr, *div = nullptr;
  for (int j : consumers(d)) {
    const NodeProto& n = gr.node(j);
    if (n.op_type() == "Pow" && n.input(0) == d) sq = &n, a_sq = j;
    else if (n.op_type() == "Mul" && n.input_size() == 2 && n.input(0) == d && n.input(1) == d) sq = &n, a_sq = j;
    else if (n.op_type() == "Div" && n.input_size() == 2 && n.input(0) == d) div = &n, a_div = j;
    else return false;
  }
  if (sq == nullptr || div == nullptr || uses_.at(d) != (sq->op_type() == "Mul" ? 3 : 2)) return false;
  if (sq->op_type() == "Pow") {
    const val* two = const_of(sq->input(1));
    if (two == nullptr || two->f.size() != 1 || two->f[0] != 2.0f) return false;
  }
  const NodeProto* rm = next(sq->output(0), "ReduceMean", a_sq, &a_rm);
  if (rm == nullptr) return false;
  std::vector<int64_t> rm_axes;
  int64_t rm_keep = 1;
  for (const AttributeProto& a : rm->attribute()) {
    if (a.name() == "axes") rm_axes.assign(a.ints().begin(), a.ints().end());
    else if (a.name() == "keepdims") rm_keep = a.i();
    else return false;
  }
  if (rm_axes != axes || rm_keep == 0) return false;
  const NodeProto* add = next(rm->output(0), "Add", a_rm, &a_eps);
  if (add == nullptr) return false;
  const val* eps = const_of(other(add, rm->output(0)));
  if (eps == nullptr || eps->f.size() != 1 || !(eps->f[0] >= 0.0f)) return false;
  const NodeProto* root = next(add->output(0), "Sqrt", a_eps, &a_sqrt);
  if (root == nullptr || div->input(1) != root->output(0) || a_div < a_sqrt) return false;
  std::vector<int> matched = {a_sub, a_sq, a_rm, a_eps, a_sqrt, a_div};
  std::string out = div->output(0);
  const val *gamma = nullptr, *beta = nullptr;
  int at = -1, last = a_div;
  if (const NodeProto* mul = next(out, "Mul", last, &at); mul != nullptr) {
    const val* c = const_of(other(mul, out));
    if (c != nullptr && per_channel_of(*c, x)) gamma = c, out = mul->output(0), last = at, matched.push_back(at);
  }
  if (const NodeProto* bias = next(out, "Add", last, &at); bias != nullptr) {
    const val* c = const_of(other(bias, out));
    if (c != nullptr && per_channel_of(*c, x)) beta = c, out = bias->output(0), matched.push_back(at);
  }
  for (int j : matched) skip_.insert(j);
  emit_layer_norm(x, gamma, beta, eps->f[0], out);
  return true;
}

inline void lowering::emit_layer_norm(const val& x, const val* gamma, const val* beta, float eps, const std::string& out) {
  layer_geometry g{};
  g.in_channels = g.out_channels = x.s.c;
  g.epsilon = eps;
  leaf_params p;
  p.w = gamma != nullptr ? gamma->f : std::vector<float>(static_cast<std::size_t>(x.s.c), 1.0f);
  p.b = beta != nullptr ? beta->f : std::vector<float>(static_cast<std::size_t>(x.s.c), 0.0f);
  out_nhwc_ = x.nhwc;
  emit(op::layer_norm2d, g, {x.id}, std::move(p), out);
}

/// LayerNormalization (opset 17) over the channels: the last axis of a channels-last tensor (or
/// axis 1 of a [1, C, 1, 1] one).
inline void lowering::layer_normalization() {
  only_attrs({"axis", "epsilon", "stash_type"});
  for (int k = 1; k < node_->output_size(); ++k)
    if (!node_->output(k).empty() && uses_.count(node_->output(k))) fail("the Mean / InvStdDev outputs are used");
  const val& x = act_any(0);
  const int64_t axis = attr_int("axis", -1);
  const bool channels = x.s.rank == 3 && ((x.nhwc && (axis == -1 || axis == 3)) ||
                                          (!x.nhwc && x.s.h == 1 && x.s.w == 1 && (axis == 1 || axis == -3)));
  if (!channels)
    fail("LayerNormalization over axis " + std::to_string(axis) + (x.nhwc ? " of a channels-last tensor" : " of an [N, C, H, W] tensor") +
         " (ctnn's layer_norm2d normalizes the channels at each position: Transpose [0, 2, 3, 1], then axis -1)");
  const val& gamma = constant(1, "Scale");
  if (!per_channel_of(gamma, x)) fail("Scale is not one value per channel");
  const val* beta = has_input(2) ? &constant(2, "B") : nullptr;
  if (beta != nullptr && !per_channel_of(*beta, x)) fail("B is not one value per channel");
  const float eps = attr_float("epsilon", 1e-5f);
  if (!(eps >= 0.0f)) fail("epsilon must be >= 0");
  emit_layer_norm(x, &gamma, beta, eps, node_->output(0));
}

/// Transpose [0, 2, 3, 1] of a feature map and back [0, 3, 1, 2]: no data moves, the value is
/// marked channels-last (ConvNeXt's LayerNorm2d and its MLP run on NHWC between the two).
inline void lowering::transpose() {
  only_attrs({"perm"});
  const val& x = act_any(0);
  const std::vector<int64_t> perm = attr_ints("perm", {});
  val y = x;
  if (x.s.rank == 3 && !x.nhwc && perm == std::vector<int64_t>{0, 2, 3, 1}) y.nhwc = true;
  else if (x.nhwc && perm == std::vector<int64_t>{0, 3, 1, 2}) y.nhwc = false;
  else {
    std::string txt;
    for (int64_t v : perm) txt += (txt.empty() ? "" : ", ") + std::to_string(v);
    fail("Transpose [" + txt + "] of a " + (x.nhwc ? "channels-last tensor" : "tensor of rank " + std::to_string(x.s.rank == 3 ? 4 : 2)) +
         " (ctnn: [0, 2, 3, 1] to channels-last and [0, 3, 1, 2] back, or a channel shuffle)");
  }
  alias(node_->output(0), y);
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
  if (g.padding == pad4{}) return alias(node_->output(0), x);  // no padding: the identity
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
  val c;
  c.is_const = true;
  if (const AttributeProto* v = attr("value"); v != nullptr && v->has_t()) {
    c = tensor(v->t(), "the value");
  } else if (const AttributeProto* a = attr("value_int"); a != nullptr) {
    c.integer = true;
    c.i = {a->i()};
  } else if (const AttributeProto* b = attr("value_ints"); b != nullptr) {
    c.integer = true;
    c.i.assign(b->ints().begin(), b->ints().end());
    c.dims = {static_cast<int64_t>(c.i.size())};
  } else if (const AttributeProto* d = attr("value_float"); d != nullptr) {
    c.f = {d->f()};
  } else if (const AttributeProto* e = attr("value_floats"); e != nullptr) {
    c.f.assign(e->floats().begin(), e->floats().end());
    c.dims = {static_cast<int64_t>(c.f.size())};
  } else {
    fail("a Constant without a tensor, int(s) or float(s) value");
  }
  if (c.integer && c.f.empty())
    for (int64_t x : c.i) c.f.push_back(static_cast<float>(x));
  consts_[node_->output(0)] = std::move(c);
}

/// Evaluates a node whose inputs are all known at import time: the shape arithmetic exporters
/// write (ShuffleNetV2's x.chunk(2, dim=1): Shape -> Gather -> Add -> Div -> Mul -> Slice), over
/// small int64 (and float) tensors. Shape reads the static shape of an activation. Returns false
/// when the node is not such a computation (it is then lowered to ctnn leaves).
inline bool lowering::fold(const std::string& t) {
  static const std::set<std::string> foldable = {"Identity", "Shape", "Gather", "Unsqueeze", "Squeeze", "Concat", "Add",
                                                 "Sub", "Mul", "Div", "Slice", "Cast", "Reshape"};
  if (!foldable.count(t)) return false;
  if (t == "Shape") {
    only_attrs({"start", "end"});
    const val& x = input(0);
    std::vector<int64_t> d;
    if (x.is_const) d = x.dims;
    else if (x.s.rank == 1) d = {1, x.s.c};
    else if (x.nhwc) d = {1, x.s.h, x.s.w, x.s.c};
    else d = {1, x.s.c, x.s.h, x.s.w};
    const int64_t r = static_cast<int64_t>(d.size());
    auto at = [r](int64_t v) { return std::min(std::max(v < 0 ? v + r : v, int64_t{0}), r); };
    val c;
    c.is_const = c.integer = true;
    for (int64_t k = at(attr_int("start", 0)); k < at(attr_int("end", r)); ++k) c.i.push_back(d[static_cast<std::size_t>(k)]);
    for (int64_t v : c.i) c.f.push_back(static_cast<float>(v));
    c.dims = {static_cast<int64_t>(c.i.size())};
    consts_[node_->output(0)] = std::move(c);
    return true;
  }
  for (int k = 0; k < node_->input_size(); ++k)
    if (has_input(k) && !input(k).is_const) return false;
  const val& a = input(0);
  val c;
  c.is_const = true;
  c.integer = a.integer;
  auto count = [](const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
  };
  auto ints = [&](const val& v, const std::string& what) -> const std::vector<int64_t>& {
    if (!v.integer) fail(what + " is not an integer tensor");
    return v.i;
  };
  auto rank1 = [&](const val& v, const std::string& what) {
    if (v.dims.size() != 1) fail(what + ": ctnn evaluates this op on 1-D constants only");
  };
  // element k of v as the element type of c
  auto put = [&](const val& v, std::size_t k) {
    if (c.integer) c.i.push_back(v.i[k]);
    else c.f.push_back(v.f[k]);
  };
  if (t == "Identity") {
    c = a;
  } else if (t == "Cast") {
    only_attrs({"to"});
    const int64_t to = attr_int("to", 0);
    c.dims = a.dims;
    if (to == TensorProto::INT64 || to == TensorProto::INT32) {
      c.integer = true;
      for (std::size_t k = 0; k < a.f.size(); ++k) c.i.push_back(a.integer ? a.i[k] : static_cast<int64_t>(a.f[k]));
    } else if (to == TensorProto::FLOAT) {
      c.integer = false;
      c.f = a.f;
    } else {
      fail("Cast of a constant to element type " + std::to_string(to) + " (ctnn evaluates int64, int32, float)");
    }
  } else if (t == "Gather") {
    only_attrs({"axis"});
    if (attr_int("axis", 0) != 0) fail("Gather of a constant over an axis other than 0");
    rank1(a, "the data");
    const val& idx = input(1);
    c.dims = idx.dims;
    const int64_t n = a.dims[0];
    for (int64_t v : ints(idx, "the indices")) {
      const int64_t k = v < 0 ? v + n : v;
      if (k < 0 || k >= n) fail("index " + std::to_string(v) + " out of range for " + std::to_string(n) + " values");
      put(a, static_cast<std::size_t>(k));
    }
  } else if (t == "Unsqueeze" || t == "Squeeze") {
    only_attrs({"axes"});
    std::vector<int64_t> axes = has_input(1) ? ints(input(1), "the axes") : attr_ints("axes", {});
    c = a;
    const int64_t r = static_cast<int64_t>(a.dims.size()) + (t == "Unsqueeze" ? static_cast<int64_t>(axes.size()) : 0);
    for (int64_t& x : axes) x = x < 0 ? x + r : x;
    std::sort(axes.begin(), axes.end());
    if (t == "Unsqueeze") {
      for (int64_t x : axes) {
        if (x < 0 || x > static_cast<int64_t>(c.dims.size())) fail("axis out of range");
        c.dims.insert(c.dims.begin() + x, 1);
      }
    } else {
      std::vector<int64_t> d;
      for (int64_t k = 0; k < static_cast<int64_t>(a.dims.size()); ++k) {
        const bool drop = axes.empty() ? a.dims[static_cast<std::size_t>(k)] == 1
                                       : std::find(axes.begin(), axes.end(), k) != axes.end();
        if (!drop) d.push_back(a.dims[static_cast<std::size_t>(k)]);
        else if (a.dims[static_cast<std::size_t>(k)] != 1) fail("Squeeze of an axis whose size is not 1");
      }
      c.dims = d;
    }
  } else if (t == "Reshape") {
    only_attrs({"allowzero"});
    c = a;
    std::vector<int64_t> d = ints(input(1), "the shape");
    int64_t known = 1, infer = -1;
    for (std::size_t k = 0; k < d.size(); ++k) {
      if (d[k] == 0 && k < a.dims.size()) d[k] = a.dims[k];
      if (d[k] == -1) infer = static_cast<int64_t>(k);
      else known *= d[k];
    }
    if (infer >= 0 && known > 0) d[static_cast<std::size_t>(infer)] = count(a.dims) / known;
    if (count(d) != count(a.dims)) fail("Reshape of a constant to a different number of values");
    c.dims = d;
  } else if (t == "Concat") {
    only_attrs({"axis"});
    const int64_t axis = attr_int("axis", 0);
    if (axis != 0 && axis != -1) fail("Concat of constants over an axis other than 0");
    c.dims = {0};
    for (int k = 0; k < node_->input_size(); ++k) {
      const val& v = input(k);
      rank1(v, "input " + std::to_string(k));
      if (v.integer != c.integer) fail("Concat of integer and float constants");
      for (std::size_t e = 0; e < static_cast<std::size_t>(v.dims[0]); ++e) put(v, e);
      c.dims[0] += v.dims[0];
    }
  } else if (t == "Slice") {
    only_attrs({});
    rank1(a, "the data");
    const std::vector<int64_t> st = ints(input(1), "starts"), en = ints(input(2), "ends");
    const std::vector<int64_t> ax = has_input(3) ? ints(input(3), "axes") : std::vector<int64_t>{0};
    const std::vector<int64_t> sp = has_input(4) ? ints(input(4), "steps") : std::vector<int64_t>{1};
    if (st.size() != 1 || en.size() != 1 || ax.size() != 1 || sp.size() != 1 || (ax[0] != 0 && ax[0] != -1) || sp[0] == 0)
      fail("Slice of a 1-D constant with other than one axis and a non-zero step");
    const int64_t n = a.dims[0], step = sp[0];
    auto clampi = [n](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v < 0 ? v + n : v, lo), hi); };
    const int64_t b = step > 0 ? clampi(st[0], 0, n) : clampi(st[0], -1, n - 1);
    const int64_t e = step > 0 ? clampi(en[0], 0, n) : clampi(en[0], -1, n - 1);
    for (int64_t k = b; step > 0 ? k < e : k > e; k += step) put(a, static_cast<std::size_t>(k));
    c.dims = {static_cast<int64_t>(c.integer ? c.i.size() : c.f.size())};
  } else {  // Add, Sub, Mul, Div: same sizes, or one side a single value
    only_attrs({});
    const val& b = input(1);
    if (a.integer != b.integer) fail("an arithmetic op over an integer and a float constant");
    const std::size_t na = a.integer ? a.i.size() : a.f.size(), nb = b.integer ? b.i.size() : b.f.size();
    if (na != nb && na != 1 && nb != 1) fail("broadcasting constants of " + std::to_string(na) + " and " + std::to_string(nb) + " values");
    c.dims = na >= nb ? a.dims : b.dims;
    if (na == nb && a.dims.size() < b.dims.size()) c.dims = b.dims;
    for (std::size_t k = 0; k < std::max(na, nb); ++k) {
      const std::size_t ka = na == 1 ? 0 : k, kb = nb == 1 ? 0 : k;
      if (c.integer) {
        const int64_t x = a.i[ka], y = b.i[kb];
        if (t == "Div" && y == 0) fail("integer division by zero");
        c.i.push_back(t == "Add" ? x + y : t == "Sub" ? x - y : t == "Mul" ? x * y : x / y);
      } else {
        const float x = a.f[ka], y = b.f[kb];
        c.f.push_back(t == "Add" ? x + y : t == "Sub" ? x - y : t == "Mul" ? x * y : x / y);
      }
    }
  }
  if (c.integer) {
    c.f.clear();
    for (int64_t v : c.i) c.f.push_back(static_cast<float>(v));
  }
  consts_[node_->output(0)] = std::move(c);
  return true;
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
  out_nhwc_ = it->second.nhwc;
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
