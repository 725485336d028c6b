"""Per-layer golden comparison of a ctnn model runner against PyTorch.

    /usr/bin/python3 examples/onnx/golden_compare.py --model resnet18 --onnx resnet18.onnx \\
        --runner build/resnet18-run [--input IN.npy | --samples N] [--seed S] [--resolution R]
        [--tolerance T] [--layer-samples K]

    (--module path/to/file.py:factory instead of --model for a model outside torchvision)

1. Rebuilds the PyTorch model (examples/onnx/seeded_models.py: the seed gives the same weights as
   tests/onnx/export_models.py) and runs it on the input with a forward hook on every leaf module.
2. Runs the ONNX graph (examples/onnx/onnx_eval.py) and maps each leaf module call to the ONNX
   tensor that holds its output (examples/onnx/layer_map.py: node-name scopes, then values).
3. Runs `RUNNER --input IN.npy --output OUT.npy --dump-layers DIR`. --runner is split like a
   shell command line, so it may carry arguments of its own. With --layer-samples K, steps 1-4
   see the first K samples of the input and the others only go through the models once more
   (runner without --dump-layers) for the output comparison: a large model's per-layer dumps of
   every sample would cost more than its run.
4. Reads DIR/layers.tsv, one line per leaf layer the runner executed, tab-separated:
       leaf_index  file_name  node_name  onnx_output_tensor_name  [input_tensors]
   and DIR/<file_name>, a .npy (version 1.0, '<f4', C order) of shape [N, C, H, W] or [N, F]
   with that layer's output for all N samples; compares each with the PyTorch module's output
   that maps to the tensor, or, for a tensor no module produces (Add, Concat, Reshape, ...), with
   the ONNX graph's value of it. A dump whose shape differs from the reference is compared after
   NHWC->NCHW (ConvNeXt's channels-last tensors) or a reshape of the same size, and says so.
5. Prints per layer: index, PyTorch layer ("conv1+bn1" when the Conv absorbed the BatchNorm;
   "layer1.0:Add" from the node's scope when no module produces the tensor), ONNX node, shape,
   max |error|, max |error| / max |reference|, and the reference used (torch or onnx); then the
   first layer whose relative error exceeds --tolerance (default 1e-4) and the final output
   (OUT.npy against PyTorch's): its error and, for a classifier output [N, K], how many of the N
   samples have PyTorch's top-1 class. --json FILE also writes the rows and the verdict.

Exit status: 0 when every layer and the output are within tolerance and every sample's top-1
class is PyTorch's, 1 otherwise (a divergence, a missing or malformed dump, a runner failure),
2 for usage errors.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layer_map  # noqa: E402
import npy_io  # noqa: E402
import onnx_eval  # noqa: E402
import seeded_models  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--model", help="torchvision model name (see seeded_models.TORCHVISION)")
    which.add_argument("--module", help="path/to/file.py:factory returning a torch.nn.Module")
    parser.add_argument("--onnx", required=True, help="the ONNX file the runner was built from")
    parser.add_argument("--runner", required=True, help="the <model>-run command")
    parser.add_argument("--input", help="input .npy [N, C, H, W] (default: seeded)")
    parser.add_argument("--samples", type=int, default=1,
                        help="seeded input samples when --input is not given (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resolution", type=int, help="input resolution when --input is not given")
    parser.add_argument("--tolerance", type=float, default=1e-4,
                        help="max |error| / max |activation| allowed per layer (default 1e-4)")
    parser.add_argument("--layer-samples", type=int,
                        help="compare the layers on the first K samples only (default: all); the "
                             "output and its top-1 class are compared on every sample")
    parser.add_argument("--work", help="directory for the runner's files (default: a temporary one)")
    parser.add_argument("--verbose", action="store_true", help="also list the folded modules")
    parser.add_argument("--json", help="also write the per-layer results and the verdict here")
    return parser.parse_args(argv)


def load_input(args, model_onnx):
    """The input array: --input, or seeded at the resolution of the ONNX graph's input."""
    if args.input:
        return npy_io.load(args.input)
    graph_in = [i for i in model_onnx.graph.input if i.name in onnx_eval.graph_input_names(model_onnx)][0]
    dims = [d.dim_value for d in graph_in.type.tensor_type.shape.dim]
    resolution = args.resolution or dims[-1] or seeded_models.default_resolution(args.model)
    return seeded_models.make_input(args.seed, resolution, channels=dims[1] or 3, batch=args.samples)


def onnx_values(model_onnx, x):
    """All ONNX tensors for input x, run one sample at a time (the graph's batch is fixed)."""
    name = onnx_eval.graph_input_names(model_onnx)[0]
    inits = onnx_eval.initializer_values(model_onnx)
    runs = [onnx_eval.run_graph(model_onnx, {name: x[i:i + 1]}, inits) for i in range(x.shape[0])]
    if len(runs) == 1:
        return runs[0]
    values = {}
    for key, first in runs[0].items():
        stackable = torch.is_floating_point(first) and first.dim() and first.shape[0] == 1
        values[key] = torch.cat([r[key] for r in runs]) if stackable else first
    return values


