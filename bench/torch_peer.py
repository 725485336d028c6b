#!/usr/bin/python3
"""ctnn against PyTorch on whole networks: batch 1, one thread, float32 and int8.

Networks: LeNet-5 (ctnn's zoo definition written in PyTorch), ResNet-18 and MobileNetV2
(torchvision, weights=None, seeded; BatchNorm statistics from one seeded random batch, see
settle_batch_norm), 224x224. ctnn runs the same zoo types through
runtime::run<Net, T, backend::optimized> in bench/ctnn_bench_net (one process, driven over a pipe).
When ctnn_bench_net was built with CTNN_BENCH_FASHION_MNIST, also the trained Fashion-MNIST models
of examples/fashion_mnist (fmnist_lenet5, fmnist_dscnn, fmnist_resnet8: PyTorch loads the ONNX file's weights into
fmnist.py's modules, ctnn runs the file as ctnn_add_model imported it, int8 calibrated by ctnn-import).
When it was built with CTNN_BENCH_TORCHVISION (the release preset), also tv_resnet18 and
tv_mobilenet_v2: the same seeded torchvision networks as resnet18 and mobilenet_v2, but on ctnn's
side what a user runs: the ONNX file --export writes, imported by ctnn_add_model (float32 with
FUSE: BatchNorm folded by the exporter, ReLU / ReLU6 fused; int8 calibrated by ctnn-import, mse
rule, on the 8 inputs PyTorch's int8 calibrates on). Their ctnn output is checked before any
timing (check_ctnn: float32 against PyTorch eager, int8 bit-exact with ctnn's reference kernels);
a wrong one stops the run.

--ctnn-before OTHER_BINARY times a second ctnn_bench_net (e.g. built at an earlier commit) as
'ctnn_before' in the same interleaved rounds: before/after figures under the same load.

PyTorch configurations (the fastest of a case is the peer):
  float32  eager                     the nn.Module in inference mode
           jit_frozen                torch.jit.trace + freeze + optimize_for_inference (oneDNN)
  int8     fx_<engine>               FX post-training quantization (torch.ao, qconfig mapping of the
                                     engine, calibrated on 8 seeded inputs), run as a GraphModule
           fx_<engine>_jit_frozen    the same traced and frozen
  with engine in onednn and qnnpack (Debian's build has no fbgemm, hence no 'x86' backend).

Every configuration is checked against eager float32 before timing (float: 1e-3 of the largest
output; int8: relative L2 error <= 0.5, where an all-zero output gives 1 and an unrelated one
about 1.4; MobileNetV2 with qnnpack's per-tensor weights reaches about 0.37). One that fails is
left out of the timing and named under the table (exit status 0: the table is still measured;
--strict makes it 1). Rounds are
interleaved: each round runs every implementation of every case once for a fixed time budget (the
order rotates from round to round; of ctnn and ctnn_before, each runs first in every other
round); a round's figure is its mean time per run. The table gives per
case the median over rounds, min-max, and the ratio
ctnn speed / best peer = median(best peer) / median(ctnn): above 1, ctnn is faster.
"""
import argparse
import copy
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torchvision


def lenet5():
    """ctnn::zoo::lenet5 (include/ctnn/zoo/lenet5.hpp) in PyTorch: 1x32x32 -> 10."""
    return nn.Sequential(
        nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))


FMNIST_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "fashion_mnist")


def fmnist_model(name):
    """A trained Fashion-MNIST model: examples/fashion_mnist/fmnist.py's module with the weights of
    models/<name>.onnx (the file ctnn_bench_net's ctnn version is imported from)."""
    def make():
        sys.path.insert(0, FMNIST_DIR)
        import fmnist
        return fmnist.load_from_onnx(name, os.path.join(FMNIST_DIR, "models", f"{name}.onnx"))
    return make


