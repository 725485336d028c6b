"""A Keras/TensorFlow-style depthwise-separable CNN, written directly as an ONNX graph.

TensorFlow is not available, so the graph a Keras model converted by tf2onnx would give is
written with `onnx.helper`: convolutions with `auto_pad=SAME_UPPER` (stride 2 on an even input
pads one more row and column at the end than at the beginning), depthwise convolutions
(group = channels, kernels 3x3 and 5x5), separate BatchNormalization nodes with Keras's
epsilon 1e-3, Clip(0, 6) (ReLU6, min and max as inputs, opset 13) and Relu,
GlobalAveragePool, Reshape to [-1, C], Gemm with Keras's [in, out] weight layout (transB=0) and
Softmax. Node names follow Keras layer names ("conv_dw_2/depthwise"), tensor names TensorFlow's
("conv_dw_2/depthwise:0"). The input is NCHW float32 [1, 3, R, R], named "input_1".

`torch_model(seed, resolution)` is the matching reference in PyTorch, with one leaf module per
Keras layer (same names), for the golden values and the per-layer comparison.

    python3 keras_dsconv.py --out DIR [--seed S] [--resolution R]   # DIR/keras_dsconv.onnx
"""

import argparse
import collections
import math
import os

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

NAME = "keras_dsconv"
EPSILON = 1e-3
NUM_CLASSES = 10
# (layer name, kind, kernel, stride, in channels, out channels, activation)
LAYERS = [
    ("conv1", "conv", 3, 2, 3, 16, "relu6"),
    ("conv_dw_1", "dw", 3, 1, 16, 16, "relu6"),
    ("conv_pw_1", "conv", 1, 1, 16, 32, "relu"),
    ("conv_dw_2", "dw", 3, 2, 32, 32, "relu6"),
    ("conv_pw_2", "conv", 1, 1, 32, 64, "relu"),
    ("conv_dw_3", "dw", 5, 2, 64, 64, "relu6"),
    ("conv_pw_3", "conv", 1, 1, 64, 128, "relu"),
]


def make_weights(seed):
    """Seeded weights: He-normal convolutions, BatchNorm drawn as in seeded_models, a dense layer."""
    rng = np.random.RandomState(seed)
    weights = {}
    for name, kind, k, _, cin, cout, _ in LAYERS:
        fan_in = k * k * (1 if kind == "dw" else cin)
        shape = (cout, 1 if kind == "dw" else cin, k, k)
        weights[name + "/kernel"] = rng.randn(*shape) * math.sqrt(2.0 / fan_in)
        weights[name + "_bn/gamma"] = rng.rand(cout) + 0.5
        weights[name + "_bn/beta"] = rng.randn(cout) * 0.1
        weights[name + "_bn/moving_mean"] = rng.randn(cout) * 0.1
        weights[name + "_bn/moving_variance"] = rng.rand(cout) + 0.5
    features = LAYERS[-1][5]
    weights["predictions/kernel"] = rng.randn(features, NUM_CLASSES) * math.sqrt(1.0 / features)
    weights["predictions/bias"] = rng.randn(NUM_CLASSES) * 0.1
    return {k: v.astype(np.float32) for k, v in weights.items()}


def _init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def conv_block_nodes(layer, x, weights):
    """Conv (SAME_UPPER), BatchNormalization and the activation of one Keras layer."""
    name, kind, k, stride, cin, _, act = layer
    op = "depthwise" if kind == "dw" else "Conv2D"
    conv = helper.make_node(
        "Conv", [x, name + "/kernel"], [f"{name}/{op}:0"], name=f"{name}/{op}",
        auto_pad="SAME_UPPER", strides=[stride, stride], kernel_shape=[k, k],
        dilations=[1, 1], group=cin if kind == "dw" else 1)
    bn = name + "_bn"
    norm = helper.make_node(
        "BatchNormalization",
        [conv.output[0], bn + "/gamma", bn + "/beta", bn + "/moving_mean", bn + "/moving_variance"],
        [f"{bn}/FusedBatchNormV3:0"], name=f"{bn}/FusedBatchNormV3", epsilon=EPSILON)
    relu = name + "_relu"
    if act == "relu6":
        act_node = helper.make_node("Clip", [norm.output[0], "const/zero", "const/six"],
                                    [f"{relu}/Relu6:0"], name=f"{relu}/Relu6")
    else:
        act_node = helper.make_node("Relu", [norm.output[0]], [f"{relu}/Relu:0"], name=f"{relu}/Relu")
    return [conv, norm, act_node], act_node.output[0]


