"""Fuzzes ctnn-import with damaged copies of real exported models (seeded, reproducible).

Each variant is one model truncated at a random length (a quarter), with one field changed through
onnx's parser (a quarter: an integer attribute, an input or initializer dimension set to an
edge value, a node input rewired, two op types swapped; these reach shape inference and the
lowering, which byte flips seldom do), or with 1 to 8 random bytes flipped (four of five flips in
the protobuf structure, outside the initializers' weight bytes). ctnn-import
(built with ASan + UBSan in the asan-ubsan preset) must, for every variant:
  - exit 0, with nothing on stderr and exactly NAME.hpp, NAME.f32.bin and NAME.S written, or
  - exit 1 or 2, with exactly one line on stderr starting "ctnn-import: " and no file left;
never die of a signal, a sanitizer report or protobuf's own abort, never hang (20 s per run).

    fuzz_import.py --importer EXE [--wrapper CMD...] --models A.onnx,B.onnx --work DIR
                   [--variants N] [--seed S] [--time-limit SECONDS]

Failing variants are kept in DIR/failures/ with the command's output. Stops after --time-limit
seconds (the variants run so far must all pass, and at least half of them must have run).
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import time

import onnx


def weight_ranges(data):
    """Byte ranges [begin, end) of the initializers' tensor data inside the serialized model."""
    model = onnx.load_from_string(data)
    ranges = []
    for t in model.graph.initializer:
        raw = t.raw_data if t.raw_data else b""
        if len(raw) >= 64:
            at = data.find(raw)
            if at >= 0:
                ranges.append((at, at + len(raw)))
    return ranges


def structural_positions(data, ranges):
    """Every byte position outside the weight ranges."""
    inside = bytearray(len(data))
    for b, e in ranges:
        inside[b:e] = b"\x01" * (e - b)
    return [i for i in range(len(data)) if not inside[i]]


INTERESTING = [-(1 << 62), -(1 << 31), -7, -1, 0, 1, 2, 3, 5, 64, 1 << 20, (1 << 31) - 1, 1 << 31, 1 << 40, (1 << 63) - 1]


def mutate_fields(rng, data):
    """(description, bytes) with one field of the parsed model changed: an integer attribute, an
    input dimension, an initializer's dims, a node's input or its op type (what a byte flip rarely
    reaches intact: it exercises the checker, shape inference and the lowering)."""
    model = onnx.load_from_string(data)
    g = model.graph
    kind = rng.randrange(5)
    if kind == 0:
        ints = [(n, a) for n in g.node for a in n.attribute if a.ints or a.type == onnx.AttributeProto.INT]
        if ints:
            n, a = rng.choice(ints)
            v = rng.choice(INTERESTING)
            if a.ints:
                a.ints[rng.randrange(len(a.ints))] = v
            else:
                a.i = v
            return f"attribute {a.name} of {n.name} set to {v}", model.SerializeToString()
    if kind == 1:
        dims = g.input[0].type.tensor_type.shape.dim
        k = rng.randrange(len(dims))
        v = rng.choice(INTERESTING)
        dims[k].dim_value = v
        return f"input dim {k} set to {v}", model.SerializeToString()
    if kind == 2 and g.initializer:
        t = rng.choice(list(g.initializer))
        if t.dims:
            k = rng.randrange(len(t.dims))
            v = rng.choice(INTERESTING)
            t.dims[k] = v
            return f"initializer {t.name} dim {k} set to {v}", model.SerializeToString()
    if kind == 3:
        n = rng.choice(list(g.node))
        values = [o for m in g.node for o in m.output] + [i.name for i in g.input] + [t.name for t in g.initializer]
        if n.input:
            k = rng.randrange(len(n.input))
            n.input[k] = rng.choice(values)
            return f"input {k} of {n.name} set to {n.input[k]}", model.SerializeToString()
    a, b = rng.choice(list(g.node)), rng.choice(list(g.node))
    a.op_type, b.op_type = b.op_type, a.op_type
    return f"op types of {a.name} and {b.name} swapped", model.SerializeToString()