MODELS = {
    "lenet5": (lenet5, (1, 1, 32, 32)),
    "resnet18": (lambda: torchvision.models.resnet18(weights=None), (1, 3, 224, 224)),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224)),
    # the same seeded torchvision networks as a user brings them to ctnn: exported to ONNX by
    # --export (eval mode: the exporter folds BatchNorm into the convolutions) and imported by
    # ctnn_add_model, float32 and int8 (ctnn-import's calibration on CALIBRATION_SEEDS' inputs)
    "tv_resnet18": (lambda: torchvision.models.resnet18(weights=None), (1, 3, 224, 224)),
    "tv_mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224)),
    "fmnist_lenet5": (fmnist_model("lenet5"), (1, 1, 32, 32)),
    "fmnist_dscnn": (fmnist_model("dscnn"), (1, 1, 28, 28)),
    "fmnist_resnet8": (fmnist_model("resnet8"), (1, 3, 32, 32)),
}
TRAINED = ("fmnist_lenet5", "fmnist_dscnn", "fmnist_resnet8")  # BatchNorm statistics from training: kept
IMPORTED = ("tv_resnet18", "tv_mobilenet_v2")  # ctnn runs the ONNX file that --export writes
CALIBRATION_SEEDS = range(100, 108)  # PyTorch's int8 calibration and ctnn-import's: the same 8 inputs


def random_input(model, shape, seed):
    """Seeded input: pixels in [0, 1) for the Fashion-MNIST models (what they were trained on),
    standard normal for the others."""
    gen = torch.Generator().manual_seed(seed)
    return torch.rand(shape, generator=gen) if model in TRAINED else torch.randn(shape, generator=gen)
ENGINES = [e for e in ("onednn", "qnnpack") if e in torch.backends.quantized.supported_engines]


def settle_batch_norm(model, shape):
    """Random weights with BatchNorm's default running statistics (mean 0, variance 1) let
    MobileNetV2's activations vanish (outputs ~1e-13, which int8 rounds to zero): set the running
    statistics from one seeded batch of 8 random inputs, so every network computes O(1) values."""
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    if not bns:
        return model
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None  # cumulative average: one batch sets the statistics
    model.train()
    with torch.no_grad():
        model(torch.randn((8, *shape[1:]), generator=torch.Generator().manual_seed(3)))
    return model.eval()


def build_model(m):
    """Model m of MODELS as every run builds it: seed 0, then (untrained ones) settle_batch_norm."""
    make, shape = MODELS[m]
    torch.manual_seed(0)
    model = make().eval() if m in TRAINED else settle_batch_norm(make(), shape).eval()
    return model, shape


def export(out_dir, models):
    """--export: for each model, DIR/<m>.onnx (opset 13, eval mode: BatchNorm folded by the
    exporter), DIR/<m>.calibration.npy (the CALIBRATION_SEEDS inputs, [8, C, H, W]) and
    DIR/<m>.input.npy (the timed input, seed 2). bench/CMakeLists.txt runs this at build time
    and imports the files with ctnn_add_model."""
    import numpy as np
    os.makedirs(out_dir, exist_ok=True)
    for m in models:
        model, shape = build_model(m)
        x = random_input(m, shape, 2)
        with torch.no_grad():
            torch.onnx.export(model, x, os.path.join(out_dir, f"{m}.onnx"), opset_version=13,
                              input_names=["input"], output_names=["output"],
                              training=torch.onnx.TrainingMode.EVAL, do_constant_folding=True)
        cal = torch.cat([random_input(m, shape, seed) for seed in CALIBRATION_SEEDS]).numpy()
        np.save(os.path.join(out_dir, f"{m}.calibration.npy"), cal)
        np.save(os.path.join(out_dir, f"{m}.input.npy"), x.numpy())
        print(f"torch_peer: {m} -> {out_dir}/{m}.onnx, {m}.calibration.npy, {m}.input.npy")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


