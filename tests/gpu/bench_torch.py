"""PyTorch side of tests/gpu/check.sh: the same measurements as gpubench, on the same GPU, in
PyTorch's fastest documented setting (bf16 tensors for the bf16 GEMM; fused AdamW; full fp32
matmul, TF32 off, as goaccel's default). Prints "name value unit" lines."""
import sys
import time

import torch

dev = torch.device("cuda:0")
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


def gemm(n, dtype):
    a = torch.randn(n, n, device=dev, dtype=dtype)
    b = torch.randn(n, n, device=dev, dtype=dtype)
    for _ in range(3):
        a @ b
    torch.cuda.synchronize()
    reps = 5
    while True:
        t = time.perf_counter()
        for _ in range(reps):
            a @ b
        torch.cuda.synchronize()
        el = time.perf_counter() - t
        if el > 0.5 or reps >= 1000:
            return 2 * n ** 3 * reps / el / 1e12
        reps *= 4


def mlp_step(steps=200):
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),
                            torch.nn.Linear(512, 10)).to(dev)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=0.01, fused=True)
    x = torch.randn(128, 784, device=dev)
    y = torch.randint(0, 10, (128,), device=dev)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        loss = loss_fn(m(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    for _ in range(20):
        step()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) * 1000 / steps


for n in (4096, 8192):
    print(f"gemm_fp32_{n} {gemm(n, torch.float32):.1f} TFLOP/s")
    print(f"gemm_bf16_{n} {gemm(n, torch.bfloat16):.1f} TFLOP/s")
print(f"mlp_step {mlp_step():.3f} ms")
sys.stdout.flush()
