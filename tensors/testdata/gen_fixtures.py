#!/usr/bin/python3
"""Writes ops.json: PyTorch's float32 outputs and gradients for the tensors package's ops.

Run with Debian's interpreter (python3-torch): /usr/bin/python3 tensors/testdata/gen_fixtures.py
Each case stores its inputs, the upstream weights r, the output and d(sum(out * r))/d(input).
The Go test (parity_test.go) rebuilds each case by name and compares at 1e-5 relative.
"""
import json
import os

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def u(lo, hi, *shape):
    return (torch.rand(*shape) * (hi - lo) + lo).float()


def kink(*shape):
    v = torch.rand(*shape) + 0.2
    s = torch.where(torch.rand(*shape) < 0.5, -1.0, 1.0)
    return (v * s).float()


L = lambda *v: torch.tensor(v, dtype=torch.int64)

CASES = [
    ("Add", [u(-1, 1, 2, 3), u(-1, 1, 3)], lambda a, b: a + b),
    ("Sub", [u(-1, 1, 4, 1), u(-1, 1, 3)], lambda a, b: a - b),
    ("Mul", [u(-1, 1, 2, 3), u(-1, 1, 2, 1)], lambda a, b: a * b),
    ("Div", [u(-1, 1, 2, 3), u(0.5, 1.5, 3)], lambda a, b: a / b),
    ("AddScalar", [u(-1, 1, 5)], lambda a: a + 2.5),
    ("MulScalar", [u(-1, 1, 5)], lambda a: a * -3.0),
    ("DivScalar", [u(-1, 1, 5)], lambda a: a / 3.0),
    ("Pow", [u(0.5, 2, 6)], lambda a: a.pow(2.5)),
    ("Neg", [u(-1, 1, 5)], lambda a: -a),
    ("Exp", [u(-2, 2, 6)], torch.exp),
    ("Log", [u(0.5, 3, 6)], torch.log),
    ("Sqrt", [u(0.5, 3, 6)], torch.sqrt),
    ("Abs", [kink(6)], torch.abs),
    ("Tanh", [u(-2, 2, 6)], torch.tanh),
    ("Sigmoid", [u(-3, 3, 6)], torch.sigmoid),
    ("ReLU", [kink(2, 4)], torch.relu),
    ("GELU", [u(-3, 3, 8)], F.gelu),
    ("SiLU", [u(-3, 3, 8)], F.silu),
    ("Clamp", [kink(3, 3)], lambda a: a.clamp(-0.7, 0.65)),
    ("MaskedFill", [u(-1, 1, 2, 3)], lambda a: a.masked_fill(torch.tensor([True, False, True]), -5.0)),
    ("Where", [u(-1, 1, 2, 3), u(-1, 1, 3)], lambda a, b: torch.where(torch.tensor([[False, True, True], [False, False, True]]), a, b)),
    ("MatMul", [u(-1, 1, 16, 33), u(-1, 1, 33, 7)], torch.matmul),
    ("MatMulBatched", [u(-1, 1, 2, 3, 4, 5), u(-1, 1, 3, 5, 2)], torch.matmul),
    ("MatMulVec", [u(-1, 1, 5), u(-1, 1, 5, 3)], torch.matmul),
    ("Sum", [u(-1, 1, 3, 4)], lambda a: a.sum()),
    ("SumDims", [u(-1, 1, 2, 3, 4)], lambda a: a.sum(dim=(0, 2), keepdim=True)),
    ("Mean", [u(-1, 1, 3, 4)], lambda a: a.mean()),
    ("MeanDims", [u(-1, 1, 3, 4)], lambda a: a.mean(dim=1)),
    ("Max", [u(-1, 1, 3, 4)], lambda a: a.max()),
    ("Min", [u(-1, 1, 3, 4)], lambda a: a.min()),
    ("MaxDim", [u(-1, 1, 3, 4)], lambda a: a.max(dim=1).values),
    ("MinDim", [u(-1, 1, 3, 4)], lambda a: a.min(dim=0, keepdim=True).values),
    ("Var", [u(-1, 1, 3, 4)], lambda a: a.var(dim=1, unbiased=True)),
    ("Softmax", [u(-3, 3, 4, 10)], lambda a: a.softmax(dim=1)),
    ("LogSoftmax", [u(-3, 3, 4, 10)], lambda a: a.log_softmax(dim=-1)),
    ("Transpose", [u(-1, 1, 2, 3, 4)], lambda a: a.transpose(0, 2).exp()),
    ("Permute", [u(-1, 1, 2, 3, 4)], lambda a: a.permute(2, 0, 1).tanh()),
    ("Slice", [u(-1, 1, 4, 5)], lambda a: a[:, 1:4].exp()),
    ("IndexSelect", [u(-1, 1, 4, 3)], lambda a: a.index_select(0, L(2, 0, 2))),
    ("Gather", [u(-1, 1, 3, 4)], lambda a: a.gather(1, torch.tensor([[0, 3], [1, 1], [2, 2]]))),
    ("Cat", [u(-1, 1, 2, 3), u(-1, 1, 2, 2)], lambda a, b: torch.cat([a, b, a], dim=1)),
    ("Stack", [u(-1, 1, 2, 3), u(-1, 1, 2, 3)], lambda a, b: torch.stack([a, b], dim=1)),
    ("Linear", [u(-1, 1, 8, 20), u(-1, 1, 6, 20), u(-1, 1, 6)], F.linear),
    ("Embedding", [u(-1, 1, 5, 3)], lambda w: F.embedding(torch.tensor([[4, 0], [4, 2]]), w)),
    ("LayerNorm", [u(-1, 1, 3, 8), u(0.5, 1.5, 8), u(-1, 1, 8)], lambda x, w, b: F.layer_norm(x, (8,), w, b, 1e-5)),
    ("Conv2d", [u(-1, 1, 2, 3, 7, 7), u(-1, 1, 4, 3, 3, 3), u(-1, 1, 4)], lambda x, w, b: F.conv2d(x, w, b, stride=1, padding=1)),
    ("Conv2dStride", [u(-1, 1, 2, 2, 8, 8), u(-1, 1, 3, 2, 3, 3)], lambda x, w: F.conv2d(x, w, None, stride=2, padding=0)),
    # Enough channels and filters for the CPU's Winograd F(2×2, 3×3), with odd output sizes.
    ("Conv2dWinograd", [u(-1, 1, 2, 8, 9, 7), u(-1, 1, 10, 8, 3, 3), u(-1, 1, 10)], lambda x, w, b: F.conv2d(x, w, b, stride=1, padding=1)),
    ("MaxPool2d", [u(-1, 1, 2, 3, 6, 6)], lambda x: F.max_pool2d(x, 2, 2)),
    ("CrossEntropy", [u(-3, 3, 6, 10)], lambda x: F.cross_entropy(x, L(0, 9, 3, 3, 5, 1))),
    ("CrossEntropySmoothIgnore", [u(-3, 3, 6, 10)], lambda x: F.cross_entropy(x, L(0, -100, 3, 7, 5, 1), ignore_index=-100, label_smoothing=0.1)),
    ("CrossEntropySum", [u(-3, 3, 6, 10)], lambda x: F.cross_entropy(x, L(0, 9, 3, 3, 5, 1), reduction="sum")),
    ("CrossEntropyNone", [u(-3, 3, 6, 10)], lambda x: F.cross_entropy(x, L(0, 9, 3, 3, 5, 1), reduction="none")),
    ("MSE", [u(-1, 1, 3, 4), u(-1, 1, 3, 4)], F.mse_loss),
    # The transformer's ops (issue 12). PyTorch 1.13 has no fused attention: the references are
    # the textbook formula with the weights materialised.
    ("GELUTanh", [u(-4, 4, 12)], lambda a: F.gelu(a, approximate="tanh")),
    ("Tril", [u(-1, 1, 2, 3, 4)], lambda a: a.tril(1)),
    ("Triu", [u(-1, 1, 4, 3)], lambda a: a.triu(-1)),
    ("AttentionCausal", [u(-1, 1, 2, 3, 5, 4), u(-1, 1, 2, 3, 5, 4), u(-1, 1, 2, 3, 5, 4)], lambda q, k, v: attention(q, k, v, True)),
    ("AttentionCross", [u(-1, 1, 1, 2, 3, 4), u(-1, 1, 1, 2, 6, 4), u(-1, 1, 1, 2, 6, 5)], lambda q, k, v: attention(q, k, v, False)),
    ("Attention3D", [u(-1, 1, 2, 5, 4), u(-1, 1, 2, 5, 4), u(-1, 1, 2, 5, 4)], lambda q, k, v: attention(q, k, v, True)),
    ("AttentionLong", [u(-2, 2, 1, 2, 70, 8), u(-2, 2, 1, 2, 70, 8), u(-1, 1, 1, 2, 70, 8)], lambda q, k, v: attention(q, k, v, True)),
    ("MultiHeadAttention", [u(-1, 1, 2, 5, 24)], lambda x: multi_head(x, 2)),
    ("TopK", [u(-1, 1, 3, 7)], lambda a: a.topk(3, dim=1).values),
    ("TopKSmallest", [u(-1, 1, 5, 2)], lambda a: a.topk(2, dim=0, largest=False).values),
    ("Split", [u(-1, 1, 2, 6)], lambda a: torch.stack([p.sum(1) * (i + 1) for i, p in enumerate(a.split(4, dim=1))], 1)),
    ("ReshapeView", [u(-1, 1, 2, 3, 8)], lambda a: a[:, :, 2:6].reshape(2, 3, 2, 2).exp()),
]

