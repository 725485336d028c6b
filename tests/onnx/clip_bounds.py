"""A small CNN whose activations are ONNX Clip with one open bound, two bounds and none.

torch.clamp(x, min=m) exports as Clip with only its `min` input, torch.clamp(x, max=M) with only
`max` (opset 13; the missing one is an empty input name), nn.Hardtanh(a, b) with both. ctnn
imports them as clamp_min, clamp_max and clamp (nn/clamp.hpp). Every activation is its own leaf
module so the per-layer comparison sees each.

`torch_model(seed, resolution)` builds it with seeded weights (input [1, 3, R, R]).
"""

import torch
from torch import nn

NAME = "clip_bounds"


class ClampMin(nn.Module):
    def __init__(self, low):
        super().__init__()
        self.low = low

    def forward(self, x):
        return torch.clamp(x, min=self.low)


class ClampMax(nn.Module):
    def __init__(self, high):
        super().__init__()
        self.high = high

    def forward(self, x):
        return torch.clamp(x, max=self.high)


class ClipBounds(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.at_least = ClampMin(-0.25)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.at_most = ClampMax(0.5)
        self.conv3 = nn.Conv2d(8, 16, 1)
        self.hardtanh = nn.Hardtanh(-1.5, 2.0)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.at_least(self.conv1(x))
        x = self.at_most(self.conv2(x))
        x = self.hardtanh(self.conv3(x))
        return self.fc(self.flatten(self.pool(x)))


def torch_model(seed=0, resolution=None):
    torch.manual_seed(seed)
    return ClipBounds().eval()
