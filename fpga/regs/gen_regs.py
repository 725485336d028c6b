#!/usr/bin/env python3
"""Generates ctnn's register files from fpga/regs/ctnn.toml (Python 3.11 standard library only).

    gen_regs.py            rewrite every generated file
    gen_regs.py --check    exit 1 (and show a diff) when a generated file is stale

Outputs (each with a "generated - do not edit" banner):
    include/ctnn/regs/soc_map.hpp    the SoC address map as a checked ctnn::mmio::address_map
    include/ctnn/regs/accel.hpp      typed accelerator registers and fields (ctnn::mmio), each
                                     field's max_value, the list of every register
    include/ctnn/regs/<device>.hpp   the other devices' registers (UART, exit): offsets, fields,
                                     named values
    fpga/rtl/ctnn_map.vh             CTNN_MAP_* localparams for the SoC decoder and the DMA
    fpga/rtl/ctnn_soc_defaults.vh    `define CTNN_SOC_*: the map and the devices' registers for RTL
                                     parameter defaults and device constants
    fpga/rtl/ctnn_accel_regs.vh      CTNN_ACCEL_* offsets, field positions and reset values
    fpga/rtl/ctnn_accel_values.vh    CTNN_ACCEL_<REG>_<FIELD>_<VALUE>: the fields' named values
    firmware/link/ctnn_memory.ld     the linker MEMORY block (RAM of the map)
    firmware/cmake/ctnn_soc_map.cmake CTNN_RAM_BASE / CTNN_RAM_SIZE for the firmware build
    fpga/regs/REGISTERS.md           the register tables of the documentation
"""
import argparse
import difflib
import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = ROOT / "fpga" / "regs" / "ctnn.toml"
ACCESS = ("ro", "wo", "rw", "w1c")


class DataError(Exception):
    pass


def banner(comment: str, close: str = "") -> str:
    return (f"{comment} generated \u2014 do not edit. Source: fpga/regs/ctnn.toml, "
            f"generator: fpga/regs/gen_regs.py{close}\n")


def is_pow2(v: int) -> bool:
    return v > 0 and (v & (v - 1)) == 0


def log2(v: int) -> int:
    return v.bit_length() - 1


def parse_bits(text: str, where: str) -> tuple[int, int]:
    try:
        hi, lo = (int(x) for x in text.split(":"))
    except ValueError as e:
        raise DataError(f"{where}: bits must be 'hi:lo', got {text!r}") from e
    if not 0 <= lo <= hi < 32:
        raise DataError(f"{where}: bad bit range {text!r}")
    return hi, lo


def load(path: pathlib.Path) -> dict:
    data = tomllib.loads(path.read_text())
    regions = data["map"]["region"]
    names = set()
    for r in regions:
        where = f"map.region {r['name']}"
        if r["name"] in names:
            raise DataError(f"{where}: duplicate name")
        names.add(r["name"])
        if not is_pow2(r["size"]):
            raise DataError(f"{where}: size 0x{r['size']:x} is not a power of two")
        if r["base"] % r["size"]:
            raise DataError(f"{where}: base 0x{r['base']:x} is not a multiple of its size")
        if r["base"] + r["size"] > 1 << 32:
            raise DataError(f"{where}: ends above 4 GiB")
    ordered = sorted(regions, key=lambda r: r["base"])
    for a, b in zip(ordered, ordered[1:]):
        if a["base"] + a["size"] > b["base"]:
            raise DataError(f"map: regions {a['name']} and {b['name']} overlap")
    if not any(r["name"] == "ram" for r in regions):
        raise DataError("map: no region named ram (the firmware is linked into it)")
    accel = data["accel"]
    accel_region = next((r for r in regions if r["name"] == accel["name"]), None)
    if accel_region is None:
        raise DataError("accel: no map region of that name")
    offsets = {}
    for reg in accel["reg"]:
        where = f"accel.reg {reg['name']}"
        if reg["offset"] % 4 or reg["offset"] >= accel_region["size"]:
            raise DataError(f"{where}: offset 0x{reg['offset']:x} unaligned or outside the region")
        if reg["offset"] in offsets:
            raise DataError(f"{where}: offset shared with {offsets[reg['offset']]}")
        offsets[reg["offset"]] = reg["name"]
        check_fields(reg, where, 32)
    devices = data.get("device", [])
    dnames = set()
    for dev in devices:
        where = f"device {dev.get('name', '?')}"
        region = next((r for r in regions if r["name"] == dev.get("name")), None)
        if region is None:
            raise DataError(f"{where}: no map region of that name")
        if dev["name"] in dnames or dev["name"] == accel["name"]:
            raise DataError(f"{where}: described twice")
        dnames.add(dev["name"])
        if dev.get("width") not in (8, 16, 32):
            raise DataError(f"{where}: width must be 8, 16 or 32")
        nbytes = dev["width"] // 8
        offsets = {}
        for reg in dev["reg"]:
            rw = f"{where}.{reg['name']}"
            if reg["offset"] % nbytes or reg["offset"] + nbytes > region["size"]:
                raise DataError(f"{rw}: offset 0x{reg['offset']:x} unaligned or outside the region")
            if reg["offset"] in offsets:
                raise DataError(f"{rw}: offset shared with {offsets[reg['offset']]}")
            offsets[reg["offset"]] = reg["name"]
            check_fields(reg, rw, dev["width"])
    data["device"] = devices
    return data


