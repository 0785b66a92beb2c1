#!/usr/bin/python3
"""PyTorch baseline for BenchmarkMLPTrainStep and BenchmarkAdamWStepMLP (same model, batch and
optimizer), in PyTorch's fastest documented setting: AdamW(foreach=True), gradients set to None,
at 1 and 2 threads (the better is the baseline). bench/tensors.sh runs the same step side by side
with the Go benchmark; this script is the quick stand-alone check.
Run: /usr/bin/python3 nn/testdata/torch_mlp_step.py"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


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


print(f"torch {torch.__version__}, AdamW(foreach=True), zero_grad(set_to_none=True)")
for threads in (1, 2):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=0.01, foreach=True)
    x = torch.randn(128, 784)
    y = torch.randint(0, 10, (128,))

    def step():
        loss = F.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    print(f"threads={threads} mlp_train_step_ms {bench(step) * 1e3:.3f}")
    for p in m.parameters():
        p.grad = torch.ones_like(p)
    print(f"threads={threads} adamw_step_ms {bench(opt.step) * 1e3:.3f}")
