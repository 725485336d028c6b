"""A small ONNX interpreter on PyTorch ops that keeps every intermediate tensor.

onnxruntime is not installed and onnx 1.12 has no reference evaluator, so this runs a graph
node by node (the graph's node order is topological, as ONNX requires) with torch.nn.functional
and returns every tensor by name. It implements the ops the exported test models use (see
tests/onnx/op_inventory.py), following the ONNX opset-13 definitions: Conv and the pools with
pads [begin..., end...] (asymmetric too) and auto_pad, Clip with min/max inputs, Split/Slice/Pad
with their inputs, Reshape with 0 and -1, ReduceMean axes, Gemm transA/transB/alpha/beta.
An op it does not know raises NotImplementedError naming the node.

    values = run_graph(onnx.load(path), {"input": array})   # name -> torch.Tensor
"""

import math

import numpy as np
import torch
import torch.nn.functional as F
from onnx import helper, numpy_helper

_CAST = {1: torch.float32, 6: torch.int32, 7: torch.int64, 9: torch.bool, 10: torch.float16,
         11: torch.float64}


def attrs(node):
    """The node's attributes as a dict of Python values (bytes decoded)."""
    out = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        out[a.name] = v.decode() if isinstance(v, bytes) else v
    return out


def spatial_pads(node_attrs, in_sizes, kernel, strides, dilations):
    """(begins, ends) per spatial axis from pads or auto_pad (SAME_UPPER, SAME_LOWER, VALID)."""
    n = len(in_sizes)
    auto = node_attrs.get("auto_pad", "NOTSET")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        begins, ends = [], []
        for size, k, s, d in zip(in_sizes, kernel, strides, dilations):
            total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
            small, large = total // 2, total - total // 2
            begins.append(small if auto == "SAME_UPPER" else large)
            ends.append(large if auto == "SAME_UPPER" else small)
        return begins, ends
    if auto == "VALID":
        return [0] * n, [0] * n
    pads = list(node_attrs.get("pads", [0] * (2 * n)))
    return pads[:n], pads[n:]


def _torch_pad(begins, ends):
    """F.pad's argument (last axis first) from ONNX begins/ends."""
    out = []
    for b, e in zip(reversed(begins), reversed(ends)):
        out += [b, e]
    return out


def _window(node_attrs, x, kernel=None):
    kernel = list(kernel or node_attrs["kernel_shape"])
    n = len(kernel)
    strides = list(node_attrs.get("strides", [1] * n))
    dilations = list(node_attrs.get("dilations", [1] * n))
    begins, ends = spatial_pads(node_attrs, x.shape[2:], kernel, strides, dilations)
    return kernel, strides, dilations, begins, ends


def op_conv(node, a, x, w, b=None):
    kernel, strides, dilations, begins, ends = _window(a, x, w.shape[2:])
    if begins != ends:
        x, begins = F.pad(x, _torch_pad(begins, ends)), [0] * len(begins)
    return F.conv2d(x, w, b, stride=strides, padding=begins, dilation=dilations,
                    groups=a.get("group", 1))


def op_maxpool(node, a, x):
    kernel, strides, dilations, begins, ends = _window(a, x)
    if begins != ends or any(2 * p > k for p, k in zip(begins, kernel)):
        x, begins = F.pad(x, _torch_pad(begins, ends), value=-math.inf), [0] * len(begins)
    return F.max_pool2d(x, kernel, strides, begins, dilations, ceil_mode=bool(a.get("ceil_mode", 0)))


def op_avgpool(node, a, x):
    kernel, strides, _, begins, ends = _window(a, x)
    if begins != ends:
        raise NotImplementedError(f"{node.name}: AveragePool with asymmetric pads")
    return F.avg_pool2d(x, kernel, strides, begins, ceil_mode=bool(a.get("ceil_mode", 0)),
                        count_include_pad=bool(a.get("count_include_pad", 0)))


def op_batchnorm(node, a, x, scale, bias, mean, var):
    return F.batch_norm(x, mean, var, scale, bias, False, 0.0, a.get("epsilon", 1e-5))


def op_clip(node, a, x, lo=None, hi=None):
    lo = None if lo is None else float(lo)
    hi = None if hi is None else float(hi)
    return torch.clamp(x, lo, hi)


def op_gemm(node, a, A, B, C=None):
    A = A.t() if a.get("transA", 0) else A
    B = B.t() if a.get("transB", 0) else B
    y = a.get("alpha", 1.0) * (A @ B)
    return y if C is None else y + a.get("beta", 1.0) * C


def op_flatten(node, a, x):
    axis = a.get("axis", 1)
    axis = axis + x.dim() if axis < 0 else axis
    return x.reshape(int(np.prod(x.shape[:axis])), -1)


def op_reshape(node, a, x, shape):
    shape = [int(s) for s in shape.tolist()]
    if not a.get("allowzero", 0):
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return x.reshape(shape)


