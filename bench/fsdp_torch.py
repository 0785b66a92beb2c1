#!/usr/bin/env python3
"""PyTorch baseline of bench/fsdp (run by bench/fsdp.sh): the character GPT of bench/gpt_torch.py
(vocabulary 96, block 64, 4 layers, 4 heads, 128 features) with AdamW at a global batch of
16 × 64 tokens on --procs CPU processes over gloo, prepared by Accelerate 1.x: plain DDP, and
FSDP2 (fully_shard of each block, reshard_after_forward true for FULL_SHARD, false for
SHARD_GRAD_OP). Accelerate applies its FSDP plugin only on accelerators, so for FSDP the
script switches the Accelerator's state to FSDP before prepare (which then calls fully_shard as on
GPUs) and checks that every parameter came back a DTensor. Needs torch 2.x and accelerate
(scripts/deps.sh test puts both in .venv/hf).

Prints one line per setting:
  torch procs=2 setting=full-shard ms_per_step=55.1 cpu_ms_per_step=50.2
"""
import argparse
import os
import socket
import sys
import time

import torch
import torch.multiprocessing as mp
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpt_torch  # noqa: E402  the model of the single-process baseline

VOCAB, BLOCK, LAYERS, HEADS, EMBED, BATCH = gpt_torch.SIZES["char"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(rank, procs, port, setting, steps, warmup, threads):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), LOCAL_RANK=str(rank),
                      WORLD_SIZE=str(procs), LOCAL_WORLD_SIZE=str(procs))
    torch.set_num_threads(threads)
    from accelerate import Accelerator, FullyShardedDataParallelPlugin
    acc = Accelerator(cpu=True)
    if setting != "ddp":
        # Accelerate 1.x takes FSDP only on accelerators (its CPU processes are MULTI_CPU, and
        # the plugin is ignored there): switch the state to FSDP, as on GPUs, so that prepare
        # shards the model with fully_shard over gloo.
        from accelerate.utils import DistributedType
        acc.state.distributed_type = DistributedType.FSDP
        acc.state.fsdp_plugin = FullyShardedDataParallelPlugin(
            fsdp_version=2, reshard_after_forward=(setting == "full-shard"),
            auto_wrap_policy="transformer_based_wrap", transformer_cls_names_to_wrap=["Block"])
    torch.manual_seed(0)
    model = gpt_torch.GPT(VOCAB, BLOCK, LAYERS, HEADS, EMBED)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.1)
    model, opt = acc.prepare(model, opt)
    from torch.distributed.tensor import DTensor
    sharded = all(isinstance(p, DTensor) for p in model.parameters())
    if (setting != "ddp") != sharded:
        raise SystemExit(f"{setting}: the parameters are {type(next(model.parameters())).__name__}, sharded {sharded}")
    g = torch.Generator().manual_seed(1 + rank)
    batch = 16 // procs
    x = torch.randint(0, VOCAB, (batch, BLOCK), generator=g)
    y = torch.randint(0, VOCAB, (batch * BLOCK,), generator=g)
    for i in range(warmup + steps):
        if i == warmup:
            acc.wait_for_everyone()
            t0, c0 = time.perf_counter(), time.process_time()
        loss = F.cross_entropy(model(x).view(-1, VOCAB), y)
        acc.backward(loss)
        opt.step()
        opt.zero_grad(set_to_none=True)
    acc.wait_for_everyone()
    wall, cpu = (time.perf_counter() - t0) / steps, (time.process_time() - c0) / steps
    if acc.is_main_process:
        print(f"torch procs={procs} setting={setting} ms_per_step={wall * 1e3:.2f} cpu_ms_per_step={cpu * 1e3:.2f}", flush=True)
    acc.end_training()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    for setting in ("ddp", "full-shard", "shard-grad-op"):
        mp.spawn(worker, args=(a.procs, free_port(), setting, a.steps, a.warmup, a.threads), nprocs=a.procs)


if __name__ == "__main__":
    main()
