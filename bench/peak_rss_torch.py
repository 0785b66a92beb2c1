"""PyTorch baseline of bench/peak_rss (run by bench/peak_rss.sh): the same model, data and steps,
then the process's peak resident memory (VmHWM).

  peak_rss_torch.py mnist STEPS MNIST_DIR  notebooks/mnist.ipynb's MLP 784-256-10, AdamW(foreach=True),
                                           batch 128, shuffled MNIST (the same IDX files, normalised)
  peak_rss_torch.py gpt STEPS              notebooks/char_gpt.ipynb's GPT (bench/gpt_torch.py's model),
                                           batch 16 x 64 tokens from a fixed random 500,000-token corpus

Prints e.g. "torch model=gpt steps=200 threads=1 rss_start_mib=9.1 peak_rss_mib=61.2", rss_start_mib
being the resident memory before torch is imported.
"""
import gzip
import os
import sys


def status(key):
    for line in open("/proc/self/status"):
        k, _, v = line.partition(":")
        if k == key:
            return float(v.split()[0]) / 1024
    raise SystemExit(f"no {key} in /proc/self/status")


START = status("VmRSS")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def idx(path, offset):
    with gzip.open(path) as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


def train_mnist(steps, folder):
    x = torch.from_numpy(idx(os.path.join(folder, "train-images-idx3-ubyte.gz"), 16).copy())
    x = ((x.float() / 255 - 0.1307) / 0.3081).view(-1, 1, 28, 28)
    y = torch.from_numpy(idx(os.path.join(folder, "train-labels-idx1-ubyte.gz"), 8).astype(np.int64))
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01, foreach=True)
    done = 0
    while done < steps:
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 128):
            if done == steps:
                break
            b = perm[i:i + 128]
            loss = F.cross_entropy(model(x[b]), y[b])
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            done += 1


def train_gpt(steps):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gpt_torch
    torch.manual_seed(0)
    corpus = torch.randint(0, gpt_torch.VOCAB, (500_000,))
    model = gpt_torch.GPT()
    decay = [p for p in model.parameters() if p.dim() >= 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": rest, "weight_decay": 0.0}],
                            lr=6e-3, betas=(0.9, 0.99), foreach=True)
    block, batch = gpt_torch.BLOCK, gpt_torch.BATCH
    for _ in range(steps):
        starts = torch.randint(0, len(corpus) - block - 1, (batch,))
        x = torch.stack([corpus[s:s + block] for s in starts])
        y = torch.stack([corpus[s + 1:s + block + 1] for s in starts]).view(-1)
        loss = F.cross_entropy(model(x).view(-1, gpt_torch.VOCAB), y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)


def main():
    model, steps = sys.argv[1], int(sys.argv[2])
    torch.set_num_threads(int(os.environ.get("THREADS", "1")))
    if model == "mnist":
        train_mnist(steps, sys.argv[3])
    elif model == "gpt":
        train_gpt(steps)
    else:
        raise SystemExit(f"unknown model {model!r} (use mnist or gpt)")
    print(f"torch model={model} steps={steps} threads={torch.get_num_threads()} "
          f"rss_start_mib={START:.1f} peak_rss_mib={status('VmHWM'):.1f}")


if __name__ == "__main__":
    main()
