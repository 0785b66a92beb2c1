"""A standard-library + torch reimplementation of the safetensors format (the Python `safetensors`
package is not installable here). It follows the reference Rust implementation: tensors sorted by
descending dtype enum rank then name, "__metadata__" first, the JSON header compact and padded with
spaces to a multiple of 8 bytes, an 8-byte little-endian header length in front."""
import json
import struct

import torch

DTYPES = {torch.float64: "F64", torch.float32: "F32", torch.float16: "F16",
          torch.bfloat16: "BF16", torch.int64: "I64"}
RANK = {"BOOL": 0, "U8": 1, "I8": 2, "F8_E5M2": 3, "F8_E4M3": 4, "I16": 5, "U16": 6, "F16": 7,
        "BF16": 8, "I32": 9, "U32": 10, "F32": 11, "F64": 12, "I64": 13, "U64": 14}
TORCH = {v: k for k, v in DTYPES.items()}
SIZE = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8}


def tensor_bytes(t):
    t = t.detach().contiguous().cpu()
    if t.dtype in (torch.bfloat16, torch.float16):
        return t.view(torch.int16).numpy().astype("<i2").tobytes()
    return t.numpy().astype(t.numpy().dtype.newbyteorder("<")).tobytes()


def save(tensors, path, metadata=None):
    items = sorted(tensors.items(), key=lambda kv: (-RANK[DTYPES[kv[1].dtype]], kv[0]))
    header, blobs, off = {}, [], 0
    if metadata:
        header["__metadata__"] = dict(sorted(metadata.items()))
    for name, t in items:
        b = tensor_bytes(t)
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        off += len(b)
        blobs.append(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", None)
    body = data[8 + n:]
    out = {}
    for name, e in header.items():
        a, b = e["data_offsets"]
        dt = e["dtype"]
        raw = bytearray(body[a:b])
        if dt in ("F16", "BF16"):
            t = torch.frombuffer(raw, dtype=torch.int16).view(TORCH[dt]) if raw else torch.empty(0, dtype=TORCH[dt])
        else:
            t = torch.frombuffer(raw, dtype=TORCH[dt]) if raw else torch.empty(0, dtype=TORCH[dt])
        out[name] = t.reshape(e["shape"]).clone()
    return out, meta
