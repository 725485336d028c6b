"""A tiny PyTorch CNN exported to ONNX, with a batch of inputs and PyTorch's outputs.

For the CMake consumer tests of ctnn_add_model / ctnn_add_model_runner and the importer's
freestanding, determinism and fuzz tests: small enough to import, build and run in seconds, and it
still has a stem, a residual block, a depthwise convolution, a squeeze-excitation gate and a head
(Conv, BatchNormalization folded by the export, Relu, MaxPool, Add, HardSwish, Mul, Sigmoid,
GlobalAveragePool, Flatten, Gemm).

    /usr/bin/python3 tests/onnx/tiny_model.py --out DIR [--seed S] [--batch N] [--name NAME]

writes DIR/NAME.onnx (opset 13, batch 1, input "input", output "output"), DIR/NAME.input.npy
(float32 [N, 3, 16, 16], seeded) and DIR/NAME.torch.npy (PyTorch's output, [N, 10]).
"""

import argparse
import io
import os

import numpy as np
import torch


class Tiny(torch.nn.Module):
    """3x16x16 -> 10 classes."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8),
                                        torch.nn.ReLU(), torch.nn.MaxPool2d(2))
        self.body = torch.nn.Sequential(torch.nn.Conv2d(8, 8, 3, padding=1, bias=False),
                                        torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                                        torch.nn.Conv2d(8, 8, 3, padding=1, groups=8))
        self.gate = torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(1), torch.nn.Conv2d(8, 8, 1),
                                        torch.nn.Sigmoid())
        self.act = torch.nn.Hardswish()
        self.head = torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                                        torch.nn.Linear(8, 10))

    def forward(self, x):
        x = self.stem(x)
        y = self.act(x + self.body(x))
        return self.head(y * self.gate(y))


def build(seed):
    """The model in eval mode, default initialization under the seed, BatchNorm statistics drawn."""
    torch.manual_seed(seed)
    model = Tiny()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0.0, 0.1)
                m.running_mean.normal_(0.0, 0.1)
                m.running_var.uniform_(0.5, 1.5)
    return model.eval()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=3)
    parser.add_argument("--name", default="tiny")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    model = build(args.seed)
    x = np.random.RandomState(args.seed + 1000).randn(args.batch, 3, 16, 16).astype(np.float32)
    buf = io.BytesIO()
    torch.onnx.export(model, torch.from_numpy(x[:1]), buf, opset_version=13, do_constant_folding=True,
                      training=torch.onnx.TrainingMode.EVAL, input_names=["input"], output_names=["output"])
    with torch.no_grad():
        y = model(torch.from_numpy(x)).numpy().astype(np.float32)
    base = os.path.join(args.out, args.name)
    with open(base + ".onnx", "wb") as f:
        f.write(buf.getvalue())
    np.save(base + ".input.npy", x)
    np.save(base + ".torch.npy", y)


if __name__ == "__main__":
    main()
