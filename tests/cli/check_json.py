#!/usr/bin/env python3
"""Checks ctnn-report's JSON for every zoo model and dtype: valid JSON, the keys tools depend on,
totals equal to the sums over the layers, and the published parameter counts."""
import json
import subprocess
import sys

PUBLISHED = {"lenet5": 61706, "alexnet": 61100840, "vgg16": 138357544, "googlenet": 6624904,
             "resnet18": 11689512, "resnet50": 25557032, "mobilenet_v2": 3504872}
TOP = ["model", "dtype", "input_shape", "output_shape", "params_total", "weight_bytes", "macs_conv_linear",
       "macs_total", "activation_bytes_sum", "peak_io_bytes", "arena_bytes", "arena_lower_bound_bytes", "layers"]
LAYER = ["name", "type", "input_shape", "output_shape", "params", "macs", "output_bytes", "read_bytes", "write_bytes"]

exe = sys.argv[1]
models = subprocess.run([exe, "--list"], check=True, capture_output=True, text=True).stdout.split()
assert sorted(models) == sorted(PUBLISHED), models
for model in models:
    for dtype, size in (("float32", 4), ("int8", 1)):
        out = subprocess.run([exe, model, "--dtype", dtype, "--format", "json"], check=True,
                             capture_output=True, text=True).stdout
        d = json.loads(out)
        missing = [k for k in TOP if k not in d]
        assert not missing, (model, missing)
        assert d["dtype"] == dtype
        assert d["params_total"] == PUBLISHED[model], (model, d["params_total"])
        layers = d["layers"]
        for layer in layers:
            assert all(k in layer for k in LAYER), (model, layer)
            n = 1
            for x in layer["output_shape"]:
                n *= x
            assert layer["output_bytes"] == n * size, (model, layer)
            assert layer["write_bytes"] == layer["output_bytes"]
        assert sum(l["params"] for l in layers) == d["params_total"]
        assert sum(l["macs"] for l in layers) == d["macs_conv_linear"]
        assert sum(l["output_bytes"] for l in layers) == d["activation_bytes_sum"]
        assert d["output_shape"] == layers[-1]["output_shape"]
        assert d["peak_io_bytes"] >= max(l["output_bytes"] for l in layers)
        assert d["arena_bytes"] >= d["arena_lower_bound_bytes"] > 0
        assert d["arena_bytes"] <= d["arena_baseline_bytes"]
        for layer in layers:
            assert 0 <= layer["arena_offset"] < d["arena_bytes"]
print(f"checked {len(models)} models x 2 dtypes")
