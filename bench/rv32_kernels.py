#!/usr/bin/env python3
"""Instructions per MAC of the int8 kernels on rv32im (issue 14, item 4).

Builds firmware/tests/bench_kernels.cpp with the firmware runtime at each optimization level
(riscv64-unknown-elf-g++ -march=rv32im -mabi=ilp32), runs it on QEMU's virt machine with
-icount shift=0 (minstret is exact), and prints one table: instructions per MAC (per element for
add and softmax) at each level, and whether each output equals the reference kernel's bytes.

    python3 bench/rv32_kernels.py                    # -O2 and -Os
    python3 bench/rv32_kernels.py --opt O2 --check   # also fail when a case exceeds its ceiling
    python3 bench/rv32_kernels.py --headers /tmp/base/include   # the kernels of another tree
                                                 # (git archive <commit> include | tar -x -C /tmp/base)

--check compares the -O2 figures with the ceilings of issue 14 (a separate run, not a unit test:
the counts are exact and repeatable, but a ceiling is a goal, not a correctness property).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CXX = "riscv64-unknown-elf-g++"
CC = "riscv64-unknown-elf-gcc"
QEMU = "qemu-system-riscv32"
# the firmware toolchain's flags (firmware/cmake/rv32im-toolchain.cmake), NDEBUG as in its MinSizeRel build
ARCH = ["-march=rv32im", "-mabi=ilp32", "-misa-spec=2.2", "-ffreestanding", "-fno-builtin-printf", "-ffunction-sections",
        "-fdata-sections", "-DNDEBUG"]
CXXFLAGS = ["-std=c++20", "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics", "-fno-use-cxa-atexit",
            "-Wall", "-Wextra", "-Wconversion", "-Werror"]
# issue 14, item 4: instructions per MAC (per element for the add) at -O2
CEILINGS = {"conv3x3_16_32_im2col": 4.0, "conv3x3_16_32_noscratch": 4.0, "depthwise3x3_32": 13.0,
            "fc_400_120": 4.3, "add_16x16x16": 15.0}
LINE = re.compile(r"^bench: (\S+) instret=(\d+) work=(\d+) per=([\d.]+) match=(yes|no)$")


def build(opt, out_dir, headers):
    fw = os.path.join(ROOT, "firmware")
    inc = ["-I" + headers, "-I" + os.path.join(fw, "platform"),
           "-I" + os.path.join(fw, "runtime"), "-I" + os.path.join(fw, "tests")]
    objs = []
    sources = [("runtime/crt0.S", []), ("runtime/string.c", ["-fno-tree-loop-distribute-patterns"]),
               ("platform/console.cpp", []), ("platform/counter.c", []), ("platform/exit.cpp", []),
               ("tests/test_main.c", []), ("tests/bench_kernels.cpp", [])]
    for src, extra in sources:
        obj = os.path.join(out_dir, os.path.basename(src) + ".o")
        lang = CXXFLAGS if src.endswith(".cpp") else []
        cmd = [CXX if src.endswith(".cpp") else CC] + ARCH + ["-" + opt] + lang + extra + inc + ["-DCTNN_TEST_NAME=bench_kernels", "-c",
                                                                 os.path.join(fw, src), "-o", obj]
        subprocess.run(cmd, check=True)
        objs.append(obj)
    elf = os.path.join(out_dir, "bench_kernels_%s.elf" % opt)
    subprocess.run([CXX] + ARCH + ["-nostdlib", "-nostartfiles", "-Wl,--gc-sections", "-Wl,--no-warn-rwx-segments",
                                   "-T", os.path.join(fw, "link", "ctnn_virt.ld"), "-L", os.path.join(fw, "link")]
                   + objs + ["-lgcc", "-o", elf], check=True)
    return elf


def run(elf):
    cmd = [QEMU, "-M", "virt", "-cpu", "rv32,c=false", "-icount", "shift=0", "-nographic", "-bios", "none",
           "-kernel", elf]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    rows = {}
    for line in p.stdout.splitlines():
        m = LINE.match(line.strip())
        if m:
            rows[m.group(1)] = (int(m.group(2)), int(m.group(3)), float(m.group(4)), m.group(5) == "yes")
    if p.returncode != 0 or not rows:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit("%s: exit status %d" % (os.path.basename(elf), p.returncode))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--opt", action="append", choices=["O2", "Os", "O3"], help="optimization level (repeatable)")
    ap.add_argument("--check", action="store_true", help="fail when an -O2 figure exceeds the issue's ceiling")
    ap.add_argument("--keep", help="directory for the objects and ELFs (default: a temporary one)")
    ap.add_argument("--headers", default=os.path.join(ROOT, "include"),
                    help="the ctnn include directory to measure (default: this tree's)")
    args = ap.parse_args()
    opts = args.opt or ["O2", "Os"]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.keep or tmp
        os.makedirs(out_dir, exist_ok=True)
        for opt in opts:
            results[opt] = run(build(opt, out_dir, args.headers))
    names = list(results[opts[0]].keys())
    print("| case | " + " | ".join("-%s instr/MAC" % o for o in opts) + " | -O2 ceiling | bit-exact |")
    print("|---|" + "---:|" * len(opts) + "---:|---|")
    ok = True
    for name in names:
        cells = []
        exact = True
        for o in opts:
            r = results[o].get(name)
            cells.append("%.2f" % r[2] if r else "-")
            exact = exact and (r is not None and r[3])
        ceiling = CEILINGS.get(name)
        print("| %s | %s | %s | %s |" % (name, " | ".join(cells), "%.1f" % ceiling if ceiling else "",
                                         "yes" if exact else "NO"))
        ok = ok and exact
        if args.check and ceiling and "O2" in results and results["O2"][name][2] > ceiling:
            print("ceiling exceeded: %s %.2f > %.1f" % (name, results["O2"][name][2], ceiling), file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
