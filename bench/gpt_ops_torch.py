"""PyTorch's side of bench/gpt_ops.sh: where one training step of bench/gpt_torch.py's model (nanoGPT
for PyTorch 2, sdpa with is_causal, fused AdamW) spends its time, op by op, from torch.profiler.

  gpt_ops_torch.py SIZE DTYPE [STEPS]   SIZE char or shakespeare, DTYPE f32 or bf16; one thread

Each op's share of the profiled self CPU time (aten ops, so nothing is counted twice) is scaled to
the step's process CPU time measured without the profiler, and printed as one line per group of
ops, in the groups bench/gpt_ops.sh uses for goaccel:
  torch total 90.2
  torch matmul 60.1
  ...
"""
import sys
import time
import warnings

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, "bench")
import gpt_torch  # noqa: E402

# group: the aten ops it holds (their self CPU time)
GROUPS = {
    "matmul": ("aten::mm", "aten::addmm", "aten::bmm"),
    "attention_fwd": ("aten::_scaled_dot_product_flash_attention_for_cpu",),
    "attention_bwd": ("aten::_scaled_dot_product_flash_attention_for_cpu_backward",),
    "layernorm_fwd": ("aten::native_layer_norm",),
    "layernorm_bwd": ("aten::native_layer_norm_backward",),
    "gelu_fwd": ("aten::gelu",),
    "gelu_bwd": ("aten::gelu_backward",),
    "cross_entropy": ("aten::_log_softmax", "aten::_log_softmax_backward_data", "aten::nll_loss_forward",
                      "aten::nll_loss_backward", "aten::nll_loss2d_forward", "aten::nll_loss2d_backward"),
    "adamw": ("aten::_fused_adamw_",),
    "elementwise": ("aten::add", "aten::add_", "aten::sum", "aten::mul", "aten::mul_"),
    "copies": ("aten::copy_", "aten::cat", "aten::clone", "aten::contiguous"),
    "embedding": ("aten::embedding_dense_backward", "aten::index_select", "aten::embedding"),
    "zeroing": ("aten::fill_", "aten::zero_", "aten::zeros"),
}


def main():
    warnings.filterwarnings("ignore")
    size, dtype = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    torch.set_num_threads(1)
    _, step = gpt_torch.make_step(size, dtype == "bf16", False)
    for _ in range(5):
        step()
    cpu = float("inf")
    for _ in range(3):
        c0 = time.process_time()
        for _ in range(steps):
            step()
        cpu = min(cpu, (time.process_time() - c0) / steps * 1e3)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
    self_us = {e.key: e.self_cpu_time_total for e in prof.key_averages()}
    total = sum(self_us.values())
    print(f"torch total {cpu:.2f}")
    for group, ops in GROUPS.items():
        print(f"torch {group} {sum(self_us.get(o, 0) for o in ops) / total * cpu:.2f}")


if __name__ == "__main__":
    main()
