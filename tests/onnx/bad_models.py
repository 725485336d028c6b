"""Crafted ONNX files, each with one fault, for ctnn-import's refusal tests (tests/onnx/CMakeLists.txt).

Every file but the non-ONNX ones is a small valid graph (Conv, Relu, GlobalAveragePool, Flatten,
Gemm; input "x" [1, 3, 8, 8]) with one thing changed, built with onnx.helper; valid.onnx is the
unchanged graph, which must import (it proves the refusals come from the faults).

    /usr/bin/python3 tests/onnx/bad_models.py --out DIR      # DIR/<case>.onnx for every case
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.RandomState(12)


def weights():
    """Initializers of the valid graph."""
    return {
        "W": RNG.randn(4, 3, 3, 3).astype(np.float32),
        "B": RNG.randn(4).astype(np.float32),
        "fc.W": RNG.randn(10, 4).astype(np.float32),
        "fc.B": RNG.randn(10).astype(np.float32),
    }


def nodes():
    """The valid graph's nodes, in order."""
    return [
        helper.make_node("Conv", ["x", "W", "B"], ["c"], name="conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("GlobalAveragePool", ["r"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc.W", "fc.B"], ["y"], name="fc", transB=1),
    ]


def model(graph_nodes, inits=None, in_dims=(1, 3, 8, 8), out_dims=(1, 10)):
    """A model of opset 13 around the nodes; initializers from `inits` (name -> TensorProto)."""
    if inits is None:
        inits = {k: numpy_helper.from_array(v, k) for k, v in weights().items()}
    graph = helper.make_graph(
        graph_nodes, "bad",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(in_dims))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(out_dims))],
        initializer=list(inits.values()))
    m = helper.make_model(graph, producer_name="ctnn-tests-bad-models",
                          opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    return m.SerializeToString()


def replaced(index, node):
    """The valid nodes with node `index` replaced."""
    ns = nodes()
    ns[index] = node
    return ns


def cases():
    """case name -> file bytes."""
    valid = model(nodes())
    out = {"valid": valid,
           "not_onnx": b"ctnn test: this is a text file, not an ONNX model\n" * 4,
           "empty": b"",
           "truncated": valid[: len(valid) * 3 // 5]}
    # an operator ctnn has no layer for, an attribute value it does not support
    out["unsupported_op"] = model(replaced(1, helper.make_node("Celu", ["c"], ["r"], name="relu")))
    ns = nodes()
    ns.insert(0, helper.make_node("Pad", ["x0", "pads"], ["x"], name="pad", mode="reflect"))
    inits = {k: numpy_helper.from_array(v, k) for k, v in weights().items()}
    inits["pads"] = numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], dtype=np.int64), "pads")
    padded = model(ns, inits)
    m = onnx.load_from_string(padded)
    m.graph.input[0].name = "x0"
    out["unsupported_attribute"] = m.SerializeToString()
    ns = nodes() + [helper.make_node("Softmax", ["y"], ["p"], name="softmax", axis=0)]
    m = onnx.load_from_string(model(ns))
    m.graph.output[0].name = "p"
    out["unsupported_attribute_value"] = m.SerializeToString()
    # input shapes
    out["dynamic_input"] = model(nodes(), in_dims=("N", 3, 8, 8), out_dims=("N", 10))
    out["batch_input"] = model(nodes(), in_dims=(2, 3, 8, 8), out_dims=(2, 10))
    # initializers whose data do not match their dims: raw bytes, and typed values
    inits = {k: numpy_helper.from_array(v, k) for k, v in weights().items()}
    inits["W"].raw_data = inits["W"].raw_data[: 100 * 4]
    out["initializer_raw_size"] = model(nodes(), inits)
    inits = {k: numpy_helper.from_array(v, k) for k, v in weights().items()}
    inits["fc.W"] = helper.make_tensor("fc.W", TensorProto.FLOAT, [10, 4], RNG.randn(40).astype(np.float32).tolist())
    del inits["fc.W"].float_data[-1]  # make_tensor checks the count; the file need not
    out["initializer_typed_size"] = model(nodes(), inits)
    # graph structure: a cycle, a dangling input, nodes out of order, a value produced twice
    ns = nodes()
    ns[0] = helper.make_node("Conv", ["s", "W", "B"], ["c"], name="conv", pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    ns.insert(0, helper.make_node("Add", ["x", "r"], ["s"], name="add"))
    out["cycle"] = model(ns)
    out["dangling_input"] = model(replaced(1, helper.make_node("Add", ["c", "ghost"], ["r"], name="relu_add")))
    ns = nodes()
    ns[0], ns[1] = ns[1], ns[0]
    out["out_of_order"] = model(ns)
    ns = nodes()
    ns.insert(2, helper.make_node("Relu", ["c"], ["r"], name="relu_again"))
    out["duplicate_output"] = model(ns)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, data in cases().items():
        with open(os.path.join(args.out, name + ".onnx"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
