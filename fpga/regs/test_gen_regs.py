#!/usr/bin/env python3
"""Self-test of gen_regs.py: the real map loads, and each kind of bad map is rejected."""
import pathlib
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
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
