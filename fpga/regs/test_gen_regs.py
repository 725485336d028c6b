#!/usr/bin/env python3
"""Self-test of gen_regs.py: the real map loads, each kind of bad map is rejected, and every
malformed map generated below (a key missing, of the wrong type, out of range, a bad name,
duplicates and overlaps, the file cut short, not TOML, not UTF-8, not a file) ends in one line on
stderr, status 2, no traceback and no file written."""
import contextlib
import copy
import io
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_addresses  # noqa: E402
import gen_regs  # noqa: E402

GOOD_MAP = """
[map]
name = "soc"
desc = "t"
[[map.region]]
name = "ram"
base = 0x8000_0000
size = 0x1000
desc = "r"
[[map.region]]
name = "accel"
base = 0x1002_0000
size = 0x1000
desc = "a"
[[map.region]]
name = "exit"
base = 0x0010_0000
size = 0x1000
desc = "e"
[[device]]
name = "exit"
desc = "e"
width = 32
[[device.reg]]
name = "FIN"
offset = 0
desc = "f"
fields = [ { name = "ST", bits = "15:0", access = "wo", reset = 0, desc = "s", values = [ { name = "PASS", value = 0x5555, desc = "p" } ] },
           { name = "CODE", bits = "31:16", access = "wo", reset = 0, desc = "c" } ]
[accel]
name = "accel"
desc = "t"
width = 32
[[accel.reg]]
name = "R"
offset = 0x4
desc = "r"
fields = [ { name = "A", bits = "3:0", access = "rw", reset = 5, desc = "a" },
           { name = "B", bits = "7:4", access = "w1c", reset = 0, desc = "b" } ]
"""


def load_text(text: str) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(text)
    try:
        return gen_regs.load(pathlib.Path(f.name))
    finally:
        pathlib.Path(f.name).unlink()


