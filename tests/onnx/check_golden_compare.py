"""Checks examples/onnx/golden_compare.py with the fake runner on exported models.

    /usr/bin/python3 tests/onnx/check_golden_compare.py --dir DIR [--models a,b] [--engines torch,onnx]
        [--seed S]

DIR holds the files of tests/onnx/export_models.py (M.onnx, M.input.npy), exported with the same
seed. For each model and each fake-runner engine (tests/onnx/fake_runner.py):
  - a clean run must pass (exit 0): with --engine onnx every ONNX tensor is compared with the
    PyTorch module mapped to it, so a wrong module-to-tensor mapping fails here;
  - a run with an error injected into one layer (the middle mapped leaf module for --engine torch,
    the middle computed node for --engine onnx) must fail (exit 1) and name that layer's ONNX
    tensor as the first divergence.
Prints one line per case and 'N passed, N failed'; exit 1 on a failure.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import onnx
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "onnx")
sys.path.insert(0, EXAMPLES)
import golden_compare  # noqa: E402
import layer_map  # noqa: E402
import npy_io  # noqa: E402
import seeded_models  # noqa: E402

KERAS = "keras_dsconv"
PY = sys.executable


def model_args(name):
    """--model NAME, or --module for the Keras-style reference."""
    if name == KERAS:
        return ["--module", os.path.join(HERE, "keras_dsconv.py") + ":torch_model"]
    return ["--model", name]


def torch_target(name, onnx_path, x, seed):
    """(module path, tensor) of the middle leaf call that maps to an ONNX tensor."""
    spec = model_args(name)
    model = seeded_models.build_model(name if spec[0] == "--model" else None,
                                      spec[1] if spec[0] == "--module" else None, seed, x.shape[-1])
    model_onnx = onnx.load(onnx_path)
    calls, _ = layer_map.record_leaf_calls(model, torch.from_numpy(x))
    mapping = layer_map.map_calls(calls, model_onnx, golden_compare.onnx_values(model_onnx, x))
    mapped = [(c, t) for c, t in zip(calls, mapping) if t is not None and c.index == 0]
    call, tensor = mapped[len(mapped) // 2]
    return call.path, tensor


def onnx_target(onnx_path, x):
    """(node name, tensor) of the middle node computing a float activation (not shape arithmetic)."""
    model_onnx = onnx.load(onnx_path)
    values = golden_compare.onnx_values(model_onnx, x)
    skip = {"Constant", "Identity"}
    nodes = [n for n in model_onnx.graph.node if n.op_type not in skip and
             torch.is_floating_point(values[n.output[0]]) and values[n.output[0]].dim() >= 2]
    node = nodes[len(nodes) // 2]
    return node.name, node.output[0]


def run_compare(name, onnx_path, input_path, engine, seed, inject=None):
    """(exit code, JSON verdict) of golden_compare with the fake runner."""
    runner = [PY, os.path.join(HERE, "fake_runner.py"), *model_args(name), "--onnx", onnx_path,
              "--seed", str(seed), "--engine", engine] + (["--inject", inject] if inject else [])
    with tempfile.TemporaryDirectory() as work:
        verdict = os.path.join(work, "verdict.json")
        argv = [PY, os.path.join(EXAMPLES, "golden_compare.py"), *model_args(name), "--onnx", onnx_path,
                "--input", input_path, "--seed", str(seed), "--work", work, "--json", verdict,
                "--runner", " ".join(runner)]
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        result = json.load(open(verdict)) if os.path.exists(verdict) else None
    if result is None:
        print(proc.stdout[-3000:])
    return proc.returncode, result


def cases(name, args):
    """Yields (case name, passed, detail) for one model."""
    onnx_path = os.path.join(args.dir, name + ".onnx")
    input_path = os.path.join(args.dir, name + ".input.npy")
    x = npy_io.load(input_path)
    for engine in args.engines.split(","):
        code, result = run_compare(name, onnx_path, input_path, engine, args.seed)
        worst = max((r["rel"] or 0 for r in result["layers"]), default=0) if result else None
        yield f"{name} {engine} clean", code == 0, f"{len(result['layers']) if result else 0} layers, worst rel {worst:.2g}" if result else "no verdict"
        inject, tensor = torch_target(name, onnx_path, x, args.seed) if engine == "torch" else onnx_target(onnx_path, x)
        code, result = run_compare(name, onnx_path, input_path, engine, args.seed, inject)
        first = result and result["first_divergence"]
        found = first["tensor"] if first else None
        yield (f"{name} {engine} inject {inject}", code == 1 and found == tensor,
               f"first divergence {first['layer']} [{first['node']}]" if first else "no divergence")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--models", help="comma-separated (default: every DIR/*.onnx)")
    parser.add_argument("--engines", default="torch,onnx")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    names = args.models.split(",") if args.models else sorted(
        f[:-5] for f in os.listdir(args.dir) if f.endswith(".onnx"))
    passed = failed = 0
    for name in names:
        for case, ok, detail in cases(name, args):
            print(f"{'ok  ' if ok else 'FAIL'} {case}: {detail}", flush=True)
            passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