def run_runner(command, x, work, dump_layers=True, stem=""):
    """Runs the runner (with --dump-layers unless told otherwise); returns (exit code, OUT path,
    dump dir)."""
    in_path, out_path, dump = (os.path.join(work, stem + n) for n in ("input.npy", "output.npy", "layers"))
    npy_io.save(in_path, x)
    argv = shlex.split(command) + ["--input", in_path, "--output", out_path]
    if dump_layers:
        os.makedirs(dump, exist_ok=True)
        argv += ["--dump-layers", dump]
    print("runner:", " ".join(shlex.quote(a) for a in argv), flush=True)
    return subprocess.call(argv), out_path, dump


def read_layers_tsv(dump):
    """[(leaf_index, file_name, node_name, tensor_name)] from DIR/layers.tsv."""
    rows = []
    with open(os.path.join(dump, "layers.tsv"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            fields = line.split("\t")
            if len(fields) not in (4, 5) or not fields[0].isdigit():
                raise ValueError(f"layers.tsv line {number}: want 4 or 5 tab-separated fields, got {line!r}")
            rows.append((int(fields[0]), fields[1], fields[2], fields[3]))
    return rows


def align(dump, ref):
    """(reference shaped like the dump, note) or (None, why) when they cannot be compared."""
    if dump.shape == ref.shape:
        return ref, ""
    if ref.ndim == 4 and dump.shape == (ref.shape[0], ref.shape[3], ref.shape[1], ref.shape[2]):
        return ref.transpose(0, 3, 1, 2), " (ref NHWC->NCHW)"
    if dump.size == ref.size and dump.shape[0] == ref.shape[0]:
        return ref.reshape(dump.shape), f" (ref {list(ref.shape)} reshaped)"
    return None, f"shape {list(dump.shape)} vs reference {list(ref.shape)}"


def errors(dump, ref):
    """(max |error|, max |error| / max |reference|)."""
    err = float(np.max(np.abs(dump.astype(np.float64) - ref))) if dump.size else 0.0
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    return err, err / scale if scale > 0 else (0.0 if err == 0 else float("inf"))


class Reference:
    """The golden value of an ONNX tensor: the mapped PyTorch module's output, else ONNX's."""

    def __init__(self, calls, mapping, values, model_onnx):
        self.values, self.torch, self.labels = values, {}, layer_map.labels_by_tensor(calls, mapping)
        self.producer = {out: node.name for node in model_onnx.graph.node for out in node.output}
        for call, name in zip(calls, mapping):
            if name is not None and name not in self.torch:
                self.torch[name] = layer_map.as_numpy(call.output)

    def get(self, tensor):
        """(array, source, layer label) or (None, None, None) for an unknown tensor."""
        if tensor in self.torch:
            return self.torch[tensor], "torch", self.labels[tensor]
        if tensor in self.values:
            node = self.producer.get(tensor)
            return layer_map.as_numpy(self.values[tensor]), "onnx", layer_map.scope_label(node or tensor)
        return None, None, None


def compare_row(row, dump_dir, reference, tolerance):
    """A dict for one layers.tsv line: index, layer, node, tensor, shape, error, rel, ref, status."""
    index, file_name, node, tensor = row
    result = {"index": index, "layer": "?", "node": node, "tensor": tensor, "shape": "-",
              "error": None, "rel": None, "ref": "-", "ok": False}
    ref, source, label = reference.get(tensor)
    if ref is None:
        return dict(result, status=f"unknown ONNX tensor {tensor!r}")
    result.update(layer=label, ref=source)
    try:
        dump = npy_io.load(os.path.join(dump_dir, file_name))
    except (OSError, npy_io.NpyError) as err:
        return dict(result, status=f"bad dump {file_name}: {err}")
    ref, note = align(dump, ref)
    if ref is None:
        return dict(result, shape=list(dump.shape), status=note)
    err, rel = errors(dump, ref)
    ok = rel <= tolerance
    return dict(result, shape=f"{list(dump.shape)}{note}", error=err, rel=rel, ok=ok,
                status="ok" if ok else "DIVERGES")


def _num(v):
    return "-" if v is None else f"{v:.3g}"


def print_table(results):
    header = ("idx", "layer", "onnx node", "shape", "max|err|", "rel", "ref", "")
    rows = [header] + [(str(r["index"]), r["layer"], r["node"], str(r["shape"]), _num(r["error"]),
                        _num(r["rel"]), r["ref"], r["status"]) for r in results]
    widths = [min(max(len(r[i]) for r in rows), 60) for i in range(len(header))]
    for r in rows:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())


def write_json(path, results, first_bad, output_ok):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"layers": results, "first_divergence": first_bad, "output_ok": output_ok}, f, indent=1)


def load_outputs(paths):
    """The runner's OUT.npy files, concatenated over the samples, or None (and why) on a fault."""
    try:
        return np.concatenate([npy_io.load(p) for p in paths]), ""
    except (OSError, ValueError, npy_io.NpyError) as err:
        return None, f"output: cannot read {', '.join(paths)}: {err}"