class GenRegs(unittest.TestCase):
    def test_real_map_loads_and_is_current(self):
        data = gen_regs.load(gen_regs.SOURCE)
        for path, text in gen_regs.outputs(data).items():
            self.assertIn("generated \u2014 do not edit", text.splitlines()[0], path)

    def test_good_map(self):
        d = load_text(GOOD_MAP)
        reg = d["accel"]["reg"][0]
        self.assertEqual(reg["reset"], 5)
        self.assertEqual(reg["fields"][1]["mask"], 0xF0)

    def reject(self, old: str, new: str, message: str):
        bad = GOOD_MAP.replace(old, new, 1)
        self.assertNotEqual(bad, GOOD_MAP)
        with self.assertRaisesRegex(gen_regs.DataError, message):
            load_text(bad)

    def test_overlapping_regions(self):
        self.reject("base = 0x1002_0000", "base = 0x8000_0000", "overlap")

    def test_unaligned_region(self):
        self.reject("base = 0x1002_0000", "base = 0x1002_0800", "not a multiple of its size")

    def test_size_not_pow2(self):
        self.reject("size = 0x1000\ndesc = \"a\"", "size = 0x1800\ndesc = \"a\"", "power of two")

    def test_overlapping_fields(self):
        self.reject('bits = "7:4"', 'bits = "7:3"', "overlaps another field")

    def test_bad_access(self):
        self.reject('access = "w1c"', 'access = "rc"', "access must be")

    def test_reset_too_wide(self):
        self.reject("reset = 5", "reset = 17", "does not fit")

    def test_unaligned_offset(self):
        self.reject("offset = 0x4", "offset = 0x6", "unaligned")

    def test_every_output_is_generated_and_checked(self):
        # the staleness test (gen_regs.py --check) compares exactly these files
        names = {p.relative_to(gen_regs.ROOT).as_posix() for p in gen_regs.outputs(gen_regs.load(gen_regs.SOURCE))}
        for expected in ("include/ctnn/regs/accel.hpp", "include/ctnn/regs/uart.hpp", "include/ctnn/regs/exit.hpp",
                         "fpga/rtl/ctnn_soc_defaults.vh", "firmware/link/ctnn_memory.ld",
                         "firmware/cmake/ctnn_soc_map.cmake"):
            self.assertIn(expected, names)

    def test_generated_constants(self):
        d = load_text(GOOD_MAP)
        self.assertIn('mmio::field<r, a, "accel.R.A", 3, 0, mmio::access::rw, 0x5u> {', gen_regs.gen_accel_hpp(d))
        self.assertIn("// min_value, max_value: [0, 15]", gen_regs.gen_accel_hpp(d))
        self.assertIn("mmio::info_of<r>()", gen_regs.gen_accel_hpp(d))
        self.assertIn("register_count = 1;", gen_regs.gen_accel_hpp(d))
        vh = gen_regs.gen_defaults_vh(d)
        self.assertIn("`define CTNN_SOC_RAM_BASE 32'h8000_0000", vh)
        self.assertIn("`define CTNN_SOC_EXIT_FIN_ST_PASS 16'h5555", vh)
        self.assertIn("`define CTNN_SOC_EXIT_FIN_CODE_LSB 16", vh)
        self.assertIn("ORIGIN = 0x80000000, LENGTH = 0x00001000", gen_regs.gen_memory_ld(d))
        self.assertIn("set(CTNN_RAM_BASE 0x80000000)", gen_regs.gen_cmake(d))
        exit_hpp = gen_regs.gen_device_hpp(d, d["device"][0])
        self.assertIn("pass = 0x5555,", exit_hpp)
        self.assertIn("static constexpr uint32_t max_value = 0xffffu;", exit_hpp)

    def test_signed_fields(self):
        d = load_text(GOOD_MAP.replace('access = "rw", reset = 5', 'access = "rw", signed = true, reset = 5', 1))
        f = d["accel"]["reg"][0]["fields"][0]
        self.assertEqual((f["signed"], f["min_value"], f["max_value"]), (True, -8, 7))
        hpp = gen_regs.gen_accel_hpp(d)
        self.assertIn('"accel.R.A", 3, 0, mmio::access::rw, 0x5u, mmio::value_kind::signed_int> {', hpp)
        self.assertIn("// min_value, max_value: [-8, 7]", hpp)
        self.assertIn("| 3:0 | rw, signed |", gen_regs.gen_md(d))
        self.assertFalse(d["accel"]["reg"][0]["fields"][1]["signed"])
        exit_signed = load_text(GOOD_MAP.replace('access = "wo", reset = 0, desc = "c"',
                                                 'access = "wo", signed = true, reset = 0, desc = "c"', 1))
        self.assertIn("static constexpr int32_t min_value = -32768, max_value = 32767;",
                      gen_regs.gen_device_hpp(exit_signed, exit_signed["device"][0]))
        with self.assertRaisesRegex(gen_regs.DataError, r"signed: must be a boolean, got an integer"):
            load_text(GOOD_MAP.replace('access = "rw", reset = 5', 'access = "rw", signed = 1, reset = 5', 1))

    def test_device_errors(self):
        self.reject('name = "exit"\ndesc = "e"\nwidth = 32', 'name = "exot"\ndesc = "e"\nwidth = 32', "no map region")
        self.reject("width = 32\n[[device.reg]]", "width = 12\n[[device.reg]]", "width must be")
        self.reject('bits = "31:16"', 'bits = "32:16"', "bad bit range")
        self.reject('name = "FIN"\noffset = 0', 'name = "FIN"\noffset = 2', "unaligned")
        self.reject('name = "FIN"\noffset = 0', 'name = "FIN"\noffset = 0x1000', "outside the region")
        narrow = GOOD_MAP.replace("width = 32\n[[device.reg]]", "width = 16\n[[device.reg]]", 1)
        with self.assertRaisesRegex(gen_regs.DataError, "outside a 16-bit register"):
            load_text(narrow)

    def test_ram_required(self):
        self.reject('name = "ram"', 'name = "rom"', "no region named ram")

    def test_malformed_map_one_line_error(self):
        for bad in (GOOD_MAP.replace('offset = 0x4\n', '', 1),   # a register without offset
                    GOOD_MAP.replace('[accel]', '[accel', 1)):       # not TOML
            with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
                f.write(bad)
            try:
                r = subprocess.run([sys.executable, str(pathlib.Path(gen_regs.__file__)), "--check", "--source", f.name],
                                   capture_output=True, text=True)
            finally:
                pathlib.Path(f.name).unlink()
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertTrue(r.stderr.startswith("gen_regs.py: "), r.stderr)

    def test_hand_typed_addresses_are_found(self):
        by_value = check_addresses.bases(gen_regs.load(gen_regs.SOURCE))
        ram, uart = (r["base"] for name in ("ram", "uart") for r in gen_regs.load(gen_regs.SOURCE)["map"]["region"]
                     if r["name"] == name)
        typed = {
            "a.cpp": f"auto* p = (volatile char*)0x{uart:x}u;",
            "b.v": f"  parameter [31:0] Base = 32'h{ram >> 16:04x}_{ram & 0xffff:04x},",
            "c.ld": f"  RAM (rwx) : ORIGIN = 0x{ram:08X}, LENGTH = 1M",
            "d.cmake": f"--change-addresses=-0x{ram >> 16:x}_{ram & 0xffff:04x}",
        }
        for name, text in typed.items():
            self.assertEqual(len(check_addresses.scan_text(name, text, by_value)), 1, name)
        # other values, longer literals and the allowed value uses are not addresses
        for name, text in {"e.v": "$fdisplay(32'h8000_0002, x);", "f.cpp": f"x = 0x{ram:x}1;",
                           "firmware/tests/isa_rv32m.S": f"    TEST_RR mul, 0x{ram:08x}, 0xffffffff, 0x{ram:08x}",
                           "g.cpp": "y = 0x0;"}.items():
            self.assertEqual(check_addresses.scan_text(name, text, by_value), [], name)
        # the same value where an ISA test would use it as an address is found
        self.assertEqual(len(check_addresses.scan_text("firmware/tests/isa_rv32m.S", f"    la t0, 0x{ram:08x}",
                                                       by_value)), 1)

    def test_values(self):
        with_values = GOOD_MAP.replace('desc = "a" },', 'desc = "a", values = [ { name = "OFF", value = 0, desc = "o" }, '
                                       '{ name = "ON", value = 15, desc = "x" } ] },', 1)
        d = load_text(with_values)
        self.assertEqual([v["name"] for v in d["accel"]["reg"][0]["fields"][0]["values"]], ["OFF", "ON"])
        self.assertIn("CTNN_ACCEL_R_A_ON = 4'd15", gen_regs.gen_values_vh(d))
        self.assertIn("on = 15,", gen_regs.gen_accel_hpp(d))
        for old, new, message in [('value = 15', 'value = 16', "does not fit"),
                                  ('value = 15', 'value = 0', "duplicate"),
                                  ('name = "ON"', 'name = "OFF"', "duplicate"),
                                  ('name = "ON"', 'name = "on"', "UPPER_CASE")]:
            bad = with_values.replace(old, new, 1)
            with self.assertRaisesRegex(gen_regs.DataError, message):
                load_text(bad)


