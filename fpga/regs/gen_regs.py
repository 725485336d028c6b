#!/usr/bin/env python3
"""Generates ctnn's register files from fpga/regs/ctnn.toml (Python 3.11 standard library only).

    gen_regs.py            rewrite every generated file
    gen_regs.py --check    exit 1 (and show a diff) when a generated file is stale
    a malformed map, or an output that cannot be read or written: one line on stderr, exit 2, no
    file written (--source MAP, --out-dir TREE: another map, another tree, as the self-test does)

Outputs (each with a "generated - do not edit" banner):
    include/ctnn/regs/soc_map.hpp    the SoC address map as a checked ctnn::mmio::address_map
    include/ctnn/regs/accel.hpp      typed accelerator registers and fields (ctnn::mmio), each
                                     field's range (signed or not), the list of every register
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
import os
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


# ---- the map's schema: every key, its type, whether it may be left out ------------------------
# A malformed map is one DataError naming the place (map.region[2].base, accel.reg CFG.RELU, ...)
# before any output is generated: a wrong type, a missing or unknown key, a value out of range, a
# name that is not an identifier of the generated C++ and Verilog.
INT, STR, BOOL, TABLE, TABLES = "an integer", "a string", "a boolean", "a table", "an array of tables"
SCHEMA = {
    "top": {"map": (TABLE, True), "accel": (TABLE, True), "device": (TABLES, False)},
    "map": {"name": (STR, True), "desc": (STR, True), "region": (TABLES, True)},
    "region": {"name": (STR, True), "base": (INT, True), "size": (INT, True), "desc": (STR, True)},
    "accel": {"name": (STR, True), "desc": (STR, True), "width": (INT, False), "reg": (TABLES, True)},
    "device": {"name": (STR, True), "desc": (STR, True), "width": (INT, True), "reg": (TABLES, True)},
    "reg": {"name": (STR, True), "offset": (INT, True), "desc": (STR, True), "fields": (TABLES, True)},
    "field": {"name": (STR, True), "bits": (STR, True), "access": (STR, True), "reset": (INT, True),
              "desc": (STR, True), "values": (TABLES, False), "signed": (BOOL, False)},
    "value": {"name": (STR, True), "value": (INT, True), "desc": (STR, True)},
}
# Lowercased names become C++ identifiers (namespaces, structs, enumerators): no keyword, and no
# name the generated types already use for a member.
CPP_KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern false
float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or
or_eq private protected public register reinterpret_cast requires return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename
union unsigned using virtual void volatile wchar_t while xor xor_eq""".split())
RESERVED = {
    # in the block's namespace (ctnn::regs::<block>)
    "register": {"base", "registers", "register_count"},
    # members of a register type (mmio::reg and the generated device structs)
    "field": {"fields", "reg_type", "name", "address", "reset", "offset"},
    # members of a field type (mmio::field and the generated device structs)
    "value": {"reg_type", "field_type", "name", "hi", "lo", "width", "rights", "mask", "reset", "fits", "value",
              "in_place", "get", "get_signed", "max_value", "name_of", "field", "is_signed", "value_type", "min_value",
              "bits_of", "from"},
}


def kind_of(v) -> str:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return "a float"
    if isinstance(v, str):
        return STR
    if isinstance(v, dict):
        return TABLE
    if isinstance(v, list):
        return "an array"
    return f"a {type(v).__name__}"   # TOML dates and times


def named(where: str, t) -> str:
    """where, with the table's name when it has one: accel.reg[7] (M)."""
    name = t.get("name") if isinstance(t, dict) else None
    return f"{where} ({name})" if isinstance(name, str) else where


def check_table(t, kind: str, where: str) -> dict:
    """t is a table with the keys of SCHEMA[kind], each of its type; no other key."""
    if not isinstance(t, dict):
        raise DataError(f"{where}: must be {TABLE}, got {kind_of(t)}")
    spec = SCHEMA[kind]
    for k in t:
        if k not in spec:
            raise DataError(f"{where}: unknown key {k!r} (expected {', '.join(spec)})")
    for k, (want, required) in spec.items():
        if k not in t:
            if required:
                raise DataError(f"{where}: missing key {k!r}")
            continue
        v = t[k]
        ok = {INT: isinstance(v, int) and not isinstance(v, bool), STR: isinstance(v, str),
              BOOL: isinstance(v, bool), TABLE: isinstance(v, dict),
              TABLES: isinstance(v, list) and all(isinstance(x, dict) for x in v)}[want]
        if not ok:
            got = kind_of(v)
            if want == TABLES and isinstance(v, list):
                got = f"an array holding {next(kind_of(x) for x in v if not isinstance(x, dict))}"
            raise DataError(f"{where}.{k}: must be {want}, got {got}")
    return t


