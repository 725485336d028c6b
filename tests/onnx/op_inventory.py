"""Lists the ONNX ops each model uses, with counts and every attribute value seen.

    /usr/bin/python3 tests/onnx/op_inventory.py DIR_OR_FILE... [--summary]

For each .onnx file: every op type with its node count, then one line per attribute (and per
constant input that acts as an attribute in opset 13) with each distinct value and how many nodes
had it. Beyond the attributes:
  - Conv: "depthwise" (group == input channels, one input channel per group), "bias",
    "weight" shapes [O, I/g, kh, kw], "pads" tagged asymmetric when begin != end;
  - Clip: min and max (inputs in opset 13); Reshape: the target shape; Split: sizes; Slice:
    starts/ends/axes/steps; Pad: pads and constant value;
  - Concat: the input count; Gemm/MatMul: the constant operand's shape;
  - elementwise ops (Add, Sub, Mul, Div, Pow): the operands, "act[1,*,1,1]" for a computed tensor
    (dims > 1 shown as *), "const=v" for a scalar constant, "const[shape]" for a constant tensor;
  - unary ops: input ranks.
An attribute that some nodes of an op leave out (its default applies) is listed as "(absent)".
Shapes are those of a run of the graph on a zero input by examples/onnx/onnx_eval.py (onnx's
shape inference loses them after shufflenet's Split), which also proves the evaluator runs every op.
--summary adds the union over all files.
"""

import argparse
import collections
import glob
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "onnx"))
import onnx_eval  # noqa: E402

ELEMENTWISE = {"Add", "Sub", "Mul", "Div", "Pow"}
CONST_INPUT_ATTRS = {
    "Clip": ["min", "max"],
    "Reshape": ["shape"],
    "Split": ["split"],
    "Slice": ["starts", "ends", "axes", "steps"],
    "Pad": ["pads", "constant_value"],
    "Unsqueeze": ["axes"],
    "Squeeze": ["axes"],
}