class torch_impl:
    """One PyTorch configuration of a case: a callable and the quantized engine it needs."""

    def __init__(self, name, fn, engine=None):
        self.name, self.fn, self.engine = name, fn, engine

    def __call__(self, x):
        if self.engine is not None:
            torch.backends.quantized.engine = self.engine
        return self.fn(x)

    def measure(self, x, budget):
        if self.engine is not None:
            torch.backends.quantized.engine = self.engine
        runs, total = 0, 0.0
        with torch.inference_mode():
            while runs == 0 or total < budget:
                t0 = time.perf_counter()
                self.fn(x)
                total += time.perf_counter() - t0
                runs += 1
        return total / runs


class ctnn_impl:
    """One case of ctnn_bench_net, the process shared by all cases."""

    def __init__(self, proc, case, name="ctnn"):
        self.name, self.proc, self.case = name, proc, case

    def measure(self, _x, budget):
        self.proc.stdin.write(f"{self.case} {budget}\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().split()
        if len(reply) != 4 or reply[0] != self.case:
            raise RuntimeError(f"ctnn_bench_net: unexpected reply {reply!r} for {self.case}")
        runs, seconds, checksum = int(reply[1]), float(reply[2]), float(reply[3])
        if runs < 1 or checksum != checksum:  # NaN
            raise RuntimeError(f"ctnn_bench_net: {self.case}: {runs} runs, checksum {checksum}")
        return seconds / runs

    def check(self, x):
        """The case's output on x (float32; int8 dequantized) from the optimized kernels, and the
        largest difference between them and ctnn's reference kernels on the same input (int8: in
        quantization steps; the optimized int8 kernels are bit-exact with the reference)."""
        import tempfile

        import numpy as np
        with tempfile.TemporaryDirectory() as d:
            xin, yout = os.path.join(d, "x.npy"), os.path.join(d, "y.npy")
            np.save(xin, x.numpy())
            self.proc.stdin.write(f"check {self.case} {xin} {yout}\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline().split()
            if len(reply) != 3 or reply[:2] != ["check", self.case]:
                raise RuntimeError(f"ctnn_bench_net: unexpected reply {reply!r} to check {self.case}")
            return torch.from_numpy(np.load(yout)), float(reply[2])


def float_impls(model, x):
    impls = [torch_impl("eager", model)]
    with torch.inference_mode():
        frozen = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(model, x).eval()))
    impls.append(torch_impl("jit_frozen", frozen))
    return impls


def int8_impls(name, model, x, shape):
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx

    impls = []
    calibration = [random_input(name, shape, seed) for seed in CALIBRATION_SEEDS]
    for engine in ENGINES:
        torch.backends.quantized.engine = engine
        prepared = prepare_fx(copy.deepcopy(model), get_default_qconfig_mapping(engine), example_inputs=(x,))
        with torch.inference_mode():
            for c in calibration:
                prepared(c)
        quantized = convert_fx(prepared)
        impls.append(torch_impl(f"fx_{engine}", quantized, engine))
        with torch.inference_mode():
            frozen = torch.jit.freeze(torch.jit.trace(quantized, x).eval())
        impls.append(torch_impl(f"fx_{engine}_jit_frozen", frozen, engine))
    return impls


def check(impl, x, want, dtype):
    """A peer that computes garbage fast is no peer: compare with eager float32."""
    with torch.inference_mode():
        for _ in range(3):  # the profiling executor settles after a few runs
            got = impl(x)
    want, got = want.flatten().double(), got.flatten().double()
    if dtype == "float32":
        err = (got - want).abs().max().item()
        ok = err <= 1e-3 * max(1.0, want.abs().max().item())
        what = f"max |diff| {err:.3g}"
    else:
        err = ((got - want).norm() / want.norm().clamp_min(1e-12)).item()
        ok = err <= 0.5  # an all-zero output gives 1, an unrelated one about 1.4
        what = f"relative L2 error {err:.3g} vs float32"
    return ok, what


