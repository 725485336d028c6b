"""Trains LeNet-5, a small depthwise-separable residual CNN and a CIFAR-style ResNet-8 on
Fashion-MNIST and exports them to ONNX: OUT/lenet5.onnx, OUT/dscnn.onnx and OUT/resnet8.onnx (the
files committed in models/, see README.md).

    /usr/bin/python3 examples/fashion_mnist/train.py --out examples/fashion_mnist/models

Deterministic: one thread, seed 0 for the weights and for the order and flips of the training
images, no data loader (the 60,000 images are tensors in memory), torch's deterministic
algorithms. Re-running on the same machine gives the same bytes (models/SHA256SUMS); another CPU
may pick other kernels (vector widths) whose float rounding differs.

Input: pixel / 255 in [0, 1], NCHW float32 [1, 1, 32, 32] for lenet5 (2 zero pixels around the
28x28 image), [1, 1, 28, 28] for dscnn, [1, 3, 32, 32] for resnet8 (fmnist.py). Training: Adam, one-cycle learning rate,
batch 128, cross-entropy, random horizontal flips. Export: opset 13, eval mode, batch 1,
constant folding, BatchNormalization kept (TrainingMode.PRESERVE on the model in eval mode), input
"input", output "logits".
"""

import argparse
import hashlib
import io
import os
import sys
import time
import warnings

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fmnist  # noqa: E402

# per model: epochs, peak learning rate, weight decay (decoupled, AdamW), memory format (oneDNN's
# depthwise convolutions train about 1.5x faster on channels-last tensors; same arithmetic)
RECIPES = {
    "lenet5": dict(epochs=12, lr=3e-3, weight_decay=1e-4, channels_last=False),
    "dscnn": dict(epochs=16, lr=6e-3, weight_decay=1e-4, channels_last=True),
    "resnet8": dict(epochs=8, lr=4e-3, weight_decay=1e-4, channels_last=True),
}
BATCH = 128


def evaluate(model, x, y, batch=100):
    """Accuracy of `model` (eval mode) on float32 x [N, 1, H, W] and int labels y."""
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), batch):
            correct += int((model(x[i:i + batch]).argmax(1) == y[i:i + batch]).sum())
    return correct / len(x)


def train(name, x_train, y_train, seed, epochs, lr, weight_decay, log, channels_last=False):
    torch.manual_seed(seed)
    model = fmnist.make_model(name)
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
    gen = torch.Generator().manual_seed(seed)
    steps_per_epoch = (len(x_train) + BATCH - 1) // BATCH
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, epochs=epochs, steps_per_epoch=steps_per_epoch)
    for epoch in range(epochs):
        model.train()
        start = time.perf_counter()
        order = torch.randperm(len(x_train), generator=gen)
        flips = torch.rand(len(x_train), generator=gen) < 0.5
        total_loss = 0.0
        for i in range(0, len(x_train), BATCH):
            idx = order[i:i + BATCH]
            xb = x_train[idx]
            fb = flips[idx]
            xb = torch.where(fb[:, None, None, None], xb.flip(3), xb)
            if channels_last:
                xb = xb.contiguous(memory_format=torch.channels_last)
            loss = F.cross_entropy(model(xb), y_train[idx])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total_loss += float(loss) * len(idx)
        log(f"{name}: epoch {epoch + 1}/{epochs} loss {total_loss / len(x_train):.4f} "
            f"({time.perf_counter() - start:.1f} s)")
    return model.to(memory_format=torch.contiguous_format).eval()


def export_bytes(model, size, channels=1):
    """The ONNX bytes of `model` (eval mode, batch 1, opset 13, BatchNormalization kept)."""
    buf = io.BytesIO()
    with warnings.catch_warnings():  # the advice about constant folding is for training mode
        warnings.filterwarnings("ignore", message="It is recommended that constant folding be turned off")
        torch.onnx.export(model, torch.zeros(1, channels, size, size), buf, opset_version=13,
                          do_constant_folding=True, training=torch.onnx.TrainingMode.PRESERVE,
                          input_names=["input"], output_names=["logits"])
    return buf.getvalue()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="directory for lenet5.onnx, dscnn.onnx and SHA256SUMS")
    ap.add_argument("--models", default=",".join(fmnist.MODELS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=None, help="override every model's epochs (for trials)")
    ap.add_argument("--data-dir", default=None)
    args = ap.parse_args()
    models = [m for m in args.models.split(",") if m]
    for m in models:
        if m not in fmnist.MODELS:
            ap.error(f"unknown model '{m}' ({', '.join(fmnist.MODELS)})")

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    os.makedirs(args.out, exist_ok=True)
    t_all = time.perf_counter()
    train_images, train_labels = fmnist.load_split("train", args.data_dir)
    test_images, test_labels = fmnist.load_split("test", args.data_dir)
    y_train = torch.from_numpy(train_labels.astype(np.int64))
    y_test = torch.from_numpy(test_labels.astype(np.int64))
    log = lambda s: print(s, flush=True)  # noqa: E731
    sums = {}
    for name in models:
        size = fmnist.input_size(name)
        x_train = torch.from_numpy(fmnist.model_input(train_images, name))
        x_test = torch.from_numpy(fmnist.model_input(test_images, name))
        recipe = dict(RECIPES[name])
        if args.epochs is not None:
            recipe["epochs"] = args.epochs
        start, cpu = time.perf_counter(), time.process_time()
        model = train(name, x_train, y_train, args.seed, log=log, **recipe)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        accuracy = evaluate(model, x_test, y_test)
        blob = export_bytes(model, size, fmnist.input_channels(name))
        path = os.path.join(args.out, f"{name}.onnx")
        with open(path, "wb") as f:
            f.write(blob)
        sums[f"{name}.onnx"] = hashlib.sha256(blob).hexdigest()
        params = sum(p.numel() for p in model.parameters())
        log(f"{name}: {params} parameters, trained in {seconds:.1f} s ({cpu:.1f} s CPU, {recipe['epochs']} epochs), "
            f"test accuracy {100 * accuracy:.2f}%, wrote {path} ({len(blob)} bytes, sha256 {sums[name + '.onnx']})")
    sums_path = os.path.join(args.out, "SHA256SUMS")
    old = {}
    if os.path.exists(sums_path):
        for line in open(sums_path):
            digest, file = line.split()
            old[file] = digest
    old.update(sums)
    with open(sums_path, "w") as f:
        for file in sorted(old):
            f.write(f"{old[file]}  {file}\n")
    log(f"total {time.perf_counter() - t_all:.1f} s ({time.process_time():.1f} s CPU); wrote {sums_path}")


if __name__ == "__main__":
    main()
