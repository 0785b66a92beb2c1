"""PyTorch baseline for bench/accelerate_mlp.sh: what Accelerate does for an
MLP 784-512-512-10 with AdamW at a global batch of 128, written directly with
torch.distributed, what Accelerate 1.x does underneath: DDP over gloo on
--procs processes started with fork, as Accelerate's notebook_launcher does,
--threads threads each; with --procs 1 the plain model (Accelerate uses no DDP
then). PyTorch 2's fastest documented setting for the step: AdamW(fused=True)
and zero_grad(set_to_none=True); accelerate_mlp.sh runs 1 and 2 threads and
keeps the better.

Prints one line:
  torch procs=2 threads=1 ms_per_step=11.30 launch_to_first_step_ms=1100 setting=AdamW(fused=True),set_to_none
Run with the benchmarks' Python (bench/python.sh): .venv/hf/bin/python bench/accelerate_ddp.py --procs 2 --threads 1
"""
import argparse
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SETTING = "AdamW(fused=True),set_to_none"


def worker(rank, procs, threads, port, steps, warmup, t_launch, out):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    if procs > 1:
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=procs)
        model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    loss_fn = nn.CrossEntropyLoss()
    x = torch.randn(1024, 784)
    y = torch.randint(0, 10, (1024,))
    per = 128 // procs
    first = None
    t0 = None
    for i in range(warmup + steps):
        if i == warmup:
            if procs > 1:
                dist.barrier()
            t0 = time.time()
        j = (i * procs + rank) % (1024 // per)
        xb, yb = x[j * per:(j + 1) * per], y[j * per:(j + 1) * per]
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        if i == 0:
            first = time.time() - t_launch
    if procs > 1:
        dist.barrier()
    per_step = (time.time() - t0) / steps
    if rank == 0:
        out.put((per_step, first))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="torch threads per process")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=10)
    a = ap.parse_args()
    ctx = mp.get_context("fork")
    out = ctx.SimpleQueue()
    t_launch = time.time()
    mp.start_processes(worker, args=(a.procs, a.threads, free_port(), a.steps, a.warmup, t_launch, out),
                       nprocs=a.procs, start_method="fork")
    per_step, first = out.get()
    print(f"torch procs={a.procs} threads={a.threads} ms_per_step={per_step * 1000:.2f} "
          f"launch_to_first_step_ms={first * 1000:.0f} setting={SETTING}")


if __name__ == "__main__":
    main()
