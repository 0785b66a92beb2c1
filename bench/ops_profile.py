"""PyTorch's side of bench/gpt_ops.sh and bench/minilm_ops.sh: one training step's self CPU time
from torch.profiler, in groups of aten ops, scaled to the step's process CPU time measured
without the profiler.

An op's self time counts in the group of its nearest enclosing container (an op or autograd node
named in CONTAINERS: attention computed by its decomposition, a dropout), else in its own group
(GROUPS), else nowhere ("rest" in the table). Printed one line per group:
  torch total 90.2
  torch matmul 60.1
  ...
"""
import time

from torch.profiler import ProfilerActivity, profile

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
    "elementwise": ("aten::add", "aten::add_", "aten::sum", "aten::mul", "aten::mul_", "aten::div", "aten::div_",
                    "aten::where", "aten::tanh", "aten::tanh_backward"),
    "copies": ("aten::copy_", "aten::cat", "aten::clone", "aten::contiguous"),
    "embedding": ("aten::embedding_dense_backward", "aten::index_select", "aten::embedding"),
    "zeroing": ("aten::fill_", "aten::zero_", "aten::zeros"),
}

# An op or autograd node whose whole subtree counts in a group: attention that PyTorch computes by
# its decomposition (sdpa's math path, taken with dropout in training), dropout.
CONTAINERS = {
    "aten::_scaled_dot_product_attention_math": "attention_fwd",
    "aten::_scaled_dot_product_flash_attention_for_cpu": "attention_fwd",
    "autograd::engine::evaluate_function: ScaledDotProductFlashAttentionForCpuBackward0": "attention_bwd",
    "autograd::engine::evaluate_function: BmmBackward0": "attention_bwd",
    "autograd::engine::evaluate_function: SoftmaxBackward0": "attention_bwd",
    "aten::dropout": "dropout",
}


def op_groups(step, steps, groups=GROUPS, containers=CONTAINERS, warmup=5):
    """Runs step (warmed up) and returns {"total": ms, group: ms, ...}, ms of CPU per step."""
    for _ in range(warmup):
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
    group_of = {op: g for g, ops in groups.items() for op in ops}
    out = {g: 0.0 for g in list(groups) + sorted(set(containers.values()) - set(groups))}
    total = 0.0
    for e in prof.events():
        total += e.self_cpu_time_total
        g, p = None, e
        while p is not None and g is None:
            g = containers.get(p.name)
            p = p.cpu_parent
        g = g or group_of.get(e.name)
        if g:
            out[g] += e.self_cpu_time_total
    return {"total": cpu, **{g: v / total * cpu for g, v in out.items() if g in groups or v > 0}}


def print_groups(groups):
    for g, v in groups.items():
        print(f"torch {g} {v:.2f}")
