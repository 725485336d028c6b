"""Accuracy of the trained Fashion-MNIST models on all 10,000 test images, from PyTorch to ctnn.

    /usr/bin/python3 examples/fashion_mnist/accuracy.py --work build/fm/fashion_mnist \
        --ctnn-import build/fm/bin/ctnn-import [--ctnn-report build/fm/bin/ctnn-report] \
        [--check-sums] [--min-agreement 0.999] [--max-int8-arena dscnn=65536] \
        [--ctnn-int8 minmax,percentile,mse] [--max-int8-drop 0.5] [--int8-not-below-torch] \
        [--runner 'dscnn=other=PATH/runner' ...]

For each model of --models (models/lenet5.onnx, models/dscnn.onnx):
  - PyTorch float32: the module of fmnist.py with the ONNX file's weights (fmnist.load_from_onnx);
  - PyTorch int8: torch.ao post-training quantization (FX graph mode, the engine's default
    qconfig: --torch-engine onednn gives per-tensor asymmetric uint8 activations from a histogram
    observer and per-channel symmetric int8 weights), calibrated on the same 1,000 calibration
    images ctnn gets (data.py), then run by the quantized engine;
  - ctnn float32 (host): ctnn-import, the runner compiled from examples/onnx/model_runner.cpp
    (--cxxflags, default -O2; the CTest passes -O2 -march=native), run on the 10,000 images;
  - ctnn int8 (host), one row per rule of --ctnn-int8: ctnn-import --dtype int8 --calibration
    (the same 1,000 calibration images) --calibration-rule RULE --sqnr --sqnr-svg, the runner
    compiled alike; it quantizes each float image itself and writes dequantized logits. The
    import's per-layer SQNR table goes to the log, its worst layer to the table's footer and the
    chart to WORK/MODEL.RULE.sqnr.svg;
  - any --runner MODEL=LABEL=PATH: another runner taking float32 .npy in and writing logits out
    (`PATH --input IN.npy --output OUT.npy`) as another row.
Each row gives the accuracy, the fraction of images whose predicted class equals PyTorch
float32's, the largest logit difference from PyTorch float32 over all images relative to its
largest |logit| ("logit err"), and the seconds the 10,000 images took (int8 PyTorch: with its
calibration). The data (data.py) and the generated files go to --work. With --ctnn-report, the
float32 and int8 arena bytes of each model as ctnn plans them.

With --firmware MODEL=RULE=ELF (the image of ctnn_add_firmware: the model imported in int8 with
RULE, the first N test images embedded; examples/fashion_mnist/CMakeLists.txt builds
fmnist_lenet5.elf, fmnist_dscnn.elf and fmnist_resnet8.elf) and --qemu and/or --soc-sim, the image runs on QEMU
rv32im (CPU only; `-icount shift=0`, so cycles are instructions) and on ctnn-soc-sim (our core with
the GEMM accelerator), and a second table gives, per target, the accuracy on its N images, the
host int8 runner's accuracy on the same images, how many of the N outputs equal the host int8
runner's bytes (`--raw`, the same rule) and the cycles per image (the SoC: accelerated, and the CPU
alone on its first images). Every output must equal the host's, the image must report match=yes
(its own check of every leaf's CRC against the host's table) and N must be at least
--min-firmware-images on QEMU, --min-soc-images on the SoC (where the image runs its first
ACCEL_IMAGES: 20 in examples/fashion_mnist/CMakeLists.txt, as an RTL simulation is slow).

Checks (exit 1, after printing the table): --check-sums (models/SHA256SUMS), --min-agreement
(ctnn float32 against PyTorch float32, each model), --max-int8-arena MODEL=BYTES,
--max-int8-drop POINTS (every ctnn int8 row within POINTS percentage points of ctnn float32's
accuracy), --int8-not-below-torch (every ctnn int8 row at least as accurate as torch.ao's),
--int8-agreement-not-below-torch (every ctnn int8 row predicts PyTorch float32's class on at least
as many images as torch.ao's int8 does: fidelity to the float model, which a tenth of a point of
accuracy, a dozen images either way, does not measure).
"""

import argparse
import copy
import hashlib
import json
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import data  # noqa: E402
import fmnist  # noqa: E402

EVAL_BATCH = 100  # larger batches are slower on one thread (the activations leave the cache)


def log(message):
    print(message, file=sys.stderr, flush=True)


