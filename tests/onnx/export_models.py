"""Exports seeded test models to ONNX (opset 13 unless --opset) with their inputs and PyTorch outputs.

For each model M it writes DIR/M.onnx, DIR/M.input.npy (float32 [N, C, R, R], seeded; N = 1
unless --batch) and DIR/M.torch.npy (the PyTorch model's output on that input), and prints one
line: resolution, whether BatchNorm was kept, export time, PyTorch inference time per sample
(batch 1: median of 3 after a warm-up; one thread) and file size.

The torchvision models are built by examples/onnx/seeded_models.py (default initialization under
torch.manual_seed(seed), BatchNorm parameters and statistics drawn from a generator seeded with
seed, Inception-v3's statistics measured); they are exported with torch.onnx.export, batch 1,
fixed shapes, do_constant_folding=True, graph input "input" and output "output". In eval mode the
exporter folds each BatchNorm into the convolution before it; --batchnorm keep (TrainingMode.
PRESERVE on the model in eval mode) keeps the BatchNormalization nodes, and the default 'auto'
keeps them for the models whose epsilon is not 1e-5 (GoogLeNet, Inception-v3: 1e-3), so that
the importer's epsilon is tested. "keras_dsconv" is the Keras-style depthwise-separable CNN of
keras_dsconv.py, written as an ONNX graph directly; its golden output comes from the matching
PyTorch reference.

    /usr/bin/python3 tests/onnx/export_models.py --out DIR [--models a,b] [--resolution R]
        [--seed S] [--batch N] [--batchnorm auto|keep|fold] [--opset 13|17] [--check-determinism]
        [--timing-json FILE]

--resolution overrides every model's default (224, inception_v3 299). --check-determinism
exports each model a second time and fails if the bytes differ.
"""

import argparse
import hashlib
import io
import json
import os
import sys
import time
import warnings

import numpy as np
import onnx
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "onnx"))
sys.path.insert(0, HERE)

import clip_bounds  # noqa: E402
import keras_dsconv  # noqa: E402
import seeded_models  # noqa: E402

ALL_MODELS = list(seeded_models.TORCHVISION) + [keras_dsconv.NAME, clip_bounds.NAME]


def keeps_batchnorm(model, mode):
    """Whether to export BatchNormalization nodes instead of folding them into the convolutions:
    'keep', 'fold', or 'auto' = keep when a BatchNorm's epsilon is not PyTorch's default 1e-5
    (GoogLeNet and Inception-v3 use 1e-3), so that the importer's epsilon is what is tested."""
    if mode == "auto":
        return any(abs(eps - 1e-5) > 1e-12 for eps in seeded_models.batchnorm_epsilons(model))
    return mode == "keep"


def export_bytes(model, x, keep_batchnorm=False, opset=13):
    """The ONNX file torch.onnx.export writes for `model` on input `x`, as bytes. In eval mode
    the exporter folds each BatchNorm into the Conv before it; TrainingMode.PRESERVE on a model
    in eval mode exports the same inference graph with the BatchNormalization nodes kept."""
    buf = io.BytesIO()
    mode = torch.onnx.TrainingMode.PRESERVE if keep_batchnorm else torch.onnx.TrainingMode.EVAL
    with warnings.catch_warnings():  # the advice about constant folding is for models in training mode
        warnings.filterwarnings("ignore", message="It is recommended that constant folding be turned off")
        torch.onnx.export(model, torch.from_numpy(x), buf, opset_version=opset,
                          do_constant_folding=True, training=mode,
                          input_names=["input"], output_names=["output"])
    return buf.getvalue()