# ---- malformed maps, generated -------------------------------------------------------------
def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)                      # a TOML basic string (same escapes)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def toml_dumps(d: dict) -> str:
    """A parsed map written back as TOML (one inline value per top-level key)."""
    return "".join(f"{k} = {toml_value(v)}\n" for k, v in d.items())


# wrong types for each declared type, and values of the right type that no map may hold
WRONG_TYPE = {gen_regs.INT: ["12", 1.5, True, [1], {"a": 1}],
              gen_regs.STR: [12, 1.5, False, ["x"], {"a": "x"}],
              gen_regs.BOOL: [1, "true", [True]],
              gen_regs.TABLES: [12, "x", {"a": 1}, [1, 2], [{"a": 1}, "x"]],
              gen_regs.TABLE: [12, "x", [{"a": 1}]]}
BAD_VALUE = {"name": ["", "has space", "1st", "\u00fcber", "Mixed", "int", "INT", "a-b"],
             "desc": ["two\nlines", "closes */ a comment"],
             "bits": ["", "3", "3:1:0", "0:3", "32:0", "a:b", "-1:0", "3:-1"],
             "access": ["", "RW", "rc", "w1s"],
             "base": [-1, 1 << 32, 1 << 64], "size": [-1, 0, 3, 1 << 33], "offset": [-4, -1, 1 << 32],
             "reset": [-1, 1 << 32], "value": [-1, 1 << 32], "width": [-8, 0, 12, 64]}
CHILD = {("top", "map"): "map", ("top", "accel"): "accel", ("top", "device"): "device",
         ("map", "region"): "region", ("accel", "reg"): "reg", ("device", "reg"): "reg",
         ("reg", "fields"): "field", ("field", "values"): "value"}