def op_split(node, a, x, split=None):
    axis = a.get("axis", 0)
    if split is None:
        n = len(node.output)
        sizes = [x.shape[axis] // n] * n
    else:
        sizes = [int(s) for s in split.tolist()]
    return list(torch.split(x, sizes, dim=axis))


def op_slice(node, a, x, starts, ends, axes=None, steps=None):
    axes = list(range(len(starts))) if axes is None else [int(v) for v in axes.tolist()]
    steps = [1] * len(axes) if steps is None else [int(v) for v in steps.tolist()]
    index = [slice(None)] * x.dim()
    for ax, s, e, st in zip(axes, starts.tolist(), ends.tolist(), steps):
        if st < 0:
            raise NotImplementedError(f"{node.name}: Slice with a negative step")
        index[ax] = slice(int(s), min(int(e), x.shape[ax]) if e > 0 else int(e), st)
    return x[tuple(index)]


def op_reduce_mean(node, a, x):
    axes = a.get("axes", list(range(x.dim())))
    return x.mean(dim=list(axes), keepdim=bool(a.get("keepdims", 1)))


def op_pad(node, a, x, pads, value=None):
    pads = [int(p) for p in pads.tolist()]
    n = x.dim()
    torch_pads = _torch_pad(pads[:n], pads[n:])
    mode = {"constant": "constant", "reflect": "reflect", "edge": "replicate"}[a.get("mode", "constant")]
    if mode == "constant":
        return F.pad(x, torch_pads, value=0.0 if value is None else float(value))
    while len(torch_pads) > 2 and torch_pads[-2:] == [0, 0]:
        torch_pads = torch_pads[:-2]  # torch pads the last axes only in these modes
    return F.pad(x, torch_pads, mode=mode)


def op_layer_norm(node, a, x, scale, bias=None):
    """LayerNormalization (opset 17): over the axes from `axis` to the last."""
    axis = a.get("axis", -1) % x.dim()
    return F.layer_norm(x, x.shape[axis:], scale, bias, a.get("epsilon", 1e-5))


def op_concat(node, a, *xs):
    return torch.cat(xs, dim=a["axis"])


def op_constant(node, a):
    return torch.from_numpy(numpy_helper.to_array(a["value"]).copy())


def _unsqueeze(node, a, x, axes):
    for ax in sorted(int(v) % (x.dim() + len(axes)) for v in axes.tolist()):
        x = x.unsqueeze(ax)
    return x


def _squeeze(node, a, x, axes=None):
    if axes is None:
        return x.squeeze()
    for ax in sorted((int(v) % x.dim() for v in axes.tolist()), reverse=True):
        x = x.squeeze(ax)
    return x


OPS = {
    "Conv": op_conv,
    "MaxPool": op_maxpool,
    "AveragePool": op_avgpool,
    "GlobalAveragePool": lambda n, a, x: x.mean(dim=list(range(2, x.dim())), keepdim=True),
    "GlobalMaxPool": lambda n, a, x: x.amax(dim=list(range(2, x.dim())), keepdim=True),
    "BatchNormalization": op_batchnorm,
    "Relu": lambda n, a, x: F.relu(x),
    "LeakyRelu": lambda n, a, x: F.leaky_relu(x, a.get("alpha", 0.01)),
    "Clip": op_clip,
    "Sigmoid": lambda n, a, x: torch.sigmoid(x),
    "HardSigmoid": lambda n, a, x: torch.clamp(a.get("alpha", 0.2) * x + a.get("beta", 0.5), 0, 1),
    "HardSwish": lambda n, a, x: F.hardswish(x),
    "Tanh": lambda n, a, x: torch.tanh(x),
    "Erf": lambda n, a, x: torch.erf(x),
    "Sqrt": lambda n, a, x: torch.sqrt(x),
    "Exp": lambda n, a, x: torch.exp(x),
    "Neg": lambda n, a, x: -x,
    "Add": lambda n, a, x, y: x + y,
    "Sub": lambda n, a, x, y: x - y,
    "Mul": lambda n, a, x, y: x * y,
    "Div": lambda n, a, x, y: x / y,
    "Pow": lambda n, a, x, y: torch.pow(x, y),
    "Gemm": op_gemm,
    "MatMul": lambda n, a, x, y: torch.matmul(x, y),
    "Softmax": lambda n, a, x: F.softmax(x, dim=a.get("axis", -1)),
    "Flatten": op_flatten,
    "Reshape": op_reshape,
    "Transpose": lambda n, a, x: x.permute(*a.get("perm", list(reversed(range(x.dim()))))),
    "Concat": op_concat,
    "Split": op_split,
    "Slice": op_slice,
    "ReduceMean": op_reduce_mean,
    "LayerNormalization": op_layer_norm,
    "Pad": op_pad,
    "Identity": lambda n, a, x: x,
    "Dropout": lambda n, a, x, *rest: x,
    "Constant": op_constant,
    "Shape": lambda n, a, x: torch.tensor(list(x.shape), dtype=torch.int64),
    "Gather": lambda n, a, x, i: torch.index_select(x, a.get("axis", 0), i.reshape(-1)).reshape(
        list(x.shape[:a.get("axis", 0)]) + list(i.shape) + list(x.shape[a.get("axis", 0) + 1:])),
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Cast": lambda n, a, x: x.to(_CAST[a["to"]]),
}


def run_node(node, values):
    """Runs one node on the named values; returns its outputs in order."""
    fn = OPS.get(node.op_type)
    if fn is None or node.domain not in ("", "ai.onnx"):
        raise NotImplementedError(f"{node.name}: op {node.domain}:{node.op_type} not implemented")
    args = [values[name] if name else None for name in node.input]
    while args and args[-1] is None:
        args.pop()
    out = fn(node, attrs(node), *args)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return outs[: len(node.output)]


def initializer_values(model):
    """The initializers as torch tensors, by name."""
    return {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer}


def initial_values(model, inputs, initializers=None):
    """Initializers and graph inputs as torch tensors (inputs override initializers).
    `initializers` (from initializer_values) saves converting them again for each run."""
    values = dict(initializer_values(model) if initializers is None else initializers)
    for name, array in inputs.items():
        values[name] = torch.as_tensor(np.asarray(array))
    return values


def run_graph(model, inputs, initializers=None):
    """Every tensor of the graph by name (initializers included), computed in float32."""
    values = initial_values(model, inputs, initializers)
    with torch.no_grad():
        for node in model.graph.node:
            for name, value in zip(node.output, run_node(node, values)):
                values[name] = value
    return values


def graph_input_names(model):
    """The graph's real inputs (not initializers)."""
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits]
