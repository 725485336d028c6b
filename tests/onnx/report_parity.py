"""ctnn-report on an ONNX file gives the typed zoo's figures (issue: analysis of a file).

For each of the 7 zoo models this exports the PyTorch twin with torch.onnx.export (opset 13, batch
1, BatchNormalization kept: TrainingMode.PRESERVE on the model in eval mode; torchvision models
with weights=None, LeNet-5 defined here as the zoo defines it) and compares, in float32 and int8,

  * every network figure of `ctnn-report FILE.onnx --format json` with `ctnn-report ZOO --format
    json` (params, buffers, weight/buffer/input bytes, MACs, other ops, activation bytes, read and
    write bytes, the per-layer peak, the arena plan: arena, lower bound, baseline, plain
    liveness, alignment, strategy);
  * the leaves in execution order: type, input and output shapes, params, buffers, MACs, other
    ops, output/read/write bytes, input tensor ids and arena offset;
  * the `--tiles 64` table: every GEMM's M, N, K, count, tiles, sub-GEMMs, waste and bytes, and
    the totals line.

The typed zoo follows torchvision's modules, where Dropout is a leaf; torch's ONNX export of an
eval-mode model drops it. A dropout leaf is an alias (no work, no buffer), so the comparison
removes the typed model's dropout leaves and renumbers its tensors; the network figures that
count every leaf's output (activation bytes, read and write bytes) are compared after removing
the dropouts' share, which the script computes from the typed report itself. Two more things
the file cannot say: an adaptive average pool is exported as a plain AveragePool (AlexNet's and
VGG's 6x6 and 7x7 pools at 224 px: type AdaptiveAvgPool2d = AvgPool2d, same figures), and
`x + f(x)` (torchvision's MobileNetV2) lists its operands in the other order than ctnn's
residual (the inputs of Add and Mul are compared as sets; the planner's choice does not depend
on the order). Layer names differ by design (the file's node names) and are not compared.

    /usr/bin/python3 tests/onnx/report_parity.py --report build/default/bin/ctnn-report --work DIR
        [--models lenet5,alexnet,...] [--keep] [--onnx MODEL=FILE ...]

--onnx MODEL=FILE compares FILE instead of exporting MODEL: CTest passes the files that
onnx.import.vgg16 and onnx.import.alexnet export (tests/onnx/export_models.py, seeded weights,
eval mode), which saves exporting VGG-16's 553 MB a second time. Neither network has a
BatchNorm, so the graph is the one this script would export; the weights differ, and the report
does not read them.
"""

import argparse
import json
import os
import subprocess
import sys
import warnings

import torch
import torchvision

ZOO = ["lenet5", "alexnet", "vgg16", "googlenet", "resnet18", "resnet50", "mobilenet_v2"]

NET_KEYS = ["input_shape", "output_shape", "params_total", "buffers_total", "weight_bytes", "buffer_bytes",
            "input_bytes", "macs_conv_linear", "ext_ops", "macs_total", "activation_bytes_sum", "read_bytes",
            "write_bytes", "peak_io_bytes", "arena_bytes", "arena_lower_bound_bytes", "arena_baseline_bytes",
            "arena_plain_liveness_bytes", "arena_alignment", "arena_strategy"]
LEAF_KEYS = ["type", "input_shape", "output_shape", "params", "buffers", "macs", "ext_ops", "output_bytes",
             "read_bytes", "write_bytes", "input_tensors", "arena_offset"]


class LeNet5(torch.nn.Module):
    """The zoo's LeNet-5 (include/ctnn/zoo/lenet5.hpp) in PyTorch."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 6, 5)
        self.conv2 = torch.nn.Conv2d(6, 16, 5)
        self.fc1 = torch.nn.Linear(400, 120)
        self.fc2 = torch.nn.Linear(120, 84)
        self.fc3 = torch.nn.Linear(84, 10)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = torch.max_pool2d(torch.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


def build(name):
    torch.manual_seed(0)
    if name == "lenet5":
        return LeNet5().eval(), (1, 1, 32, 32)
    kwargs = {"weights": None}
    if name == "googlenet":
        kwargs.update(aux_logits=False, init_weights=False)
    return getattr(torchvision.models, name)(**kwargs).eval(), (1, 3, 224, 224)


def export(name, path):
    model, shape = build(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, torch.zeros(shape), path, opset_version=13, input_names=["input"],
                          output_names=["output"], training=torch.onnx.TrainingMode.PRESERVE)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} -> {r.returncode}\n{r.stderr}")
    return r.stdout


def drop_dropouts(rep):
    """The typed report without its Dropout leaves (aliases), tensors renumbered, and the network
    figures that count every leaf's output reduced by theirs."""
    leaves = [x for x in rep["layers"]]
    dropped = [x for x in leaves if x["type"] == "Dropout"]
    # tensor ids: 0 = input, i + 1 = output of leaf i; a dropout's output is its input
    alias = {}
    new_id = {0: 0}
    kept = []
    for x in leaves:
        if x["type"] == "Dropout":
            alias[x["output_tensor"]] = x["input_tensors"][0]
            continue
        kept.append(x)
        new_id[x["output_tensor"]] = len(kept)

    def resolve(t):
        while t in alias:
            t = alias[t]
        return new_id[t]

    out = dict(rep)
    out["layers"] = [dict(x, input_tensors=[resolve(t) for t in x["input_tensors"]]) for x in kept]
    for key, leaf_key in (("activation_bytes_sum", "output_bytes"), ("read_bytes", "read_bytes"),
                          ("write_bytes", "write_bytes")):
        out[key] = rep[key] - sum(x[leaf_key] for x in dropped)
    return out, len(dropped)


