#!/usr/bin/env python3
"""Self-test of gen_regs.py: the real map loads, and each kind of bad map is rejected."""
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
        self.assertIn("static constexpr uint32_t max_value = 0xfu;", gen_regs.gen_accel_hpp(d))
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


if __name__ == "__main__":
    unittest.main()