def check_name(v: str, where: str, upper: bool, reserved: set[str] = frozenset()) -> str:
    case = "an UPPER_CASE" if upper else "a lower_case"
    if not (v.isascii() and v.isidentifier() and (v.isupper() if upper else v.islower())):
        raise DataError(f"{where}: name {v!r} must be {case} identifier")
    if v.lower() in CPP_KEYWORDS or v.lower() in reserved:
        raise DataError(f"{where}: name {v!r} is taken in the generated C++ ({v.lower()!r})")
    return v


def check_desc(v: str, where: str) -> None:
    if "\n" in v or "\r" in v or "*/" in v:
        raise DataError(f"{where}.desc: must be one line without '*/' (it becomes a comment)")


def check_uint(v: int, where: str, limit: int) -> None:
    if not 0 <= v < limit:
        raise DataError(f"{where}: {v} is outside 0 .. 0x{limit - 1:x}")


def check_list(items: list, where: str) -> None:
    if not items:
        raise DataError(f"{where}: must not be empty")


def parse_bits(text: str, where: str) -> tuple[int, int]:
    try:
        hi, lo = (int(x) for x in text.split(":"))
    except ValueError as e:
        raise DataError(f"{where}: bits must be 'hi:lo', got {text!r}") from e
    if not 0 <= lo <= hi < 32:
        raise DataError(f"{where}: bad bit range {text!r}")
    return hi, lo


