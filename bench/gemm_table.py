#!/usr/bin/python3
"""The ratio table of ctnn_bench's GEMM families from its JSON output (--benchmark_out).

Reads the per-repetition runs (--benchmark_repetitions=R), groups them by case (the benchmark
name without the implementation: BM_sgemm/<impl>/<N> -> BM_sgemm/<N>), and prints per case and
implementation the median throughput over repetitions (GFLOP/s or GOP/s, from CPU time) with its
min-max, and ctnn speed / best peer = median(ctnn) / median(fastest peer). Implementations whose
name starts with "ctnn" are ctnn's, one row each (ctnn_packed: the weights packed once);
ctnn_reference is left out. A peer whose runs carry the counter exact = 0 (oneDNN's u8s8s32 on a
CPU without VNNI: saturating 16-bit pair sums) is listed as "(inexact)" and never taken as the
best peer.

  ctnn_bench --benchmark_filter='BM_(sgemm|sgemm_conv|sgemv|qgemm|qgemm_s32)/' --benchmark_repetitions=9 \\
      --benchmark_enable_random_interleaving=true --benchmark_out=gemm.json --benchmark_out_format=json
  python3 bench/gemm_table.py gemm.json
"""
import json
import statistics
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    runs = {}  # (family, case) -> impl -> [rates]
    inexact = set()  # (family, case, impl) with a run whose output was not exact
    order = []
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        parts = b["run_name"].split("/")
        family, impl, case = parts[0], parts[1], "/".join(parts[2:])
        if impl == "ctnn_reference":
            continue
        rate = next((b[k] for k in ("GFLOP/s", "GOP/s") if k in b), None)
        if rate is None:
            continue
        key = (family, case)
        if key not in runs:
            runs[key] = {}
            order.append(key)
        runs[key].setdefault(impl, []).append(rate)
        if b.get("exact", 1) == 0:
            inexact.add((family, case, impl))
    ctx = data.get("context", {})
    print(f"# {ctx.get('host_name', '')}: {ctx.get('num_cpus')} CPUs @ {ctx.get('mhz_per_cpu')} MHz, "
          f"load average {ctx.get('load_avg')}, onednn {ctx.get('onednn', '-')} threads {ctx.get('onednn_threads', '-')}")
    print("| case | ctnn | peers (median, min-max) | ctnn / best peer |")
    print("|---|---:|---|---:|")
    families = ["BM_sgemm", "BM_sgemm_conv", "BM_sgemv", "BM_qgemm", "BM_qgemm_s32"]
    numbers = lambda case: [int("".join(c for c in part if c.isdigit()) or 0) for part in case.split("/")]
    order.sort(key=lambda k: (families.index(k[0]) if k[0] in families else len(families), k[0], numbers(k[1])))
    for key in order:
        impls = runs[key]
        med = {i: statistics.median(v) for i, v in impls.items()}
        span = {i: (min(v), max(v)) for i, v in impls.items()}
        ctnn = sorted(i for i in impls if i.startswith("ctnn"))  # ctnn, then variants (ctnn_packed)
        peers = sorted(i for i in impls if not i.startswith("ctnn"))
        exact_peers = [i for i in peers if (key[0], key[1], i) not in inexact]
        if not ctnn or not exact_peers:
            continue
        best = max(exact_peers, key=lambda i: med[i])
        fmt = lambda i: f"{med[i]:.1f} ({span[i][0]:.1f}-{span[i][1]:.1f})"
        tag = lambda i: " (inexact)" if (key[0], key[1], i) in inexact else ""
        peer_txt = ", ".join(f"{i}{tag(i)} {fmt(i)}" for i in peers)
        for c in ctnn:
            label = f"{key[0]}/{key[1]}" + ("" if c == "ctnn" else f" ({c})")
            print(f"| {label} | {fmt(c)} | {peer_txt} | {med[c] / med[best]:.2f} ({best}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
