"""An independent reference of ctnn's int8 models: TFLite's int8 arithmetic written in numpy from
the ONNX file, compared bit for bit with every layer of a ctnn int8 runner.

    /usr/bin/python3 tests/onnx/int8_oracle.py --onnx M.onnx --calibration C.npy --input X.npy \\
        --work DIR --ctnn-import PATH [--cxx g++] [--rule minmax|percentile|mse] [--samples N]

1. ctnn-import M.onnx --dtype int8 --calibration C.npy (--rule), and the runner is compiled from
   examples/onnx/model_runner.cpp; it runs on the first N samples of X.npy with --raw
   --dump-layers: every leaf's int8 output, layers.tsv (leaf, file, node, ONNX tensor, inputs).
2. Only the activation scales and zero points are taken from ctnn (the header's
   <name>_tensor_scales / _tensor_zero_points: they are what calibration chose). Everything
   else is derived here again from the ONNX file, by TFLite's rules:
     - BatchNormalization folded into the Conv before it in double: m = gamma / sqrt(var + eps),
       W' = float32(W m), b' = float32((b - mean) m + beta); Relu and Clip after a Conv, Gemm or
       Add are its fused activation (the ONNX tensor of a leaf says how far its chain goes);
     - weights per output channel symmetric (SymmetricPerChannelQuantization, float32):
       scale = max|w| / 127, q = clamp(round(w * (127 / max|w|)), -127, 127), a zero channel scale 1;
     - bias int32: round(b / float32(in_scale * w_scale)) (SymmetricPerChannelBiasQuantize);
     - requantization: QuantizeMultiplier(in_scale * w_scale / out_scale) and
       MultiplyByQuantizedMultiplier (SaturatingRoundingDoublingHighMul, RoundingDivideByPOT);
     - fused activation range: CalculateActivationRangeQuantized;
     - Add: TFLite's quantized add, left_shift 20, the inputs rescaled to twice the larger scale;
     - MaxPool on the int8 values, GlobalAveragePool the rounded mean of the raw values (same
       quantization in and out), Flatten a reshape; the input quantized as
       clamp(round(x / scale) + zero_point);
     - Mul: TFLite's quantized multiply (a gate [C, 1, 1] broadcast); HardSwish, and x *
       HardSigmoid(x), which ctnn imports as one: TFLite's 16-bit fixed-point hard swish with
       HardSwishPrepare's multipliers; Sigmoid and Tanh: TFLite's lookup table, populated in double
       (round(f(s_in (v - z_in)) / s_out) + z_out); Softmax: TFLite's int8 softmax in gemmlowp's
       fixed point (exp_on_negative_values in Q5.26, the reciprocal by Newton-Raphson), written
       here on Python integers.
3. Each leaf is computed from ctnn's own int8 outputs of its inputs (so an error shows at the
   layer that makes it, not downstream) and compared with ctnn's output bit for bit.
Exit 0 when every layer matches exactly on every sample, 1 otherwise (or an op not covered here).
"""

import argparse
import math
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1


# ---- TFLite's integer arithmetic (int64 numpy arrays holding int32 values)

def round_half_away(x):
    """Round half away from zero of float64 values (exact: the fraction has no rounding error)."""
    x = np.asarray(x, dtype=np.float64)
    t = np.trunc(x)
    f = x - t
    return t + (f >= 0.5) - (f <= -0.5)


def quantize_multiplier(real):
    """TFLite QuantizeMultiplier: real = m * 2^(shift - 31), m in [2^30, 2^31)."""
    assert real > 0 and math.isfinite(real), real
    q, shift = math.frexp(real)
    m = int(round_half_away(q * 2.0 ** 31))
    if m == 2 ** 31:
        m //= 2
        shift += 1
    assert -31 <= shift <= 30, f"multiplier {real} out of range"
    return m, shift


def wrap32(x):
    return ((x + 2 ** 31) % 2 ** 32) - 2 ** 31


