"""PyTorch's side of bench/minilm_ops.sh: where one training step of bench/minilm_torch.py's
(transformers' MiniLM classifier, batch 16 x 128 with padding, training mode, fused AdamW) spends
its time, op by op, from torch.profiler (bench/ops_profile.py: the groups of aten ops
bench/minilm_ops.sh uses for goaccel). In training, sdpa with dropout takes its math path, so
attention is the subtree of that op forward, and of the Bmm and Softmax backward nodes.

  minilm_ops_torch.py MINILM_DIR DTYPE [STEPS]   DTYPE f32 or bf16; one thread
"""
import sys
import warnings

import torch
import transformers
from transformers import AutoModelForSequenceClassification

sys.path.insert(0, "bench")
import minilm_torch  # noqa: E402
import ops_profile  # noqa: E402


def main():
    warnings.filterwarnings("ignore")
    transformers.logging.set_verbosity_error()
    d, dtype = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    torch.set_num_threads(1)
    ids, mask, labels = minilm_torch.inputs()
    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_pretrained(d, num_labels=3).train()
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(k in n for k in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(k in n for k in no_decay)], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=5e-5, fused=True)

    def step():
        with minilm_torch.precision(dtype == "bf16"):
            loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    ops_profile.print_groups(ops_profile.op_groups(step, steps, warmup=2))


if __name__ == "__main__":
    main()