# Cases added later draw their inputs from a generator of their own, so the earlier cases (and the
# upstream weights main draws for them) keep their values.
G2 = torch.Generator().manual_seed(24)


def u2(lo, hi, *shape):
    return (torch.rand(*shape, generator=G2) * (hi - lo) + lo).float()


def batch_norm_train(x, w, b):
    c = x.shape[1]
    return F.batch_norm(x, torch.zeros(c), torch.ones(c), w, b, training=True, momentum=0.1, eps=1e-5)


def rms_norm(x, w, eps):
    """PyTorch 2.4's F.rms_norm (torch 1.13 has none): x · rsqrt(mean(x²) + ε) · w."""
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


BN_MEAN = torch.tensor([0.3, -0.2, 0.1])
BN_VAR = torch.tensor([0.5, 1.5, 0.8])

CASES += [
    ("AvgPool2d", [u2(-1, 1, 2, 3, 7, 7)], lambda x: F.avg_pool2d(x, 3, stride=2, padding=1)),
    ("AvgPool2dExcludePadCeil", [u2(-1, 1, 2, 2, 8, 8)],
     lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)),
    ("AvgPool2dDivisor", [u2(-1, 1, 1, 2, 6, 6)], lambda x: F.avg_pool2d(x, 2, divisor_override=3)),
    ("AdaptiveAvgPool2d", [u2(-1, 1, 2, 3, 7, 5)], lambda x: F.adaptive_avg_pool2d(x, (3, 2))),
    ("AdaptiveAvgPool2dUp", [u2(-1, 1, 1, 2, 3, 3)], lambda x: F.adaptive_avg_pool2d(x, (5, 4))),
    ("BatchNorm2d", [u2(-1, 2, 4, 3, 5, 5), u2(0.5, 1.5, 3), u2(-1, 1, 3)], batch_norm_train),
    ("BatchNorm1d", [u2(-1, 2, 8, 5), u2(0.5, 1.5, 5), u2(-1, 1, 5)], batch_norm_train),
    ("BatchNorm1d3d", [u2(-1, 2, 4, 3, 6), u2(0.5, 1.5, 3), u2(-1, 1, 3)], batch_norm_train),
    ("BatchNormEval", [u2(-1, 2, 4, 3, 2, 2), u2(0.5, 1.5, 3), u2(-1, 1, 3)],
     lambda x, w, b: F.batch_norm(x, BN_MEAN, BN_VAR, w, b, training=False, eps=1e-5)),
    ("GroupNorm", [u2(-1, 2, 2, 4, 3, 3), u2(0.5, 1.5, 4), u2(-1, 1, 4)], lambda x, w, b: F.group_norm(x, 2, w, b, 1e-5)),
    ("RMSNorm", [u2(-1, 1, 3, 8), u2(0.5, 1.5, 8)], lambda x, w: rms_norm(x, w, 1e-6)),
]


