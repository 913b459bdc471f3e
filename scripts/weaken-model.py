#!/usr/bin/env python3
"""Make a weaker copy of a Model2Vec model folder, for showing that the
fusion calibration adapts (issue 16): `vaultctx eval --model OUT`.

    scripts/weaken-model.py SRC OUT --dims 25          # keep the first 25 dimensions
    scripts/weaken-model.py SRC OUT --noise 0.5 [--seed 1]  # add Gaussian noise

--dims keeps the first N dimensions of every row (a dimension cut: GloVe's
dimensions are not ordered by variance, so this is a random projection in
effect). --noise adds N(0, (sigma * rms)^2) to every value, rms being the
root mean square of the row, so every row keeps its signal-to-noise ratio
1/sigma whatever its Zipf weight. Both keep the dtype (F16 or F32), the
tokenizer and the config (hidden_dim updated). Standard library only. The
output is a model for measurement, not for committing.
"""
import argparse
import json
import math
import os
import random
import shutil
import struct
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src")
    ap.add_argument("out")
    ap.add_argument("--dims", type=int, default=0)
    ap.add_argument("--noise", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if (a.dims > 0) == (a.noise > 0):
        sys.exit("give exactly one of --dims N and --noise SIGMA")
    with open(os.path.join(a.src, "model.safetensors"), "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    tensors = [k for k in header if k != "__metadata__"]
    if tensors != ["embeddings"]:
        sys.exit(f"{a.src}: tensors {tensors}: only a plain model with one 'embeddings' tensor is supported")
    t = header["embeddings"]
    dtype, (rows, dim) = t["dtype"], t["shape"]
    if dtype not in ("F16", "F32"):
        sys.exit(f"{a.src}: dtype {dtype}: only F16 and F32 are supported")
    code, size = {"F16": ("e", 2), "F32": ("f", 4)}[dtype]
    start, end = t["data_offsets"]
    raw = data[start:end]
    out = bytearray()
    if a.dims:
        if a.dims >= dim:
            sys.exit(f"--dims {a.dims}: the model has only {dim}")
        row = dim * size
        for i in range(rows):
            out += raw[i * row:i * row + a.dims * size]
        newdim = a.dims
        what = f"first {a.dims} of {dim} dimensions"
    else:
        rng = random.Random(a.seed)
        vals = struct.unpack(f"<{rows * dim}{code}", raw)
        noisy = []
        for i in range(rows):
            r = vals[i * dim:(i + 1) * dim]
            rms = math.sqrt(sum(x * x for x in r) / dim)
            noisy.extend(x + rng.gauss(0, a.noise * rms) for x in r)
        out = bytearray(struct.pack(f"<{rows * dim}{code}", *noisy))
        newdim = dim
        what = f"Gaussian noise sigma {a.noise} x row rms, seed {a.seed}"
    t["shape"] = [rows, newdim]
    t["data_offsets"] = [0, len(out)]
    meta = header.setdefault("__metadata__", {})
    meta["weakened"] = what
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + bytes(out))
    for fn in os.listdir(a.src):
        if fn not in ("model.safetensors", "config.json") and os.path.isfile(os.path.join(a.src, fn)):
            shutil.copy(os.path.join(a.src, fn), a.out)
    cfgp = os.path.join(a.src, "config.json")
    if os.path.exists(cfgp):
        with open(cfgp) as f:
            cfg = json.load(f)
        cfg["hidden_dim"] = newdim
        with open(os.path.join(a.out, "config.json"), "w") as f:
            json.dump(cfg, f, indent=2)
    print(f"{a.out}: {rows} x {newdim} {dtype}, {what}")


if __name__ == "__main__":
    main()