def check_fields(reg: dict, where: str, width: int) -> None:
    """Checks the fields of one register (bits inside width, no overlap, access, reset and named
    values that fit) and adds hi, lo, mask, max_value to each field and reset, used to the register."""
    used = 0
    reset = 0
    fnames = set()
    for f in reg["fields"]:
        fw = f"{where}.{f['name']}"
        if f["name"] in fnames:
            raise DataError(f"{fw}: duplicate field")
        fnames.add(f["name"])
        hi, lo = parse_bits(f["bits"], fw)
        if hi >= width:
            raise DataError(f"{fw}: bits {f['bits']} outside a {width}-bit register")
        f["hi"], f["lo"] = hi, lo
        f["max_value"] = (1 << (hi - lo + 1)) - 1
        mask = f["max_value"] << lo
        if used & mask:
            raise DataError(f"{fw}: overlaps another field")
        used |= mask
        if f["access"] not in ACCESS:
            raise DataError(f"{fw}: access must be one of {ACCESS}")
        if f["reset"] >> (hi - lo + 1):
            raise DataError(f"{fw}: reset 0x{f['reset']:x} does not fit in {hi - lo + 1} bits")
        f["mask"] = mask
        reset |= f["reset"] << lo
        # optional named values of the field (an enumeration: error causes, modes, exit codes)
        vnames, vvals = set(), set()
        for v in f.get("values", []):
            vw = f"{fw}.{v.get('name', '?')}"
            if not v.get("name", "").isidentifier() or not v["name"].isupper():
                raise DataError(f"{vw}: a value name must be an UPPER_CASE identifier")
            if v["name"] in vnames or v["value"] in vvals:
                raise DataError(f"{vw}: duplicate value name or number")
            if v["value"] < 0 or v["value"] >> (hi - lo + 1):
                raise DataError(f"{vw}: value {v['value']} does not fit in {hi - lo + 1} bits")
            vnames.add(v["name"])
            vvals.add(v["value"])
    reg["reset"] = reset
    reg["used"] = used


def field_mask(data_reg: dict, accesses: tuple[str, ...]) -> int:
    m = 0
    for f in data_reg["fields"]:
        if f["access"] in accesses:
            m |= f["mask"]
    return m


# ---- Verilog -------------------------------------------------------------------------------
def gen_map_vh(d: dict) -> str:
    out = [banner("//"),
           "// The ctnn SoC address map. Include inside a module body (localparams, no include\n"
           "// guard on purpose: every module that decodes addresses includes it once).\n"
           "// A region claims addr when addr[31:ADDR_BITS] == BASE[31:ADDR_BITS].\n"]
    for r in d["map"]["region"]:
        n = r["name"].upper()
        out.append(f"\n// {r['name']}: {r['desc']}\n")
        out.append(f"localparam [31:0] CTNN_MAP_{n}_BASE = 32'h{r['base'] >> 16:04x}_{r['base'] & 0xffff:04x};\n")
        out.append(f"localparam [31:0] CTNN_MAP_{n}_SIZE = 32'h{r['size'] >> 16:04x}_{r['size'] & 0xffff:04x};\n")
        out.append(f"localparam integer CTNN_MAP_{n}_ADDR_BITS = {log2(r['size'])};\n")
    return "".join(out)


