"""Checks that each exported ONNX graph reproduces its PyTorch output.

    /usr/bin/python3 tests/onnx/check_exports.py DIR [--tolerance T]

For every DIR/M.onnx written by export_models.py: runs the graph on DIR/M.input.npy with
examples/onnx/onnx_eval.py and compares the graph output with DIR/M.torch.npy (max |error| /
max |output| <= T, default 1e-4). This checks the export (BatchNorm folding, the Keras-style
graph against its PyTorch reference) and the interpreter the golden comparison relies on.
Prints one line per model and 'N passed, N failed'; exit 1 on a failure.
"""

import argparse
import glob
import os
import sys

import numpy as np
import onnx
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "onnx"))
import onnx_eval  # noqa: E402


def check_one(onnx_path, tolerance):
    """(passed, detail) for one exported model."""
    stem = onnx_path[: -len(".onnx")]
    model = onnx.load(onnx_path)
    x = np.load(stem + ".input.npy")
    golden = np.load(stem + ".torch.npy")
    values = onnx_eval.run_graph(model, {onnx_eval.graph_input_names(model)[0]: x})
    out = values[model.graph.output[0].name].numpy()
    if out.shape != golden.shape:
        return False, f"shape {out.shape} vs {golden.shape}"
    err = float(np.abs(out - golden).max())
    rel = err / float(np.abs(golden).max())
    return rel <= tolerance, f"max|err| {err:.3g}, rel {rel:.3g}, max|out| {np.abs(golden).max():.3g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args()
    torch.set_num_threads(1)
    passed = failed = 0
    for path in sorted(glob.glob(os.path.join(args.dir, "*.onnx"))):
        ok, detail = check_one(path, args.tolerance)
        print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(path)}: {detail}", flush=True)
        passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
