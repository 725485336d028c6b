"""Bad input for ctnn-import --dtype int8 (tests/onnx/CMakeLists.txt, onnx.int8.refuse.*): small
ONNX models and calibration files, each with one fault, built with onnx.helper and numpy.

    /usr/bin/python3 tests/onnx/int8_bad_inputs.py --out DIR

Models (input "x" [1, 3, 8, 8] unless said):
  model.onnx      Conv 3->4 3x3 + Relu + GlobalAveragePool + Flatten + Gemm 4->10: imports in int8
                  with good.npy (the control);
  dead.onnx       the same with the convolution's weights 0 and its bias -1: after the ReLU every
                  value is 0, a tensor whose calibrated range is zero;
  layernorm.onnx  input [1, 4, 8, 8], Transpose [0, 2, 3, 1] + LayerNormalization + Transpose back
                  (ctnn's layer_norm2d) + GlobalAveragePool + Flatten + Gemm: an op with no int8 form.
Calibration files: good.npy float32 [8, 3, 8, 8]; good4.npy [8, 4, 8, 8]; wrong_shape.npy
[8, 3, 16, 16]; flat.npy [8, 192]; wrong_dtype.npy float64; empty.npy [0, 3, 8, 8]; nan.npy (NaN at
sample 2, element 5); inf.npy (+inf at sample 1, element 7); not_npy.npy (text).
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(path, nodes, inits, x_shape, opset=13):
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(graph, producer_name="ctnn-tests-int8-bad-inputs",
                          opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(m)
    onnx.save(m, path)


def cnn(path, w, b, rng):
    inits = {"W": w, "B": b, "fc.W": rng.randn(10, 4).astype(np.float32), "fc.B": rng.randn(10).astype(np.float32)}
    nodes = [
        helper.make_node("Conv", ["x", "W", "B"], ["c"], name="conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("GlobalAveragePool", ["r"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc.W", "fc.B"], ["y"], name="fc", transB=1),
    ]
    save(path, nodes, inits, [1, 3, 8, 8])


def layernorm(path, rng):
    inits = {"gamma": rng.uniform(0.5, 1.5, 4).astype(np.float32), "beta": rng.randn(4).astype(np.float32),
             "fc.W": rng.randn(10, 4).astype(np.float32), "fc.B": rng.randn(10).astype(np.float32)}
    nodes = [
        helper.make_node("Transpose", ["x"], ["t"], name="to_nhwc", perm=[0, 2, 3, 1]),
        helper.make_node("LayerNormalization", ["t", "gamma", "beta"], ["n"], name="ln", axis=-1, epsilon=1e-5),
        helper.make_node("Transpose", ["n"], ["u"], name="to_nchw", perm=[0, 3, 1, 2]),
        helper.make_node("GlobalAveragePool", ["u"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc.W", "fc.B"], ["y"], name="fc", transB=1),
    ]
    save(path, nodes, inits, [1, 4, 8, 8], opset=17)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    ap.add_argument("--out", required=True)
    out = ap.parse_args().out
    os.makedirs(out, exist_ok=True)
    rng = np.random.RandomState(13)
    cnn(os.path.join(out, "model.onnx"), rng.randn(4, 3, 3, 3).astype(np.float32), rng.randn(4).astype(np.float32), rng)
    cnn(os.path.join(out, "dead.onnx"), np.zeros((4, 3, 3, 3), np.float32), np.full(4, -1.0, np.float32), rng)
    layernorm(os.path.join(out, "layernorm.onnx"), rng)
    good = rng.randn(8, 3, 8, 8).astype(np.float32)
    files = {
        "good": good,
        "good4": rng.randn(8, 4, 8, 8).astype(np.float32),
        "wrong_shape": rng.randn(8, 3, 16, 16).astype(np.float32),
        "flat": good.reshape(8, 192),
        "wrong_dtype": good.astype(np.float64),
        "empty": np.zeros((0, 3, 8, 8), np.float32),
    }
    nan = good.copy()
    nan.reshape(8, -1)[2, 5] = np.nan
    inf = good.copy()
    inf.reshape(8, -1)[1, 7] = np.inf
    files["nan"] = nan
    files["inf"] = inf
    for name, a in files.items():
        np.save(os.path.join(out, f"{name}.npy"), a)
    with open(os.path.join(out, "not_npy.npy"), "w") as f:
        f.write("0.5, 0.25\n")
    print(f"{out}: model.onnx, dead.onnx, layernorm.onnx and {len(files) + 1} calibration files")


if __name__ == "__main__":
    main()
