"""A small seeded PyTorch CNN with the ops whose int8 forms are TFLite's special kernels, for the
int8 oracle (tests/onnx/int8_oracle.py, CTest onnx.int8.oracle.ops):

    conv 3x3 + BatchNorm + Hardswish (x * HardSigmoid(x) at opset 13: one hard swish in ctnn int8)
    -> squeeze-excitation (global average pool, 1x1 conv, Sigmoid: the lookup table; Mul)
    -> conv 1x1 + Tanh (the lookup table) -> max pool -> global average pool -> flatten
    -> linear -> Softmax (TFLite's fixed-point softmax, output 1/256 and -128)

    /usr/bin/python3 tests/onnx/int8_ops_model.py --out DIR

writes DIR/ops.onnx (opset 13, input "input" [1, 3, 12, 12], BatchNormalization kept),
DIR/calibration.npy (64 seeded samples) and DIR/input.npy (8 others), float32.
"""

import argparse
import io
import os

import numpy as np
import torch


class Ops(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.act = torch.nn.Hardswish()
        self.gate = torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(1), torch.nn.Conv2d(8, 8, 1), torch.nn.Sigmoid())
        self.pw = torch.nn.Conv2d(8, 12, 1)
        self.pool = torch.nn.MaxPool2d(2)
        self.head = torch.nn.Linear(12, 10)

    def forward(self, x):
        x = self.act(self.bn(self.conv(x)))
        x = x * self.gate(x)
        x = self.pool(torch.tanh(self.pw(x)))
        x = torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return torch.softmax(self.head(x), dim=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    ap.add_argument("--out", required=True)
    out = ap.parse_args().out
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(3)
    model = Ops()
    with torch.no_grad():
        model.bn.weight.uniform_(0.5, 1.5)
        model.bn.bias.normal_(0.0, 0.2)
        model.bn.running_mean.normal_(0.0, 0.2)
        model.bn.running_var.uniform_(0.5, 1.5)
        model.head.weight.mul_(4.0)  # logits of a few units: the softmax is not flat
    model.eval()
    buf = io.BytesIO()
    torch.onnx.export(model, torch.zeros(1, 3, 12, 12), buf, opset_version=13, input_names=["input"],
                      output_names=["probs"], training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=True)
    with open(os.path.join(out, "ops.onnx"), "wb") as f:
        f.write(buf.getvalue())
    rng = np.random.default_rng(7)
    np.save(os.path.join(out, "calibration.npy"), rng.normal(size=(64, 3, 12, 12)).astype(np.float32))
    np.save(os.path.join(out, "input.npy"), rng.normal(size=(8, 3, 12, 12)).astype(np.float32))
    print(f"{out}: ops.onnx, calibration.npy (64), input.npy (8)")


if __name__ == "__main__":
    main()
