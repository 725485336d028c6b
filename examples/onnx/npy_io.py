"""A tiny .npy reader and writer for exactly the runner's dump contract.

The contract: format version 1.0, dtype '<f4' (little-endian float32), C order. The writer gives
the bytes numpy.save gives for such an array (magic, version, a little-endian uint16 header
length, the header dict padded with spaces to a multiple of 64 bytes and ended by a newline, then
the raw data); the reader accepts only that and says what is wrong otherwise. This is the layout
the C++ runner writes; tests/onnx/check_npy_io.py checks both directions against numpy's own.
"""

import ast
import struct

import numpy as np

MAGIC = b"\x93NUMPY"
ALIGN = 64


class NpyError(ValueError):
    """A file that is not a version-1.0, '<f4', C-order .npy."""


def header_text(shape):
    """The header dict as numpy writes it, e.g. "{'descr': '<f4', ..., 'shape': (1, 3), }"."""
    dims = ", ".join(str(int(d)) for d in shape)
    shape_text = f"({dims},)" if len(shape) == 1 else f"({dims})"
    return f"{{'descr': '<f4', 'fortran_order': False, 'shape': {shape_text}, }}"


def encode(array):
    """The .npy bytes of a float32 array (converted to C order little-endian float32)."""
    data = np.asarray(array, dtype="<f4", order="C")  # not ascontiguousarray: it makes 0-d 1-d
    text = header_text(data.shape)
    used = len(MAGIC) + 2 + 2 + len(text) + 1
    text += " " * (-used % ALIGN) + "\n"
    return MAGIC + bytes([1, 0]) + struct.pack("<H", len(text)) + text.encode("latin1") + data.tobytes()


def decode(blob):
    """The float32 array in .npy bytes; NpyError unless version 1.0, '<f4', C order."""
    if blob[:6] != MAGIC:
        raise NpyError("not a .npy file (bad magic)")
    if blob[6:8] != bytes([1, 0]):
        raise NpyError(f"format version {blob[6]}.{blob[7]}, want 1.0")
    (length,) = struct.unpack("<H", blob[8:10])
    text = blob[10:10 + length].decode("latin1")
    if len(text) != length or not text.endswith("\n"):
        raise NpyError("truncated header")
    try:
        header = ast.literal_eval(text.strip())
    except (SyntaxError, ValueError) as err:
        raise NpyError(f"unreadable header {text!r}") from err
    if not isinstance(header, dict) or set(header) != {"descr", "fortran_order", "shape"}:
        raise NpyError(f"header keys {header!r}")
    if header["descr"] != "<f4":
        raise NpyError(f"dtype {header['descr']!r}, want '<f4'")
    if header["fortran_order"] is not False:
        raise NpyError("Fortran order, want C order")
    shape = tuple(header["shape"])
    count = int(np.prod(shape, dtype=np.int64))
    data = blob[10 + length:]
    if len(data) != 4 * count:
        raise NpyError(f"{len(data)} data bytes for shape {shape}, want {4 * count}")
    return np.frombuffer(data, dtype="<f4").reshape(shape).copy()


def save(path, array):
    with open(path, "wb") as f:
        f.write(encode(array))


def load(path):
    with open(path, "rb") as f:
        return decode(f.read())