def head_nodes(x):
    """GlobalAveragePool, Reshape [-1, C], Gemm (Keras's [in, out] kernel) and Softmax."""
    gap = helper.make_node("GlobalAveragePool", [x], ["global_average_pooling2d/Mean:0"],
                           name="global_average_pooling2d/Mean")
    reshape = helper.make_node("Reshape", [gap.output[0], "reshape/shape"], ["reshape/Reshape:0"],
                               name="reshape/Reshape")
    gemm = helper.make_node("Gemm", [reshape.output[0], "predictions/kernel", "predictions/bias"],
                            ["predictions/BiasAdd:0"], name="predictions/MatMul",
                            alpha=1.0, beta=1.0, transA=0, transB=0)
    softmax = helper.make_node("Softmax", [gemm.output[0]], ["predictions"],
                               name="predictions/Softmax", axis=-1)
    return [gap, reshape, gemm, softmax]


def build_onnx(seed=0, resolution=224):
    """The ONNX model (opset 13) with seeded weights for a [1, 3, R, R] input."""
    weights = make_weights(seed)
    nodes, x = [], "input_1"
    for layer in LAYERS:
        block, x = conv_block_nodes(layer, x, weights)
        nodes += block
    nodes += head_nodes(x)
    inits = [_init(k, v) for k, v in weights.items()]
    inits += [_init("const/zero", np.float32(0.0)), _init("const/six", np.float32(6.0)),
              _init("reshape/shape", np.array([-1, LAYERS[-1][5]], dtype=np.int64))]
    graph = helper.make_graph(
        nodes, NAME,
        [helper.make_tensor_value_info("input_1", TensorProto.FLOAT, [1, 3, resolution, resolution])],
        [helper.make_tensor_value_info("predictions", TensorProto.FLOAT, [1, NUM_CLASSES])],
        initializer=inits)
    model = helper.make_model(graph, producer_name="ctnn-tests-keras-style",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model


def same_pads(size, kernel, stride):
    """(begin, end) padding of SAME_UPPER along one axis: the odd pixel goes at the end."""
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


class SameConv2d(torch.nn.Module):
    """Keras Conv2D / DepthwiseConv2D, padding='same', no bias."""

    def __init__(self, kernel, stride, groups):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.from_numpy(kernel))
        self.stride, self.groups = stride, groups

    def forward(self, x):
        k = self.weight.shape[-1]
        top, bottom = same_pads(x.shape[2], k, self.stride)
        left, right = same_pads(x.shape[3], k, self.stride)
        x = F.pad(x, (left, right, top, bottom))
        return F.conv2d(x, self.weight, stride=self.stride, groups=self.groups)


def _batchnorm(weights, bn):
    module = torch.nn.BatchNorm2d(weights[bn + "/gamma"].size, eps=EPSILON)
    with torch.no_grad():
        module.weight.copy_(torch.from_numpy(weights[bn + "/gamma"]))
        module.bias.copy_(torch.from_numpy(weights[bn + "/beta"]))
        module.running_mean.copy_(torch.from_numpy(weights[bn + "/moving_mean"]))
        module.running_var.copy_(torch.from_numpy(weights[bn + "/moving_variance"]))
    return module


def _dense(weights):
    kernel = weights["predictions/kernel"]
    module = torch.nn.Linear(kernel.shape[0], kernel.shape[1])
    with torch.no_grad():
        module.weight.copy_(torch.from_numpy(kernel.T.copy()))
        module.bias.copy_(torch.from_numpy(weights["predictions/bias"]))
    return module


def torch_model(seed=0, resolution=224):
    """The PyTorch reference: leaf modules named after the Keras layers, eval mode."""
    del resolution  # any resolution works
    weights = make_weights(seed)
    layers = []
    for name, kind, _, stride, cin, _, act in LAYERS:
        groups = cin if kind == "dw" else 1
        layers.append((name, SameConv2d(weights[name + "/kernel"], stride, groups)))
        layers.append((name + "_bn", _batchnorm(weights, name + "_bn")))
        layers.append((name + "_relu", torch.nn.ReLU6() if act == "relu6" else torch.nn.ReLU()))
    layers += [("global_average_pooling2d", torch.nn.AdaptiveAvgPool2d(1)),
               ("reshape", torch.nn.Flatten()),
               ("predictions", _dense(weights)),
               ("predictions_softmax", torch.nn.Softmax(dim=-1))]
    return torch.nn.Sequential(collections.OrderedDict(layers)).eval()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resolution", type=int, default=224)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    onnx.save(build_onnx(args.seed, args.resolution), os.path.join(args.out, NAME + ".onnx"))


if __name__ == "__main__":
    main()
