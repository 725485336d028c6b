"""Shared by train.py, data.py and accuracy.py: the Fashion-MNIST files, the input normalization,
the calibration rule and the two models.

Data: Debian's `dataset-fashion-mnist` installs the four gzipped idx files in
/usr/share/datasets/fashion-mnist (`dpkg -L dataset-fashion-mnist`); they are read with gzip and
numpy, nothing is downloaded. Another directory holding the same four files can be given with
--data-dir or the environment variable FASHION_MNIST_DIR.

Normalization (the models' input space): x = pixel / 255, float32 in [0, 1], NCHW [N, 1, H, W].
  - lenet5 takes 32x32: the 28x28 image with 2 zero pixels (black, the background) on each side;
  - dscnn takes the 28x28 image as it is;
  - resnet8 (CIFAR-style) takes 3x32x32: the padded 32x32 image in each of the three channels
    (a grey picture as an RGB one: Debian packages no CIFAR-10, and the network's shape, 3 stages
    of 16/32/64 filters on a 32x32x3 input, is what the accelerator's figures are about).
Pixel 0 maps to 0.0, so the padding is zero in the normalized space too, and an int8 input
quantization with scale 1/255 and zero point -128 represents every input exactly.

Calibration set (post-training quantization, ctnn and torch.ao alike): the first 100 images of
each of the 10 classes in the training file's order, kept in file order (1,000 images).
"""

import gzip
import os

import numpy as np
import torch
from torch import nn

DEFAULT_DATA_DIR = "/usr/share/datasets/fashion-mnist"
FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}
CLASSES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
           "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
CALIBRATION_PER_CLASS = 100
MODELS = ("lenet5", "dscnn", "resnet8")


def data_dir(override=None):
    """The directory of the four idx files: override, $FASHION_MNIST_DIR, or Debian's."""
    path = override or os.environ.get("FASHION_MNIST_DIR") or DEFAULT_DATA_DIR
    missing = [f for pair in FILES.values() for f in pair if not os.path.isfile(os.path.join(path, f))]
    if missing:
        raise SystemExit(f"fashion-mnist: {path} lacks {', '.join(missing)} "
                         "(install the Debian package: apt-get install dataset-fashion-mnist)")
    return path


def _read_idx(path, magic, dims):
    """The uint8 array of a gzipped idx file (big-endian header: magic, then one uint32 per dim)."""
    with gzip.open(path, "rb") as f:
        blob = f.read()
    header = np.frombuffer(blob[:4 * (1 + dims)], dtype=">u4")
    if header[0] != magic:
        raise SystemExit(f"fashion-mnist: {path}: magic {header[0]:#x}, want {magic:#x}")
    shape = tuple(int(d) for d in header[1:])
    data = np.frombuffer(blob[4 * (1 + dims):], dtype=np.uint8)
    if data.size != int(np.prod(shape)):
        raise SystemExit(f"fashion-mnist: {path}: {data.size} bytes of data for shape {shape}")
    return data.reshape(shape)


def load_split(split, directory=None):
    """(images uint8 [N, 28, 28], labels uint8 [N]) of 'train' (60,000) or 'test' (10,000)."""
    directory = data_dir(directory)
    images_file, labels_file = FILES[split]
    images = _read_idx(os.path.join(directory, images_file), 0x803, 3)
    labels = _read_idx(os.path.join(directory, labels_file), 0x801, 1)
    if images.shape[0] != labels.shape[0] or images.shape[1:] != (28, 28):
        raise SystemExit(f"fashion-mnist: {split}: images {images.shape}, labels {labels.shape}")
    return images, labels


def input_size(model):
    """The side of the model's square input: 32 for lenet5 and resnet8 (padded), 28 for dscnn."""
    return {"lenet5": 32, "dscnn": 28, "resnet8": 32}[model]


def input_channels(model):
    """The model's input channels: 3 for resnet8 (the grey image in R, G and B), else 1."""
    return 3 if model == "resnet8" else 1


def normalize(images, size, channels=1):
    """float32 NCHW [N, channels, size, size] = pixel / 255, zero-padded symmetrically from 28x28,
    the same plane in every channel."""
    pad = (size - 28) // 2
    x = images.astype(np.float32) / np.float32(255.0)
    if pad:
        x = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    x = x[:, None, :, :]
    if channels > 1:
        x = np.repeat(x, channels, axis=1)
    return np.ascontiguousarray(x)


def model_input(images, model):
    """`images` (uint8 [N, 28, 28]) in `model`'s input space."""
    return normalize(images, input_size(model), input_channels(model))


def calibration_indices(labels, per_class=CALIBRATION_PER_CLASS):
    """Indices of the first `per_class` images of each class, in the file's order."""
    chosen = np.concatenate([np.flatnonzero(labels == c)[:per_class] for c in range(10)])
    return np.sort(chosen)


class LeNet5(nn.Module):
    """LeNet-5 on 32x32: conv 6@5x5, max-pool 2, conv 16@5x5, max-pool 2, fc 120, 84, 10; ReLU."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)       # 32 -> 28
        self.relu1 = nn.ReLU()
        self.pool1 = nn.MaxPool2d(2)          # 28 -> 14
        self.conv2 = nn.Conv2d(6, 16, 5)      # 14 -> 10
        self.relu2 = nn.ReLU()
        self.pool2 = nn.MaxPool2d(2)          # 10 -> 5
        self.flatten = nn.Flatten()
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.relu3 = nn.ReLU()
        self.fc2 = nn.Linear(120, 84)
        self.relu4 = nn.ReLU()
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool1(self.relu1(self.conv1(x)))
        x = self.pool2(self.relu2(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu3(self.fc1(x))
        x = self.relu4(self.fc2(x))
        return self.fc3(x)


def conv_bn(cin, cout, kernel, stride, groups=1):
    """Conv (no bias, 'same' padding) + BatchNorm + ReLU6: ONNX Conv, BatchNormalization, Clip(0, 6)."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU6())


