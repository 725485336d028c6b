#!/usr/bin/env python3
"""Yosys resource counts of ctnn_accel for DIM = 4, 8, 16, and of the whole SoC
(Python 3 standard library + yosys).

    synth_accel.py [--dims 4 8 16] [--flows generic ice40] [--top accel|soc|core] [--jobs J]
                   [--out results.md]

--top soc synthesizes ctnn_soc (core, interconnect, UART, exit device, the accelerator with
AccelDim = DIM, Log2KMax = 8, and RamBytes = 64 KiB of on-chip RAM); --top core the RV32IM
core alone (DIM is ignored).

Two flows on the same RTL, flattened, synthesis parameters Log2KMax = 8 (K <= 256) and
NbTiles = 2 (B block = 2*DIM columns) so that the scratchpads stay block-RAM sized:
  generic: yosys `synth -lut 4` with memories kept as RAM cells (`memory_map` skipped), so
           RAM bits are the $mem cells' width x depth and LUTs are 4-input LUTs from abc;
  ice40:   `synth_ice40 -dsp` (iCE40 UltraPlus: multipliers go to SB_MAC16), RAM bits =
           SB_RAM40_4K x 4096.
Prints one Markdown table row per (flow, DIM) and writes them to --out.
"""
import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys
import tempfile
import time

RTL = pathlib.Path(__file__).resolve().parents[1] / "rtl"
SOURCES = ["ctnn_accel.v", "ctnn_accel_ctrl.v", "ctnn_accel_regs.v", "ctnn_accel_load.v",
           "ctnn_accel_feed.v", "ctnn_accel_store.v", "ctnn_accel_requant.v", "ctnn_accel_mbqm.v", "ctnn_accel_mbqm_in.v",
           "ctnn_accel_resadd.v", "ctnn_accel_pool.v", "ctnn_accel_dw.v", "ctnn_accel_mv.v", "ctnn_accel_spad.v",
           "ctnn_dma.v", "ctnn_mesh.v", "ctnn_tile.v", "ctnn_pe.v"]
PARAMS = {"Log2KMax": 8, "NbTiles": 2}
CORE_SOURCES = ["ctnn_core.v", "ctnn_core_decoder.v", "ctnn_core_alu.v", "ctnn_core_div.v",
                "ctnn_core_lsu.v", "ctnn_core_csr.v"]
SOC_SOURCES = SOURCES + CORE_SOURCES + ["ctnn_soc.v", "ctnn_bus_xbar.v", "ctnn_ram.v", "ctnn_uart.v",
                                        "ctnn_exit.v"]
SOC_PARAMS = {"AccelLog2KMax": 8, "RamBytes": 65536}

GENERIC = """
synth -top {top} -flatten -lut 4 -run begin:fine
opt -fast -full
techmap
opt -fast
abc -fast -lut 4
opt -fast
"""
ICE40 = "synth_ice40 -top {top} -dsp"


def run(dim: int, flow: str, top: str = "accel") -> dict:
    module = "ctnn_" + top
    sources = {"soc": SOC_SOURCES, "core": CORE_SOURCES}.get(top, SOURCES)
    read = f"read_verilog -defer -I{RTL} " + " ".join(str(RTL / s) for s in sources)
    params = {"soc": dict(SOC_PARAMS, AccelDim=dim), "core": {}}.get(top, dict(PARAMS, Dim=dim))
    chparam = f"hierarchy -top {module} " + " ".join(f"-chparam {k} {v}" for k, v in params.items())
    with tempfile.TemporaryDirectory() as tmp:
        stat = pathlib.Path(tmp) / "stat.json"
        script = "\n".join([read, chparam, (GENERIC if flow == "generic" else ICE40).format(top=module),
                            f"tee -q -o {stat} stat -json"])
        start = time.time()
        subprocess.run(["yosys", "-q", "-p", script], check=True, stdout=subprocess.DEVNULL)
        seconds = time.time() - start
        cells = json.loads(stat.read_text())["design"]
    by_type = cells["num_cells_by_type"]
    if flow == "generic":
        luts = by_type.get("$lut", 0)
        ffs = sum(n for t, n in by_type.items() if "DFF" in t.upper())
        ram_bits = memory_bits_generic(read, chparam, module)
        dsps = 0
    else:
        luts = by_type.get("SB_LUT4", 0)
        ffs = sum(n for t, n in by_type.items() if t.startswith("SB_DFF"))
        ram_bits = 4096 * by_type.get("SB_RAM40_4K", 0)
        dsps = by_type.get("SB_MAC16", 0)
    return {"top": top, "flow": flow, "dim": dim, "cells": cells["num_cells"], "luts": luts, "ffs": ffs,
            "ram_bits": ram_bits, "dsps": dsps, "seconds": seconds}


def memory_bits_generic(read: str, chparam: str, module: str) -> int:
    """Width x depth of every $mem cell left by `memory -nomap` (what the generic flow keeps)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "mem.json"
        script = "\n".join([read, chparam,
                            f"synth -top {module} -flatten -run begin:fine",
                            f"write_json {out}"])
        subprocess.run(["yosys", "-q", "-p", script], check=True, stdout=subprocess.DEVNULL)
        bits = 0
        for module in json.loads(out.read_text())["modules"].values():
            for cell in module["cells"].values():
                if cell["type"].startswith("$mem"):
                    p = cell["parameters"]
                    bits += int(p["WIDTH"], 2) * int(p["SIZE"], 2)
        return bits


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dims", type=int, nargs="+", default=[4, 8, 16])
    ap.add_argument("--flows", nargs="+", default=["generic", "ice40"])
    ap.add_argument("--top", choices=["accel", "soc", "core"], default="accel")
    ap.add_argument("--jobs", type=int, default=1, help="yosys runs in parallel")
    ap.add_argument("--out", type=pathlib.Path)
    args = ap.parse_args()
    rows = ["| top | flow | DIM | cells | LUT4 | flip-flops | RAM bits | DSP (SB_MAC16) | yosys s |",
            "|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(rows), flush=True)
    cases = [(dim, flow) for flow in args.flows for dim in args.dims]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run, dim, flow, args.top) for dim, flow in cases]
        for fut in futures:
            r = fut.result()
            row = (f"| {r['top']} | {r['flow']} | {r['dim']} | {r['cells']} | {r['luts']} | {r['ffs']} | "
                   f"{r['ram_bits']} | {r['dsps']} | {r['seconds']:.0f} |")
            rows.append(row)
            print(row, flush=True)
            if args.out:
                args.out.write_text("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