def run(cmd, what):
    """Runs cmd and returns its stdout; on failure raises SystemExit with its stdout and stderr."""
    try:
        result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as err:
        raise SystemExit(f"accuracy: {what}: cannot run {cmd[0]}: {err.strerror}") from err
    if result.returncode != 0:
        raise SystemExit(f"accuracy: {what} failed (exit {result.returncode}): {' '.join(cmd)}\n"
                         f"{result.stdout}{result.stderr}")
    return result.stdout


# ---- one function per engine; each returns the logits, float32 [N, 10] (the class: argmax)

def torch_logits(model, x):
    """Logits of a PyTorch module (float or quantized) for float32 x [N, 1, H, W]."""
    xt = torch.from_numpy(x)
    with torch.no_grad():
        return np.concatenate([model(xt[i:i + EVAL_BATCH]).float().numpy() for i in range(0, len(x), EVAL_BATCH)])


def torch_int8_model(model, calibration, engine):
    """torch.ao post-training quantization (FX graph mode) of `model`, calibrated on `calibration`."""
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    torch.backends.quantized.engine = engine
    prepared = prepare_fx(copy.deepcopy(model).eval(), get_default_qconfig_mapping(engine),
                          (torch.from_numpy(calibration[:1]),))
    torch_logits(prepared, calibration)  # the observers record the ranges
    return convert_fx(prepared)


def runner_logits(runner, inputs_npy, out):
    """Logits [N, 10] of a ctnn runner (any executable `RUNNER --input IN.npy --output OUT.npy`)
    on the float32 inputs in inputs_npy: a ctnn float32 runner today, a ctnn int8 runner (which
    quantizes its float input and dequantizes its output itself) alike; `out` is the file the
    runner writes. Returns (logits, seconds)."""
    if os.path.exists(out):
        os.remove(out)
    start = time.perf_counter()
    run([runner, "--input", inputs_npy, "--output", out], f"runner {runner}")
    seconds = time.perf_counter() - start
    logits = np.load(out)
    n = np.load(inputs_npy, mmap_mode="r").shape[0]
    if logits.shape != (n, 10):
        raise SystemExit(f"accuracy: {runner} wrote logits of shape {logits.shape}, want ({n}, 10)")
    if not np.all(np.isfinite(logits)):
        raise SystemExit(f"accuracy: {runner} wrote non-finite logits")
    return logits, seconds


def build_ctnn_runner(model, onnx_path, importer, cxx, cxxflags, work):
    """ctnn-import onnx_path into work/gen and compile its runner as import_and_compare.cmake
    does; returns the runner's path."""
    gen = os.path.join(work, "gen")
    os.makedirs(gen, exist_ok=True)
    run([importer, onnx_path, "-o", gen, "--name", model], f"ctnn-import {onnx_path}")
    runner = os.path.join(work, f"{model}-run")
    run([cxx, "-std=c++20", *cxxflags, f"-I{SOURCE}/include", f"-I{gen}", f'-DCTNN_MODEL_HEADER="{model}.hpp"',
         f"-DCTNN_MODEL=ctnn_models::{model}_model", f"{SOURCE}/examples/onnx/model_runner.cpp",
         os.path.join(gen, f"{model}.S"), "-o", runner], f"compiling the runner of {model}")
    return runner


def build_ctnn_int8_runner(model, onnx_path, importer, calibration, rule, cxx, cxxflags, work):
    """ctnn-import --dtype int8 onnx_path (calibrated on `calibration` with `rule`) into
    work/gen-int8-RULE and its runner; returns (runner, the import's stdout: SQNR table and summary)."""
    gen = os.path.join(work, f"gen-int8-{rule}")
    os.makedirs(gen, exist_ok=True)
    printed = run([importer, onnx_path, "-o", gen, "--name", model, "--dtype", "int8", "--calibration", calibration,
                   "--calibration-rule", rule, "--sqnr", "--sqnr-svg", os.path.join(work, f"{model}.{rule}.sqnr.svg")],
                  f"ctnn-import --dtype int8 {onnx_path}")
    runner = os.path.join(work, f"{model}-int8-{rule}-run")
    run([cxx, "-std=c++20", *cxxflags, f"-I{SOURCE}/include", f"-I{gen}", f'-DCTNN_MODEL_HEADER="{model}.hpp"',
         f"-DCTNN_MODEL=ctnn_models::{model}_model", f"{SOURCE}/examples/onnx/model_runner.cpp",
         os.path.join(gen, f"{model}.S"), "-o", runner], f"compiling the int8 runner of {model}")
    return runner, printed