def check_ctnn(impl, x, want, dtype):
    """An imported network's ctnn output before timing. float32: within the peers' tolerance of
    PyTorch eager float32 (1e-3 of the largest output) and of ctnn's reference kernels; int8: the
    optimized kernels bit-exact with ctnn's reference kernels (ctnn's int8 arithmetic is not
    PyTorch's: its error against float32 is printed, not judged)."""
    got, ref_diff = impl.check(x)
    want, got = want.flatten().double(), got.flatten().double()
    scale = max(1.0, want.abs().max().item())
    if dtype == "float32":
        err = (got - want).abs().max().item()
        ok = err <= 1e-3 * scale and ref_diff <= 1e-3 * scale
        return ok, f"max |diff| {err:.3g} vs PyTorch eager float32, {ref_diff:.3g} vs ctnn's reference kernels"
    rel = ((got - want).norm() / want.norm().clamp_min(1e-12)).item()
    return ref_diff == 0, (f"max |diff| {ref_diff:.3g} steps vs ctnn's reference kernels, "
                           f"relative L2 error {rel:.3g} vs PyTorch eager float32")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ctnn", help="path of ctnn_bench_net")
    ap.add_argument("--ctnn-before", default=None,
                    help="a second ctnn_bench_net (e.g. built before a change), timed as 'ctnn_before' in the "
                         "same rounds; the ratio column stays ctnn's")
    ap.add_argument("--export", metavar="DIR", default=None,
                    help="write the ONNX files and .npy inputs of the models in --models (default: the "
                         "tv_* ones) to DIR and exit (the build's step before ctnn_add_model)")
    ap.add_argument("--models", default=None,
                    help="comma-separated; default: every model of MODELS that ctnn_bench_net offers "
                         "(the fmnist_* ones when it was built with CTNN_BENCH_FASHION_MNIST)")
    ap.add_argument("--dtypes", default="float32,int8")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--strict", action="store_true", help="exit 1 when a PyTorch configuration was excluded")
    ap.add_argument("--budget", type=float, default=0.5, help="seconds per implementation per round")
    ap.add_argument("--quick", action="store_true",
                    help="CI smoke run: LeNet-5 only, 3 rounds of 0.02 s (checks structure, not speed)")
    args = ap.parse_args()
    if args.export is not None:
        export(args.export, [m for m in (args.models or ",".join(IMPORTED)).split(",") if m])
        return 0
    if args.ctnn is None:
        ap.error("--ctnn is required")
    if args.quick:
        args.models, args.rounds, args.budget = "lenet5", 3, 0.02
    if args.models is None:
        offered = subprocess.run([args.ctnn, "--list"], check=True, capture_output=True, text=True).stdout.split()
        args.models = ",".join(m for m in MODELS if f"{m}.float32" in offered)
    models = [m for m in args.models.split(",") if m]
    dtypes = [d for d in args.dtypes.split(",") if d]
    for m in models:
        if m not in MODELS:
            sys.exit(f"torch_peer: unknown model {m} (expected one of {', '.join(MODELS)})")
    for d in dtypes:
        if d not in ("float32", "int8"):
            sys.exit(f"torch_peer: unknown dtype {d}")

    torch.set_num_threads(1)
    torch.set_num_interop_threads(1)
    cases = [f"{m}.{d}" for m in models for d in dtypes]
    procs = {}  # implementation name -> its ctnn_bench_net process
    for name, path in (("ctnn", args.ctnn), ("ctnn_before", args.ctnn_before)):
        if path is None:
            continue
        procs[name] = subprocess.Popen([path, *cases], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = procs[name].stdout.readline().split()
        if ready[:1] != ["ready"]:
            sys.exit(f"torch_peer: {path} did not start: {ready!r}")
    ours = list(procs)

    print(f"# ctnn vs PyTorch, batch 1, one thread: {cpu_model()}, {os.cpu_count()} logical CPUs")
    print(f"# torch {torch.__version__}, torchvision {torchvision.__version__}, threads {torch.get_num_threads()}, "
          f"quantized engines {ENGINES}")
    print(f"# load average at start {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"# {shlex.join([sys.executable, *sys.argv])}")
    print(f"# {args.rounds} interleaved rounds, {args.budget} s per implementation per round")

    failed = []  # (case, config, what): excluded from the timing, and the exit status is 1
    plan = []  # (case, x, [impls])
    for m in models:
        model, shape = build_model(m)
        x = random_input(m, shape, 2)
        with torch.inference_mode():
            want = model(x)
        for d in dtypes:
            case = f"{m}.{d}"
            impls = float_impls(model, x) if d == "float32" else int8_impls(m, model, x, shape)
            kept = []
            for impl in impls:
                ok, what = check(impl, x, want, d)
                print(f"# check {case} {impl.name}: {what} {'ok' if ok else 'FAILED (excluded)'}")
                if ok:
                    kept.append(impl)
                else:
                    failed.append((case, impl.name, what))
            if not kept:
                for p in procs.values():
                    p.kill()
                sys.exit(f"torch_peer: no PyTorch configuration of {case} agrees with eager float32")
            mine = [ctnn_impl(p, case, name) for name, p in procs.items()]
            if m in IMPORTED:  # ctnn's own output, checked before any timing
                for impl in mine:
                    ok, what = check_ctnn(impl, x, want, d)
                    print(f"# check {case} {impl.name}: {what} {'ok' if ok else 'FAILED'}")
                    if not ok:
                        for p in procs.values():
                            p.kill()
                        sys.exit(f"torch_peer: {impl.name} computes {case} wrongly: {what}")
            plan.append((case, x, [*mine, *kept]))

    for _, x, impls in plan:  # warm-up, not recorded
        for impl in impls:
            impl.measure(x, min(args.budget, 0.1))
    times = {(case, impl.name): [] for case, _, impls in plan for impl in impls}
    for r in range(args.rounds):
        for case, x, impls in plan:
            k = r % len(impls)
            order = impls[k:] + impls[:k]
            by_name = {impl.name: impl for impl in impls}
            # of ctnn and ctnn_before, ctnn runs first in even rounds and ctnn_before in odd ones:
            # with the rotation alone ctnn ran first in most rounds, and whichever build sat in
            # ctnn_before's slot ran up to 5 % faster (the same two builds swapped, bench/README)
            names = [impl.name for impl in order]
            if "ctnn" in names and "ctnn_before" in names:
                i, j = sorted((names.index("ctnn"), names.index("ctnn_before")))
                first, second = (by_name["ctnn"], by_name["ctnn_before"]) if r % 2 == 0 else \
                    (by_name["ctnn_before"], by_name["ctnn"])
                order[i], order[j] = first, second
            for impl in order:
                times[(case, impl.name)].append(impl.measure(x, args.budget))
    for p in procs.values():
        p.stdin.close()
        if p.wait() != 0:
            sys.exit("torch_peer: ctnn_bench_net failed")

    print(f"# load average at end {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print()
    before = "ctnn_before" in procs
    print("| case | ctnn ms (min-max) | best PyTorch ms (min-max) | best config | ctnn speed / best peer |" +
          (" ctnn_before ms (min-max) | ctnn_before speed / best peer |" if before else "") + " other configs ms |")
    print("|---|---:|---:|---|---:|" + ("---:|---:|" if before else "") + "---|")
    for case, _, impls in plan:
        med = {i.name: statistics.median(times[(case, i.name)]) * 1e3 for i in impls}
        span = {i.name: (min(times[(case, i.name)]) * 1e3, max(times[(case, i.name)]) * 1e3) for i in impls}
        peers = [i.name for i in impls if i.name not in ours]
        best = min(peers, key=lambda n: med[n])
        others = ", ".join(f"{n} {med[n]:.3g}" for n in peers if n != best)
        fmt = lambda n: f"{med[n]:.3g} ({span[n][0]:.3g}-{span[n][1]:.3g})"
        old = f" {fmt('ctnn_before')} | {med[best] / med['ctnn_before']:.2f} |" if before else ""
        print(f"| {case} | {fmt('ctnn')} | {fmt(best)} | {best} | {med[best] / med['ctnn']:.2f} |{old} {others} |")
    if failed:
        print()
    for case, name, what in failed:
        print(f"excluded: {case} {name}, {what} (a peer that computes garbage fast is no peer)")
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
