"""Seeded PyTorch models and inputs shared by the ONNX export and the golden comparison.

A model is rebuilt, not loaded: `build_model(name, seed)` gives the same weights on every call
(no pretrained weights, no download). torchvision's own initialization runs under
`torch.manual_seed(seed)`; then every BatchNorm's weight, bias, running mean and running
variance are drawn from a `torch.Generator` seeded with `seed`, so that a BatchNorm is not an
identity (torchvision initializes them to 1, 0, 0, 1).

A model that is not from torchvision is given as `path/to/file.py:factory`; the factory is
called with the keyword arguments `seed` and `resolution` that its signature accepts and
returns a `torch.nn.Module`.

Inception-v3's own initialization (truncated normal, std 0.1, over ~95 convolutions) with random
BatchNorm statistics grows activations to ~1e10 at the output, where a comparison says little.
For the models in CALIBRATED, the running statistics are instead measured: one forward pass in
BatchNorm training mode (cumulative average) over `calibration_input(seed, resolution)`, a seeded
batch of 16 drawn from seed + 2, gives each BatchNorm its batch mean and, as variance, the second
moment (see calibrate_batchnorm), so activations stay of order 1; the affine weight and bias stay
random.

The input is `make_input(seed, resolution, channels)`: float32 [1, C, R, R], standard normal
from a generator seeded with `seed + 1`.
"""

import importlib.util
import inspect
import os

import numpy as np
import torch
import torchvision

# name -> (constructor keyword arguments, default resolution)
TORCHVISION = {
    "alexnet": ({}, 224),
    "vgg16": ({}, 224),
    "googlenet": ({"aux_logits": False, "init_weights": True, "transform_input": False}, 224),
    "resnet18": ({}, 224),
    "resnet50": ({}, 224),
    "mobilenet_v2": ({}, 224),
    "squeezenet1_0": ({}, 224),
    "densenet121": ({}, 224),
    "shufflenet_v2_x1_0": ({}, 224),
    "efficientnet_b0": ({}, 224),
    "mnasnet1_0": ({}, 224),
    "inception_v3": ({"aux_logits": False, "init_weights": True, "transform_input": False}, 299),
    "convnext_tiny": ({}, 224),
}


# models whose BatchNorm statistics are measured on a seeded batch (see the module comment)
CALIBRATED = {"inception_v3"}


def default_resolution(name):
    """The resolution a torchvision model was designed for (224, Inception-v3 299)."""
    return TORCHVISION[name][1] if name in TORCHVISION else 224


def randomize_batchnorm(model, seed):
    """Draws every BatchNorm's affine parameters and running statistics from a seeded generator."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
                n = module.num_features
                module.weight.copy_(torch.rand(n, generator=gen) * 1.0 + 0.5)
                module.bias.copy_(torch.randn(n, generator=gen) * 0.1)
                module.running_mean.copy_(torch.randn(n, generator=gen) * 0.1)
                module.running_var.copy_(torch.rand(n, generator=gen) * 1.0 + 0.5)
    return model


def calibrate_batchnorm(model, x):
    """Sets every BatchNorm's running mean to the batch mean of x (one pass) and its running
    variance to the second moment E[x^2] = var + mean^2: the outputs are of order 1, and a channel
    whose values barely vary over the batch (1x1 maps at small resolutions) is not divided by a
    tiny deviation, which would amplify every rounding error before it."""
    model.eval()
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # cumulative average: after one batch, exactly its statistics
        m.train()
    with torch.no_grad():
        model(torch.from_numpy(x))
    with torch.no_grad():
        for m in norms:
            m.momentum = 0.1
            m.running_var.add_(m.running_mean * m.running_mean)
    return model.eval()


def calibration_input(seed, resolution):
    """The seeded batch [16, 3, R, R] that CALIBRATED models measure their statistics on."""
    gen = torch.Generator().manual_seed(seed + 2)
    return torch.randn(16, 3, resolution, resolution, generator=gen).numpy().astype(np.float32)


def build_torchvision(name, seed, resolution=None):
    """torchvision model `name`, default initialization under torch.manual_seed(seed), eval mode.

    `resolution` (default: the model's own) is the input size a CALIBRATED model measures its
    BatchNorm statistics at."""
    if name not in TORCHVISION:
        raise SystemExit(f"unknown torchvision model {name!r}; known: {', '.join(TORCHVISION)}")
    kwargs = TORCHVISION[name][0]
    torch.manual_seed(seed)
    model = randomize_batchnorm(getattr(torchvision.models, name)(weights=None, **kwargs), seed)
    if name in CALIBRATED:
        calibrate_batchnorm(model, calibration_input(seed, resolution or default_resolution(name)))
    return model.eval()


def batchnorm_epsilons(model):
    """The set of BatchNorm epsilons a model uses."""
    return {m.eps for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)}


def load_factory(spec):
    """The callable named by 'path/to/file.py:factory'."""
    path, _, factory = spec.rpartition(":")
    if not path or not factory:
        raise SystemExit(f"--module wants path/to/file.py:factory, got {spec!r}")
    module_name = "ctnn_factory_" + os.path.splitext(os.path.basename(path))[0]
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(loader_spec)
    loader_spec.loader.exec_module(module)
    return getattr(module, factory)


def call_factory(factory, seed, resolution):
    """Calls factory with the keyword arguments (seed, resolution) it accepts."""
    params = inspect.signature(factory).parameters
    kwargs = {k: v for k, v in (("seed", seed), ("resolution", resolution)) if k in params}
    return factory(**kwargs)


def build_model(name=None, module_spec=None, seed=0, resolution=None):
    """A torchvision model by name, or the module a factory file returns; eval mode."""
    if module_spec:
        return call_factory(load_factory(module_spec), seed, resolution).eval()
    return build_torchvision(name, seed, resolution)


def make_input(seed, resolution, channels=3, batch=1):
    """Seeded float32 input [batch, channels, resolution, resolution] (standard normal)."""
    gen = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(batch, channels, resolution, resolution, generator=gen)
    return x.numpy().astype(np.float32)