def timed(fn):
    """(result, seconds) of one call."""
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def inference(model, x, repeats=3):
    """(output as numpy, seconds per sample: median of `repeats` runs after one warm-up, or of
    the one run when repeats is 0)."""
    inp = torch.from_numpy(x)
    with torch.no_grad():
        out, first = timed(lambda: model(inp))
        times = [timed(lambda: model(inp))[1] for _ in range(repeats)] or [first]
    return out.numpy(), sorted(times)[len(times) // 2] / x.shape[0]


def export_one(name, resolution, seed, batch=1, batchnorm="auto", opset=13):
    """(onnx bytes, input, torch output, export seconds, inference seconds, BN kept) for one
    model; the graph has batch 1, the input and output `batch` samples."""
    x = seeded_models.make_input(seed, resolution, batch=batch)
    kept = False
    if name == keras_dsconv.NAME:
        model = keras_dsconv.torch_model(seed, resolution)
        data, t_export = timed(lambda: keras_dsconv.build_onnx(seed, resolution).SerializeToString())
    elif name == clip_bounds.NAME:
        model = clip_bounds.torch_model(seed, resolution)
        data, t_export = timed(lambda: export_bytes(model, x[:1], False, opset))
    else:
        model = seeded_models.build_torchvision(name, seed, resolution)
        kept = keeps_batchnorm(model, batchnorm)
        data, t_export = timed(lambda: export_bytes(model, x[:1], kept, opset))
    y, t_infer = inference(model, x, repeats=3 if batch == 1 else 0)
    return data, x, y.astype(np.float32), t_export, t_infer, kept


def write_outputs(out_dir, name, data, x, y):
    """DIR/name.onnx, DIR/name.input.npy, DIR/name.torch.npy."""
    with open(os.path.join(out_dir, name + ".onnx"), "wb") as f:
        f.write(data)
    np.save(os.path.join(out_dir, name + ".input.npy"), x)
    np.save(os.path.join(out_dir, name + ".torch.npy"), y)


def check_determinism(name, resolution, seed, data, batchnorm, opset):
    """Exports again in this process; raises if the bytes differ."""
    again = export_one(name, resolution, seed, 1, batchnorm, opset)[0]
    if again != data:
        raise SystemExit(f"{name}: a second export differs ({len(data)} vs {len(again)} bytes)")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--models", default=",".join(ALL_MODELS),
                        help="comma-separated names (default: all 15)")
    parser.add_argument("--resolution", type=int, help="override the default resolution")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opset", type=int, default=13,
                        help="ONNX opset of the torchvision exports (default 13; 17 writes "
                             "LayerNormalization instead of its decomposition)")
    parser.add_argument("--batch", type=int, default=1,
                        help="samples in the input and output .npy (the graph keeps batch 1)")
    parser.add_argument("--batchnorm", choices=("auto", "keep", "fold"), default="auto",
                        help="keep BatchNormalization nodes or fold them into the convolutions "
                             "(auto: keep when an epsilon is not 1e-5)")
    parser.add_argument("--check-determinism", action="store_true")
    parser.add_argument("--timing-json", help="also write the timings to this JSON file")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in ALL_MODELS]
    if unknown:
        raise SystemExit(f"unknown models: {', '.join(unknown)}; known: {', '.join(ALL_MODELS)}")
    if args.batch < 1:
        raise SystemExit("--batch must be >= 1")
    print(f"{'model':<20} {'res':>4} {'BN':>4} {'export s':>9} {'infer ms':>9} {'MB':>8}  sha256")
    rows = []
    for name in names:
        res = args.resolution or seeded_models.default_resolution(name)
        data, x, y, t_export, t_infer, kept = export_one(name, res, args.seed, args.batch, args.batchnorm,
                                                         args.opset)
        onnx.checker.check_model(data)  # the serialized model straight to the C++ checker
        write_outputs(args.out, name, data, x, y)
        if args.check_determinism:
            check_determinism(name, res, args.seed, data, args.batchnorm, args.opset)
        digest = hashlib.sha256(data).hexdigest()
        rows.append({"model": name, "resolution": res, "batchnorm_kept": kept, "export_s": t_export,
                     "inference_ms": t_infer * 1e3, "bytes": len(data), "sha256": digest})
        print(f"{name:<20} {res:>4} {'keep' if kept else 'fold':>4} {t_export:>9.2f} {t_infer * 1e3:>9.1f} "
              f"{len(data) / 1e6:>8.2f}  {digest[:16]}", flush=True)
    if args.timing_json:
        with open(args.timing_json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