def fmt(value):
    """A compact, stable string for an attribute or constant value."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.ndarray):
        return fmt(value.tolist()) if value.ndim else fmt(value.item())
    if isinstance(value, float):
        return f"{value:.9g}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(fmt(v) for v in value) + "]"
    if isinstance(value, onnx.TensorProto):
        return f"tensor{list(value.dims)}"
    return str(value)


class Graph:
    """A model's constants (initializers, Constant nodes, Identity of constants) and shapes."""

    def __init__(self, model):
        self.model = model
        self.consts = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
        for node in model.graph.node:
            if node.op_type == "Constant":
                self.consts[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
            elif node.op_type == "Identity" and node.input[0] in self.consts:
                self.consts[node.output[0]] = self.consts[node.input[0]]
        self.shapes = {name: list(v.shape) for name, v in self.run_zeros(model).items()}

    @staticmethod
    def run_zeros(model):
        """Every tensor of a run on zero inputs (shapes only are used)."""
        inits = {i.name for i in model.graph.initializer}
        inputs = {}
        for vi in model.graph.input:
            if vi.name not in inits:
                dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
                inputs[vi.name] = np.zeros(dims, dtype=np.float32)
        return onnx_eval.run_graph(model, inputs)

    def operand(self, name):
        """'const=v', 'const[shape]' or 'act[1,*,1,1]' for one input."""
        if name in self.consts:
            value = self.consts[name]
            return f"const={fmt(value.reshape(-1)[0])}" if value.size == 1 else f"const{fmt(list(value.shape))}"
        shape = self.shapes.get(name)
        if shape is None:
            return "act[?]"
        return "act[" + ",".join("*" if d != 1 else "1" for d in shape) + "]"


def conv_facts(graph, node, attrs):
    """Depthwise flag, bias, weight shape and asymmetric padding of a Conv."""
    w = graph.shapes.get(node.input[1], ["?"] * 4)
    x = graph.shapes.get(node.input[0], ["?"] * 4)
    group = attrs.get("group", 1)
    facts = {"weight": fmt(w), "bias": str(len(node.input) > 2 and bool(node.input[2]))}
    facts["depthwise"] = str(group > 1 and w[1] == 1 and x[1] == group)
    pads = attrs.get("pads")
    if pads is not None:
        n = len(pads) // 2
        tag = " (asymmetric)" if list(pads[:n]) != list(pads[n:]) else ""
        facts["pads"] = fmt(pads) + tag
    return facts


def node_facts(graph, node):
    """{key: value string} for one node: attributes plus the op-specific facts."""
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    facts = {k: fmt(v) for k, v in attrs.items()}
    op = node.op_type
    if op == "Conv":
        facts.update(conv_facts(graph, node, attrs))
    for key, name in zip(CONST_INPUT_ATTRS.get(op, []), list(node.input)[1:]):
        if name:
            facts[key + " (input)"] = fmt(graph.consts[name]) if name in graph.consts else "computed"
    if op == "Concat":
        facts["inputs"] = str(len(node.input))
    if op in ("Gemm", "MatMul"):
        facts["operands"] = " x ".join(graph.operand(i) for i in node.input[:2])
        if op == "MatMul":
            facts["shapes"] = " x ".join(fmt(graph.shapes.get(i, "?")) for i in node.input[:2])
    if op in ELEMENTWISE:
        facts["operands"] = f" {op} ".join(graph.operand(i) for i in node.input)
    if op in ("Relu", "Sigmoid", "Erf", "Sqrt", "Softmax", "Flatten", "Transpose", "ReduceMean",
              "GlobalAveragePool", "Dropout", "Identity"):
        facts["input rank"] = str(len(graph.shapes.get(node.input[0], [])))
    if op in ("Reshape", "Flatten", "Transpose", "Split", "Slice"):
        facts["in->out"] = fmt(graph.shapes.get(node.input[0], "?")) + "->" + \
            fmt(graph.shapes.get(node.output[0], "?"))
    return facts


def inventory(model):
    """{op: (count, {key: Counter(value -> nodes)})}, ops in first-use order."""
    graph = Graph(model)
    ops = {}
    for node in model.graph.node:
        count, facts = ops.setdefault(node.op_type, [0, collections.defaultdict(collections.Counter)])
        ops[node.op_type][0] = count + 1
        for key, value in node_facts(graph, node).items():
            facts[key][value] += 1
    return ops, graph


def io_line(model, graph):
    inits = {i.name for i in model.graph.initializer}
    ins = [f"{i.name}{fmt(graph.shapes.get(i.name, '?'))}" for i in model.graph.input if i.name not in inits]
    outs = [f"{o.name}{fmt(graph.shapes.get(o.name, '?'))}" for o in model.graph.output]
    opset = ",".join(f"{o.domain or 'ai.onnx'}:{o.version}" for o in model.opset_import)
    return (f"nodes {len(model.graph.node)}, initializers {len(model.graph.initializer)}, "
            f"opset {opset}, inputs {' '.join(ins)}, outputs {' '.join(outs)}")


def print_ops(ops, indent="  "):
    for op, (count, facts) in ops.items():
        print(f"{indent}{op} x{count}")
        for key in sorted(facts):
            absent = count - sum(facts[key].values())
            if absent:
                facts[key]["(absent)"] += absent
            values = ", ".join(f"{v} ({n})" if len(facts[key]) > 1 else v
                               for v, n in sorted(facts[key].items()))
            print(f"{indent}    {key}: {values}")


def merge(total, ops):
    for op, (count, facts) in ops.items():
        entry = total.setdefault(op, [0, collections.defaultdict(collections.Counter)])
        entry[0] += count
        for key, counter in facts.items():
            entry[1][key].update(counter)


def onnx_files(paths):
    files = []
    for path in paths:
        files += sorted(glob.glob(os.path.join(path, "*.onnx"))) if os.path.isdir(path) else [path]
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help=".onnx files or directories of them")
    parser.add_argument("--summary", action="store_true", help="also print the union over files")
    args = parser.parse_args()
    total = {}
    for path in onnx_files(args.paths):
        model = onnx.load(path)
        ops, graph = inventory(model)
        print(f"== {os.path.basename(path)}: {io_line(model, graph)}")
        print_ops(ops)
        merge(total, ops)
    if args.summary:
        print("== all files")
        print_ops(total)


if __name__ == "__main__":
    main()
