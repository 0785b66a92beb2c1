"""All-reduce bandwidth of torch.distributed's gloo backend: the baseline for
goaccel's dist all-reduce (bench/allreduce.sh runs both in one go).

Two processes on this host all-reduce (sum) float32 tensors of each size;
the figure is algbw as torch reports it: tensor bytes / time per all-reduce.
Prints one line per size:  gloo size_mb=4 ms=6.10 gbps=0.688
Run with the benchmarks' Python (bench/python.sh): .venv/hf/bin/python bench/allreduce_gloo.py
"""
import argparse
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(rank, world, port, sizes_mb, seconds):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    for mb in sizes_mb:
        t = torch.ones(mb * 2**20 // 4, dtype=torch.float32)
        for _ in range(3):  # warm-up: connections, pages
            dist.all_reduce(t)
        # Rank 0 picks an iteration count filling about `seconds`; all ranks run it.
        start = time.perf_counter()
        dist.all_reduce(t)
        per = time.perf_counter() - start
        iters = torch.tensor([max(5, int(seconds / max(per, 1e-6)))], dtype=torch.int64)
        dist.broadcast(iters, 0)
        dist.barrier()
        start = time.perf_counter()
        for _ in range(int(iters.item())):
            dist.all_reduce(t)
        elapsed = (time.perf_counter() - start) / int(iters.item())
        if rank == 0:
            gbps = t.numel() * 4 / elapsed / 1e9
            print(f"gloo size_mb={mb} ms={elapsed * 1e3:.2f} gbps={gbps:.3f}", flush=True)
    dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4, 64], help="tensor sizes in MB")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per size")
    a = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    mp.spawn(worker, args=(a.procs, free_port(), a.sizes, a.seconds), nprocs=a.procs, join=True)


if __name__ == "__main__":
    main()
