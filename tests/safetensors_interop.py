"""goaccel's safetensors files read by Python's own library, and files that
library writes for goaccel to read (tests/safetensors_interop_test.go).

    python safetensors_interop.py FILE EXPECTED.json [FILE EXPECTED.json ...] --write DIR

Each FILE, written by goaccel, must load with safetensors (0.8, its Rust
core) with the dtypes, shapes, bits, values and metadata EXPECTED.json lists,
and safetensors.numpy.save of what was loaded must write the same file (the
metadata's keys in any order: the Rust writer keeps them in a HashMap).
NumPy has no bfloat16 and safetensors.numpy cannot load BF16: those
tensors are read with safetensors.deserialize (the Rust reader) and viewed as
ml_dtypes.bfloat16. --write DIR writes numpy.safetensors and bf16.safetensors
with safetensors.numpy.save_file (which writes ml_dtypes.bfloat16 arrays as
BF16), each with a JSON of what it holds, for goaccel to load. Prints one line per file and exits 1 on any difference.
"""
import json
import math
import os
import sys

import ml_dtypes
import numpy as np
import safetensors
import safetensors.numpy

# safetensors dtype → the NumPy dtype a reader gets, and the unsigned type
# of the same width whose values are the element's bits.
DTYPES = {
    "F64": (np.dtype(np.float64), np.uint64),
    "F32": (np.dtype(np.float32), np.uint32),
    "F16": (np.dtype(np.float16), np.uint16),
    "BF16": (np.dtype(ml_dtypes.bfloat16), np.uint16),
    "I64": (np.dtype(np.int64), None),
}
NAME_OF = {np_dtype: st for st, (np_dtype, _) in DTYPES.items()}


def text(v):
    """A float's value as text that Go's strconv.ParseFloat and Python's
    float() both read back exactly (repr: "inf", "-0.0", "nan", …)."""
    return repr(float(v))


def describe(arr):
    """An array as the expectations describe a tensor."""
    st = NAME_OF[arr.dtype]
    d = {"dtype": st, "shape": list(arr.shape), "values": []}
    flat = arr.reshape(-1)
    if st == "I64":
        d["ints"] = [int(v) for v in flat]
        d["values"] = [str(int(v)) for v in flat]
    else:
        d["bits"] = [int(b) for b in flat.view(DTYPES[st][1])]
        d["values"] = [text(v) for v in flat.astype(np.float64)]
    return d


def load(path):
    """Every tensor of the file as NumPy arrays: safetensors.numpy for the
    dtypes NumPy has, safetensors.deserialize and ml_dtypes for BF16."""
    with safetensors.safe_open(path, framework="np") as f:
        metadata = f.metadata() or {}
        names = list(f.keys())
    with open(path, "rb") as f:
        raw = f.read()
    views = dict(safetensors.deserialize(raw))
    arrays = {}
    for name in names:
        v = views[name]
        if v["dtype"] == "BF16":
            arrays[name] = np.frombuffer(v["data"], dtype=ml_dtypes.bfloat16).reshape(v["shape"])
    plain = [n for n in names if views[n]["dtype"] != "BF16"]
    if plain:
        with safetensors.safe_open(path, framework="np") as f:
            for n in plain:
                arrays[n] = f.get_tensor(n)
    return arrays, metadata, raw


def check_file(path, expected_path):
    with open(expected_path) as f:
        want = json.load(f)
    arrays, metadata, raw = load(path)
    problems = []
    if metadata != want["metadata"]:
        problems.append(f"metadata {metadata} != {want['metadata']}")
    if set(arrays) != set(want["tensors"]):
        problems.append(f"tensors {sorted(arrays)} != {sorted(want['tensors'])}")
    for name, w in want["tensors"].items():
        if name not in arrays:
            continue
        a = arrays[name]
        got = describe(a)
        if got["dtype"] != w["dtype"] or a.dtype != DTYPES[w["dtype"]][0]:
            problems.append(f"{name}: dtype {a.dtype} ({got['dtype']}), want {w['dtype']}")
        if got["shape"] != w["shape"]:
            problems.append(f"{name}: shape {got['shape']}, want {w['shape']}")
        # (Go's JSON leaves an empty tensor's lists out.)
        if (got.get("bits") or []) != (w.get("bits") or []) or (got.get("ints") or []) != (w.get("ints") or []):
            problems.append(f"{name}: bits {got.get('bits') or got.get('ints')}, want {w.get('bits') or w.get('ints')}")
        # The values, compared as numbers (not as text: formatting differs).
        for i, (g, e) in enumerate(zip(a.reshape(-1).astype(np.float64 if w["dtype"] != "I64" else np.int64), w["values"])):
            ev = int(e) if w["dtype"] == "I64" else float(e)  # float() reads Go's "+Inf", "-0", "NaN" too
            same = (math.isnan(g) and math.isnan(ev)) if w["dtype"] != "I64" and math.isnan(ev) else g == ev
            if not same or (w["dtype"] != "I64" and ev == 0 and math.copysign(1, g) != math.copysign(1, ev)):
                problems.append(f"{name}[{i}]: {g!r}, want {e}")
    # The library's own writer, given the same tensors, writes the same file:
    # the same header (tensors in the same order at the same offsets, the
    # same metadata, the same padding) and the same data. Only the metadata's
    # key order may differ: the Rust writer keeps it in a HashMap.
    again = safetensors.numpy.save(arrays, metadata=metadata or None)
    if split(again, problems, "safetensors.numpy.save") != split(raw, problems, "goaccel"):
        problems.append(f"safetensors.numpy.save writes another file: header {again[8:8 + int.from_bytes(again[:8], 'little')][:300]!r},"
                        f" goaccel's {raw[8:8 + int.from_bytes(raw[:8], 'little')][:300]!r}")
    return problems, len(arrays)


