#!/usr/bin/python3
"""Writes optim_parity.json: several steps of PyTorch's SGD, Adam and AdamW on fixed parameters and
gradients, the LR sequences of PyTorch's / transformers' schedulers, and optimizers with parameter
groups (per-group lr and weight_decay, schedulers acting on every group) with their state dicts
mid-run and at the end, encoded in goaccel's layout (PyTorch's state_dict() with each tensor as
{"dtype": "F32", "shape", "data": base64 of the little-endian values}).

Run with Debian's interpreter (it has python3-torch): /usr/bin/python3 optim/testdata/gen_optim.py
The Go tests read the JSON only; they never need torch.
"""
import base64
import json
import math
import os

import torch

torch.manual_seed(1234)
STEPS = 6
SHAPES = [[3, 4], [4], [2, 1, 3]]


def f32(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def optimizer_case(name, kind, cfg, lrs=None):
    params0 = [torch.randn(s) for s in SHAPES]
    grads = [[torch.randn(s) * (0.1 + st) for s in SHAPES] for st in range(STEPS)]
    params = [p.clone().requires_grad_(True) for p in params0]
    if kind == "SGD":
        opt = torch.optim.SGD(params, lr=cfg["lr"], momentum=cfg.get("momentum", 0),
                              dampening=cfg.get("dampening", 0), nesterov=cfg.get("nesterov", False),
                              weight_decay=cfg.get("weight_decay", 0))
    elif kind in ("Adadelta", "RMSprop", "Adagrad"):
        opt = getattr(torch.optim, kind)(params, **cfg)
    elif kind == "Adam":
        opt = torch.optim.Adam(params, lr=cfg["lr"], betas=tuple(cfg.get("betas", (0.9, 0.999))),
                               eps=cfg.get("eps", 1e-8), weight_decay=cfg.get("weight_decay", 0))
    else:
        opt = torch.optim.AdamW(params, lr=cfg["lr"], betas=tuple(cfg.get("betas", (0.9, 0.999))),
                                eps=cfg.get("eps", 1e-8), weight_decay=cfg.get("weight_decay", 0.01))
    after = []
    for st in range(STEPS):
        if lrs is not None:
            for g in opt.param_groups:
                g["lr"] = lrs[st]
        for p, g in zip(params, grads[st]):
            p.grad = g.clone()
        opt.step()
        after.append([f32(p) for p in params])
    return {
        "name": name, "kind": kind, "config": cfg, "lrs": lrs, "shapes": SHAPES,
        "params": [f32(p) for p in params0],
        "grads": [[f32(g) for g in gs] for gs in grads],
        "after": after,
    }


# transformers' schedule lambdas (transformers/optimization.py), run through torch's LambdaLR.
def linear_warmup(warmup, total):
    def f(step):
        if step < warmup:
            return float(step) / float(max(1, warmup))
        return max(0.0, float(total - step) / float(max(1, total - warmup)))
    return f


def cosine_warmup(warmup, total, cycles=0.5):
    def f(step):
        if step < warmup:
            return float(step) / float(max(1, warmup))
        progress = float(step - warmup) / float(max(1, total - warmup))
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * float(cycles) * 2.0 * progress)))
    return f


def constant_warmup(warmup):
    def f(step):
        if step < warmup:
            return float(step) / float(max(1.0, warmup))
        return 1.0
    return f


def schedule_case(name, cfg, make, steps=25, lr=0.1):
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=lr)
    sched = make(opt)
    lrs = [sched.get_last_lr()[0]]
    for _ in range(steps):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    return {"name": name, "config": cfg, "base_lr": lr, "lrs": lrs}


optimizers = [
    optimizer_case("sgd", "SGD", {"lr": 0.1}),
    optimizer_case("sgd_momentum", "SGD", {"lr": 0.05, "momentum": 0.9}),
    optimizer_case("sgd_momentum_dampening_wd", "SGD",
                   {"lr": 0.05, "momentum": 0.8, "dampening": 0.3, "weight_decay": 0.01}),
    optimizer_case("sgd_nesterov_wd", "SGD",
                   {"lr": 0.03, "momentum": 0.9, "nesterov": True, "weight_decay": 0.05}),
    optimizer_case("sgd_momentum_lr_changes", "SGD", {"lr": 0.1, "momentum": 0.9},
                   lrs=[0.1, 0.1, 0.05, 0.05, 0.01, 0.2]),
    optimizer_case("adam", "Adam", {"lr": 1e-3}),
    optimizer_case("adam_l2_betas_eps", "Adam",
                   {"lr": 1e-2, "betas": [0.8, 0.99], "eps": 1e-6, "weight_decay": 0.1}),
    optimizer_case("adamw_default_decay", "AdamW", {"lr": 1e-2, "weight_decay": 0.01}),
    optimizer_case("adamw_strong_decay_lr_changes", "AdamW",
                   {"lr": 3e-3, "weight_decay": 0.5, "betas": [0.85, 0.95]},
                   lrs=[3e-3, 2e-3, 1e-3, 5e-3, 5e-3, 0.0]),
]