def attention(q, k, v, causal):
    """softmax(q·kᵀ/√d + mask)·v with the causal mask torch.tril(ones(Tq, Tk))."""
    att = q @ k.transpose(-2, -1) / (q.shape[-1] ** 0.5)
    if causal:
        mask = torch.ones(q.shape[-2], k.shape[-2]).tril()
        att = att.masked_fill(mask == 0, float("-inf"))
    return att.softmax(dim=-1) @ v


def multi_head(x, heads):
    """nanoGPT's CausalSelfAttention after its c_attn projection: x [B, T, 3C] → y [B, T, C]."""
    b, t, c3 = x.shape
    c = c3 // 3
    q, k, v = x.split(c, dim=2)
    split = lambda z: z.view(b, t, heads, c // heads).transpose(1, 2)
    y = attention(split(q), split(k), split(v), True)
    return y.transpose(1, 2).contiguous().view(b, t, c)


def enc(t):
    return {"shape": list(t.shape), "data": [float(v) for v in t.detach().reshape(-1).tolist()]}


def conversions():
    """float32 bit patterns and PyTorch's bfloat16 / float16 bits for them: random values over
    many magnitudes, exact ties, subnormals, overflow, infinities."""
    g = torch.Generator().manual_seed(1)
    vals = torch.randn(2000, generator=g) * torch.pow(10.0, torch.randint(-9, 9, (2000,), generator=g).float())
    ties = torch.tensor([1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-11, 1 + 3 * 2**-11, 2**-25, 3 * 2**-25, 65520.0, 65519.0,
                         1e-40, -1e-45, 3.4e38, float("inf"), float("-inf"), 0.0, -0.0])
    f32 = torch.cat([vals, ties]).float()
    bits = f32.view(torch.int32).tolist()
    bf = f32.to(torch.bfloat16).view(torch.int16).tolist()
    hf = f32.to(torch.float16).view(torch.int16).tolist()
    return {"f32": [b & 0xFFFFFFFF for b in bits], "bf16": [b & 0xFFFF for b in bf], "f16": [b & 0xFFFF for b in hf]}


def main():
    out = []
    for name, inputs, fn in CASES:
        xs = [x.clone().requires_grad_(True) for x in inputs]
        y = fn(*xs)
        r = (torch.rand(tuple(y.shape)) - 0.3).float()
        (y * r).sum().backward()
        out.append({
            "name": name,
            "inputs": [enc(x) for x in inputs],
            "r": enc(r),
            "output": enc(y),
            "grads": [enc(x.grad) for x in xs],
        })
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ops.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": out, "conversions": conversions()}, f)
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
