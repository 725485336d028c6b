"""Maps the leaf modules of a PyTorch model to the ONNX tensors that hold their outputs.

torch 1.13 names an exported node after the module scope it was traced in:
"/layer1/layer1.0/conv1/Conv" is the Conv of module `layer1.0.conv1`, its output tensor is
"/layer1/layer1.0/conv1/Conv_output_0". A scope component is the module's name with the atoms
after its last non-numeric atom ("layer1.0", "conv1", "downsample.0"), and the k-th call (k >= 1)
of the same module gets "_k" ("/layer1/layer1.0/relu_1/Relu"). Graphs written by hand or by other
converters (Keras-style "conv_dw_1/depthwise") use "<module path>/" as the scope.

Names alone do not settle it: constant folding merges a BatchNorm into the Conv before it (the
BatchNorm's output is then the Conv node's output, and the Conv module's own output exists in no
tensor), and modules like Dropout export no node. So a module call is mapped to a tensor by value:
among the ONNX tensors of the same shape whose values match the module's output (max |diff| <=
rtol * max |output|), the last one produced in the module's scope, else the first one produced
after the previous match. A call with no matching tensor is "folded" (into the next mapped layer).
"""

import collections

import numpy as np
import torch

LeafCall = collections.namedtuple("LeafCall", "path index output")


def leaf_modules(model):
    """(path, module) of every module without children, in registration order."""
    return [(name, m) for name, m in model.named_modules() if name and not list(m.children())]


def record_leaf_calls(model, x, edit=None):
    """Runs model on x; returns (leaf calls in execution order, final output).

    Each call's output is cloned when the hook runs (later in-place ops must not change it).
    `edit(path, index, output)` may return a replacement output, which then propagates.
    """
    calls, counts, handles = [], collections.Counter(), []

    def hook_for(path):
        def hook(module, inputs, output):
            if not isinstance(output, torch.Tensor):
                return None
            index = counts[path]
            counts[path] += 1
            if edit is not None:
                replaced = edit(path, index, output)
                output = output if replaced is None else replaced
            calls.append(LeafCall(path, index, output.detach().clone()))
            return output
        return hook

    for path, module in leaf_modules(model):
        handles.append(module.register_forward_hook(hook_for(path)))
    try:
        with torch.no_grad():
            y = model(torch.as_tensor(x))
    finally:
        for h in handles:
            h.remove()
    return calls, y


def unqualified(atoms):
    """torch.onnx's scope component: the atoms from the last non-numeric one on."""
    for i in range(len(atoms) - 1, -1, -1):
        if not atoms[i].isnumeric():
            return ".".join(atoms[i:])
    return ".".join(atoms)


def torch_scope(path, index=0):
    """'/layer1/layer1.0/relu_1/' for call 1 of module 'layer1.0.relu'."""
    atoms = path.split(".")
    parts = [unqualified(atoms[: i + 1]) for i in range(len(atoms))]
    if index:
        parts[-1] += f"_{index}"
    return "/" + "/".join(parts) + "/"


def in_scope(node_name, path, index):
    return node_name.startswith(torch_scope(path, index)) or \
        (index == 0 and node_name.startswith(path + "/"))


class OnnxTensors:
    """The float outputs of an ONNX graph's nodes with their producer and position."""

    def __init__(self, model, values):
        self.values, self.producer, self.position = values, {}, {}
        self.by_shape = collections.defaultdict(list)
        for pos, node in enumerate(model.graph.node):
            for name in node.output:
                v = values.get(name)
                if v is None or not torch.is_floating_point(v) or node.op_type == "Constant":
                    continue
                self.producer[name], self.position[name] = node, pos
                self.by_shape[tuple(v.shape)].append(name)

    def matching(self, output, rtol):
        """Tensor names of output's shape whose values match it."""
        scale = float(output.abs().max()) if output.numel() else 0.0
        limit = rtol * scale + 1e-30
        return [name for name in self.by_shape.get(tuple(output.shape), [])
                if float((self.values[name] - output).abs().max()) <= limit]


def choose(candidates, tensors, call, last_pos):
    """The scope's last candidate, else the first one after the previous match."""
    scoped = [t for t in candidates if in_scope(tensors.producer[t].name, call.path, call.index)]
    if scoped:
        return max(scoped, key=tensors.position.get)
    for allowed in (lambda p: p > last_pos, lambda p: p == last_pos, lambda p: True):
        later = [t for t in candidates if allowed(tensors.position[t])]
        if later:
            return min(later, key=tensors.position.get)
    return None


def map_calls(calls, model, values, rtol=1e-3):
    """For each leaf call, the ONNX tensor name holding its output, or None (folded / no node)."""
    tensors = OnnxTensors(model, values)
    mapping, last_pos = [], -1
    for call in calls:
        name = choose(tensors.matching(call.output, rtol), tensors, call, last_pos)
        mapping.append(name)
        if name is not None:
            last_pos = tensors.position[name]
    return mapping


def call_label(call):
    return call.path + (f"#{call.index}" if call.index else "")


def labels_by_tensor(calls, mapping):
    """tensor name -> label "a.conv1+bn1": the folded calls just before, then the mapped ones."""
    labels, pending = {}, []
    for call, name in zip(calls, mapping):
        if name is None:
            pending.append(call_label(call))
            continue
        parts = labels.setdefault(name, [])
        parts += pending + [call_label(call)]
        pending = []
    return {name: shorten(parts) for name, parts in labels.items()}


def shorten(labels):
    """'features.0+features.1' -> 'features.0+1' (later parts lose the first one's prefix)."""
    first = labels[0]
    prefix = first.rsplit(".", 1)[0] + "." if "." in first else ""
    rest = [l[len(prefix):] if prefix and l.startswith(prefix) else l for l in labels[1:]]
    return "+".join([first] + rest)


def scope_label(node_name):
    """'layer2.0.downsample.0:Conv' for '/layer2/layer2.0/downsample/downsample.0/Conv'.

    Each scope component adds one child name to the path: its last atom.
    """
    if not node_name.startswith("/"):
        return node_name
    *scopes, op = node_name[1:].split("/")
    path = ".".join(comp.split(".")[-1] for comp in scopes)
    return f"{path}:{op}" if path else op


def as_numpy(t):
    return t.detach().cpu().numpy().astype(np.float32) if isinstance(t, torch.Tensor) else np.asarray(t, np.float32)