schedules = [
    schedule_case("constant", {"kind": "constant"},
                  lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda s: 1.0)),
    schedule_case("constant_warmup", {"kind": "constant_warmup", "warmup": 4},
                  lambda o: torch.optim.lr_scheduler.LambdaLR(o, constant_warmup(4))),
    schedule_case("linear_warmup", {"kind": "linear", "warmup": 5, "total": 20},
                  lambda o: torch.optim.lr_scheduler.LambdaLR(o, linear_warmup(5, 20))),
    schedule_case("linear_no_warmup", {"kind": "linear", "warmup": 0, "total": 10},
                  lambda o: torch.optim.lr_scheduler.LambdaLR(o, linear_warmup(0, 10))),
    schedule_case("cosine_warmup", {"kind": "cosine", "warmup": 3, "total": 20, "cycles": 0.5},
                  lambda o: torch.optim.lr_scheduler.LambdaLR(o, cosine_warmup(3, 20))),
    schedule_case("cosine_two_cycles", {"kind": "cosine", "warmup": 0, "total": 16, "cycles": 2},
                  lambda o: torch.optim.lr_scheduler.LambdaLR(o, cosine_warmup(0, 16, 2))),
    schedule_case("step", {"kind": "step", "step_size": 4, "gamma": 0.5},
                  lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=4, gamma=0.5)),
    schedule_case("lambda_exp", {"kind": "lambda_exp", "gamma": 0.9},
                  lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda s: 0.9 ** s)),
]

def encode_state_dict(sd):
    """An optimizer's state_dict() as JSON: the same keys, tensors as base64 float32, step a number."""
    state = {}
    for k, st in sd["state"].items():
        enc = {}
        for name, v in st.items():
            if v is None:
                enc[name] = None
            elif name == "step":
                enc[name] = float(v)
            else:
                data = v.detach().contiguous().to(torch.float32).numpy().astype("<f4").tobytes()
                enc[name] = {"dtype": "F32", "shape": list(v.shape), "data": base64.b64encode(data).decode()}
        state[str(k)] = enc
    groups = []
    for g in sd["param_groups"]:
        g = dict(g)
        if "betas" in g:
            g["betas"] = list(g["betas"])
        groups.append(g)
    return {"state": state, "param_groups": groups}


def make_optimizer(kind, groups, defaults):
    if kind == "SGD":
        return torch.optim.SGD(groups, **defaults)
    return getattr(torch.optim, kind)(groups, **defaults)


def group_case(name, kind, members, group_cfgs, defaults, sched=None, mid=3):
    """Parameters SHAPES split into groups (members: lists of indices into SHAPES, group_cfgs: each
    group's own keys), STEPS steps with an optional scheduler stepped after each optimizer step.
    Records the parameters and every group's lr after each step, and the state dicts after step
    `mid` and at the end."""
    params0 = [torch.randn(s) for s in SHAPES]
    grads = [[torch.randn(s) * (0.1 + st) for s in SHAPES] for st in range(STEPS)]
    params = [p.clone().requires_grad_(True) for p in params0]
    groups = [dict(cfg, params=[params[i] for i in idx]) for idx, cfg in zip(members, group_cfgs)]
    opt = make_optimizer(kind, groups, defaults)
    scheduler = sched(opt) if sched else None
    order = [i for idx in members for i in idx]  # the optimizer's parameter order
    after, lrs, mid_state, mid_params = [], [[g["lr"] for g in opt.param_groups]], None, None
    for st in range(STEPS):
        for p, g in zip(params, grads[st]):
            p.grad = g.clone()
        opt.step()
        if scheduler:
            scheduler.step()
        after.append([f32(params[i]) for i in order])
        lrs.append([g["lr"] for g in opt.param_groups])
        if st + 1 == mid:
            mid_state = encode_state_dict(opt.state_dict())
            mid_params = [f32(params[i]) for i in order]
    return {
        "name": name, "kind": kind, "members": members, "group_config": group_cfgs, "config": defaults,
        "shapes": [SHAPES[i] for i in order], "params": [f32(params0[i]) for i in order],
        "grads": [[f32(gs[i]) for i in order] for gs in grads], "after": after, "group_lrs": lrs,
        "mid": mid, "mid_params": mid_params, "mid_state": mid_state,
        "final_state": encode_state_dict(opt.state_dict()),
    }


