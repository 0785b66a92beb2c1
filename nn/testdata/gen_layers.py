#!/usr/bin/python3
"""Writes layers.json and layers_<model>.safetensors: the normalisation and pooling layers in
training and evaluation, from PyTorch (run: /usr/bin/python3 nn/testdata/gen_layers.py).

Each model starts from the state dict in its .safetensors file, trains STEPS steps of plain SGD
(lr LR) in training mode, recording each step's loss and the gradients of the first step; then
the final state dict (parameters and buffers: BatchNorm's running statistics and
num_batches_tracked) and the outputs in evaluation mode on another batch. The Go test
(layers_parity_test.go) replays the same steps.
"""
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

import safetensors_ref

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS, LR = 3, 0.1
torch.manual_seed(24)


class RMSNorm(nn.Module):
    """PyTorch 2.4's nn.RMSNorm (torch 1.13 has none), with its parameter name."""

    def __init__(self, n, eps=None):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))
        self.eps = eps

    def forward(self, x):
        eps = torch.finfo(x.dtype).eps if self.eps is None else self.eps
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * self.weight


def cnn():
    return nn.Sequential(
        nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.AvgPool2d(2),
        nn.Conv2d(4, 6, 3, padding=1), nn.GroupNorm(2, 6), nn.ReLU(),
        nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(), RMSNorm(8), nn.Linear(8, 3))


def bn_variants():
    return nn.Sequential(
        nn.Linear(5, 4), nn.BatchNorm1d(4, momentum=None), nn.BatchNorm1d(4, affine=False, eps=1e-3),
        nn.BatchNorm1d(4, track_running_stats=False, momentum=0.3), nn.Linear(4, 3))


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


cases = []
for name, make, shape in [("cnn", cnn, (6, 2, 8, 8)), ("bn_variants", bn_variants, (7, 5))]:
    model = make()
    with torch.no_grad():  # weights and biases off their ones/zeros init so the affine part is tested
        for p in model.parameters():
            if p.dim() == 1:
                p.add_(torch.randn_like(p) * 0.1)
    init = {k: v.clone() for k, v in model.state_dict().items()}
    safetensors_ref.save(init, os.path.join(HERE, f"layers_{name}.safetensors"), {"format": "pt"})
    xs = [torch.randn(shape) * 1.5 + 0.3 for _ in range(STEPS)]
    ys = [torch.randint(0, 3, (shape[0],)) for _ in range(STEPS)]
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    model.train()
    losses, grads = [], None
    for x, y in zip(xs, ys):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        if grads is None:
            grads = {k: flat(p.grad) for k, p in model.named_parameters()}
        opt.step()
        losses.append(float(loss))
    model.eval()
    xe = torch.randn(shape)
    with torch.no_grad():
        out = model(xe)
    cases.append({
        "name": name, "keys": list(init.keys()), "steps": STEPS, "lr": LR,
        "inputs": [flat(x) for x in xs], "input_shape": list(shape), "targets": [[int(v) for v in y] for y in ys],
        "losses": losses, "grads": grads,
        "state": {k: flat(v.float()) for k, v in model.state_dict().items()},
        "eval_input": flat(xe), "eval_output": flat(out), "eval_shape": list(out.shape),
    })

with open(os.path.join(HERE, "layers.json"), "w") as f:
    json.dump({"torch": torch.__version__, "models": cases}, f)
print("wrote layers.json")
