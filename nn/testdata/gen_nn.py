#!/usr/bin/python3
"""Writes the nn package's PyTorch fixtures (run: /usr/bin/python3 nn/testdata/gen_nn.py):

- reference.safetensors: one tensor of each supported dtype plus metadata, written as the reference
  implementation lays the format out; reference.json holds the values Go must read from it.
- <model>.safetensors + models.json: small torch.nn models (their state_dict), an input, and the
  outputs, loss and parameter gradients PyTorch computes, for Go to reproduce after LoadStateDict.
- init stats of PyTorch's default Linear/Conv2d/Embedding initialisation.
"""
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

import safetensors_ref

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


# 1. reference file with every dtype
ref = {
    "weight.f32": (torch.arange(6, dtype=torch.float32) * 0.5 - 1.25).reshape(2, 3),
    "weight.f64": torch.tensor([1e-300, -2.5, 3.141592653589793], dtype=torch.float64),
    "half.bf16": torch.tensor([1.0, -2.5, 3.140625, 1e-3, 65280.0], dtype=torch.bfloat16),
    "half.f16": torch.tensor([[0.5, -65504.0], [6.1035e-05, 5.9605e-08]], dtype=torch.float16),
    "labels": torch.tensor([0, 9, -100, 2**40, -(2**62)], dtype=torch.int64),
    "scalar": torch.tensor(7.25, dtype=torch.float32),
    "empty": torch.zeros(0, 3, dtype=torch.float32),
}
meta = {"format": "pt", "note": "written by gen_nn.py"}
safetensors_ref.save(ref, os.path.join(HERE, "reference.safetensors"), meta)
back, back_meta = safetensors_ref.load(os.path.join(HERE, "reference.safetensors"))
assert back_meta == meta and all(torch.equal(back[k], ref[k]) for k in ref)
with open(os.path.join(HERE, "reference.json"), "w") as f:
    json.dump({"metadata": meta, "tensors": {
        k: {"dtype": safetensors_ref.DTYPES[v.dtype], "shape": list(v.shape),
            "values": [int(x) for x in v.reshape(-1).tolist()] if v.dtype == torch.int64 else flat(v.float() if v.dtype != torch.float64 else v)}
        for k, v in ref.items()}}, f, indent=1)


# 2. models
def mlp():
    return nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Dropout(0.5), nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 3))


def cnn():
    return nn.Sequential(nn.Conv2d(2, 3, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(3, 4, 3, stride=2, padding=1), nn.GELU(), nn.Flatten(), nn.Linear(16, 3))


def emb():
    return nn.Sequential(nn.Embedding(10, 6), nn.LayerNorm(6), nn.Linear(6, 4))


cases = []
for name, make, x, loss_kind in [
    ("mlp", mlp, torch.randn(4, 6), "ce"),
    ("cnn", cnn, torch.randn(2, 2, 8, 8), "ce"),
    ("emb", emb, torch.randint(0, 10, (2, 5)), "mse"),
]:
    model = make()
    with torch.no_grad():  # move LayerNorm off its ones/zeros init so the affine part is tested
        for p in model.parameters():
            if p.dim() == 1:
                p.add_(torch.randn_like(p) * 0.1)
    model.eval()
    out = model(x)
    if loss_kind == "ce":
        target = torch.randint(0, out.shape[-1], (out.shape[0],))
        loss = F.cross_entropy(out, target)
        tgt = {"target_int": [int(v) for v in target.tolist()]}
    else:
        target = torch.randn(out.shape)
        loss = F.mse_loss(out, target)
        tgt = {"target": flat(target), "target_shape": list(target.shape)}
    loss.backward()
    sd = model.state_dict()
    safetensors_ref.save(dict(sd), os.path.join(HERE, name + ".safetensors"), {"format": "pt"})
    case = {"name": name, "loss_kind": loss_kind, "keys": list(sd.keys()),
            "input_shape": list(x.shape), "output_shape": list(out.shape),
            "output": flat(out), "loss": float(loss),
            "grads": {k: flat(p.grad) for k, p in model.named_parameters()}}
    if x.dtype == torch.int64:
        case["input_int"] = [int(v) for v in x.reshape(-1).tolist()]
    else:
        case["input"] = flat(x)
    case.update(tgt)
    cases.append(case)


# 3. default-initialisation statistics (averaged over several draws)
def stats(ts):
    w = torch.cat([t.detach().reshape(-1) for t in ts])
    return {"mean": float(w.mean()), "std": float(w.std()), "absmax": float(w.abs().max())}


init = {
    "linear_784_512": {"weight": stats([nn.Linear(784, 512).weight for _ in range(3)]),
                       "bias": stats([nn.Linear(784, 512).bias for _ in range(50)])},
    "conv_16_32_5": {"weight": stats([nn.Conv2d(16, 32, 5).weight for _ in range(5)]),
                     "bias": stats([nn.Conv2d(16, 32, 5).bias for _ in range(200)])},
    "embedding_1000_64": {"weight": stats([nn.Embedding(1000, 64).weight])},
}

with open(os.path.join(HERE, "models.json"), "w") as f:
    json.dump({"torch": torch.__version__, "models": cases, "init": init}, f)
print("wrote fixtures to", HERE)