def mutate(rng, data, structure):
    """(description, damaged bytes)."""
    r = rng.random()
    if r < 0.25:
        cut = rng.randrange(0, len(data))
        return f"truncated to {cut} of {len(data)} bytes", data[:cut]
    if r < 0.5:
        return mutate_fields(rng, data)
    out = bytearray(data)
    flips = []
    for _ in range(rng.randint(1, 8)):
        pos = rng.choice(structure) if rng.random() < 0.8 else rng.randrange(len(data))
        mask = rng.randint(1, 255)
        out[pos] ^= mask
        flips.append(f"{pos}^{mask:#04x}")
    return "flipped " + " ".join(flips), bytes(out)


def check(proc, out_dir):
    """The fault of one run, or None."""
    err = proc.stderr.decode("utf-8", "replace")
    written = sorted(os.listdir(out_dir)) if os.path.isdir(out_dir) else []
    if proc.returncode < 0:
        return f"killed by signal {-proc.returncode}"
    if proc.returncode == 0:
        if err:
            return "exit 0 with stderr output"
        if written != ["model.S", "model.f32.bin", "model.hpp"]:
            return f"exit 0 but wrote {written}"
        return None
    if proc.returncode not in (1, 2):
        return f"exit status {proc.returncode}"
    if err.count("\n") != 1 or not err.endswith("\n") or not err.startswith("ctnn-import: "):
        return "not exactly one line 'ctnn-import: ...' on stderr"
    if "Sanitizer" in err or "runtime error:" in err:
        return "sanitizer report"
    if written:
        return f"refused but left {written}"
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    p.add_argument("--importer", required=True)
    p.add_argument("--wrapper", nargs="*", default=[])
    p.add_argument("--models", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--variants", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time-limit", type=float, default=50.0)
    a = p.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(os.path.join(a.work, "failures"))
    models = []
    for path in a.models.split(","):
        with open(path, "rb") as f:
            data = f.read()
        models.append((os.path.basename(path), data, structural_positions(data, weight_ranges(data))))
    rng = random.Random(a.seed)
    start = time.monotonic()
    failures, ran, outcomes = 0, 0, {0: 0, 1: 0, 2: 0}
    for k in range(a.variants):
        if time.monotonic() - start > a.time_limit:
            break
        name, data, structure = models[k % len(models)]
        what, damaged = mutate(rng, data, structure)
        variant = os.path.join(a.work, f"v{k}.onnx")
        out_dir = os.path.join(a.work, f"out{k}")
        with open(variant, "wb") as f:
            f.write(damaged)
        cmd = a.wrapper + [a.importer, variant, "-o", out_dir, "--name", "model"]
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=20, check=False)
            fault = check(proc, out_dir)
        except subprocess.TimeoutExpired:
            proc, fault = None, "no answer within 20 s"
        ran += 1
        if proc is not None and proc.returncode in outcomes:
            outcomes[proc.returncode] += 1
        if fault:
            failures += 1
            kept = os.path.join(a.work, "failures", f"v{k}.onnx")
            os.replace(variant, kept)
            print(f"FAIL variant {k} ({name}, {what}): {fault}; kept as {kept}")
            if proc is not None:
                sys.stdout.write(proc.stderr.decode("utf-8", "replace")[-3000:])
        else:
            os.remove(variant)
        shutil.rmtree(out_dir, ignore_errors=True)
    seconds = time.monotonic() - start
    print(f"{ran} variants of {len(models)} models in {seconds:.1f} s (seed {a.seed}): "
          f"{outcomes[0]} imported, {outcomes[1]} refused (1), {outcomes[2]} refused (2), {failures} failed")
    if ran < a.variants // 2:
        print(f"FAIL only {ran} of {a.variants} variants ran within {a.time_limit} s")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