def split(raw, problems, who):
    """A file as (header length, metadata, tensor entries in order, data)."""
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n], object_pairs_hook=list)
    if header and header[0][0] == "__metadata__":
        metadata, entries = dict(header[0][1]), header[1:]
    else:
        metadata, entries = {}, header
        if any(k == "__metadata__" for k, _ in header):
            problems.append(f"{who}: __metadata__ is not the header's first key")
    return n, metadata, [(k, dict(v)) for k, v in entries], raw[8 + n:]


def write(folder):
    """Files written by Python's safetensors, and what they hold."""
    f32 = np.array([[0.0, -0.0, 1.5], [np.inf, -np.inf, np.nan], [np.finfo(np.float32).max, np.finfo(np.float32).smallest_subnormal, 0.1]], dtype=np.float32)
    tensors = {
        "w.f32": f32,
        "w.f64": np.array([np.pi, -np.e, np.finfo(np.float64).tiny, 1e300], dtype=np.float64),
        "w.f16": np.array([1.0, -65504.0, np.finfo(np.float16).smallest_subnormal, np.inf], dtype=np.float16),
        "labels.i64": np.array([[7, -3], [np.iinfo(np.int64).max, np.iinfo(np.int64).min]], dtype=np.int64),
        "scalar.f32": np.array(2.5, dtype=np.float32),
    }
    md = {"format": "np", "written_by": "safetensors.numpy"}
    safetensors.numpy.save_file(tensors, os.path.join(folder, "numpy.safetensors"), metadata=md)
    with open(os.path.join(folder, "numpy.json"), "w") as f:
        json.dump({"metadata": md, "tensors": {n: describe(a) for n, a in tensors.items()}}, f)

    # save_file writes ml_dtypes.bfloat16 arrays as BF16 (its load cannot read them back).
    bf = np.array([[1.0, -2.5, 0.15625], [np.inf, -0.0, 3.140625]], dtype=ml_dtypes.bfloat16)
    bf_small = np.array([ml_dtypes.finfo(ml_dtypes.bfloat16).max, ml_dtypes.finfo(ml_dtypes.bfloat16).smallest_subnormal], dtype=ml_dtypes.bfloat16)
    views = {"w.bf16": bf, "w.bf16.extremes": bf_small, "w.f32.beside": np.array([0.5, -0.5], dtype=np.float32)}
    safetensors.numpy.save_file(views, os.path.join(folder, "bf16.safetensors"), metadata={"format": "pt"})
    with open(os.path.join(folder, "bf16.json"), "w") as f:
        json.dump({"metadata": {"format": "pt"}, "tensors": {n: describe(a) for n, a in views.items()}}, f)
    print(f"wrote numpy.safetensors ({len(tensors)} tensors) and bf16.safetensors ({len(views)} tensors) in {folder}")


def main(argv):
    out = None
    if "--write" in argv:
        i = argv.index("--write")
        out, argv = argv[i + 1], argv[:i] + argv[i + 2:]
    failed = 0
    for path, expected in zip(argv[0::2], argv[1::2]):
        problems, n = check_file(path, expected)
        if problems:
            failed += 1
            print(f"FAIL {os.path.basename(path)}:\n  " + "\n  ".join(problems))
        else:
            print(f"PASS {os.path.basename(path)}: {n} tensors, dtypes, shapes, values and metadata as goaccel wrote them; "
                  f"safetensors.numpy.save writes the same file")
    if out:
        write(out)
    print(f"{len(argv) // 2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
