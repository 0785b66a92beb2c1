#!/usr/bin/python3
"""Anchor for bench/launch_cell.sh: HuggingFace Accelerate 0.21's
notebook_launcher on PyTorch (Debian's 1.13), the way a notebook uses it:
torch and accelerate already imported (an earlier cell), then
notebook_launcher(train, args, num_processes=2) with Accelerator(cpu=True),
the MLP 784-512-512-10, AdamW(foreach=True), global batch 128 (64 per
process), one thread per process.

Accelerate is not packaged in Debian: point ACCELERATE_SRC at a checkout of
github.com/huggingface/accelerate at tag v0.21.0 (its src/ folder goes on
sys.path). Prints one line:

  accelerate procs=2 launch_to_first_step_ms=2600 ms_per_step=11.3
"""
import argparse
import os
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=10)
    a = ap.parse_args()
    src = os.environ.get("ACCELERATE_SRC", "")
    if not src or not os.path.isdir(src):
        print("accelerate: ACCELERATE_SRC is not set to a checkout of huggingface/accelerate v0.21.0; skipping the anchor")
        return
    sys.path.insert(0, os.path.join(src, "src") if os.path.isdir(os.path.join(src, "src")) else src)
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset
    import accelerate
    from accelerate import Accelerator, notebook_launcher

    def train(t0, steps, warmup):
        acc = Accelerator(cpu=True)
        torch.set_num_threads(1)  # after Accelerator, which sets 2 when OMP_NUM_THREADS is unset
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3, foreach=True)
        x, y = torch.randn(1024, 784), torch.randint(0, 10, (1024,))
        loader = DataLoader(TensorDataset(x, y), batch_size=128 // acc.num_processes, shuffle=True)
        model, opt, loader = acc.prepare(model, opt, loader)
        loss_fn = nn.CrossEntropyLoss()
        it = iter(loader)
        first = t1 = None
        for i in range(warmup + steps):
            if i == warmup:
                acc.wait_for_everyone()
                t1 = time.time()
            try:
                xb, yb = next(it)
            except StopIteration:
                it = iter(loader)
                xb, yb = next(it)
            loss = loss_fn(model(xb), yb)
            acc.backward(loss)
            opt.step()
            opt.zero_grad()
            if i == 0:
                first = time.time() - t0
        acc.wait_for_everyone()
        per = (time.time() - t1) / steps
        if acc.is_main_process:
            print(f"accelerate procs={acc.num_processes} launch_to_first_step_ms={first * 1000:.0f} ms_per_step={per * 1000:.2f}", flush=True)

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert accelerate.__version__ == "0.21.0", f"ACCELERATE_SRC holds accelerate {accelerate.__version__}, not 0.21.0"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    t0 = time.time()
    notebook_launcher(train, args=(t0, a.steps, a.warmup), num_processes=2, use_port=str(port))


if __name__ == "__main__":
    main()
