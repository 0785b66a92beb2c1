#!/usr/bin/python3
"""PyTorch baseline for BenchmarkMLPTrainStep and BenchmarkAdamWStepMLP (same model, batch and
optimizer). Run: /usr/bin/python3 nn/testdata/torch_mlp_step.py [threads]"""
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
opt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=0.01)
x = torch.randn(128, 784)
y = torch.randint(0, 10, (128,))


def step():
    loss = F.cross_entropy(m(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)


def bench(fn, n=200):
    for _ in range(10):
        fn()
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
    return best


print(f"torch {torch.__version__} threads={torch.get_num_threads()}")
print(f"mlp_train_step_ms {bench(step) * 1e3:.3f}")
for p in m.parameters():
    p.grad = torch.ones_like(p)
print(f"adamw_step_ms {bench(opt.step) * 1e3:.3f}")