def multiply_by_quantized_multiplier(x, m, shift):
    """MultiplyByQuantizedMultiplier on int64 arrays (m, shift broadcast)."""
    x = np.asarray(x, dtype=np.int64)
    m = np.asarray(m, dtype=np.int64)
    shift = np.asarray(shift, dtype=np.int64)
    left = np.maximum(shift, 0)
    right = np.maximum(-shift, 0)
    x = wrap32(x << left)
    ab = x * m
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    s = ab + nudge
    high = np.where(s >= 0, s // 2 ** 31, -((-s) // 2 ** 31))  # toward zero
    high = np.where((x == INT32_MIN) & (m == INT32_MIN), INT32_MAX, high)
    mask = (np.int64(1) << right) - 1
    remainder = high & mask
    threshold = (mask >> 1) + (high < 0)
    return (high >> right) + (remainder > threshold)


def act_range(act, scale, zp):
    """CalculateActivationRangeQuantized for act = None, ('relu',), ('clip', lo, hi)."""
    if act is None:
        return -128, 127

    def q(bound):
        v = float(round_half_away(np.float32(bound) / np.float32(scale)))
        v = min(max(v, -1e6), 1e6)
        return int(min(max(zp + int(v), -128), 127))

    if act[0] == "relu":
        return q(0.0), 127
    return q(act[1]), q(act[2])


def quantize_weights(w):
    """Per output channel symmetric int8 (float32 arithmetic): (q int64, scale float32[O])."""
    w = w.astype(np.float32)
    flat = w.reshape(w.shape[0], -1)
    half = np.abs(flat).max(axis=1).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(half > 0, half / np.float32(127.0), np.float32(1.0)).astype(np.float32)
        inv = np.where(half > 0, np.float32(127.0) / half, np.float32(0.0)).astype(np.float32)
    v = round_half_away((flat * inv[:, None]).astype(np.float32).astype(np.float64))
    return np.clip(v, -127, 127).astype(np.int64).reshape(w.shape), scale


def quantize_bias(b, in_scale, w_scale):
    bias_scale = (np.float32(in_scale) * w_scale).astype(np.float32)
    inv = np.where(bias_scale == 0, 0.0, 1.0 / bias_scale.astype(np.float64))
    v = round_half_away(b.astype(np.float32).astype(np.float64) * inv)
    return np.clip(v, -INT32_MAX, INT32_MAX).astype(np.int64)


def requantize(acc, in_scale, w_scale, out_scale, out_zp, act, channel_axis):
    """int32 accumulators -> int8 with per-channel multipliers."""
    ms, shifts = zip(*[quantize_multiplier(float(np.float32(in_scale)) * float(ws) / float(np.float32(out_scale)))
                       for ws in w_scale])
    shape = [1] * acc.ndim
    shape[channel_axis] = len(ms)
    y = multiply_by_quantized_multiplier(acc, np.array(ms).reshape(shape), np.array(shifts).reshape(shape)) + out_zp
    lo, hi = act_range(act, out_scale, out_zp)
    return np.clip(y, lo, hi)


# ---- the layers

def conv_int8(xq, in_q, out_q, w, b, attrs, act):
    kh, kw = attrs["kernel_shape"]
    sh, sw = attrs.get("strides", [1, 1])
    pt, pl, pb, pr = attrs.get("pads", [0, 0, 0, 0])
    if attrs.get("dilations", [1, 1]) != [1, 1] or attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise SystemExit("int8_oracle: dilated or auto_pad convolutions are not covered")
    groups = attrs.get("group", 1)
    wq, w_scale = quantize_weights(w)
    bq = quantize_bias(b if b is not None else np.zeros(w.shape[0], np.float32), in_q[0], w_scale)
    x = xq.astype(np.int64) - in_q[1]  # padding holds the real 0: (zp - zp) = 0
    x = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    win = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw]
    o, cig = w.shape[0], w.shape[1]
    cog = o // groups
    acc = np.concatenate([np.einsum("ncyxij,ocij->noyx", win[:, g * cig:(g + 1) * cig], wq[g * cog:(g + 1) * cog])
                          for g in range(groups)], axis=1)
    acc = acc + bq[None, :, None, None]
    return requantize(acc, in_q[0], w_scale, out_q[0], out_q[1], act, 1)


def linear_int8(xq, in_q, out_q, w, b, act):
    wq, w_scale = quantize_weights(w)
    bq = quantize_bias(b if b is not None else np.zeros(w.shape[0], np.float32), in_q[0], w_scale)
    acc = (xq.astype(np.int64) - in_q[1]) @ wq.T + bq[None, :]
    return requantize(acc, in_q[0], w_scale, out_q[0], out_q[1], act, 1)