def canonical(leaf, key):
    """A leaf's field, with what the file cannot distinguish made equal (see the module doc)."""
    v = leaf[key]
    if key == "type" and v == "AdaptiveAvgPool2d":
        return "AvgPool2d"
    if key == "input_tensors" and leaf["type"] in ("Add", "Mul"):
        return sorted(v)
    return v


def tiling_rows(text):
    """The --tiles table without the name and type columns, and its totals line."""
    rows = []
    for line in text.splitlines():
        f = line.split()
        if f and f[0].isdigit():
            rows.append([f[0]] + f[-8:])
        elif line.startswith("Total:"):
            rows.append([line])
    return rows


def compare(name, report, work, keep=False, given=None):
    path = given or os.path.join(work, name + ".onnx")
    if given is None:
        export(name, path)
    failures = []
    for dtype in ("float32", "int8"):
        typed = json.loads(run([report, name, "--dtype", dtype, "--format", "json"]))
        onnx_rep = json.loads(run([report, path, "--dtype", dtype, "--format", "json"]))
        typed, n_drop = drop_dropouts(typed)
        for k in NET_KEYS:
            if typed[k] != onnx_rep[k]:
                failures.append(f"{name} {dtype}: {k}: typed {typed[k]} onnx {onnx_rep[k]}")
        tl, ol = typed["layers"], onnx_rep["layers"]
        if len(tl) != len(ol):
            failures.append(f"{name} {dtype}: {len(tl)} leaves typed (without {n_drop} dropouts), {len(ol)} from the file")
        for i, (a, b) in enumerate(zip(tl, ol)):
            diff = [k for k in LEAF_KEYS if canonical(a, k) != canonical(b, k)]
            if diff:
                failures.append(f"{name} {dtype}: leaf {i} ({a['name']} / {b['name']}): " +
                                ", ".join(f"{k}: {a[k]} vs {b[k]}" for k in diff))
                break
        tiles = ""
        if dtype == "int8":  # the tile split does not depend on the dtype; the bytes moved do (1-byte elements here)
            tt = tiling_rows(run([report, name, "--dtype", dtype, "--tiles", "64"]))
            to = tiling_rows(run([report, path, "--dtype", dtype, "--tiles", "64"]))
            # leaf numbers differ by the dropouts before a GEMM: compare the numbers after the leaf column
            if [r[1:] for r in tt] != [r[1:] for r in to] or len(to) < 2:
                failures.append(f"{name} {dtype}: the --tiles 64 tables differ")
            tiles = f", {len(to) - 1} GEMMs tiled 64x64x64 alike"
        print(f"{name} {dtype}: {len(ol)} leaves ({n_drop} typed dropouts removed), params {onnx_rep['params_total']}, "
              f"MACs {onnx_rep['macs_conv_linear']}, arena {onnx_rep['arena_bytes']}, "
              f"lower bound {onnx_rep['arena_lower_bound_bytes']}{tiles}")
    if not keep and given is None:
        os.remove(path)  # up to 553 MB (VGG-16)
    return failures


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--report", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--models", default=",".join(ZOO))
    ap.add_argument("--keep", action="store_true", help="keep the exported ONNX files")
    ap.add_argument("--onnx", action="append", default=[], metavar="MODEL=FILE",
                    help="compare FILE instead of exporting MODEL (a model without BatchNorm)")
    a = ap.parse_args(argv)
    given = dict(x.split("=", 1) for x in a.onnx)
    unknown = sorted(set(given) - set(a.models.split(",")))
    if unknown:
        ap.error(f"--onnx names models not in --models: {', '.join(unknown)}")
    os.makedirs(a.work, exist_ok=True)
    failures = []
    for name in a.models.split(","):
        failures += compare(name, a.report, a.work, a.keep, given.get(name))
    for f in failures:
        print("MISMATCH " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
