#!/usr/bin/env python3
"""Checks ctnn-report --roofline: the SVG parses as XML, has one dot per leaf with operations
(named as the report names them, in execution order), both roofs meeting at the ridge point,
ridge = peak / bandwidth, the CPU and dtype in the title; the text table has one row per leaf and
positive, finite measured figures. No timing value is compared with any expectation.

    check_roofline.py REPORT OUTDIR MODEL [report args...]   a model (zoo name or MODEL.onnx)
    check_roofline.py REPORT OUTDIR --refusals               unwritable paths: exit 1, one line, nothing left
"""
import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
QUICK = ["--roofline-repeats", "2", "--roofline-buffer-mib", "8"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def positive(name, v):
    if not (math.isfinite(v) and v > 0):
        fail(f"{name} = {v}: not a positive finite number")


def check_model(exe, outdir, model, args):
    dtype = args[args.index("--dtype") + 1] if "--dtype" in args else "float32"
    stem = os.path.splitext(os.path.basename(model))[0]
    svg_path = os.path.join(outdir, f"roofline-{stem}-{dtype}.svg")
    if os.path.exists(svg_path):
        os.remove(svg_path)
    run = subprocess.run([exe, model, *args, "--roofline", svg_path, *QUICK], capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"exit {run.returncode}\n{run.stderr}")
    if os.path.exists(svg_path + ".tmp"):
        fail("the temporary file was left behind")
    out = run.stdout

    # the text: the roofs, then one row per leaf
    def figure(label):
        m = re.search(label + r": ([0-9.]+(?:e[+-]?[0-9]+)?)", out)  # 4 significant digits (%.4g)
        if not m:
            fail(f"no '{label}' in the output:\n{out}")
        return float(m.group(1))
    peak, bw, ridge = figure("Compute peak"), figure("Memory bandwidth"), figure("Ridge point")
    for n, v in (("peak", peak), ("bandwidth", bw), ("ridge", ridge)):
        positive(n, v)
    if abs(ridge - peak / bw) > 0.01 * ridge + 0.002:
        fail(f"printed ridge {ridge} != peak / bandwidth = {peak / bw}")
    if cpu_name() not in out.splitlines()[0] or f"({dtype})" not in out.splitlines()[0]:
        fail("the first line does not name the CPU and the dtype: " + out.splitlines()[0])
    rows = []  # (name, type, ops, bytes, plotted)
    for line in out.splitlines():
        m = re.match(r"^ *(\d+)  (\S+) +(\S+) +(\d+) +(\d+) +([0-9.]+) +(\S+) +(\S+) +(\S+)  (memory|compute|no ops)$", line)
        if not m:
            continue
        if int(m.group(1)) != len(rows):
            fail(f"leaf rows out of order at: {line}")
        name, ops, nbytes = m.group(2), int(m.group(4)), int(m.group(5))
        plotted = m.group(10) != "no ops"
        if plotted != (ops > 0):
            fail(f"a leaf with {ops} operations is marked '{m.group(10)}': {line}")
        if plotted:
            for col, v in (("intensity", m.group(7)), ("throughput", m.group(8)), ("% of the roof", m.group(9))):
                positive(col, float(v))
            if abs(float(m.group(7)) - ops / nbytes) > 5e-4 * ops / nbytes:  # printed to 4 significant digits
                fail(f"intensity {m.group(7)} != ops / bytes = {ops / nbytes}: {line}")
            bound = "memory" if ops / nbytes < ridge * (1 - 0.01) else "compute" if ops / nbytes > ridge * 1.01 else None
            if bound and bound != m.group(10):
                fail(f"intensity {ops / nbytes} against ridge {ridge}: expected {bound}-bound: {line}")
        rows.append((name, m.group(3), ops, nbytes, plotted))
    if not rows:
        fail("no leaf rows in the output:\n" + out)

    # the report's own leaves (when the same rows can be listed as JSON)
    if "--calibration" not in args:
        js = json.loads(subprocess.run([exe, model, *args, "--format", "json"], check=True, capture_output=True,
                                       text=True).stdout)
        leaves = [(l["name"], 2 * l["macs"] + l["ext_ops"], l["read_bytes"] + l["write_bytes"]) for l in js["layers"]]
        if [(r[0], r[2], r[3]) for r in rows] != leaves:
            fail("the table's leaves differ from the report's (name, 2 x MACs + ext_ops, read + written bytes)")

    # the picture
    root = ET.parse(svg_path).getroot()
    if root.tag != SVG + "svg":
        fail("the root is not an <svg>")
    s_peak, s_bw, s_ridge = (float(root.get(a)) for a in ("data-peak-gops", "data-bandwidth-gbs", "data-ridge"))
    for n, v in (("data-peak-gops", s_peak), ("data-bandwidth-gbs", s_bw), ("data-ridge", s_ridge)):
        positive(n, v)
    if abs(s_ridge - s_peak / s_bw) > 1e-6 * s_ridge:
        fail(f"data-ridge {s_ridge} != peak / bandwidth {s_peak / s_bw}")
    if root.get("data-dtype") != dtype:
        fail(f"data-dtype {root.get('data-dtype')}, expected {dtype}")
    title = "".join(root.find(SVG + "text").itertext())
    if cpu_name() not in title or dtype not in title:
        fail(f"the title does not name the CPU '{cpu_name()}' and the dtype: {title}")
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    for need in ("roof-memory", "roof-compute", "ridge", "layers", "legend"):
        if need not in by_id:
            fail(f"no element with id '{need}'")
    mem, comp = by_id["roof-memory"], by_id["roof-compute"]
    ridge_dot = by_id["ridge"].find(SVG + "circle")
    f = lambda e, a: float(e.get(a))
    if not (f(mem, "y2") < f(mem, "y1") and f(mem, "x2") > f(mem, "x1")):
        fail("the bandwidth roof does not rise to the right")
    if f(comp, "y1") != f(comp, "y2") or f(comp, "x2") <= f(comp, "x1"):
        fail("the compute roof is not a horizontal line to the right")
    meet = (f(mem, "x2"), f(mem, "y2"))
    if meet != (f(comp, "x1"), f(comp, "y1")) or meet != (f(ridge_dot, "cx"), f(ridge_dot, "cy")):
        fail(f"the roofs do not meet at the ridge point: {meet}")
    dots = [c for c in by_id["layers"].iter(SVG + "circle") if c.get("class") == "layer"]
    names = [c.get("data-layer") for c in dots]
    expected = [r[0] for r in rows if r[4]]
    if names != expected:
        fail(f"dots {names}\n  expected one per leaf with operations {expected}")
    for c, r in zip(dots, [r for r in rows if r[4]]):
        t = c.find(SVG + "title")
        if t is None or not t.text.startswith(f"{r[0]} ({r[1]}): MACs "):
            fail(f"dot {r[0]}: hover title {t.text if t is not None else None}")
        for a in ("cx", "cy"):
            positive(f"{r[0]} {a}", f(c, a))
    legend = "".join(by_id["legend"].itertext())
    for t in {r[1] for r in rows if r[4]}:
        if t not in legend:
            fail(f"type {t} missing from the legend")
    print(f"{model} {dtype}: {len(dots)} dots of {len(rows)} leaves, peak {s_peak:.2f}, bandwidth {s_bw:.2f}, "
          f"ridge {s_ridge:.3f}")


def check_refusals(exe, outdir):
    os.makedirs(outdir, exist_ok=True)
    cases = [(os.path.join(outdir, "no-such-dir", "r.svg"), r"^ctnn-report: cannot write '.*no-such-dir/r\.svg': "),
             (outdir, r"^ctnn-report: error writing '.*': ")]  # a directory: the rename fails after the run
    for path, expect in cases:
        before = sorted(os.listdir(outdir))
        run = subprocess.run([exe, "lenet5", "--roofline", path, "--roofline-repeats", "1", "--roofline-buffer-mib", "1"],
                             capture_output=True, text=True)
        if run.returncode != 1 or run.stdout or run.stderr.count("\n") != 1 or not re.match(expect, run.stderr):
            fail(f"{path}: exit {run.returncode}, stdout {run.stdout!r}, stderr {run.stderr!r}")
        if sorted(os.listdir(outdir)) != before or os.path.exists(path.rstrip("/") + ".tmp"):
            fail(f"{path}: a file was left behind")
    print("refusals: ok")


def main():
    exe, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    if sys.argv[3] == "--refusals":
        check_refusals(exe, os.path.join(outdir, "refusals"))
    else:
        check_model(exe, outdir, sys.argv[3], sys.argv[4:])


if __name__ == "__main__":
    main()
