#!/usr/bin/python3
"""Two builds of ctnn_bench_net side by side (before / after a change), rounds interleaved.

  python3 bench/ab_net.py OLD_ctnn_bench_net NEW_ctnn_bench_net [--cases resnet18.int8,...]
      [--rounds 9] [--budget 0.5]

Both processes are started once and driven over their pipes (the protocol of ctnn_bench_net);
each round runs every case on both builds for `budget` seconds each, the order alternating from
round to round. Prints per case the median ms per run over rounds (min-max) of each build and
old / new (above 1: the new build is faster).
"""
import argparse
import statistics
import subprocess
import sys


def start(path, cases):
    p = subprocess.Popen([path, *cases], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ready = p.stdout.readline().split()
    if ready[:1] != ["ready"]:
        sys.exit(f"ab_net: {path} did not start: {ready}")
    return p


def measure(p, case, budget):
    p.stdin.write(f"{case} {budget}\n")
    p.stdin.flush()
    name, runs, seconds, checksum = p.stdout.readline().split()
    if name != case or int(runs) <= 0:
        sys.exit(f"ab_net: bad answer for {case}")
    return 1000.0 * float(seconds) / int(runs), float(checksum)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--cases", default="resnet18.int8,mobilenet_v2.int8")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--budget", type=float, default=0.5)
    args = ap.parse_args()
    cases = [c for c in args.cases.split(",") if c]
    procs = {"old": start(args.old, cases), "new": start(args.new, cases)}
    ms = {(c, b): [] for c in cases for b in procs}
    sums = {}
    for r in range(args.rounds):
        for c in cases:
            for b in (["old", "new"] if r % 2 == 0 else ["new", "old"]):
                t, s = measure(procs[b], c, args.budget)
                ms[(c, b)].append(t)
                sums[(c, b)] = s
    for p in procs.values():
        p.stdin.close()
        p.wait()
    print("| case | old ms (min-max) | new ms (min-max) | old / new | checksums equal |")
    print("|---|---:|---:|---:|---|")
    for c in cases:
        o, n = ms[(c, "old")], ms[(c, "new")]
        fmt = lambda v: f"{statistics.median(v):.3g} ({min(v):.3g}-{max(v):.3g})"
        same = "yes" if sums[(c, "old")] == sums[(c, "new")] else "no"
        print(f"| {c} | {fmt(o)} | {fmt(n)} | {statistics.median(o) / statistics.median(n):.2f} | {same} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
