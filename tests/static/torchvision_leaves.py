#!/usr/bin/python3
"""Writes tests/static/torchvision_leaves.hpp: every leaf of every model of tests/static, as
PyTorch runs it (type, output shape, conv + linear MACs), the oracle of leaves.cpp's
leaf-by-leaf checks.

The models are torchvision's, built with weights=None (no download), in eval mode; LeNet-5 and
the firmware demo's CIFAR ResNet, which torchvision does not have, are written here from their
definitions. One forward pass of a zero input is traced at the level of torch functions (a
TorchFunctionMode sees F.conv2d, F.relu, torch.cat, x + y, ... whether a module or the model's
forward calls them) and of torchvision's StochasticDepth modules (the identity at inference, no
function to see). Each call becomes the ctnn leaf it is:

  conv2d, linear (a linear over channels-last features: a 1x1 Conv2d), batch_norm, layer_norm
  (LayerNorm2d), relu, relu6, silu, sigmoid, gelu, max/avg/adaptive pooling, dropout, flatten,
  cat (Concat; a cat of one tensor is none), + (Add), * (Mul; by a parameter: LayerScale),
  x.chunk(2, dim=1) (two ChannelSlice), the view-transpose-view of a channel shuffle
  (ChannelShuffle), x.mean([2, 3]) (AdaptiveAvgPool2d and Flatten), StochasticDepth;

permute marks the features channels-last (ConvNeXt), view / size / contiguous move nothing.
A call this list does not know stops the script: the table never leaves a computation out.

  /usr/bin/python3 tests/static/torchvision_leaves.py            # rewrite the header
  /usr/bin/python3 tests/static/torchvision_leaves.py --check    # status 1 when it is stale
"""
import argparse
import pathlib
import sys

import torch
import torch.nn as nn
import torchvision
from torch.overrides import TorchFunctionMode
from torchvision.ops import StochasticDepth

HEADER = pathlib.Path(__file__).with_name("torchvision_leaves.hpp")

# calls that move or describe data without computing (no leaf)
QUIET = {"view", "reshape", "size", "contiguous", "__get__", "dim", "__getitem__", "__len__", "numel",
         "__setstate__", "__format__", "__bool__", "is_floating_point", "__iter__"}


def lenet5():
    return nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))


class CifarResNet(nn.Module):
    """include/ctnn/zoo/cifar_resnet.hpp's network, as a PyTorch module."""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2, self.conv3 = nn.Conv2d(3, 8, 3, 1, 1), nn.Conv2d(8, 8, 3, 1, 1), nn.Conv2d(8, 8, 3, 1, 1)
        self.fc = nn.Linear(512, 10)

    def forward(self, x):
        x = nn.functional.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = self.conv3(torch.relu(self.conv2(x))) + x
        x = nn.functional.max_pool2d(torch.relu(x), 2)
        return self.fc(torch.flatten(x, 1))


# (name in the header, constructor, input shape)
MODELS = [
    ("lenet5", lenet5, (1, 32, 32)),
    ("cifar_resnet", CifarResNet, (3, 32, 32)),
    ("alexnet", lambda: torchvision.models.alexnet(weights=None), (3, 224, 224)),
    ("vgg16", lambda: torchvision.models.vgg16(weights=None), (3, 224, 224)),
    ("googlenet", lambda: torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=False), (3, 224, 224)),
    ("resnet18", lambda: torchvision.models.resnet18(weights=None), (3, 224, 224)),
    ("resnet50", lambda: torchvision.models.resnet50(weights=None), (3, 224, 224)),
    ("mobilenet_v2", lambda: torchvision.models.mobilenet_v2(weights=None), (3, 224, 224)),
    ("shufflenet_v2_x1_0", lambda: torchvision.models.shufflenet_v2_x1_0(weights=None), (3, 224, 224)),
    ("efficientnet_b0", lambda: torchvision.models.efficientnet_b0(weights=None), (3, 224, 224)),
    ("densenet121", lambda: torchvision.models.densenet121(weights=None), (3, 224, 224)),
    ("convnext_tiny", lambda: torchvision.models.convnext_tiny(weights=None), (3, 224, 224)),
    ("inception_v3", lambda: torchvision.models.inception_v3(weights=None, aux_logits=False, init_weights=False),
     (3, 299, 299)),
    ("squeezenet1_0", lambda: torchvision.models.squeezenet1_0(weights=None), (3, 224, 224)),
    ("mnasnet1_0", lambda: torchvision.models.mnasnet1_0(weights=None), (3, 224, 224)),
]