group_cases = [
    group_case("adamw_decay_groups", "AdamW", [[0, 2], [1]],
               [{"weight_decay": 0.1}, {"weight_decay": 0.0, "lr": 3e-2}],
               {"lr": 1e-2, "betas": (0.85, 0.95)}),
    group_case("adam_l2_groups", "Adam", [[0], [1, 2]],
               [{"weight_decay": 0.05}, {"weight_decay": 0.0, "lr": 5e-3}], {"lr": 1e-2}),
    group_case("sgd_momentum_groups", "SGD", [[0, 1], [2]],
               [{"weight_decay": 0.01}, {"weight_decay": 0.0, "lr": 0.05}], {"lr": 0.1, "momentum": 0.9}),
    group_case("sgd_plain_groups", "SGD", [[2], [0, 1]],
               [{"weight_decay": 0.02}, {"weight_decay": 0.0, "lr": 0.3}], {"lr": 0.1}),
    group_case("adamw_groups_cosine", "AdamW", [[0, 2], [1]],
               [{"weight_decay": 0.1}, {"weight_decay": 0.0, "lr": 2e-2}], {"lr": 1e-2},
               sched=lambda o: torch.optim.lr_scheduler.LambdaLR(o, cosine_warmup(2, 6))),
    group_case("sgd_groups_steplr", "SGD", [[1], [0, 2]],
               [{"weight_decay": 0.0}, {"weight_decay": 0.01, "lr": 0.02}], {"lr": 0.1, "momentum": 0.5},
               sched=lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)),
]

# Cases added later, drawn after the ones above so that those keep their values: the optimizers
# with per-element rates (Adadelta with lr 1.0 and StepLR γ 0.7 is PyTorch's MNIST example).
optimizers += [
    optimizer_case("adadelta", "Adadelta", {"lr": 1.0}),
    optimizer_case("adadelta_rho_eps_wd", "Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-4, "weight_decay": 0.05}),
    optimizer_case("rmsprop", "RMSprop", {"lr": 0.01}),
    optimizer_case("rmsprop_centered_momentum_wd", "RMSprop",
                   {"lr": 0.005, "alpha": 0.9, "eps": 1e-6, "weight_decay": 0.02, "momentum": 0.8, "centered": True}),
    optimizer_case("rmsprop_momentum", "RMSprop", {"lr": 0.01, "momentum": 0.5}),
    optimizer_case("adagrad", "Adagrad", {"lr": 0.1}),
    optimizer_case("adagrad_decay_init_wd", "Adagrad",
                   {"lr": 0.05, "lr_decay": 0.1, "weight_decay": 0.03, "initial_accumulator_value": 0.2, "eps": 1e-6}),
]
group_cases += [
    group_case("adadelta_groups_steplr", "Adadelta", [[0, 2], [1]],
               [{"weight_decay": 0.0}, {"weight_decay": 0.01, "lr": 0.5}], {"lr": 1.0},
               sched=lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=1, gamma=0.7)),
    group_case("rmsprop_centered_groups", "RMSprop", [[1], [0, 2]],
               [{"weight_decay": 0.01}, {"weight_decay": 0.0, "lr": 0.02}],
               {"lr": 0.01, "momentum": 0.9, "centered": True}),
    group_case("adagrad_groups", "Adagrad", [[0], [1, 2]],
               [{"weight_decay": 0.0}, {"weight_decay": 0.02, "lr": 0.2}],
               {"lr": 0.1, "lr_decay": 0.05, "initial_accumulator_value": 0.1}),
]

out = {"torch": torch.__version__, "steps": STEPS, "optimizers": optimizers, "schedules": schedules,
       "groups": group_cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "optim_parity.json")
with open(path, "w") as f:
    json.dump(out, f)
print("wrote", path)
