"""Compares a ctnn output with PyTorch's: max |error| relative to max |PyTorch| and top-1 per sample.

Usage: compare_npy.py CTNN.npy TORCH.npy [--tolerance T]; exit 1 when the error exceeds T or a
sample's top-1 class differs.
"""
import argparse
import sys

import numpy as np


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("ctnn")
    p.add_argument("torch")
    p.add_argument("--tolerance", type=float, default=1e-4)
    a = p.parse_args()
    x, y = np.load(a.ctnn), np.load(a.torch)
    if x.shape != y.shape:
        print(f"shape {x.shape} != PyTorch's {y.shape}")
        return 1
    err = float(np.abs(x - y).max())
    scale = float(np.abs(y).max())
    rel = err / scale if scale > 0 else err
    n = x.shape[0]
    top1 = int((x.reshape(n, -1).argmax(1) == y.reshape(n, -1).argmax(1)).sum())
    print(f"max |error| {err:.3g}, max |PyTorch| {scale:.3g}, relative {rel:.3g} (tolerance {a.tolerance}), "
          f"top-1 agrees on {top1}/{n}")
    return 0 if rel <= a.tolerance and top1 == n else 1


if __name__ == "__main__":
    sys.exit(main())
