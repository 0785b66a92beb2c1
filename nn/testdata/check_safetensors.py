#!/usr/bin/python3
"""Reads a safetensors file written by goaccel with an independent reader and checks it holds what
reference.json says (run by nn's Go tests when /usr/bin/python3 with torch is available):
    /usr/bin/python3 check_safetensors.py FILE reference.json
Exits non-zero with a message on any difference."""
import json
import sys

import torch

import safetensors_ref

path, expected = sys.argv[1], sys.argv[2]
with open(expected) as f:
    want = json.load(f)
got, meta = safetensors_ref.load(path)
with open(path, "rb") as f:
    raw = f.read()
n = int.from_bytes(raw[:8], "little")
assert n % 8 == 0, f"header length {n} is not a multiple of 8"
assert meta == want["metadata"], f"metadata {meta} != {want['metadata']}"
assert set(got) == set(want["tensors"]), f"keys {sorted(got)} != {sorted(want['tensors'])}"
for name, w in want["tensors"].items():
    t = got[name]
    assert safetensors_ref.DTYPES[t.dtype] == w["dtype"], f"{name}: dtype {t.dtype} != {w['dtype']}"
    assert list(t.shape) == w["shape"], f"{name}: shape {list(t.shape)} != {w['shape']}"
    if t.dtype == torch.int64:
        vals = t.reshape(-1).tolist()
    else:
        vals = t.double().reshape(-1).tolist()
    assert vals == w["values"], f"{name}: values {vals} != {w['values']}"
print("ok", len(got), "tensors")