def tables(node: dict, kind: str, path: tuple, limit: int | None):
    """(path, kind) of every table of a parsed map; at most `limit` entries of each array."""
    yield path, kind
    for key in gen_regs.SCHEMA[kind]:
        child = CHILD.get((kind, key))
        if child is None or key not in node:
            continue
        if isinstance(node[key], list):
            for i, item in enumerate(node[key][:limit]):
                yield from tables(item, child, path + (key, i), limit)
        else:
            yield from tables(node[key], child, path + (key,), limit)


def at(d, path):
    for p in path:
        d = d[p]
    return d


def mutations(base: dict, limit: int | None):
    """(description, map, must_fail) for every malformed variant of a parsed, valid map."""
    for path, kind in tables(base, "top", (), limit):
        where = ".".join(map(str, path)) or "top"
        for key, (typ, required) in gen_regs.SCHEMA[kind].items():
            node = at(base, path)
            if key not in node:
                continue
            d = copy.deepcopy(base)
            del at(d, path)[key]
            yield f"{where}: without {key}", d, required
            for bad in WRONG_TYPE[typ] + BAD_VALUE.get(key, []):
                d = copy.deepcopy(base)
                at(d, path)[key] = bad
                yield f"{where}.{key} = {bad!r}", d, True
            if typ == gen_regs.TABLES:
                d = copy.deepcopy(base)
                at(d, path)[key] = []
                yield f"{where}.{key} = []", d, required
        d = copy.deepcopy(base)
        at(d, path)["unknown_key"] = 1
        yield f"{where}: an unknown key", d, True
        if path and isinstance(path[-1], int):          # an array entry: twice
            d = copy.deepcopy(base)
            at(d, path[:-1]).append(copy.deepcopy(at(d, path)))
            yield f"{where} twice", d, True
    # overlaps: a region on top of another, a field on another's bits, a register on another's offset
    regions = base["map"]["region"]
    for i, a in enumerate(regions):
        for j, b in enumerate(regions):
            if i != j:
                d = copy.deepcopy(base)
                d["map"]["region"][j].update(base=a["base"], size=a["size"])
                yield f"region {b['name']} over {a['name']}", d, True
    blocks = [("accel", base["accel"])] + [(f"device {x['name']}", x) for x in base.get("device", [])]
    for name, block in blocks:
        for r, reg in enumerate(block["reg"][:limit]):
            if len(reg["fields"]) > 1:
                d = copy.deepcopy(at(base, ()))
                tgt = d["accel"] if name == "accel" else next(x for x in d["device"] if f"device {x['name']}" == name)
                tgt["reg"][r]["fields"][1]["bits"] = reg["fields"][0]["bits"]
                yield f"{name}.{reg['name']}: two fields on the same bits", d, True
            if r > 0:
                d = copy.deepcopy(base)
                tgt = d["accel"] if name == "accel" else next(x for x in d["device"] if f"device {x['name']}" == name)
                tgt["reg"][r]["offset"] = block["reg"][0]["offset"]
                yield f"{name}.{reg['name']}: the offset of {block['reg'][0]['name']}", d, True


