#!/usr/bin/env python3
"""What the compile-time arena plan adds to a model's translation unit.

For each model (torchvision's Inception-v3 and DenseNet-121 by default, as written in
tests/static/torchvision_models.hpp) it compiles two translation units with the same compiler and
flags: the model's definition with a check of its totals, and the same plus the check of
`ctnn::memory::plan_of<Model, int8>`. It reports the CPU time (user + system of the compiler, the
median of --runs interleaved compiles) of each and the ratio, and with --instructions the exact
instruction count of the compiler proper (callgrind; slow, about 30 s a compile). Goal (issue 15):
the plan adds at most 50% (ratio <= 1.5). Exits 1 when a ratio is above --max-ratio.

  python3 bench/plan_compile_time.py [--cxx g++] [--runs 5] [--models inception_v3,densenet121]
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TU = """#include "torchvision_models.hpp"
#include "ctnn/memory/planner.hpp"
static_assert(ctnn_test_models::{model}::params > 0 && ctnn_test_models::{model}::macs > 0);
#ifdef WITH_PLAN
static_assert(ctnn::memory::plan_of<ctnn_test_models::{model}, ctnn::dtype::int8>.arena_bytes > 0);
#endif
"""


def compile_cmd(cxx, flags, src, with_plan):
    cmd = [cxx, "-std=c++20", *flags, "-I", os.path.join(ROOT, "include"), "-I",
           os.path.join(ROOT, "tests", "static"), "-c", "-o", os.devnull, src]
    return cmd + (["-DWITH_PLAN"] if with_plan else [])


def cpu_seconds(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(cmd):
    out = subprocess.run(cmd + ["-wrapper", "valgrind,--tool=callgrind,--callgrind-out-file=" + os.devnull],
                         check=True, capture_output=True, text=True).stderr
    for line in out.splitlines():
        if "refs:" in line:
            return int(line.split("refs:")[1].replace(",", "").strip())
    raise RuntimeError("no instruction count in callgrind's output")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--flags", default="-O2", help="compiler flags (default -O2)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--models", default="inception_v3,densenet121")
    ap.add_argument("--instructions", action="store_true", help="also count instructions with callgrind")
    ap.add_argument("--max-ratio", type=float, default=1.5)
    args = ap.parse_args()
    if args.runs < 1:
        sys.exit("plan_compile_time: --runs must be at least 1")
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("plan_compile_time: --instructions needs valgrind")
    flags = args.flags.split()
    version = subprocess.run([args.cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"compiler: {version}; flags: {' '.join(flags)}; CPU time: median of {args.runs} interleaved compiles")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            src = os.path.join(tmp, model + ".cpp")
            with open(src, "w") as f:
                f.write(TU.format(model=model))
            times = {False: [], True: []}
            for _ in range(args.runs):
                for with_plan in (False, True):
                    times[with_plan].append(cpu_seconds(compile_cmd(args.cxx, flags, src, with_plan)))
            without, with_ = statistics.median(times[False]), statistics.median(times[True])
            ratio = with_ / without
            worst = max(worst, ratio)
            line = f"{model:14s} without plan {without:6.2f} s  with plan {with_:6.2f} s  ratio {ratio:5.2f}"
            if args.instructions:
                a = instructions(compile_cmd(args.cxx, flags, src, False))
                b = instructions(compile_cmd(args.cxx, flags, src, True))
                line += f"  instructions {a / 1e6:,.0f}M -> {b / 1e6:,.0f}M (ratio {b / a:.2f})"
            print(line, flush=True)
    if worst > args.max_ratio:
        print(f"plan_compile_time: the plan adds more than {100 * (args.max_ratio - 1):.0f}% (ratio {worst:.2f})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