def add_int8(a, b, a_q, b_q, out_q, act):
    sa, sb, so = (float(np.float32(q[0])) for q in (a_q, b_q, out_q))
    twice_max = 2.0 * max(sa, sb)
    ma, mb = quantize_multiplier(sa / twice_max), quantize_multiplier(sb / twice_max)
    mo = quantize_multiplier(twice_max / (float(1 << 20) * so))
    xa = multiply_by_quantized_multiplier((a.astype(np.int64) - a_q[1]) * (1 << 20), *ma)
    xb = multiply_by_quantized_multiplier((b.astype(np.int64) - b_q[1]) * (1 << 20), *mb)
    y = multiply_by_quantized_multiplier(xa + xb, *mo) + out_q[1]
    lo, hi = act_range(act, out_q[0], out_q[1])
    return np.clip(y, lo, hi)


def max_pool_int8(xq, attrs):
    kh, kw = attrs["kernel_shape"]
    sh, sw = attrs.get("strides", [1, 1])
    pt, pl, pb, pr = attrs.get("pads", [0, 0, 0, 0])
    if attrs.get("ceil_mode", 0) or attrs.get("dilations", [1, 1]) != [1, 1]:
        raise SystemExit("int8_oracle: ceil_mode or dilated max pooling is not covered")
    x = np.pad(xq.astype(np.int64), ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=-1000)
    win = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw]
    return win.max(axis=(4, 5))