def gen_accel_vh(d: dict) -> str:
    a = d["accel"]
    region = next(r for r in d["map"]["region"] if r["name"] == a["name"])
    bits = log2(region["size"])
    out = [banner("//"),
           f"// {a['desc']}.\n"
           "// Register offsets (byte, inside the accel region), field positions and reset values.\n"
           "// Include once inside the register-file module body.\n\n",
           f"localparam integer CTNN_ACCEL_OFFSET_BITS = {bits};\n"]
    for reg in a["reg"]:
        rn = reg["name"]
        out.append(f"\n// {rn}: {reg['desc']}\n")
        out.append(f"localparam [{bits - 1}:0] CTNN_ACCEL_{rn}_OFFSET = {bits}'h{reg['offset']:03x};\n")
        out.append(f"localparam [31:0] CTNN_ACCEL_{rn}_RESET = 32'h{reg['reset']:08x};\n")
        for f in reg["fields"]:
            p = f"CTNN_ACCEL_{rn}_{f['name']}"
            out.append(f"localparam integer {p}_LSB = {f['lo']};  // {f['access']}, bits {f['hi']}:{f['lo']}\n")
            out.append(f"localparam integer {p}_MSB = {f['hi']};\n")
    return "".join(out)


def gen_values_vh(d: dict) -> str:
    a = d["accel"]
    out = [banner("//"),
           "// The named values of the accelerator's register fields (error causes, ...), for the RTL that\n"
           "// produces them. Include inside a module body.\n"]
    for reg in a["reg"]:
        for f in reg["fields"]:
            if not f.get("values"):
                continue
            p = f"CTNN_ACCEL_{reg['name']}_{f['name']}"
            w = f["hi"] - f["lo"] + 1
            out.append(f"\n// {reg['name']}.{f['name']}: {f['desc']}\n")
            for v in f["values"]:
                out.append(f"localparam [{w - 1}:0] {p}_{v['name']} = {w}'d{v['value']};  // {v['desc']}\n")
    return "".join(out)


def vhex(v: int, width: int = 32) -> str:
    """A Verilog sized hex literal, 32-bit values as 32'hxxxx_xxxx."""
    if width == 32:
        return f"32'h{v >> 16:04x}_{v & 0xffff:04x}"
    return f"{width}'h{v:0{(width + 3) // 4}x}"


def gen_defaults_vh(d: dict) -> str:
    out = [banner("//"),
           "// The SoC map and the devices' registers as `defines, for what a module body's localparams\n"
           "// cannot reach: parameter defaults (parameter [31:0] RamBase = `CTNN_SOC_RAM_BASE) and the\n"
           "// constants of the UART and exit device. Include at the top of a file, outside the module.\n"
           "`ifndef CTNN_SOC_DEFAULTS_VH\n`define CTNN_SOC_DEFAULTS_VH\n"]
    for r in d["map"]["region"]:
        n = f"CTNN_SOC_{r['name'].upper()}"
        out.append(f"\n// {r['name']}: {r['desc']}\n")
        out.append(f"`define {n}_BASE {vhex(r['base'])}\n")
        out.append(f"`define {n}_SIZE {vhex(r['size'])}\n")
        out.append(f"`define {n}_ADDR_BITS {log2(r['size'])}\n")
    for dev in d["device"]:
        for reg in dev["reg"]:
            p = f"CTNN_SOC_{dev['name'].upper()}_{reg['name']}"
            out.append(f"\n// {dev['name']}.{reg['name']}: {reg['desc']}\n")
            out.append(f"`define {p}_OFFSET {reg['offset']}\n")
            for f in reg["fields"]:
                w = f["hi"] - f["lo"] + 1
                out.append(f"`define {p}_{f['name']}_LSB {f['lo']}  // {f['access']}, bits {f['hi']}:{f['lo']}\n")
                out.append(f"`define {p}_{f['name']}_MSB {f['hi']}\n")
                for v in f.get("values", []):
                    out.append(f"`define {p}_{f['name']}_{v['name']} {vhex(v['value'], w)}  // {v['desc']}\n")
    out.append("\n`endif\n")
    return "".join(out)


