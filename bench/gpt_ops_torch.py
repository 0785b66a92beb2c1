"""PyTorch's side of bench/gpt_ops.sh: where one training step of bench/gpt_torch.py's model (nanoGPT
for PyTorch 2, sdpa with is_causal, fused AdamW) spends its time, op by op, from torch.profiler
(bench/ops_profile.py: the groups of aten ops bench/gpt_ops.sh uses for goaccel).

  gpt_ops_torch.py SIZE DTYPE [STEPS]   SIZE char or shakespeare, DTYPE f32 or bf16; one thread
"""
import sys
import warnings

import torch

sys.path.insert(0, "bench")
import gpt_torch  # noqa: E402
import ops_profile  # noqa: E402


def main():
    warnings.filterwarnings("ignore")
    size, dtype = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    torch.set_num_threads(1)
    _, step = gpt_torch.make_step(size, dtype == "bf16", False)
    ops_profile.print_groups(ops_profile.op_groups(step, steps))


if __name__ == "__main__":
    main()
