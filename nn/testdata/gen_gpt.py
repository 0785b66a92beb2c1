#!/usr/bin/python3
"""Writes the GPT fixture (run: /usr/bin/python3 nn/testdata/gen_gpt.py): nanoGPT's model at a small
size, its weights (gpt.safetensors, nanoGPT's state-dict names with the tied lm_head.weight left
out, as nn.GPT lists it), a batch, the logits, the loss and every parameter's gradient, then the
losses of three AdamW steps (foreach, nanoGPT's decay groups) and the weights after them (gpt.json).

PyTorch 1.13 has no fused attention: the model computes the weights explicitly, as nanoGPT does
without flash attention. Dropout is 0 so both sides are deterministic.
"""
import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

import safetensors_ref

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
CFG = dict(vocab_size=13, block_size=10, n_layer=2, n_head=2, n_embd=8, bias=True)


class CausalSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c_attn = nn.Linear(c["n_embd"], 3 * c["n_embd"], bias=c["bias"])
        self.c_proj = nn.Linear(c["n_embd"], c["n_embd"], bias=c["bias"])
        self.n_head = c["n_head"]
        t = c["block_size"]
        self.register_buffer("mask", torch.tril(torch.ones(t, t)).view(1, 1, t, t))

    def forward(self, x):
        b, t, c = x.size()
        q, k, v = self.c_attn(x).split(c, dim=2)
        heads = lambda z: z.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
        q, k, v = heads(q), heads(k), heads(v)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :t, :t] == 0, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c_fc = nn.Linear(c["n_embd"], 4 * c["n_embd"], bias=c["bias"])
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * c["n_embd"], c["n_embd"], bias=c["bias"])

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c["n_embd"])
        self.attn = CausalSelfAttention(c)
        self.ln_2 = nn.LayerNorm(c["n_embd"])
        self.mlp = MLP(c)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(c["vocab_size"], c["n_embd"]),
            wpe=nn.Embedding(c["block_size"], c["n_embd"]),
            h=nn.ModuleList([Block(c) for _ in range(c["n_layer"])]),
            ln_f=nn.LayerNorm(c["n_embd"]),
        ))
        self.lm_head = nn.Linear(c["n_embd"], c["vocab_size"], bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying

    def forward(self, idx):
        t = idx.size(1)
        x = self.transformer.wte(idx) + self.transformer.wpe(torch.arange(t))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def main():
    model = GPT(CFG)
    with torch.no_grad():  # biases and LayerNorm shifts away from 0 so their gradients mean something
        for name, p in model.named_parameters():
            if p.dim() == 1:
                p.add_(torch.randn_like(p) * 0.1)
    named = dict(model.named_parameters())  # the tied weight once, as transformer.wte.weight
    keys = list(named)
    safetensors_ref.save({k: v.detach().clone() for k, v in named.items()}, os.path.join(HERE, "gpt.safetensors"))
    idx = torch.randint(0, CFG["vocab_size"], (3, 7))
    tgt = torch.randint(0, CFG["vocab_size"], (3, 7))
    logits = model(idx)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), tgt.view(-1))
    loss.backward()
    grads = {k: flat(v.grad) for k, v in named.items()}
    model.zero_grad(set_to_none=True)

    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=1e-2, betas=(0.9, 0.95), foreach=True)
    losses = []
    for _ in range(3):
        logits2 = model(idx)
        l2 = F.cross_entropy(logits2.view(-1, logits2.size(-1)), tgt.view(-1))
        losses.append(float(l2))
        l2.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    after = {k: flat(v) for k, v in model.named_parameters()}
    with open(os.path.join(HERE, "gpt.json"), "w") as f:
        json.dump({"torch": torch.__version__, "config": CFG, "keys": keys, "idx": idx.reshape(-1).tolist(),
                   "target": tgt.reshape(-1).tolist(), "logits": flat(logits), "loss": float(loss), "grads": grads,
                   "adamw_losses": losses, "after": after}, f)
    print("wrote gpt.safetensors and gpt.json")


if __name__ == "__main__":
    main()
