"""A stand-in for a ctnn `<model>-run`, to test examples/onnx/golden_compare.py before the C++ one.

    fake_runner.py (--model NAME | --module FILE.py:factory) --onnx M.onnx [--seed S]
        [--engine torch|onnx] [--inject LAYER] [--inject-scale F]
        --input IN.npy --output OUT.npy --dump-layers DIR

It writes what the real runner will: OUT.npy and DIR/layers.tsv with one line per leaf layer,
`leaf_index<TAB>file_name<TAB>node_name<TAB>onnx_output_tensor_name`, and DIR/<file_name> (.npy
version 1.0, '<f4', C order, [N, C, H, W] or [N, F]).

--engine torch (default) computes with the PyTorch model itself: one line per ONNX tensor that a
leaf module's output maps to (examples/onnx/layer_map.py), in execution order. --engine onnx
runs the ONNX graph node by node (examples/onnx/onnx_eval.py) and dumps every computed float
tensor, as a runner lowering each node would (Add, Concat, Reshape... included).

--inject LAYER adds F * max|output| (default F = 1e-2) to every 7th element of that layer's
output, a module path for --engine torch (its first call) or an ONNX node name for --engine
onnx; the error propagates to the layers after it, as a real kernel bug would.
"""

import argparse
import os
import sys

import onnx
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "onnx"))
import golden_compare  # noqa: E402
import layer_map  # noqa: E402
import npy_io  # noqa: E402
import onnx_eval  # noqa: E402
import seeded_models  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--model")
    which.add_argument("--module")
    parser.add_argument("--onnx", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("torch", "onnx"), default="torch")
    parser.add_argument("--inject", help="module path (torch) or ONNX node name (onnx)")
    parser.add_argument("--inject-scale", type=float, default=1e-2)
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--dump-layers", required=True)
    return parser.parse_args(argv)


def perturb(output, scale):
    """output + scale * max|output| on every 7th element (flat index)."""
    delta = torch.zeros(output.numel(), dtype=output.dtype)
    delta[::7] = scale * float(output.abs().max())
    return output + delta.reshape(output.shape)


class Dump:
    """Writes DIR/layers.tsv and the numbered .npy files."""

    def __init__(self, directory):
        self.directory, self.lines = directory, []
        os.makedirs(directory, exist_ok=True)

    def add(self, node_name, tensor_name, array):
        index = len(self.lines)
        file_name = f"layer_{index:04d}.npy"
        npy_io.save(os.path.join(self.directory, file_name), layer_map.as_numpy(array))
        self.lines.append(f"{index}\t{file_name}\t{node_name}\t{tensor_name}\n")

    def close(self):
        with open(os.path.join(self.directory, "layers.tsv"), "w", encoding="utf-8") as f:
            f.writelines(self.lines)


def run_torch(args, x, model_onnx, dump):
    """PyTorch engine: dumps the mapped leaf outputs; returns the final output."""
    model = seeded_models.build_model(args.model, args.module, args.seed, x.shape[-1])
    calls, _ = layer_map.record_leaf_calls(model, torch.from_numpy(x))
    values = golden_compare.onnx_values(model_onnx, x)
    mapping = layer_map.map_calls(calls, model_onnx, values)
    producer = {out: node.name for node in model_onnx.graph.node for out in node.output}

    def edit(path, index, output):
        return perturb(output, args.inject_scale) if path == args.inject and index == 0 else None

    if args.inject and args.inject not in {c.path for c in calls}:
        raise SystemExit(f"--inject {args.inject!r}: no such leaf module")
    calls, y = layer_map.record_leaf_calls(model, torch.from_numpy(x), edit if args.inject else None)
    seen = set()
    for call, tensor in zip(calls, mapping):
        if tensor is not None and tensor not in seen:
            seen.add(tensor)
            dump.add(producer[tensor], tensor, call.output)
    return y


def run_onnx_sample(model_onnx, x, inject, scale):
    """One sample through the graph node by node; returns {tensor: value} of computed floats."""
    values = onnx_eval.initial_values(model_onnx, {onnx_eval.graph_input_names(model_onnx)[0]: x})
    computed = {}
    with torch.no_grad():
        for node in model_onnx.graph.node:
            outs = onnx_eval.run_node(node, values)
            if node.name == inject:
                outs = [perturb(outs[0], scale)] + outs[1:]
            for name, value in zip(node.output, outs):
                values[name] = value
                if node.op_type not in ("Constant", "Identity", "Shape") and torch.is_floating_point(value):
                    computed[name] = (node.name, value)
    return computed


def run_onnx(args, x, model_onnx, dump):
    """ONNX engine: dumps every computed float tensor; returns the final output."""
    if args.inject and args.inject not in {n.name for n in model_onnx.graph.node}:
        raise SystemExit(f"--inject {args.inject!r}: no such ONNX node")
    runs = [run_onnx_sample(model_onnx, x[i:i + 1], args.inject, args.inject_scale)
            for i in range(x.shape[0])]
    for tensor, (node_name, _) in runs[0].items():
        dump.add(node_name, tensor, torch.cat([r[tensor][1] for r in runs]))
    final = model_onnx.graph.output[0].name
    return torch.cat([r[final][1] for r in runs])


def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(1)
    x = npy_io.load(args.input)
    model_onnx = onnx.load(args.onnx)
    dump = Dump(args.dump_layers)
    y = (run_torch if args.engine == "torch" else run_onnx)(args, x, model_onnx, dump)
    dump.close()
    npy_io.save(args.output, layer_map.as_numpy(y))
    return 0


if __name__ == "__main__":
    sys.exit(main())