def run_generator(source: pathlib.Path, out_dir: pathlib.Path) -> tuple[int, str, str]:
    """gen_regs.main in this process: status, stdout, stderr (an exception propagates)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = gen_regs.main(["--source", str(source), "--out-dir", str(out_dir)])
    return rc, out.getvalue(), err.getvalue()


class MalformedMaps(unittest.TestCase):
    """Every malformed map ends in one line on stderr, status 2, no traceback, no output file."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)
        self.out = self.dir / "out"
        self.out.mkdir()
        self.count = 0

    def tearDown(self):
        self.tmp.cleanup()

    def expect(self, what: str, source: pathlib.Path, must_fail: bool | None):
        """must_fail None: either outcome, but an error is one line (a map cut at a table boundary is valid)."""
        self.count += 1
        try:
            rc, out, err = run_generator(source, self.out)
        except Exception as e:  # noqa: BLE001 - the point: nothing may escape as a traceback
            self.fail(f"{what}: {type(e).__name__} escaped: {e}")
        written = [p for p in self.out.rglob("*") if p.is_file()]
        if rc == 0 and must_fail is not True:
            self.assertEqual(err, "", what)
            self.assertGreaterEqual(len(written), 9, what)   # every output (one per device more), into the scratch tree
            for p in written:
                p.unlink()
            return
        self.assertNotEqual(must_fail, False, f"{what}: rejected: {err}")
        self.assertEqual(rc, 2, f"{what}: {err}")
        self.assertEqual(out, "", what)
        self.assertEqual(len(err.splitlines()), 1, f"{what}: {err}")
        self.assertTrue(err.startswith(f"gen_regs.py: {source}: ") and err.endswith("\n"), f"{what}: {err}")
        self.assertEqual(written, [], f"{what}: partial output")

    def mutate(self, base: dict, limit: int | None):
        src = self.dir / "map.toml"
        for what, d, must_fail in mutations(base, limit):
            src.write_text(toml_dumps(d))
            self.expect(what, src, must_fail)

    def test_mutations_of_a_small_map(self):
        base = tomllib_loads(GOOD_MAP)
        self.mutate(base, None)
        self.assertGreater(self.count, 300)

    def test_mutations_of_the_real_map(self):
        # every region, device, register of the devices, and the first 4 accelerator registers plus
        # ERR_CAUSE (named values) and ZP (signed fields)
        base = tomllib_loads(gen_regs.SOURCE.read_text())
        regs = base["accel"]["reg"]
        base["accel"]["reg"] = regs[:4] + [r for r in regs[4:] if r["name"] in ("ERR_CAUSE", "ZP")]
        self.assertEqual(len(base["accel"]["reg"]), 6)
        self.mutate(base, None)
        self.assertGreater(self.count, 1000)

    def test_text_cut_short_and_not_toml(self):
        text = gen_regs.SOURCE.read_text()
        src = self.dir / "map.toml"
        for n in range(0, len(text), max(1, len(text) // 97)):
            src.write_text(text[:n])
            self.expect(f"the map cut after {n} characters", src, None)
        for what, bad in [("empty", ""), ("an unclosed table header", "[map\n"), ("a key twice", text + "\n[map]\n"),
                          ("a value without key", "= 3\n" + text), ("a date", text.replace("base = 0x0010_0000",
                                                                                        "base = 1979-05-27", 1)),
                          ("an unterminated string", text.replace('name = "soc"', 'name = "soc', 1))]:
            src.write_text(bad)
            self.expect(what, src, True)
        src.write_bytes(text.encode().replace(b"System RAM", b"System \xff RAM", 1))
        self.expect("not UTF-8", src, True)
        self.expect("a directory", self.dir, True)
        self.expect("no such file", self.dir / "missing.toml", True)

    def test_cli_prints_no_traceback(self):
        # the same through the interpreter, as CMake and a user run it: a sample of the cases above
        cases = list(mutations(tomllib_loads(GOOD_MAP), None))[::40]
        src = self.dir / "map.toml"
        for what, d, _ in cases:
            src.write_text(toml_dumps(d))
            r = subprocess.run([sys.executable, str(pathlib.Path(gen_regs.__file__)), "--source", str(src),
                                "--out-dir", str(self.out)], capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, f"{what}: {r.stderr}")
            self.assertEqual(len(r.stderr.splitlines()), 1, f"{what}: {r.stderr}")
            self.assertNotIn("Traceback", r.stderr, what)
            self.assertEqual([p for p in self.out.rglob("*") if p.is_file()], [], what)

    def test_a_good_map_is_written_whole(self):
        src = self.dir / "map.toml"
        src.write_text(toml_dumps(tomllib_loads(GOOD_MAP)))    # the serializer writes valid maps
        rc, out, err = run_generator(src, self.out)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(len([p for p in self.out.rglob("*") if p.is_file()]), 10)   # one device

    def test_an_unwritable_output_is_one_line_and_writes_nothing(self):
        blocker = self.out / "fpga"
        blocker.write_text("a file where a directory must go")
        rc, out, err = run_generator(gen_regs.SOURCE, self.out)
        self.assertEqual(rc, 2, err)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertTrue(err.startswith("gen_regs.py: cannot write "), err)
        self.assertEqual([p for p in self.out.rglob("*") if p.is_file()], [blocker])   # no file, no temporary


def tomllib_loads(text: str) -> dict:
    import tomllib
    return tomllib.loads(text)


if __name__ == "__main__":
    unittest.main()
