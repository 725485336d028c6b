"""Checks examples/onnx/npy_io.py against numpy's own .npy format (the oracle).

    /usr/bin/python3 tests/onnx/check_npy_io.py

For several shapes (0-d, 1-d, [N, F], [N, C, H, W], an empty one, a long shape): the tiny writer
must give the bytes numpy.save gives; the tiny reader must read numpy.save's files and numpy.load
must read the tiny writer's; and files outside the contract (float64, big-endian, Fortran order,
version 2.0, truncated data, not .npy) must be refused. Prints 'N passed, N failed'; exit 1 on a
failure.
"""

import argparse
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "onnx"))
import npy_io  # noqa: E402

SHAPES = [(), (7,), (1, 1000), (2, 10), (1, 3, 5, 4), (2, 16, 7, 7), (0, 3), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)]


def numpy_bytes(array, version=None):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, array)
    else:
        np.lib.format.write_array(buf, array, version=version)
    return buf.getvalue()


def sample(shape, seed):
    return np.asarray(np.random.RandomState(seed).randn(*shape), dtype=np.float32)


def same_array(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def round_trip_cases():
    """(name, passed) for the write and read directions on every shape."""
    for i, shape in enumerate(SHAPES):
        a = sample(shape, i)
        mine = npy_io.encode(a)
        yield f"write {shape} == numpy.save", mine == numpy_bytes(a)
        yield f"numpy.load(write {shape})", same_array(np.load(io.BytesIO(mine)), a)
        yield f"read(numpy.save {shape})", same_array(npy_io.decode(numpy_bytes(a)), a)


def refused(blob):
    try:
        npy_io.decode(blob)
    except npy_io.NpyError:
        return True
    return False


def refusal_cases():
    """(name, passed): files outside the contract must raise NpyError."""
    a = sample((2, 3), 0)
    yield "refuses float64", refused(numpy_bytes(a.astype(np.float64)))
    yield "refuses big-endian", refused(numpy_bytes(a.astype(">f4")))
    yield "refuses Fortran order", refused(numpy_bytes(np.asfortranarray(sample((3, 4), 1))))
    yield "refuses version 2.0", refused(numpy_bytes(a, version=(2, 0)))
    yield "refuses truncated data", refused(numpy_bytes(a)[:-1])
    yield "refuses trailing data", refused(numpy_bytes(a) + b"\0")
    yield "refuses a non-npy file", refused(b"PK\x03\x04 not numpy")
    yield "writes Fortran input in C order", \
        npy_io.encode(np.asfortranarray(sample((3, 4), 1))) == numpy_bytes(sample((3, 4), 1))


def main():
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    results = list(round_trip_cases()) + list(refusal_cases())
    for name, ok in results:
        if not ok:
            print(f"FAIL {name}")
    failed = sum(1 for _, ok in results if not ok)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
