"""transformers baseline of transformers/bert's MiniLM benchmarks (run by bench/minilm.sh):
all-MiniLM-L6-v2 as AutoModelForSequenceClassification (3 labels) on a batch of 16 x 128 tokens,
the last 32 positions of every other sequence padded, on the CPU:

  TorchMiniLMForward       evaluation mode under torch.inference_mode
  TorchMiniLMTrainStep     training mode (dropout on): forward with the loss, backward, AdamW
                           (fused=True, PyTorch's fastest on the CPU) with no decay for biases and
                           LayerNorm weights, zero_grad(set_to_none=True)

each in float32 and under torch.autocast("cpu", dtype=torch.bfloat16) (suffix BF16), with the
default attention (sdpa). Usage: minilm_torch.py MINILM_DIR [seconds] [threads...]
Prints Go-benchmark-style lines: "TorchMiniLMTrainStep-threads1  1234.5 ms/op  1230.1 cpu-ms/op".
"""
import contextlib
import sys
import time

import torch
import transformers
from transformers import AutoModelForSequenceClassification

from timing import best

BATCH, LEN = 16, 128


def inputs():
    g = torch.Generator().manual_seed(7)
    ids = torch.randint(1000, 30000, (BATCH, LEN), generator=g)
    mask = torch.ones(BATCH, LEN, dtype=torch.long)
    mask[1::2, LEN - 32:] = 0
    ids[mask == 0] = 0
    labels = torch.arange(BATCH) % 3
    return ids, mask, labels


def precision(bf16):
    return torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else contextlib.nullcontext()


def main():
    d = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 6.0
    threads = [int(a) for a in sys.argv[3:]] or [1, 2]
    transformers.logging.set_verbosity_error()
    print(f"# torch {torch.__version__}, transformers {transformers.__version__}, {torch.backends.cpu.get_cpu_capability()}")
    ids, mask, labels = inputs()
    for th in threads:
        torch.set_num_threads(th)
        for bf16 in (False, True):
            sfx = "BF16" if bf16 else ""
            torch.manual_seed(0)
            model = AutoModelForSequenceClassification.from_pretrained(d, num_labels=3).eval()

            def forward():
                with torch.inference_mode(), precision(bf16):
                    model(input_ids=ids, attention_mask=mask).logits.sum().item()

            w, c = best(forward, seconds, warmup=2)
            print(f"TorchMiniLMForward{sfx}-threads{th}\t{w * 1e3:.1f} ms/op\t{c * 1e3:.1f} cpu-ms/op", flush=True)

            model.train()
            no_decay = ("bias", "LayerNorm.weight")
            groups = [
                {"params": [p for n, p in model.named_parameters() if not any(k in n for k in no_decay)], "weight_decay": 0.01},
                {"params": [p for n, p in model.named_parameters() if any(k in n for k in no_decay)], "weight_decay": 0.0},
            ]
            opt = torch.optim.AdamW(groups, lr=5e-5, fused=True)

            def train():
                with precision(bf16):
                    loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
                loss.backward()
                opt.step()
                opt.zero_grad(set_to_none=True)

            w, c = best(train, seconds, warmup=2)
            print(f"TorchMiniLMTrainStep{sfx}-threads{th}\t{w * 1e3:.1f} ms/op\t{c * 1e3:.1f} cpu-ms/op", flush=True)


if __name__ == "__main__":
    main()