def global_avg_pool_int8(xq):
    n, c = xq.shape[:2]
    count = xq.shape[2] * xq.shape[3]
    s = xq.astype(np.int64).reshape(n, c, -1).sum(axis=2)
    half = count // 2
    avg = np.where(s >= 0, (s + half) // count, -((-(s - half)) // count))
    return np.clip(avg, -128, 127).reshape(n, c, 1, 1)


def mul_int8(a, b, a_q, b_q, out_q):
    """TFLite's quantized multiply; b broadcast over H and W when it is [N, C, 1, 1]."""
    m = quantize_multiplier(float(np.float32(a_q[0])) * float(np.float32(b_q[0])) / float(np.float32(out_q[0])))
    prod = (a.astype(np.int64) - a_q[1]) * (b.astype(np.int64) - b_q[1])
    return np.clip(multiply_by_quantized_multiplier(prod, *m) + out_q[1], -128, 127)


def lut_int8(xq, in_q, out_q, f):
    """TFLite's LUTPopulate in double: round(f(s_in (v - z_in)) / s_out) + z_out for every byte v."""
    v = np.arange(-128, 128, dtype=np.float64)
    real = float(np.float32(in_q[0])) * (v - in_q[1])
    table = np.clip(round_half_away(f(real) / float(np.float32(out_q[0]))) + out_q[1], -128, 127).astype(np.int64)
    return table[xq.astype(np.int64) + 128]


def srdhm16(a, b):
    ab = a * b
    nudge = np.where(ab >= 0, 1 << 14, 1 - (1 << 14))
    s = ab + nudge
    r = np.where(s >= 0, s // 32768, -((-s) // 32768))
    return np.where((a == -32768) & (b == -32768), 32767, r)


def rdbpot(x, e):
    mask = (1 << e) - 1
    return (x >> e) + ((x & mask) > ((mask >> 1) + (x < 0)))


def hardswish_int8(xq, in_q, out_q):
    """TFLite's reference_ops::HardSwish (int8) with HardSwishPrepare's parameters."""
    hires_scale = np.float32(1.0 / 128.0) * np.float32(in_q[0])
    reluish_scale = np.float32(3.0) / np.float32(32768.0)

    def q16(real):
        m, e = quantize_multiplier(real)
        return (32767 if m >= INT32_MAX - (1 << 15) else (m + (1 << 15)) >> 16), e

    om, oe = q16(float(np.float32(hires_scale / np.float32(out_q[0]))))
    rm, re = q16(float(np.float32(hires_scale / reluish_scale)))
    assert oe <= 0
    hires = (xq.astype(np.int64) - in_q[1]) * 128
    pre = srdhm16(hires, om)
    rel = hires
    if re > 0:
        rel = np.clip(rel * (1 << (re - 1)), -32768, 32767)
    rel = srdhm16(rel, rm)
    if re > 0:
        rel = np.clip(rel * 2, -32768, 32767)
    if re < 0:
        rel = rdbpot(rel, -re)
    rel = (rel + (1 << 15)) >> 1
    ab = rel * pre
    out = np.where(ab >= 0, ab // 32768, -((-ab) // 32768))  # toward zero (SaturatingDoublingHighMul)
    return np.clip(rdbpot(out, -oe) + out_q[1], -128, 127)


# gemmlowp's fixed point on Python integers (int32 values), for TFLite's int8 softmax
def srdhm(a, b):
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    s = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
    return s // (1 << 31) if s >= 0 else -((-s) // (1 << 31))


def rdbpot1(x, e):
    mask = (1 << e) - 1
    return (x >> e) + (1 if (x & mask) > (mask >> 1) + (1 if x < 0 else 0) else 0)


def srmpot(x, e):
    """x * 2^e, saturating (e > 0) or rounding (e < 0)."""
    if e > 0:
        t = (1 << (31 - e)) - 1
        return INT32_MAX if x > t else INT32_MIN if x < -t else x << e
    return rdbpot1(x, -e) if e < 0 else x


def exp_on_negative_values(a, integer_bits):
    fractional = 31 - integer_bits
    quarter = 1 << (fractional - 2)
    amq = (a & (quarter - 1)) - quarter
    x = srmpot(amq, integer_bits) + (1 << 28)  # to Q0.31, + 1/8
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    poly = srmpot(srdhm(srmpot(x4, -2) + x3, 715827883) + x2, -1)
    result = 1895147668 + srdhm(1895147668, x + poly)
    remainder = amq - a
    for k, factor in zip(range(-2, 5), (1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242)):
        if integer_bits > k and remainder & (1 << (fractional + k)):
            result = srdhm(result, factor)
    return INT32_MAX if a == 0 else result


def one_over_one_plus_x(a):
    s = a + INT32_MAX
    half = (s + (1 if s >= 0 else -1)) // 2 if s >= 0 else -((-(s - 1)) // 2)
    x = 1515870810 + srdhm(half, -1010580540)
    for _ in range(3):
        x = x + srmpot(srdhm(x, (1 << 29) - srdhm(half, x)), 2)
    return srmpot(x, 1)


def softmax_int8(xq, in_q):
    """TFLite's int8 softmax (reference_ops::Softmax) along the last axis, output 1/256 and -128."""
    real = min(float(np.float32(in_q[0])) * float(1 << 26), float(INT32_MAX))
    mult, left = quantize_multiplier(real)
    diff_min = -math.floor(31.0 * (1 << 26) / (1 << left))
    out = np.empty(xq.shape, dtype=np.int64)
    for idx in np.ndindex(xq.shape[:-1]):
        row = [int(v) for v in xq[idx]]
        mx = max(row)
        exps = [exp_on_negative_values(srdhm((v - mx) * (1 << left), mult), 5) if v - mx >= diff_min else None
                for v in row]
        total = sum(rdbpot1(e, 12) for e in exps if e is not None)
        headroom = 32 - total.bit_length()
        bits_over_unit = 12 - headroom
        scale = one_over_one_plus_x(((total << headroom) - (1 << 31)))
        exponent = bits_over_unit + 31 - 8
        out[idx] = [min(max(rdbpot1(srdhm(scale, e), exponent) - 128, -128), 127) if e is not None else -128
                    for e in exps]
    return out


def quantize_input(x, q):
    """ctnn::quant::quantize: round(x / scale) half away from zero, clamped, plus the zero point (float32)."""
    r = round_half_away((x.astype(np.float32) / np.float32(q[0])).astype(np.float64))
    return (np.clip(r, -128 - q[1], 127 - q[1]) + q[1]).astype(np.int64)


# ---- the model

class Model:
    def __init__(self, path):
        m = onnx.load(path)
        self.inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
        self.nodes = {n.name: n for n in m.graph.node}
        self.producer = {}
        self.consumers = {}
        for n in m.graph.node:
            for o in n.output:
                self.producer[o] = n
            for i in n.input:
                self.consumers.setdefault(i, []).append(n)
            if n.op_type == "Constant":
                for a in n.attribute:
                    if a.name == "value":
                        self.inits[n.output[0]] = numpy_helper.to_array(a.t)
        # torch.onnx keeps one copy of equal initializers and names the others through Identity
        # nodes (e.g. two BatchNorm betas trained alike); in graph order, so chains resolve
        for n in m.graph.node:
            if n.op_type == "Identity" and n.input[0] in self.inits:
                self.inits[n.output[0]] = self.inits[n.input[0]]

    @staticmethod
    def attrs(node):
        return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}

    def const(self, name):
        return None if not name else self.inits[name]

    def chain(self, start, target):
        """The BatchNormalization and activation nodes from tensor `start` to `target`."""
        t, steps = start, []
        while t != target:
            readers = self.consumers.get(t, [])
            if len(readers) != 1:
                raise SystemExit(f"int8_oracle: tensor {t} has {len(readers)} readers on the way to {target}")
            steps.append(readers[0])
            t = readers[0].output[0]
        return steps


def fold_and_act(model, steps, w, b):
    """Folds BatchNormalization steps into w, b (double, rounded to float32); returns w, b, act."""
    act = None
    for s in steps:
        if s.op_type == "BatchNormalization":
            if act is not None:
                raise SystemExit("int8_oracle: BatchNormalization after an activation")
            gamma, beta, mean, var = (model.const(s.input[k]).astype(np.float64) for k in range(1, 5))
            eps = float(np.float32(Model.attrs(s).get("epsilon", 1e-5)))
            mult = gamma / np.sqrt(var + eps)
            shape = (-1,) + (1,) * (w.ndim - 1)
            w = (w.astype(np.float64) * mult.reshape(shape)).astype(np.float32)
            b0 = np.zeros(w.shape[0]) if b is None else b.astype(np.float64)
            b = ((b0 - mean) * mult + beta).astype(np.float32)
        elif s.op_type == "Relu":
            act = ("relu",)
        elif s.op_type == "Clip":
            lo = model.const(s.input[1]) if len(s.input) > 1 else None
            hi = model.const(s.input[2]) if len(s.input) > 2 else None
            act = ("clip", -np.inf if lo is None else float(lo), np.inf if hi is None else float(hi))
            if act[1] == 0.0 and act[2] == np.inf:
                act = ("relu",)
        else:
            raise SystemExit(f"int8_oracle: {s.op_type} fused into a layer is not covered")
    return w, b, act


def run(cmd, what):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit(f"int8_oracle: {what} failed (exit {r.returncode}): {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    ap.add_argument("--onnx", required=True)
    ap.add_argument("--calibration", required=True)
    ap.add_argument("--input", required=True, help="float32 inputs [N, ...]; the first --samples are run")
    ap.add_argument("--work", required=True)
    ap.add_argument("--ctnn-import", required=True)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--rule", default="minmax")
    ap.add_argument("--samples", type=int, default=16)
    a = ap.parse_args()

    name = "model"
    gen = os.path.join(a.work, "gen")
    os.makedirs(gen, exist_ok=True)
    run([a.ctnn_import, a.onnx, "-o", gen, "--name", name, "--dtype", "int8", "--calibration", a.calibration,
         "--calibration-rule", a.rule], "ctnn-import")
    runner = os.path.join(a.work, "model-int8-run")
    run([a.cxx, "-std=c++20", "-O1", f"-I{SOURCE}/include", f"-I{gen}", f'-DCTNN_MODEL_HEADER="{name}.hpp"',
         f"-DCTNN_MODEL=ctnn_models::{name}_model", f"{SOURCE}/examples/onnx/model_runner.cpp",
         os.path.join(gen, f"{name}.S"), "-o", runner], "compiling the runner")
    x = np.load(a.input, mmap_mode="r")[:a.samples].astype(np.float32)
    xin = os.path.join(a.work, "input.npy")
    np.save(xin, x)
    dump = os.path.join(a.work, "layers")
    out = os.path.join(a.work, "out.raw.npy")
    run([runner, "--input", xin, "--output", out, "--raw", "--dump-layers", dump], "the int8 runner")

    with open(os.path.join(gen, f"{name}.hpp")) as f:
        header = f.read()

    def array(what):
        body = re.search(rf"{name}_{what}\[\] = \{{([^}}]*)\}}", header).group(1)
        return [v.strip() for v in body.split(",")]

    scales = [np.float32(float.fromhex(v.rstrip("f"))) for v in array("tensor_scales")]
    zps = [int(v) for v in array("tensor_zero_points")]
    quant = list(zip(scales, zps))
    model = Model(a.onnx)

    tensors = {0: quantize_input(x, quant[0])}
    layers = []
    with open(os.path.join(dump, "layers.tsv")) as f:
        for line in f:
            leaf, file, node, onnx_out, inputs = line.rstrip("\n").split("\t")
            layers.append((int(leaf), file, node, onnx_out, [int(i) for i in inputs.split(",")]))
    failures = 0
    print(f"{'leaf':>4}  {'node':<34} {'op':<18} {'elements':>9}  result")
    for leaf, file, node_name, onnx_out, inputs in layers:
        got = np.load(os.path.join(dump, file))
        if got.dtype != np.int8:
            raise SystemExit(f"int8_oracle: {file} is {got.dtype}, not int8 (--raw)")
        node = model.nodes[node_name]
        ins = [tensors[i] for i in inputs]
        in_q = [quant[i] for i in inputs]
        out_q = quant[leaf + 1]
        at = Model.attrs(node)
        op = node.op_type
        if op == "Conv":
            w, b, act = fold_and_act(model, model.chain(node.output[0], onnx_out),
                                     model.const(node.input[1]), model.const(node.input[2]) if len(node.input) > 2 else None)
            want = conv_int8(ins[0], in_q[0], out_q, w, b, at, act)
        elif op == "Gemm":
            w = model.const(node.input[1])
            if not at.get("transB", 0):
                w = w.T
            if at.get("transA", 0) or at.get("alpha", 1.0) != 1.0 or at.get("beta", 1.0) != 1.0:
                raise SystemExit("int8_oracle: Gemm with transA, alpha or beta is not covered")
            w, b, act = fold_and_act(model, model.chain(node.output[0], onnx_out), w,
                                     model.const(node.input[2]) if len(node.input) > 2 else None)
            want = linear_int8(ins[0].reshape(len(x), -1), in_q[0], out_q, w, b, act)
        elif op == "Add":
            _, _, act = fold_and_act(model, model.chain(node.output[0], onnx_out), np.zeros((1, 1)), None)
            want = add_int8(ins[0], ins[1], in_q[0], in_q[1], out_q, act)
        elif op == "MaxPool":
            if in_q[0] != out_q:
                raise SystemExit(f"int8_oracle: {node_name}: max pooling changes the quantization")
            want = max_pool_int8(ins[0], at)
        elif op == "GlobalAveragePool":
            if in_q[0] != out_q:
                raise SystemExit(f"int8_oracle: {node_name}: average pooling changes the quantization")
            want = global_avg_pool_int8(ins[0])
        elif op == "Flatten":
            want = ins[0].reshape(len(x), -1)
        elif op == "Mul" and any(model.producer.get(t) is not None and model.producer[t].op_type == "HardSigmoid"
                                 and model.producer[t].input[0] in node.input for t in node.input):
            want = hardswish_int8(ins[0], in_q[0], out_q)  # x * HardSigmoid(x): one hard swish
        elif op == "Mul":
            b = ins[1]
            if b.ndim == 4 and b.shape[2:] == (1, 1):
                b = np.broadcast_to(b, ins[0].shape)
            want = mul_int8(ins[0], b, in_q[0], in_q[1], out_q)
        elif op == "HardSwish":
            want = hardswish_int8(ins[0], in_q[0], out_q)
        elif op == "Sigmoid":
            want = lut_int8(ins[0], in_q[0], out_q, lambda v: 1.0 / (1.0 + np.exp(-v)))
        elif op == "Tanh":
            want = lut_int8(ins[0], in_q[0], out_q, np.tanh)
        elif op == "Softmax":
            if out_q != (np.float32(1.0 / 256.0), -128):
                raise SystemExit(f"int8_oracle: {node_name}: softmax output quantization {out_q}, not 1/256 and -128")
            flat = ins[0].reshape(len(x), -1) if ins[0].ndim == 2 else np.moveaxis(ins[0], 1, -1)
            want = softmax_int8(flat, in_q[0])
            if ins[0].ndim != 2:
                want = np.moveaxis(want, -1, 1)
        else:
            raise SystemExit(f"int8_oracle: {op} ({node_name}) is not covered")
        want = want.reshape(got.shape)
        bad = int((want != got.astype(np.int64)).sum())
        failures += bad != 0
        print(f"{leaf:>4}  {node_name[-34:]:<34} {op:<18} {got.size:>9}  "
              f"{'bit-exact' if bad == 0 else f'{bad} differ (max |diff| {int(np.abs(want - got).max())})'}")
        tensors[leaf + 1] = got.astype(np.int64)  # the next layers start from ctnn's own output
    final = np.load(out)
    last = np.load(os.path.join(dump, layers[-1][1]))
    if final.dtype != np.int8 or not np.array_equal(final, last.reshape(final.shape)):
        print("the runner's --raw output differs from its last layer")
        failures += 1
    print(f"{len(layers) - failures if failures <= len(layers) else 0}/{len(layers)} layers bit-exact with the "
          f"numpy TFLite reference on {len(x)} samples")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