def read_map(path: pathlib.Path) -> dict:
    """The TOML text of path, parsed; a file that cannot be read or parsed is a DataError."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise DataError(f"cannot read the map: {e.strerror or e}") from e
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError(f"not UTF-8 text (byte {e.start})") from e
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"not valid TOML: {e}") from e


def load(path: pathlib.Path) -> dict:
    return check(read_map(path))


def check(data: dict) -> dict:
    """Checks a parsed map (schema, then the rules of the SoC) and annotates it for the generators."""
    check_table(data, "top", "map file")
    m = check_table(data["map"], "map", "map")
    check_name(m["name"], "map.name", upper=False)
    check_desc(m["desc"], "map")
    regions = m["region"]
    check_list(regions, "map.region")
    names = set()
    for i, r in enumerate(regions):
        check_table(r, "region", named(f"map.region[{i}]", r))
        where = f"map.region {check_name(r['name'], f'map.region[{i}].name', upper=False)}"
        check_desc(r["desc"], where)
        if r["name"] in names:
            raise DataError(f"{where}: duplicate name")
        names.add(r["name"])
        check_uint(r["base"], f"{where}.base", 1 << 32)
        check_uint(r["size"], f"{where}.size", (1 << 32) + 1)
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
    accel = check_table(data["accel"], "accel", "accel")
    check_desc(accel["desc"], "accel")
    accel_region = next((r for r in regions if r["name"] == accel["name"]), None)
    if accel_region is None:
        raise DataError(f"accel: no map region named {accel['name']!r}")
    if accel.get("width", 32) != 32:
        raise DataError("accel.width: the accelerator's registers are 32 bits wide")
    check_regs(accel["reg"], "accel.reg", accel_region, 32)
    devices = data.get("device", [])
    dnames = set()
    for i, dev in enumerate(devices):
        check_table(dev, "device", named(f"device[{i}]", dev))
        where = f"device {check_name(dev['name'], f'device[{i}].name', upper=False)}"
        check_desc(dev["desc"], where)
        region = next((r for r in regions if r["name"] == dev["name"]), None)
        if region is None:
            raise DataError(f"{where}: no map region of that name")
        if dev["name"] in dnames or dev["name"] == accel["name"]:
            raise DataError(f"{where}: described twice")
        if dev["name"] == "soc_map":
            raise DataError(f"{where}: the name of the map's own header (soc_map.hpp)")
        dnames.add(dev["name"])
        if dev["width"] not in (8, 16, 32):
            raise DataError(f"{where}: width must be 8, 16 or 32")
        check_regs(dev["reg"], f"{where}.reg", region, dev["width"])
    data["device"] = devices
    return data


def check_regs(regs: list, where: str, region: dict, width: int) -> None:
    """Registers of one block: names, offsets aligned to the width inside the region, no offset or
    name twice, and their fields."""
    check_list(regs, where)
    nbytes = width // 8
    offsets, rnames = {}, set()
    for i, reg in enumerate(regs):
        check_table(reg, "reg", named(f"{where}[{i}]", reg))
        rw = f"{where} {check_name(reg['name'], f'{where}[{i}].name', upper=True, reserved=RESERVED['register'])}"
        check_desc(reg["desc"], rw)
        if reg["name"] in rnames:
            raise DataError(f"{rw}: duplicate register name")
        rnames.add(reg["name"])
        if reg["offset"] < 0 or reg["offset"] % nbytes or reg["offset"] + nbytes > region["size"]:
            raise DataError(f"{rw}: offset {reg['offset']:#x} unaligned or outside the region")
        if reg["offset"] in offsets:
            raise DataError(f"{rw}: offset shared with {offsets[reg['offset']]}")
        offsets[reg["offset"]] = reg["name"]
        check_fields(reg, rw, width)


def check_fields(reg: dict, where: str, width: int) -> None:
    """Checks the fields of one register (bits inside width, no overlap, access, reset and named
    values that fit) and adds hi, lo, mask, signed, min_value, max_value to each field and reset, used
    to the register."""
    used = 0
    reset = 0
    fnames = set()
    check_list(reg["fields"], f"{where}.fields")
    for i, f in enumerate(reg["fields"]):
        check_table(f, "field", named(f"{where}.fields[{i}]", f))
        fw = f"{where}.{check_name(f['name'], f'{where}.fields[{i}].name', upper=True, reserved=RESERVED['field'])}"
        check_desc(f["desc"], fw)
        if f["name"] in fnames:
            raise DataError(f"{fw}: duplicate field")
        fnames.add(f["name"])
        hi, lo = parse_bits(f["bits"], fw)
        if hi >= width:
            raise DataError(f"{fw}: bits {f['bits']} outside a {width}-bit register")
        f["hi"], f["lo"] = hi, lo
        f["signed"] = f.get("signed", False)
        n = hi - lo + 1
        # the numbers the field holds: [0, 2^n - 1], or [-2^(n-1), 2^(n-1) - 1] when signed
        f["min_value"], f["max_value"] = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if f["signed"] else (0, (1 << n) - 1)
        mask = ((1 << n) - 1) << lo
        if used & mask:
            raise DataError(f"{fw}: overlaps another field")
        used |= mask
        if f["access"] not in ACCESS:
            raise DataError(f"{fw}: access must be one of {ACCESS}")
        if f["reset"] < 0 or f["reset"] >> (hi - lo + 1):
            raise DataError(f"{fw}: reset {f['reset']} does not fit in {hi - lo + 1} bits")
        f["mask"] = mask
        reset |= f["reset"] << lo
        # optional named values of the field (an enumeration: error causes, modes, exit codes)
        vnames, vvals = set(), set()
        for j, v in enumerate(f.get("values", [])):
            check_table(v, "value", named(f"{fw}.values[{j}]", v))
            vw = f"{fw}.{v['name']}"
            check_name(v["name"], vw, upper=True, reserved=RESERVED["value"])
            check_desc(v["desc"], vw)
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
            kind = ", mmio::value_kind::signed_int" if f["signed"] else ""
            out.append(f"  /// {f['name']} [{f['hi']}:{f['lo']}] {f['access']}{', signed' if f['signed'] else ''}, "
                       f"reset {f['reset']:#x}: {f['desc']}\n")
            out.append(f"  struct {f['name'].lower()} : mmio::field<{rn}, {f['name'].lower()}, \"{a['name']}.{reg['name']}.{f['name']}\", "
                       f"{f['hi']}, {f['lo']}, mmio::access::{f['access']}, 0x{f['reset']:x}u{kind}> {{\n"
                       f"    using field::field;   // min_value, max_value: [{f['min_value']}, {f['max_value']}]\n")
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
                       + (f"    static constexpr bool is_signed = true;\n"
                          f"    static constexpr int32_t min_value = {f['min_value']}, max_value = {f['max_value']};\n"
                          if f["signed"] else f"    static constexpr uint32_t max_value = 0x{f['max_value']:x}u;\n") +
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
            out.append(f"| | | `{f['name']}` | {f['hi']}:{f['lo']} | {f['access']}{', signed' if f['signed'] else ''} | "
                       f"`{f['reset']:#x}` | {f['desc']}{values} |\n")
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
                out.append(f"| | | `{f['name']}` | {f['hi']}:{f['lo']} | {f['access']}{', signed' if f['signed'] else ''} | "
                           f"`{f['reset']:#x}` | {f['desc']}{values} |\n")
    out.append("\nAccess: ro read only (writes ignored), wo write only (reads 0), rw read/write, "
               "w1c write 1 to clear; signed: the field holds a two's-complement number.\n")
    return "".join(out)


def outputs(d: dict, root: pathlib.Path = ROOT) -> dict[pathlib.Path, str]:
    out = {
        root / "include/ctnn/regs/soc_map.hpp": gen_map_hpp(d),
        root / "include/ctnn/regs/accel.hpp": gen_accel_hpp(d),
    }
    for dev in d["device"]:
        out[root / f"include/ctnn/regs/{dev['name']}.hpp"] = gen_device_hpp(d, dev)
    out.update({
        root / "fpga/rtl/ctnn_map.vh": gen_map_vh(d),
        root / "fpga/rtl/ctnn_soc_defaults.vh": gen_defaults_vh(d),
        root / "fpga/rtl/ctnn_accel_regs.vh": gen_accel_vh(d),
        root / "fpga/rtl/ctnn_accel_values.vh": gen_values_vh(d),
        root / "firmware/link/ctnn_memory.ld": gen_memory_ld(d),
        root / "firmware/cmake/ctnn_soc_map.cmake": gen_cmake(d),
        root / "fpga/regs/REGISTERS.md": gen_md(d),
    })
    return out


class OutputError(Exception):
    pass


def read_old(path: pathlib.Path) -> str:
    try:
        return path.read_text() if path.exists() else ""
    except (OSError, UnicodeDecodeError) as e:
        raise OutputError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from e


def write_all(files: dict[pathlib.Path, str]) -> None:
    """Writes every file or none: each to a temporary file beside it, then renames them all."""
    temps = []
    try:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.gen_regs.tmp")
            temps.append((tmp, path))
            tmp.write_text(text)
        for tmp, path in temps:
            os.replace(tmp, path)
    except OSError as e:
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write {e.filename or path}: {e.strerror or e}") from e


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail when a generated file is stale")
    ap.add_argument("--source", type=pathlib.Path, default=SOURCE)
    ap.add_argument("--out-dir", type=pathlib.Path, default=ROOT,
                    help="the tree the generated files are written to or compared with (default: this repository)")
    args = ap.parse_args(argv)
    # A malformed map, or an output that cannot be read or written, is one line on stderr and
    # status 2, and no file is written.
    try:
        files = outputs(load(args.source), args.out_dir)
    except DataError as e:
        print(f"gen_regs.py: {args.source}: {' '.join(str(e).splitlines())}", file=sys.stderr)
        return 2
    try:
        changed = {path: text for path, text in files.items() if read_old(path) != text}
        if args.check:
            for path, text in changed.items():
                print(f"stale: {path.relative_to(args.out_dir)} (run fpga/regs/gen_regs.py)")
                sys.stdout.writelines(difflib.unified_diff(read_old(path).splitlines(True), text.splitlines(True),
                                                           "committed", "regenerated", n=1))
            return 1 if changed else 0
        write_all(changed)
    except OutputError as e:
        print(f"gen_regs.py: {e}", file=sys.stderr)
        return 2
    for path in changed:
        print(f"wrote {path.relative_to(args.out_dir)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
