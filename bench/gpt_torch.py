#!/usr/bin/python3
"""PyTorch baseline of nn's BenchmarkGPTTrainStep (run by bench/gpt.sh): notebooks/char_gpt.ipynb's
character GPT (nanoGPT, vocabulary 96, block 64, 4 layers, 4 heads, 128 features, biases, about
0.8 M parameters) at the notebook's batch of 16 × 64 tokens: forward, cross entropy, backward, AdamW with nanoGPT's
decay groups in PyTorch's fastest setting (foreach=True), zero_grad(set_to_none=True).

PyTorch 1.13 has no fused attention (scaled_dot_product_attention came in 2.0): the model computes
the weights explicitly, as nanoGPT does on PyTorch 1.x. Usage: gpt_torch.py [seconds] [threads...]
Prints Go-benchmark-style lines, e.g. "TorchGPTTrainStep-threads1  120.1 ms/op  119.8 cpu-ms/op".
"""
import math
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, BLOCK, LAYERS, HEADS, EMBED, BATCH = 96, 64, 4, 4, 128, 16


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(EMBED, 3 * EMBED)
        self.c_proj = nn.Linear(EMBED, EMBED)
        self.register_buffer("mask", torch.tril(torch.ones(BLOCK, BLOCK)).view(1, 1, BLOCK, BLOCK))

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.c_attn(x).split(c, dim=2)
        heads = lambda z: z.view(b, t, HEADS, c // HEADS).transpose(1, 2)
        q, k, v = heads(q), heads(k), heads(v)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf")).softmax(dim=-1)
        return self.c_proj((att @ v).transpose(1, 2).contiguous().view(b, t, c))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(EMBED), nn.LayerNorm(EMBED)
        self.attn = CausalSelfAttention()
        self.mlp = nn.Sequential(nn.Linear(EMBED, 4 * EMBED), nn.GELU(), nn.Linear(4 * EMBED, EMBED))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(VOCAB, EMBED), nn.Embedding(BLOCK, EMBED)
        self.h = nn.ModuleList([Block() for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(EMBED)
        self.lm_head = nn.Linear(EMBED, VOCAB, bias=False)
        self.wte.weight = self.lm_head.weight

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1)))
        for b in self.h:
            x = b(x)
        return self.lm_head(self.ln_f(x))


def step_fn():
    torch.manual_seed(0)
    model = GPT()
    decay = [p for p in model.parameters() if p.dim() >= 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                            lr=1e-3, betas=(0.9, 0.99), foreach=True)
    x = torch.randint(0, VOCAB, (BATCH, BLOCK))
    y = torch.randint(0, VOCAB, (BATCH * BLOCK,))

    def step():
        loss = F.cross_entropy(model(x).view(-1, VOCAB), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return model, step


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
    threads = [int(a) for a in sys.argv[2:]] or [1, 2]
    print("# setting TorchGPTTrainStep: AdamW(foreach=True, nanoGPT decay groups), zero_grad(set_to_none=True), explicit attention (torch 1.13 has no fused one)")
    for th in threads:
        torch.set_num_threads(th)
        model, step = step_fn()
        n_params = sum(p.numel() for p in model.parameters())
        for _ in range(2):
            step()
        best_wall, best_cpu = float("inf"), float("inf")
        for _ in range(3):
            n, t0, c0 = 0, time.perf_counter(), time.process_time()
            while time.perf_counter() - t0 < seconds / 3 or n < 2:
                step()
                n += 1
            best_wall = min(best_wall, (time.perf_counter() - t0) / n)
            best_cpu = min(best_cpu, (time.process_time() - c0) / n)
        print(f"TorchGPTTrainStep-threads{th}\t{best_wall * 1e3:.3f} ms/op\t{best_cpu * 1e3:.3f} cpu-ms/op\t# {n_params} parameters", flush=True)


if __name__ == "__main__":
    main()