class Tracer(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.leaves = []          # (type, (c, h, w, rank), macs, p, module)
        self.channels_last = False
        self.modules = []         # the modules whose forward runs, innermost last: (name, is a leaf)

    def shape_of(self, t):
        s = tuple(t.shape)
        if len(s) == 4:
            return (s[3], s[1], s[2], 3) if self.channels_last else (s[1], s[2], s[3], 3)
        if len(s) == 2:
            return (s[1], 1, 1, 1)
        raise SystemExit(f"torchvision_leaves.py: an output of rank {len(s)}: {s}")

    @staticmethod
    def bounds(args, kwargs):
        lo = args[1] if len(args) > 1 else kwargs.get("min_val", -1.0)
        hi = args[2] if len(args) > 2 else kwargs.get("max_val", 1.0)
        return (float(lo), float(hi))

    def module(self):
        """The name of the leaf module whose forward makes this call, or "" (a functional call)."""
        return self.modules[-1][0] if self.modules and self.modules[-1][1] else ""

    def add(self, kind, out, macs=0, p=0.0):
        self.leaves.append((kind, self.shape_of(out), int(macs), float(p), self.module()))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        name = getattr(func, "__name__", str(func))
        if name in QUIET:
            return out
        if name == "conv2d":
            self.add("Conv2d", out, out.numel() * args[1][0].numel())
        elif name == "linear":
            self.add("Conv2d" if self.channels_last else "Linear", out, out.numel() * args[1].shape[1])
        elif name == "batch_norm":
            self.add("BatchNorm2d", out)
        elif name == "layer_norm":
            self.add("LayerNorm2d", out)
        elif name in ("relu", "relu_"):
            self.add("ReLU", out)
        elif name == "relu6" or (name == "hardtanh" and self.bounds(args, kwargs) == (0.0, 6.0)):
            self.add("ReLU6", out)
        elif name == "silu":
            self.add("SiLU", out)
        elif name == "sigmoid":
            self.add("Sigmoid", out)
        elif name == "gelu":
            self.add("GELU", out)
        elif "max_pool2d" in name:
            self.add("MaxPool2d", out)
        elif name == "avg_pool2d":
            self.add("AvgPool2d", out)
        elif name == "adaptive_avg_pool2d":
            self.add("AdaptiveAvgPool2d", out)
        elif name == "dropout":
            self.add("Dropout", out, p=args[1] if len(args) > 1 else kwargs.get("p", 0.5))
        elif name == "flatten":
            self.add("Flatten", out)
        elif name == "cat":
            if len(args[0]) > 1:
                self.add("Concat", out)
        elif name in ("__add__", "__iadd__", "add", "add_", "__radd__"):
            self.add("Add", out)
        elif name in ("__mul__", "__rmul__", "mul"):
            by_parameter = any(isinstance(a, nn.Parameter) for a in args[:2])
            self.add("LayerScale" if by_parameter else "Mul", out)
        elif name == "chunk":
            for part in out:
                self.add("ChannelSlice", part)
        elif name == "transpose" and args[0].dim() == 5:  # channel shuffle: (b, g, c/g, h, w) -> (b, c/g, g, h, w)
            b, g, cpg, h, w = args[0].shape
            self.leaves.append(("ChannelShuffle", (g * cpg, h, w, 3), 0, 0.0, ""))
        elif name == "mean" and tuple(args[1]) == (2, 3):  # ShuffleNetV2's x.mean([2, 3])
            self.leaves.append(("AdaptiveAvgPool2d", (out.shape[1], 1, 1, 3), 0, 0.0, ""))
            self.leaves.append(("Flatten", (out.shape[1], 1, 1, 1), 0, 0.0, ""))
        elif name == "permute":
            dims = args[1] if isinstance(args[1], (list, tuple)) else args[1:]
            if "dims" in kwargs:
                dims = kwargs["dims"]
            self.channels_last = tuple(dims) == (0, 2, 3, 1)
        else:
            raise SystemExit(f"torchvision_leaves.py: no ctnn leaf for the call '{name}'")
        return out


def leaves_of(make, input_shape):
    torch.manual_seed(0)
    model = make().eval()
    tracer = Tracer()
    for name, m in model.named_modules():
        leaf = len(list(m.children())) == 0
        m.register_forward_pre_hook(lambda mod, i, name=name, leaf=leaf: tracer.modules.append((name, leaf)))
        if isinstance(m, StochasticDepth):
            m.register_forward_hook(lambda mod, i, o, name=name: tracer.leaves.append(
                ("StochasticDepth", tracer.shape_of(o), 0, float(mod.p), name)))
        m.register_forward_hook(lambda mod, i, o: tracer.modules.pop() and None)  # None: the output stays
    x = torch.zeros(1, *input_shape)
    with torch.no_grad(), tracer:
        model(x)
    return tracer.leaves


def header_text():
    lines = [
        "// GENERATED by tests/static/torchvision_leaves.py from torchvision "
        f"{torchvision.__version__} (torch {torch.__version__}): DO NOT EDIT.",
        "// Every leaf of every model of tests/static as PyTorch runs it: its ctnn type, output shape",
        "// (C, H, W, rank), conv + linear MACs, drop probability (Dropout, StochasticDepth) and the",
        "// torchvision module that makes it (\"\" for a call of the model's own forward: torch.cat, F.relu).",
        "// leaves_zoo.cpp and leaves_torchvision.cpp compare each model's rows with these.",
        "// ctest -R static.torchvision_leaves.fresh fails when regenerating changes this file.",
        "#pragma once",
        "#include \"ctnn/core/shape.hpp\"",
        "",
        "namespace ctnn_test_leaves {",
        "",
        "struct leaf_fact {",
        "  const char* type;",
        "  ctnn::shape out;",
        "  uint64_t macs;",
        "  double p;  ///< drop probability (Dropout, StochasticDepth), else 0",
        "  const char* module;  ///< the leaf module calling it (\"Mixed_6c.branch7x7_1.conv\"), or \"\"",
        "};",
    ]
    for name, make, shape in MODELS:
        leaves = leaves_of(make, shape)
        lines.append("")
        lines.append(f"inline constexpr leaf_fact {name}[{len(leaves)}] = {{")
        for kind, (c, h, w, rank), macs, p, module in leaves:
            lines.append(f"    {{\"{kind}\", {{{c}, {h}, {w}, {rank}}}, {macs}, {p!r}, \"{module}\"}},")
        lines.append("};")
    lines += ["", "}  // namespace ctnn_test_leaves", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed header instead of writing it")
    ap.add_argument("--out", type=pathlib.Path, default=HEADER)
    a = ap.parse_args()
    text = header_text()
    if a.check:
        if not a.out.exists() or a.out.read_text() != text:
            print(f"{a.out} is stale: run /usr/bin/python3 {pathlib.Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    a.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