def arena_bytes(report, onnx_path, dtype):
    """The arena ctnn plans for the model (ctnn-report MODEL.onnx --dtype DTYPE --format json)."""
    return int(json.loads(run([report, onnx_path, "--dtype", dtype, "--format", "json"], "ctnn-report"))["arena_bytes"])


def check_sums(models_dir, models):
    """Faults (strings) of models/SHA256SUMS against the files of `models`."""
    sums = {}
    with open(os.path.join(models_dir, "SHA256SUMS")) as f:
        for line in f:
            digest, name = line.split()
            sums[name] = digest
    faults = []
    for model in models:
        name = f"{model}.onnx"
        with open(os.path.join(models_dir, name), "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if name not in sums:
            faults.append(f"{name} is not in SHA256SUMS")
        elif sums[name] != digest:
            faults.append(f"{name}: sha256 {digest}, SHA256SUMS says {sums[name]}")
        else:
            log(f"{name}: sha256 {digest} OK")
    return faults


def parse_runners(values):
    """[(model, label, path)] of --runner MODEL=LABEL=PATH values (the label holds no '=')."""
    runners = []
    for value in values:
        parts = value.split("=", 2)
        if len(parts) != 3 or parts[0] not in fmnist.MODELS or not parts[1] or not parts[2]:
            raise SystemExit(f"accuracy: --runner '{value}': want MODEL=LABEL=PATH, MODEL one of "
                             f"{', '.join(fmnist.MODELS)}")
        runners.append(tuple(parts))
    return runners


def parse_firmware(values):
    """[(model, rule, elf)] of --firmware MODEL=RULE=ELF values."""
    images = []
    for value in values:
        parts = value.split("=", 2)
        if len(parts) != 3 or parts[0] not in fmnist.MODELS or parts[1] not in ("minmax", "percentile", "mse") \
                or not parts[2]:
            raise SystemExit(f"accuracy: --firmware '{value}': want MODEL=RULE=ELF, MODEL one of "
                             f"{', '.join(fmnist.MODELS)}, RULE minmax, percentile or mse")
        images.append(tuple(parts))
    return images


OUT_LINE = re.compile(r"^(\S+): out (\d+) (\d+) (\d+) ([0-9a-f]+)$", re.M)
# (an image built with CPU_IMAGES 0 runs no image on the CPU alone on the SoC: no cycles_cpu, no speedup)
SUMMARY_LINE = re.compile(r"^(\S+): match=(yes|no) images=(\d+)(?: cycles_cpu=(\d+))?"
                          r"(?: cycles_accel=(\d+)(?: speedup=([0-9.]+))? accel_busy=(\d+) accel_share=[0-9.]+%"
                          r"| accelerator=absent)$", re.M)


def run_firmware(cmd, elf, what, timeout):
    """Runs a firmware image (ctnn_add_firmware) with cmd + [elf]; returns (out lines as (image,
    label, predicted, int8 bytes), the summary match, seconds). Raises SystemExit when it cannot run,
    times out or prints no summary."""
    start = time.perf_counter()
    try:
        result = subprocess.run(cmd + [elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                timeout=timeout)
    except OSError as err:
        raise SystemExit(f"accuracy: {what}: cannot run {cmd[0]}: {err.strerror}") from err
    except subprocess.TimeoutExpired as err:
        raise SystemExit(f"accuracy: {what}: {elf} did not finish within {timeout} s") from err
    seconds = time.perf_counter() - start
    outs = [(int(i), int(label), int(pred), np.frombuffer(bytes.fromhex(hexbytes), dtype=np.int8))
            for _, i, label, pred, hexbytes in OUT_LINE.findall(result.stdout)]
    summary = SUMMARY_LINE.search(result.stdout)
    log(f"{what}: {elf} exit {result.returncode} in {seconds:.1f} s\n"
        + "\n".join(line for line in result.stdout.splitlines() if ": out " not in line))
    if summary is None:
        raise SystemExit(f"accuracy: {what}: {elf} printed no summary line (exit {result.returncode})\n"
                         f"{result.stdout[-2000:]}{result.stderr}")
    return outs, summary, result.returncode, seconds


def parse_limits(values):
    """[(model, bytes)] of --max-int8-arena MODEL=BYTES values."""
    limits = []
    for value in values:
        model, _, number = value.partition("=")
        if model not in fmnist.MODELS or not number.isdigit():
            raise SystemExit(f"accuracy: --max-int8-arena '{value}': want MODEL=BYTES, MODEL one of "
                             f"{', '.join(fmnist.MODELS)}")
        limits.append((model, int(number)))
    return limits


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="directory for the data, the generated model and runners")
    ap.add_argument("--models-dir", default=os.path.join(HERE, "models"))
    ap.add_argument("--models", default=",".join(fmnist.MODELS))
    ap.add_argument("--ctnn-import", help="ctnn-import (without it: no ctnn float32 row)")
    ap.add_argument("--ctnn-report", help="ctnn-report: print each model's float32 and int8 arena")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cxxflags", default="-O2", help="flags of the runner's compilation (default -O2)")
    ap.add_argument("--torch-engine", default="onednn",
                    help="torch.backends.quantized engine of the PyTorch int8 row, or 'none' to skip it "
                         f"(this build: {', '.join(torch.backends.quantized.supported_engines)})")
    ap.add_argument("--runner", action="append", default=[], metavar="MODEL=LABEL=PATH",
                    help="another runner's row (e.g. 'dscnn=ctnn int8 (host)=build/dscnn-int8-run'); repeatable")
    ap.add_argument("--ctnn-int8", default="", metavar="RULES",
                    help="comma-separated calibration rules (minmax, percentile, mse): a ctnn int8 row for each "
                         "(needs --ctnn-import)")
    ap.add_argument("--max-int8-drop", type=float, default=None, metavar="POINTS",
                    help="fail unless every ctnn int8 row is within POINTS percentage points of ctnn float32")
    ap.add_argument("--int8-not-below-torch", action="store_true",
                    help="fail unless every ctnn int8 row is at least as accurate as torch.ao's int8")
    ap.add_argument("--int8-agreement-not-below-torch", action="store_true",
                    help="fail unless every ctnn int8 row agrees with PyTorch float32 on at least as many images "
                         "as torch.ao's int8")
    ap.add_argument("--check-sums", action="store_true", help="verify the ONNX files against models/SHA256SUMS")
    ap.add_argument("--min-agreement", type=float, default=None,
                    help="fail unless ctnn float32 predicts PyTorch float32's class on at least this fraction")
    ap.add_argument("--max-int8-arena", action="append", default=[], metavar="MODEL=BYTES",
                    help="fail if ctnn's int8 arena of MODEL exceeds BYTES (needs --ctnn-report)")
    ap.add_argument("--firmware", action="append", default=[], metavar="MODEL=RULE=ELF",
                    help="a firmware image of ctnn_add_firmware (MODEL imported in int8 with RULE) to run on "
                         "--qemu and --soc-sim; repeatable")
    ap.add_argument("--qemu", default="", help="qemu-system-riscv32, for --firmware (empty: no QEMU row)")
    ap.add_argument("--soc-sim", default="", help="ctnn-soc-sim, for --firmware (empty: no SoC row)")
    ap.add_argument("--firmware-timeout", type=int, default=1200, help="seconds one firmware run may take")
    ap.add_argument("--min-firmware-images", type=int, default=200,
                    help="fail if a firmware image runs fewer test images on QEMU (default 200)")
    ap.add_argument("--min-soc-images", type=int, default=20,
                    help="fail if a firmware image runs fewer test images on --soc-sim, where the accelerator "
                         "runs ctnn_add_firmware's ACCEL_IMAGES (default 20)")
    ap.add_argument("--data-dir", default=None, help="the four idx files (default: Debian's package)")
    ap.add_argument("--json", help="also write the table as JSON")
    args = ap.parse_args()

    models = [m for m in args.models.split(",") if m]
    for m in models:
        if m not in fmnist.MODELS:
            ap.error(f"unknown model '{m}' ({', '.join(fmnist.MODELS)})")
    extra = parse_runners(args.runner)
    int8_rules = [r for r in args.ctnn_int8.split(",") if r]
    for r in int8_rules:
        if r not in ("minmax", "percentile", "mse"):
            ap.error(f"--ctnn-int8: unknown rule '{r}' (minmax, percentile, mse)")
    if int8_rules and not args.ctnn_import:
        ap.error("--ctnn-int8 needs --ctnn-import")
    firmware = [f for f in parse_firmware(args.firmware) if f[0] in models]
    if firmware and not args.ctnn_import:
        ap.error("--firmware needs --ctnn-import (the host int8 runner it is compared with)")
    if firmware and not args.qemu and not args.soc_sim:
        log("accuracy: --firmware without --qemu or --soc-sim: no target to run it on")
    arena_limits = parse_limits(args.max_int8_arena)
    if arena_limits and not args.ctnn_report:
        ap.error("--max-int8-arena needs --ctnn-report")
    if args.torch_engine != "none" and args.torch_engine not in torch.backends.quantized.supported_engines:
        ap.error(f"--torch-engine {args.torch_engine}: this torch has {torch.backends.quantized.supported_engines}")

    torch.set_num_threads(1)
    faults = check_sums(args.models_dir, models) if args.check_sums else []
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    start = time.perf_counter()
    files = data.write(os.path.join(work, "data"), args.data_dir, models)
    labels = np.load(files["test.labels"])
    log(f"data: {len(labels)} test images, 1000 calibration images -> {os.path.join(work, 'data')} "
        f"({time.perf_counter() - start:.1f} s)")

    rows = []  # model, engine, logits [N, 10], seconds
    firmware_rows = []
    arenas = {}
    worst = {}  # (model, rule) -> the import's "worst layer: ..." SQNR line
    for model in models:
        onnx_path = os.path.join(args.models_dir, f"{model}.onnx")
        test = np.load(files[f"{model}.test"])
        calibration = np.load(files[f"{model}.calibration"])
        module = fmnist.load_from_onnx(model, onnx_path)
        start = time.perf_counter()
        reference = torch_logits(module, test)
        rows.append((model, "PyTorch float32", reference, time.perf_counter() - start))
        if args.torch_engine != "none":
            start = time.perf_counter()
            quantized = torch_int8_model(module, calibration, args.torch_engine)
            rows.append((model, f"PyTorch int8 (torch.ao, {args.torch_engine})",
                         torch_logits(quantized, test), time.perf_counter() - start))
        if args.ctnn_import:
            start = time.perf_counter()
            runner = build_ctnn_runner(model, onnx_path, args.ctnn_import, args.cxx, args.cxxflags.split(), work)
            log(f"{model}: imported and runner built in {time.perf_counter() - start:.1f} s: {runner}")
            predicted, seconds = runner_logits(runner, files[f"{model}.test"],
                                               os.path.join(work, f"{model}.ctnn_float32.logits.npy"))
            rows.append((model, "ctnn float32 (host)", predicted, seconds))
        for rule in int8_rules:
            start = time.perf_counter()
            runner, printed = build_ctnn_int8_runner(model, onnx_path, args.ctnn_import, files[f"{model}.calibration"],
                                                     rule, args.cxx, args.cxxflags.split(), work)
            log(f"{model}: int8 ({rule}) imported and runner built in {time.perf_counter() - start:.1f} s: {runner}\n"
                + printed.rstrip())
            worst[(model, rule)] = next((line for line in printed.splitlines() if line.startswith("worst layer:")), "")
            predicted, seconds = runner_logits(runner, files[f"{model}.test"],
                                               os.path.join(work, f"{model}.ctnn_int8_{rule}.logits.npy"))
            rows.append((model, f"ctnn int8 (host, {rule})", predicted, seconds))
        for index, (which, label, path) in enumerate(extra):
            if which == model:
                predicted, seconds = runner_logits(os.path.abspath(path), files[f"{model}.test"],
                                                   os.path.join(work, f"{model}.runner{index}.logits.npy"))
                rows.append((model, label, predicted, seconds))
        if args.ctnn_report:
            arenas[model] = {dt: arena_bytes(args.ctnn_report, onnx_path, dt) for dt in ("float32", "int8")}
        for which, rule, elf in firmware:
            if which != model:
                continue
            runner = os.path.join(work, f"{model}-int8-{rule}-run")
            if rule not in int8_rules:
                runner, _ = build_ctnn_int8_runner(model, onnx_path, args.ctnn_import, files[f"{model}.calibration"],
                                                   rule, args.cxx, args.cxxflags.split(), work)
            targets = []
            if args.qemu:
                targets.append(("QEMU rv32im, CPU", [args.qemu, "-M", "virt", "-cpu", "rv32,c=false", "-icount",
                                                     "shift=0", "-nographic", "-bios", "none", "-kernel"]))
            else:
                log(f"{model}: no --qemu: the QEMU row is skipped")
            if args.soc_sim:
                targets.append(("ctnn-soc-sim, accelerator", [args.soc_sim, "--max-cycles", "4000000000"]))
            else:
                log(f"{model}: no --soc-sim: the SoC row is skipped")
            for target, cmd in targets:
                outs, summary, rc, seconds = run_firmware(cmd, os.path.abspath(elf), f"{model} on {target}",
                                                          args.firmware_timeout)
                n = len(outs)
                if [o[0] for o in outs] != list(range(n)):
                    raise SystemExit(f"accuracy: {model} on {target}: the image lines are not 0 .. {n - 1}")
                first = os.path.join(work, f"{model}.test.first{n}.npy")
                np.save(first, np.load(files[f"{model}.test"], mmap_mode="r")[:n])
                raw = os.path.join(work, f"{model}.int8_{rule}.first{n}.raw.npy")
                run([runner, "--input", first, "--output", raw, "--raw"], f"runner {runner} --raw")
                host = np.load(raw).reshape(n, -1)
                got = np.stack([o[3] for o in outs]) if n else np.zeros((0, host.shape[1]), np.int8)
                equal = int((got == host).all(axis=1).sum()) if got.shape == host.shape else 0
                predicted = np.array([o[2] for o in outs])
                host_predicted = host.argmax(1)
                cycles_cpu = int(summary.group(4)) if summary.group(4) else None
                cycles_accel, busy = summary.group(5), summary.group(7)
                firmware_rows.append(dict(
                    model=model, target=target, rule=rule, images=n, exit=rc, match=summary.group(2) == "yes",
                    correct=int((predicted == labels[:n]).sum()), host_correct=int((host_predicted == labels[:n]).sum()),
                    labels_ok=all(o[1] == labels[o[0]] for o in outs), equal=equal,
                    cycles_cpu=cycles_cpu, cycles_accel=int(cycles_accel) if cycles_accel else None,
                    accel_busy=int(busy) if busy else None, seconds=seconds))

    # the table
    reference = {model: logits for model, engine, logits, _ in rows if engine == "PyTorch float32"}
    table = []
    for model, engine, logits, seconds in rows:
        predicted = logits.argmax(1)
        correct = int((predicted == labels).sum())
        same = int((predicted == reference[model].argmax(1)).sum())
        # the largest logit difference from PyTorch float32, relative to its largest |logit|
        error = float(np.abs(logits - reference[model]).max() / np.abs(reference[model]).max())
        table.append(dict(model=model, engine=engine, correct=correct, images=len(labels),
                          accuracy=correct / len(labels), agree=same, agreement=same / len(labels),
                          max_logit_error=error, seconds=seconds))
    width = max(len(r["engine"]) for r in table)
    print(f"Fashion-MNIST test set, {len(labels)} images")
    print(f"{'model':<7} {'engine':<{width}} {'accuracy':>9} {'correct':>7}  {'same class as PyTorch float32':>29} {'logit err':>9}  {'run s':>6}")
    for r in table:
        same = f"{100 * r['agreement']:.2f}% ({r['agree']}/{r['images']})"
        print(f"{r['model']:<7} {r['engine']:<{width}} {100 * r['accuracy']:>8.2f}% {r['correct']:>7}  "
              f"{same:>29} {r['max_logit_error']:>9.1e}  {r['seconds']:>6.1f}")
    for model, sizes in arenas.items():
        print(f"{model}: ctnn arena {sizes['float32']:,} bytes float32, {sizes['int8']:,} bytes int8")
    for (model, rule), line in worst.items():
        print(f"{model}: ctnn int8 ({rule}) SQNR over the calibration images, {line}")

    if firmware_rows:
        print("\nFirmware images (ctnn_add_firmware) on the first N test images; outputs compared byte for byte "
              "with the host int8 runner of the same rule")
        tw = max(len(f["target"]) for f in firmware_rows)
        print(f"{'model':<7} {'target':<{tw}} {'rule':<6} {'images':>6} {'accuracy':>9} {'host int8':>9} "
              f"{'outputs = host':>14} {'cycles/image':>12} {'CPU alone':>10} {'speedup':>8} {'in accel':>8}")
        for f in firmware_rows:
            n = max(f["images"], 1)
            per_image = f["cycles_accel"] if f["cycles_accel"] is not None else f["cycles_cpu"]
            cpu = f["cycles_cpu"] if f["cycles_accel"] is not None else None  # None: no CPU-alone run
            alone = f"{cpu:,}" if cpu is not None else "-"
            speedup = f"{cpu / f['cycles_accel']:.1f}x" if cpu is not None and f["cycles_accel"] else "-"
            inside = f"{100 * f['accel_busy'] / f['cycles_accel']:.1f}%" if f["cycles_accel"] else "-"
            print(f"{f['model']:<7} {f['target']:<{tw}} {f['rule']:<6} {f['images']:>6} "
                  f"{100 * f['correct'] / n:>8.2f}% {100 * f['host_correct'] / n:>8.2f}% "
                  f"{str(f['equal']) + '/' + str(f['images']):>14} {per_image:>12,} {alone:>10} {speedup:>8} {inside:>8}")
        print("(QEMU: -icount shift=0, a cycle is an instruction; the SoC: cycles of the RTL, the CPU alone on the "
              "image's first images; in accel: the accelerator's busy cycles, job start to done, over the cycles per image)")

    # the checks
    for f in firmware_rows:
        where = f"{f['model']} on {f['target']}"
        if f["exit"] != 0 or not f["match"]:
            faults.append(f"{where}: the image reports a mismatch with the host (exit {f['exit']}, "
                          f"match={'yes' if f['match'] else 'no'})")
        if f["equal"] != f["images"]:
            faults.append(f"{where}: {f['equal']} of {f['images']} outputs equal the host int8 runner's bytes")
        if not f["labels_ok"]:
            faults.append(f"{where}: the image's labels are not the test set's")
        least = args.min_soc_images if f["target"].startswith("ctnn-soc-sim") else args.min_firmware_images
        if f["images"] < least:
            faults.append(f"{where}: {f['images']} images, fewer than {least}")
    if args.min_agreement is not None:
        for r in table:
            if r["engine"] == "ctnn float32 (host)" and r["agreement"] < args.min_agreement:
                faults.append(f"{r['model']}: ctnn float32 predicts PyTorch float32's class on "
                              f"{100 * r['agreement']:.2f}% of the images, below {100 * args.min_agreement:.2f}%")
        if not any(r["engine"] == "ctnn float32 (host)" for r in table):
            faults.append("--min-agreement without a ctnn float32 row (give --ctnn-import)")
    by = {(r["model"], r["engine"]): r for r in table}
    for r in table:
        if not r["engine"].startswith("ctnn int8"):
            continue
        flt = by.get((r["model"], "ctnn float32 (host)"))
        if args.max_int8_drop is not None:
            if flt is None:
                faults.append(f"{r['model']}: --max-int8-drop without a ctnn float32 row")
            elif 100 * (flt["accuracy"] - r["accuracy"]) > args.max_int8_drop + 1e-9:
                faults.append(f"{r['model']}: {r['engine']} {100 * r['accuracy']:.2f}% is more than "
                              f"{args.max_int8_drop} points below ctnn float32's {100 * flt['accuracy']:.2f}%")
        peer = next((t for (m, e), t in by.items() if m == r["model"] and e.startswith("PyTorch int8")), None)
        if args.int8_not_below_torch:
            if peer is None:
                faults.append(f"{r['model']}: --int8-not-below-torch without a torch.ao row")
            elif r["correct"] < peer["correct"]:
                faults.append(f"{r['model']}: {r['engine']} {100 * r['accuracy']:.2f}% is below "
                              f"{peer['engine']}'s {100 * peer['accuracy']:.2f}%")
        if args.int8_agreement_not_below_torch:
            if peer is None:
                faults.append(f"{r['model']}: --int8-agreement-not-below-torch without a torch.ao row")
            elif r["agree"] < peer["agree"]:
                faults.append(f"{r['model']}: {r['engine']} predicts PyTorch float32's class on {r['agree']} "
                              f"images, {peer['engine']} on {peer['agree']}")
    for model, limit in arena_limits:
        if model in arenas and arenas[model]["int8"] > limit:
            faults.append(f"{model}: ctnn int8 arena {arenas[model]['int8']} bytes, above {limit}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(table=table, arenas=arenas, firmware=firmware_rows, faults=faults), f, indent=1)
    for fault in faults:
        print(f"FAIL: {fault}")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