def check_output(out, y_torch, tolerance):
    """Compares the runner's output with the PyTorch output; returns passed."""
    ref, note = align(out, y_torch)
    if ref is None:
        print(f"output: {note}")
        return False
    err, rel = errors(out, ref)
    ok = rel <= tolerance
    print(f"output {list(out.shape)}{note}: max|err| {err:.3g}, rel {rel:.3g}: {'ok' if ok else 'DIVERGES'}")
    return top1_agrees(out, ref) and ok


def top1_agrees(out, ref):
    """For a classifier output [N, K] (K > 1): prints how many samples have the same top-1 class as
    PyTorch and the smallest gap between PyTorch's first and second logit; True when all agree."""
    if out.ndim != 2 or out.shape[1] < 2:
        return True
    same = int(np.sum(np.argmax(out, axis=1) == np.argmax(ref, axis=1)))
    top2 = np.sort(ref, axis=1)[:, -2:]
    gap = float(np.min(top2[:, 1] - top2[:, 0]))
    print(f"top-1: {same}/{out.shape[0]} samples agree with PyTorch (smallest top-1 margin {gap:.3g})")
    return same == out.shape[0]


def summarize_mapping(calls, mapping, verbose):
    folded = [layer_map.call_label(c) for c, m in zip(calls, mapping) if m is None]
    print(f"{len(calls)} leaf module calls, {len(calls) - len(folded)} mapped to ONNX tensors, "
          f"{len(folded)} without one (folded into the next layer or no node)")
    if verbose and folded:
        print("  without a tensor:", ", ".join(folded))


def record_leaf_calls_np(model, x):
    """Leaf calls and the final output (numpy) of the PyTorch model on x."""
    calls, y = layer_map.record_leaf_calls(model, torch.from_numpy(np.ascontiguousarray(x)))
    return calls, layer_map.as_numpy(y)



def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(1)
    started = time.perf_counter()
    model_onnx = onnx.load(args.onnx)
    x = load_input(args, model_onnx)
    n = x.shape[0]
    k = min(args.layer_samples or n, n)
    if k < 1:
        print("--layer-samples must be >= 1")
        return 2
    model = seeded_models.build_model(args.model, args.module, args.seed, x.shape[-1])
    calls, y = record_leaf_calls_np(model, x[:k])
    values = onnx_values(model_onnx, x[:k])
    mapping = layer_map.map_calls(calls, model_onnx, values)
    summarize_mapping(calls, mapping, args.verbose)
    graph_out = layer_map.as_numpy(values[model_onnx.graph.output[0].name])
    print(f"ONNX graph vs PyTorch output: max|err| {errors(graph_out, y)[0]:.3g}")
    if k < n:  # the other samples: the final output only
        with torch.no_grad():
            y = np.concatenate([y, layer_map.as_numpy(model(torch.from_numpy(np.ascontiguousarray(x[k:]))))])
    t_reference = time.perf_counter() - started

    work = args.work or tempfile.mkdtemp(prefix="golden_compare_")
    os.makedirs(work, exist_ok=True)
    started = time.perf_counter()
    code, out_path, dump = run_runner(args.runner, x[:k], work)
    out_paths = [out_path]
    if code == 0 and k < n:
        code, rest_path, _ = run_runner(args.runner, x[k:], work, dump_layers=False, stem="rest_")
        out_paths.append(rest_path)
    t_runner = time.perf_counter() - started
    if code != 0:
        print(f"runner failed with exit code {code}")
        return 1
    try:
        rows = read_layers_tsv(dump)
    except (OSError, ValueError) as err:
        print(f"cannot read the layer dump: {err}")
        return 1
    reference = Reference(calls, mapping, values, model_onnx)
    results = [compare_row(row, dump, reference, args.tolerance) for row in rows]
    print_table(results)
    first_bad = next((r for r in results if not r["ok"]), None)
    out, why = load_outputs(out_paths)
    if out is None:
        print(why)
    output_ok = out is not None and check_output(out, y, args.tolerance)
    if first_bad is not None:
        source = "PyTorch" if first_bad["ref"] == "torch" else "the ONNX graph"
        print(f"first divergence (tolerance {args.tolerance:g}): leaf {first_bad['index']} "
              f"{first_bad['layer']} [{first_bad['node']}]: max|err| {_num(first_bad['error'])}, "
              f"rel {_num(first_bad['rel'])} ({first_bad['status']}; reference: {source})")
    elif not rows:
        print("the runner dumped no layer")
    else:
        print(f"all {len(rows)} layers within tolerance {args.tolerance:g}")
    print(f"layers compared on {k} of {n} samples, the output on all {n}; "
          f"PyTorch + ONNX reference {t_reference:.1f} s, runner {t_runner:.1f} s")
    if args.json:
        write_json(args.json, results, first_bad, output_ok)
    return 0 if first_bad is None and rows and output_ok else 1


if __name__ == "__main__":
    sys.exit(main())