# ---- firmware build: linker MEMORY block, CMake constants -----------------------------------
def ram_region(d: dict) -> dict:
    return next(r for r in d["map"]["region"] if r["name"] == "ram")


def gen_memory_ld(d: dict) -> str:
    ram = ram_region(d)
    return (banner("/*", " */") +
            f"/* {ram['desc']}. firmware/link/ctnn_virt.ld includes this block. */\n"
            "MEMORY\n{\n"
            f"  RAM (rwx) : ORIGIN = 0x{ram['base']:08x}, LENGTH = 0x{ram['size']:08x}\n"
            "}\n")


def gen_cmake(d: dict) -> str:
    ram = ram_region(d)
    return (banner("#") +
            "# The RAM of the SoC map for the firmware build (the hex image's address offset).\n"
            f"set(CTNN_RAM_BASE 0x{ram['base']:08x})\n"
            f"set(CTNN_RAM_SIZE 0x{ram['size']:08x})\n")


# ---- C++ -----------------------------------------------------------------------------------
def cpp_string(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def gen_map_hpp(d: dict) -> str:
    m = d["map"]
    out = [banner("//"),
           f"// {m['desc']}: a compile-time checked ctnn::mmio::address_map (regions aligned to their\n"
           "// size, no overlap) and one constant per region.\n"
           "#pragma once\n#include \"ctnn/mmio/address_map.hpp\"\n\n"
           f"namespace ctnn::regs::{m['name']} {{\n\n"]
    for r in m["region"]:
        n = r["name"]
        out.append(f"/// {r['desc']}\n")
        out.append(f"inline constexpr mmio::region {n}{{\"{n}\", 0x{r['base']:08x}u, 0x{r['size']:x}u}};\n")
    names = ", ".join(r["name"] for r in m["region"])
    out.append(f"\n/// The SoC address map; address_map's static_asserts check alignment and overlap.\n")
    out.append(f"using map = mmio::address_map<{names}>;\n\n")
    out.append(f"}}  // namespace ctnn::regs::{m['name']}\n")
    return "".join(out)


def gen_accel_hpp(d: dict) -> str:
    a = d["accel"]
    m = d["map"]
    out = [banner("//"),
           f"// {a['desc']}.\n"
           "// One struct per register (absolute address in the SoC map), one nested field type per\n"
           "// field; write with ctnn::mmio::write<Bus>(reg::field{v}, ...), read with\n"
           "// ctnn::mmio::read<Bus, reg::field>().\n"
           "#pragma once\n#include \"ctnn/mmio/reg.hpp\"\n#include \"ctnn/regs/soc_map.hpp\"\n\n"
           f"namespace ctnn::regs::{a['name']} {{\n\n"
           f"inline constexpr uint32_t base = {m['name']}::{a['name']}.base;\n"]
    for reg in a["reg"]:
        rn = reg["name"].lower()
        out.append(f"\n/// @brief {reg['name']} (+0x{reg['offset']:03x}): {reg['desc']}\n")
        out.append(f"struct {rn} : mmio::reg<{rn}, \"{a['name']}.{reg['name']}\", base + 0x{reg['offset']:03x}u, "
                   f"0x{reg['reset']:08x}u> {{\n")
        for f in reg["fields"]:
            out.append(f"  /// {f['name']} [{f['hi']}:{f['lo']}] {f['access']}, reset {f['reset']:#x}: "
                       f"{f['desc']}\n")
            out.append(f"  struct {f['name'].lower()} : mmio::field<{rn}, {f['name'].lower()}, \"{a['name']}.{reg['name']}.{f['name']}\", "
                       f"{f['hi']}, {f['lo']}, mmio::access::{f['access']}, 0x{f['reset']:x}u> {{\n"
                       f"    using field::field;\n"
                       f"    /// The largest value the field holds ({f['hi'] - f['lo'] + 1} bits).\n"
                       f"    static constexpr uint32_t max_value = 0x{f['max_value']:x}u;\n")
            if f.get("values"):
                out.append("    /// The field's named values.\n    enum value : uint32_t {\n")
                for v in f["values"]:
                    out.append(f"      {v['name'].lower()} = {v['value']},  ///< {v['desc']}\n")
                out.append("    };\n    /// The name of a value as in fpga/regs/ctnn.toml, \"?\" for an unnamed one.\n"
                           "    static constexpr const char* name_of(uint32_t v) {\n      switch (v) {\n")
                for v in f["values"]:
                    out.append(f"        case {v['value']}: return \"{v['name']}\";\n")
                out.append("        default: return \"?\";\n      }\n    }\n")
            out.append("  };\n")
        names = ", ".join(f["name"].lower() for f in reg["fields"])
        out.append(f"  using fields = mmio::field_list<{names}>;\n}};\n")
    out.append("\n/// Every register in offset order, as data: the RTL/C++ agreement test walks it.\n")
    out.append("inline constexpr mmio::reg_info registers[] = {\n")
    for reg in a["reg"]:
        out.append(f"    mmio::info_of<{reg['name'].lower()}>(),\n")
    out.append("};\n")
    out.append(f"inline constexpr uint32_t register_count = {len(a['reg'])};\n")
    out.append("static_assert(sizeof(registers) / sizeof(registers[0]) == register_count);\n")
    out.append(f"\n}}  // namespace ctnn::regs::{a['name']}\n")
    return "".join(out)


def gen_device_hpp(d: dict, dev: dict) -> str:
    m = d["map"]
    n = dev["name"]
    out = [banner("//"),
           f"// {dev['desc']}.\n"
           f"// One struct per {dev['width']}-bit register (byte offset in the {n} region, absolute address), one\n"
           "// nested struct per field: bit positions, mask in the register, largest value, named values.\n"
           "#pragma once\n#include <stdint.h>\n\n#include \"ctnn/regs/soc_map.hpp\"\n\n"
           f"namespace ctnn::regs::{n} {{\n\n"
           f"inline constexpr uint32_t base = {m['name']}::{n}.base;\n"]
    for reg in dev["reg"]:
        rn = reg["name"].lower()
        out.append(f"\n/// @brief {reg['name']} (+0x{reg['offset']:x}): {reg['desc']}\n")
        out.append(f"struct {rn} {{\n"
                   f"  static constexpr uint32_t offset = 0x{reg['offset']:x}u;\n"
                   f"  static constexpr uint32_t address = base + offset;\n"
                   f"  static constexpr uint32_t reset = 0x{reg['reset']:x}u;\n")
        for f in reg["fields"]:
            out.append(f"  /// {f['name']} [{f['hi']}:{f['lo']}] {f['access']}, reset {f['reset']:#x}: {f['desc']}\n")
            out.append(f"  struct {f['name'].lower()} {{\n"
                       f"    static constexpr unsigned lo = {f['lo']}, hi = {f['hi']};\n"
                       f"    static constexpr uint32_t mask = 0x{f['mask']:x}u;\n"
                       f"    static constexpr uint32_t max_value = 0x{f['max_value']:x}u;\n"
                       f"    static constexpr uint32_t reset = 0x{f['reset']:x}u;\n")
            if f.get("values"):
                out.append("    enum value : uint32_t {\n")
                for v in f["values"]:
                    out.append(f"      {v['name'].lower()} = 0x{v['value']:x},  ///< {v['desc']}\n")
                out.append("    };\n")
            out.append("  };\n")
        out.append("};\n")
    out.append(f"\n}}  // namespace ctnn::regs::{n}\n")
    return "".join(out)


# ---- Markdown ------------------------------------------------------------------------------
def gen_md(d: dict) -> str:
    m, a = d["map"], d["accel"]
    out = [banner("<!--").rstrip("\n") + " -->\n\n# ctnn register map\n\n",
           f"## SoC address map\n\n{m['desc']}.\n\n",
           "| region | base | size | end (inclusive) | description |\n|---|---|---|---|---|\n"]
    for r in m["region"]:
        out.append(f"| `{r['name']}` | `0x{r['base']:08x}` | `0x{r['size']:x}` | "
                   f"`0x{r['base'] + r['size'] - 1:08x}` | {r['desc']} |\n")
    region = next(r for r in m["region"] if r["name"] == a["name"])
    out.append(f"\n## Accelerator registers (base `0x{region['base']:08x}`)\n\n{a['desc']}.\n\n")
    out.append("| offset | register | field | bits | access | reset | description |\n"
               "|---|---|---|---|---|---|---|\n")
    for reg in a["reg"]:
        out.append(f"| `0x{reg['offset']:03x}` | **{reg['name']}** | | | | `0x{reg['reset']:08x}` | "
                   f"{reg['desc']} |\n")
        for f in reg["fields"]:
            values = "".join(f"<br>`{v['value']}` {v['name']}: {v['desc']}" for v in f.get("values", []))
            out.append(f"| | | `{f['name']}` | {f['hi']}:{f['lo']} | {f['access']} | `{f['reset']:#x}` | "
                       f"{f['desc']}{values} |\n")
    for dev in d["device"]:
        region = next(r for r in m["region"] if r["name"] == dev["name"])
        out.append(f"\n## {dev['name']} (base `0x{region['base']:08x}`, {dev['width']}-bit registers)\n\n"
                   f"{dev['desc']}.\n\n")
        out.append("| offset | register | field | bits | access | reset | description |\n"
                   "|---|---|---|---|---|---|---|\n")
        for reg in dev["reg"]:
            out.append(f"| `0x{reg['offset']:x}` | **{reg['name']}** | | | | `{reg['reset']:#x}` | {reg['desc']} |\n")
            for f in reg["fields"]:
                values = "".join(f"<br>`{v['value']:#x}` {v['name']}: {v['desc']}" for v in f.get("values", []))
                out.append(f"| | | `{f['name']}` | {f['hi']}:{f['lo']} | {f['access']} | `{f['reset']:#x}` | "
                           f"{f['desc']}{values} |\n")
    out.append("\nAccess: ro read only (writes ignored), wo write only (reads 0), rw read/write, "
               "w1c write 1 to clear.\n")
    return "".join(out)


def outputs(d: dict) -> dict[pathlib.Path, str]:
    out = {
        ROOT / "include/ctnn/regs/soc_map.hpp": gen_map_hpp(d),
        ROOT / "include/ctnn/regs/accel.hpp": gen_accel_hpp(d),
    }
    for dev in d["device"]:
        out[ROOT / f"include/ctnn/regs/{dev['name']}.hpp"] = gen_device_hpp(d, dev)
    out.update({
        ROOT / "fpga/rtl/ctnn_map.vh": gen_map_vh(d),
        ROOT / "fpga/rtl/ctnn_soc_defaults.vh": gen_defaults_vh(d),
        ROOT / "fpga/rtl/ctnn_accel_regs.vh": gen_accel_vh(d),
        ROOT / "fpga/rtl/ctnn_accel_values.vh": gen_values_vh(d),
        ROOT / "firmware/link/ctnn_memory.ld": gen_memory_ld(d),
        ROOT / "firmware/cmake/ctnn_soc_map.cmake": gen_cmake(d),
        ROOT / "fpga/regs/REGISTERS.md": gen_md(d),
    })
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail when a generated file is stale")
    ap.add_argument("--source", type=pathlib.Path, default=SOURCE)
    args = ap.parse_args()
    try:
        data = load(args.source)
    except DataError as e:
        print(f"gen_regs.py: {args.source}: {e}", file=sys.stderr)
        return 2
    except tomllib.TOMLDecodeError as e:
        print(f"gen_regs.py: {args.source}: not valid TOML: {e}", file=sys.stderr)
        return 2
    except (KeyError, TypeError) as e:
        print(f"gen_regs.py: {args.source}: malformed map ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    stale = 0
    for path, text in outputs(data).items():
        old = path.read_text() if path.exists() else ""
        if old == text:
            continue
        if args.check:
            stale += 1
            print(f"stale: {path.relative_to(ROOT)} (run fpga/regs/gen_regs.py)")
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                       "committed", "regenerated", n=1))
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
