"""Writes the inputs the C++ side needs, from Debian's dataset-fashion-mnist (never downloaded),
normalized exactly as the models expect (fmnist.py: pixel / 255; lenet5 32x32 zero-padded,
dscnn 28x28):

    OUT/lenet5.test.npy          float32 [10000, 1, 32, 32]   the whole test set, file order
    OUT/dscnn.test.npy           float32 [10000, 1, 28, 28]
    OUT/resnet8.test.npy         float32 [10000, 3, 32, 32]   the padded image in each channel
    OUT/test.labels.npy          int64   [10000]
    OUT/lenet5.calibration.npy   float32 [1000, 1, 32, 32]    first 100 training images of each
    OUT/dscnn.calibration.npy    float32 [1000, 1, 28, 28]    class, in the training file's order
    OUT/resnet8.calibration.npy  float32 [1000, 3, 32, 32]
    OUT/calibration.labels.npy   int64   [1000]
    OUT/calibration.indices.npy  int64   [1000]               their indices in the training file

    /usr/bin/python3 examples/fashion_mnist/data.py --out build/fashion_mnist/data

The files are regenerated from the package, never committed (about 210 MB).
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmnist  # noqa: E402


def paths(out, models=fmnist.MODELS):
    """The file names data.write produces in `out` for `models`, by role."""
    files = {"test.labels": "test.labels.npy", "calibration.labels": "calibration.labels.npy",
             "calibration.indices": "calibration.indices.npy"}
    for model in models:
        files[f"{model}.test"] = f"{model}.test.npy"
        files[f"{model}.calibration"] = f"{model}.calibration.npy"
    return {k: os.path.join(out, v) for k, v in files.items()}


def _save(path, array):
    """np.save through a temporary name, so that a reader never sees half a file."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        np.save(f, array)
    os.replace(tmp, path)


def write(out, data_dir=None, models=fmnist.MODELS):
    """Writes every file of `paths(out, models)`; returns that dict."""
    os.makedirs(out, exist_ok=True)
    files = paths(out, models)
    train_images, train_labels = fmnist.load_split("train", data_dir)
    test_images, test_labels = fmnist.load_split("test", data_dir)
    chosen = fmnist.calibration_indices(train_labels)
    _save(files["test.labels"], test_labels.astype(np.int64))
    _save(files["calibration.labels"], train_labels[chosen].astype(np.int64))
    _save(files["calibration.indices"], chosen.astype(np.int64))
    for model in models:
        _save(files[f"{model}.test"], fmnist.model_input(test_images, model))
        _save(files[f"{model}.calibration"], fmnist.model_input(train_images[chosen], model))
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--data-dir", default=None, help="the four idx files (default: Debian's package)")
    args = ap.parse_args()
    for path in write(args.out, args.data_dir).values():
        print(f"{path}: {np.load(path, mmap_mode='r').shape}")


if __name__ == "__main__":
    main()
