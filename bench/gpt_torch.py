"""PyTorch 2.x baseline of nn's BenchmarkGPTTrainStep (run by bench/gpt.sh): nanoGPT's model as
written for PyTorch 2 (scaled_dot_product_attention with is_causal=True, biases, weight tying) at
two sizes:

  char         notebooks/char_gpt.ipynb: vocabulary 96, block 64, 4 layers, 4 heads, 128 features,
               batch 16 x 64 tokens (about 0.8 M parameters)
  shakespeare  nanoGPT's shakespeare-char config: vocabulary 65, block 256, 6 layers, 6 heads, 384
               features, batch 8 x 256 tokens (about 10.7 M parameters)

One step: forward, cross entropy, backward, AdamW with nanoGPT's decay groups (fused=True:
PyTorch's fastest AdamW on the CPU since 2.4), zero_grad(set_to_none=True); in float32 (f32) and
under torch.autocast("cpu", dtype=torch.bfloat16) (bf16), each in eager mode and, as a second
column, with torch.compile (inductor) when it compiles here.

Usage: gpt_torch.py [seconds] [threads...]; GPT_SIZES (char shakespeare), GPT_DTYPES (f32 bf16),
GPT_COMPILE (1: also torch.compile) choose what runs. Prints Go-benchmark-style lines:
"TorchGPTTrainStep/char_f32-threads1  30.1 ms/op  29.8 cpu-ms/op" (compiled: TorchCompiledGPT...).
"""
import contextlib
import os
import sys
import time
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from timing import best

SIZES = {
    # name: vocab, block, layers, heads, embed, batch
    "char": (96, 64, 4, 4, 128, 16),
    "shakespeare": (65, 256, 6, 6, 384, 8),
}


class CausalSelfAttention(nn.Module):
    def __init__(self, embed, heads):
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(embed, 3 * embed)
        self.c_proj = nn.Linear(embed, embed)

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.c_attn(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(b, t, c))


class Block(nn.Module):
    def __init__(self, embed, heads):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(embed), nn.LayerNorm(embed)
        self.attn = CausalSelfAttention(embed, heads)
        self.c_fc, self.gelu, self.c_proj = nn.Linear(embed, 4 * embed), nn.GELU(), nn.Linear(4 * embed, embed)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.c_proj(self.gelu(self.c_fc(self.ln_2(x))))


class GPT(nn.Module):
    def __init__(self, vocab, block, layers, heads, embed):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, embed), nn.Embedding(block, embed)
        self.h = nn.ModuleList([Block(embed, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(embed)
        self.lm_head = nn.Linear(embed, vocab, bias=False)
        self.wte.weight = self.lm_head.weight

    def forward(self, idx):
        pos = torch.arange(idx.size(1), dtype=torch.long)
        x = self.wte(idx) + self.wpe(pos)
        for b in self.h:
            x = b(x)
        return self.lm_head(self.ln_f(x))


def make_step(size, bf16, compiled):
    vocab, block, layers, heads, embed, batch = SIZES[size]
    torch.manual_seed(0)
    model = GPT(vocab, block, layers, heads, embed)
    # nanoGPT's configure_optimizers: decay for every parameter of 2 or more dimensions.
    decay = [p for p in model.parameters() if p.dim() >= 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                            lr=1e-3, betas=(0.9, 0.99), fused=True)
    fwd = torch.compile(model) if compiled else model
    x = torch.randint(0, vocab, (batch, block))
    y = torch.randint(0, vocab, (batch * block,))
    ctx = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if bf16 else contextlib.nullcontext

    def step():
        with ctx():
            logits = fwd(x)
            loss = F.cross_entropy(logits.view(-1, vocab), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return sum(p.numel() for p in model.parameters()), step


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
    threads = [int(a) for a in sys.argv[2:]] or [1, 2]
    sizes = os.environ.get("GPT_SIZES", "char shakespeare").split()
    dtypes = os.environ.get("GPT_DTYPES", "f32 bf16").split()
    modes = [False, True] if os.environ.get("GPT_COMPILE", "0") == "1" else [False]
    print(f"# torch {torch.__version__}, CPU capability {torch.backends.cpu.get_cpu_capability()}; "
          "setting: scaled_dot_product_attention(is_causal=True), AdamW(fused=True, nanoGPT decay groups), "
          "zero_grad(set_to_none=True)", flush=True)
    for th in threads:
        torch.set_num_threads(th)
        for size in sizes:
            for dt in dtypes:
                for compiled in modes:
                    name = "TorchCompiledGPTTrainStep" if compiled else "TorchGPTTrainStep"
                    try:
                        n_params, step = make_step(size, dt == "bf16", compiled)
                        w, c = best(step, seconds)
                    except Exception as e:  # torch.compile needs a C++ compiler; say why it did not run
                        print(f"# {name}/{size}_{dt}-threads{th}: did not run: {type(e).__name__}: {str(e).splitlines()[0][:160]}", flush=True)
                        continue
                    print(f"{name}/{size}_{dt}-threads{th}\t{w * 1e3:.3f} ms/op\t{c * 1e3:.3f} cpu-ms/op\t# {n_params} parameters", flush=True)


if __name__ == "__main__":
    warnings.filterwarnings("ignore")
    main()