class DSBlock(nn.Module):
    """A MobileNet/DS-CNN block: depthwise 3x3 (stride 1 or 2) + BN + ReLU6, then pointwise 1x1 +
    BN + ReLU6; with `residual` (stride 1, same channels) the block's input is added to its output."""

    def __init__(self, cin, cout, stride, residual=False):
        super().__init__()
        if residual and (stride != 1 or cin != cout):
            raise ValueError("a residual block keeps the shape")
        self.dw = conv_bn(cin, cin, 3, stride, groups=cin)
        self.pw = conv_bn(cin, cout, 1, 1)
        self.residual = residual

    def forward(self, x):
        y = self.pw(self.dw(x))
        return x + y if self.residual else y


# the stem: a 3x3 convolution, stride 2 (28x28 -> 14x14), to DSCNN_STEM channels; then the DS
# blocks, each (out channels, stride, residual)
DSCNN_STEM = 32
DSCNN_BLOCKS = [
    (32, 1, True),    # 14x14
    (64, 2, False),   # 14x14 -> 7x7
    (64, 1, True),
    (64, 1, True),
]


class StemBlocksHead(nn.Module):
    """A stem, blocks, global average pooling, flatten and a linear classifier to the 10 classes.
    Each spec of `specs` is (out channels, ...): the block is `block(in channels, *spec)`. The
    modules are made in that order, stem first (the seeded initial weights are drawn in it), and
    keep the names stem, blocks, pool, flatten, fc (the ONNX initializers' names)."""

    def __init__(self, stem, stem_channels, block, specs):
        super().__init__()
        self.stem = stem
        blocks = []
        cin = stem_channels
        for spec in specs:
            blocks.append(block(cin, *spec))
            cin = spec[0]
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(cin, 10)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.fc(self.flatten(self.pool(x)))


class DSCNN(StemBlocksHead):
    """A small depthwise-separable residual CNN on 28x28: a 3x3 stride-2 stem conv + BN + ReLU6,
    the DS blocks of DSCNN_BLOCKS (three of them residual), global average pooling, a linear
    classifier."""

    def __init__(self):
        super().__init__(conv_bn(1, DSCNN_STEM, 3, 2), DSCNN_STEM, DSBlock, DSCNN_BLOCKS)


class BasicBlock(nn.Module):
    """A ResNet basic block: conv 3x3 (stride 1 or 2) + BN + ReLU, conv 3x3 + BN, plus the
    shortcut (the input, or a strided 1x1 conv + BN when the shape changes), then ReLU."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
        self.relu2 = nn.ReLU()

    def forward(self, x):
        y = self.bn2(self.conv2(self.relu1(self.bn1(self.conv1(x)))))
        return self.relu2(y + self.shortcut(x))


# ResNet-8 as MLPerf Tiny's CIFAR-10 model: a 3x3 stem of 16 filters, then one basic block per
# stage of 16, 32 and 64 filters (the last two with stride 2), global average pool, linear
RESNET8_STEM = 16
RESNET8_STAGES = [(16, 1), (32, 2), (64, 2)]


class ResNet8(StemBlocksHead):
    """A CIFAR-style ResNet on 3x32x32: stem conv 3x3 3->16 + BN + ReLU (32x32), basic blocks
    16 (32x32), 32 (16x16), 64 (8x8), global average pooling, linear 64->10. 12.5M MACs."""

    def __init__(self):
        stem = nn.Sequential(nn.Conv2d(3, RESNET8_STEM, 3, 1, 1, bias=False), nn.BatchNorm2d(RESNET8_STEM), nn.ReLU())
        super().__init__(stem, RESNET8_STEM, BasicBlock, RESNET8_STAGES)


def make_model(name):
    return {"lenet5": LeNet5, "dscnn": DSCNN, "resnet8": ResNet8}[name]()


def load_from_onnx(name, path):
    """The PyTorch module `name` with the float32 weights of the ONNX file at `path` (the
    initializers carry the state_dict names; BatchNorm's num_batches_tracked is not exported).
    Initializers named through an Identity node count as initializers. Every parameter and buffer
    must be found with its shape: a file of another architecture is
    refused."""
    import onnx
    from onnx import numpy_helper

    model = make_model(name)
    graph = onnx.load(path).graph
    inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    # torch.onnx keeps one copy of equal initializers and names the others through Identity nodes
    # (resnet8's BatchNorm betas on both sides of an add train alike: equal gradients)
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in inits:
            inits[node.output[0]] = inits[node.input[0]]
    state = model.state_dict()
    loaded = {}
    for key, value in state.items():
        if key.endswith("num_batches_tracked"):
            loaded[key] = value
            continue
        if key not in inits:
            raise SystemExit(f"{path}: no initializer '{key}' for {name}")
        array = inits[key]
        if tuple(array.shape) != tuple(value.shape):
            raise SystemExit(f"{path}: initializer '{key}' has shape {array.shape}, {name} wants {tuple(value.shape)}")
        loaded[key] = torch.from_numpy(array.copy())
    model.load_state_dict(loaded)
    return model.eval()
