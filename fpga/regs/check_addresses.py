#!/usr/bin/env python3
"""Fails when an address of the SoC map is typed by hand (Python 3.11 standard library only).

    check_addresses.py          list every hex literal that equals a region base of
                                fpga/regs/ctnn.toml (RAM, UART, exit device, accelerator) outside
                                the map itself, the generated files and the documentation; exit 1

The bases come from the map. A literal is a C/C++/Python/assembly/linker/CMake hex number
(0x..., with or without _ separators and suffixes) or a Verilog one (32'h...), compared by value.
A few files use such a value as a number, not as an address: ALLOW names each of them with the
line it may appear on and why (this file is not scanned: its ALLOW patterns name those lines).
An entry that no longer matches anything is an error too, so the list cannot grow stale.
"""
import fnmatch
import pathlib
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import gen_regs  # noqa: E402

ROOT = gen_regs.ROOT
SCANNED = {".hpp", ".cpp", ".h", ".c", ".S", ".s", ".v", ".vh", ".sv", ".vlt", ".ld", ".cmake", ".py", ".toml",
           ".json", ".sh", ".yml", ".yaml", ".txt", ".in"}
HEX = re.compile(r"(?:(?<![0-9A-Za-z_])0[xX]|'[sS]?[hH])([0-9a-fA-F][0-9a-fA-F_]*)")

# (file glob, regions whose base may appear, regular expression the line must match, why)
ALLOW = [
    ("firmware/tests/isa_*.S", {"ram"}, r"^\s*(TEST_\w+\s|li\s+t\d,\s*0x80000000\s*$|d\d+:\s*\.word\s)",
     "bit 31 as an operand or expected value (INT_MIN, the sign bit); the ISA tests reach memory through labels"),
    ("firmware/tests/isa_csr_trap.S", {"exit"}, r"^\s*li\s+t0,\s*0x100000\s*$",
     "2^20, a value written to mcycle"),
    ("firmware/tests/c_workload.h", {"ram"}, r"0x80000000u\) == 0|\^ 0x80000000u\)",
     "bit 31 as a value (leading-zero count, sign flip)"),
    ("fpga/rtl/ctnn_accel_requant.v", {"ram"}, r"== 32'h8000_0000\) && \(m1_q == 32'h8000_0000\)",
     "INT32_MIN, the overflow case of the saturating doubling multiply"),
    ("fpga/rtl/ctnn_accel_mbqm.v", {"ram"}, r"== 32'h8000_0000\) && \(m1_q == 32'h8000_0000\)",
     "INT32_MIN, the overflow case of the saturating doubling multiply"),
    ("fpga/regs/test_gen_regs.py", {"ram", "accel", "exit"}, r"base = 0x|ORIGIN = 0x|RAM_BASE 0x|RAM_BASE 32'h",
     "the synthetic maps of the generator's self-test and the output expected from them"),
    ("tests/static/mmio_map.cpp", {"ram", "accel"}, r"decode\(0x",
     "checks the generated map against the documented addresses: a second copy on purpose"),
    ("tests/unit/test_mmio.cpp", {"ram", "accel", "uart", "exit"}, r"decode\(0x|::address == 0x",
     "checks the generated map against the documented addresses: a second copy on purpose"),
    ("tests/fail/mmio_map_overlap.cpp", {"uart"}, r"mmio::region \w+\{",
     "a map of its own whose regions overlap: it must not compile"),
    ("tests/static/mmio_codegen.cpp", {"accel"}, r"#define CTNN_HAND_REG",
     "the hand-written register access that the generated one is compared against"),
]


def bases(data: dict) -> dict[int, str]:
    return {r["base"]: r["name"] for r in data["map"]["region"]}


def scan_text(rel: str, text: str, by_value: dict[int, str], used: set[int] | None = None) -> list[str]:
    """The hand-typed addresses in one file: 'path:line: literal (region) | line' for each."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in HEX.finditer(line):
            digits = m.group(1).replace("_", "")
            value = int(digits, 16)
            region = by_value.get(value)
            if region is None or digits.lower().lstrip("0") == "":
                continue
            allowed = False
            for i, (glob, regions, pattern, _why) in enumerate(ALLOW):
                if fnmatch.fnmatch(rel, glob) and region in regions and re.search(pattern, line):
                    allowed = True
                    if used is not None:
                        used.add(i)
            if not allowed:
                found.append(f"{rel}:{n}: {m.group(0)} (the value of the {region} base) typed by hand | "
                             f"{line.strip()}")
    return found


def source_files(skip: set[pathlib.Path]):
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part.startswith(".") or part.startswith("build") or part == "__pycache__" for part in rel.parts):
            continue
        if not path.is_file() or path in skip or path.suffix.lower() == ".md":
            continue
        if path.suffix in SCANNED or path.name == "CMakeLists.txt":
            yield path, rel.as_posix()


def main() -> int:
    data = gen_regs.load(gen_regs.SOURCE)
    skip = set(gen_regs.outputs(data)) | {gen_regs.SOURCE, pathlib.Path(__file__).resolve()}
    by_value = bases(data)
    used: set[int] = set()
    found = []
    for path, rel in source_files(skip):
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        found += scan_text(rel, text, by_value, used)
    for line in found:
        print(line)
    stale = [ALLOW[i] for i in range(len(ALLOW)) if i not in used]
    for glob, _regions, pattern, _why in stale:
        print(f"check_addresses.py: allow-list entry {glob} /{pattern}/ matches nothing any more: remove it")
    if found:
        print(f"{len(found)} address(es) of fpga/regs/ctnn.toml typed by hand: use the generated constants "
              "(ctnn/regs/*.hpp, ctnn_soc_defaults.vh / ctnn_map.vh, ctnn_memory.ld, ctnn_soc_map.cmake)")
    return 1 if found or stale else 0


if __name__ == "__main__":
    sys.exit(main())
