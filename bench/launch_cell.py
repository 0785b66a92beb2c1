#!/usr/bin/python3
"""Driver of bench/launch_cell.sh: runs the MLP benchmark from notebook cells
of a goaccel kernel (JUPYTER_DATA_DIR names where it is installed), launched
on 2 workers with notebook_launcher.Launch: interpreted, then compiled
(--compile) with a cold build cache, then with a warm one, ROUNDS times.
Launch to first step is measured from the cell, just before Launch, to the
end of rank 0's first training step. Prints one line per run:

  cell-interpreted procs=2 launch_to_first_step_ms=310 ms_per_step=8.1
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from kernel_e2e import K, result_of, text_of  # noqa: E402

DECLS = '''import (
	"fmt"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

type BenchResult struct {
	FirstStepMs float64
	MsPerStep   float64
}

// mlpBench is bench/accelerate_mlp's worker, written in a cell.
func mlpBench(t0 int64, procs, steps, warmup int) BenchResult {
	acc := accelerate.New(accelerate.Config{})
	accelerate.SetSeed(0, false)
	n := 1024
	x := tensors.Randn(n, 784)
	y := tensors.RandInt(0, 10, n)
	var model nn.Module = nn.NewSequential(nn.NewLinear(784, 512), &nn.ReLU{}, nn.NewLinear(512, 512), &nn.ReLU{}, nn.NewLinear(512, 10))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 128 / procs, Shuffle: true})
	acc.Prepare(&model, &opt, &loader)
	var first float64
	var t1 time.Time
	for i := 0; i < warmup+steps; i++ {
		if i == warmup {
			acc.WaitForEveryone()
			t1 = time.Now()
		}
		if !loader.Next() {
			loader.Next()
		}
		xb, yb := loader.Batch()
		loss := tensors.CrossEntropy(model.Forward(xb), yb)
		acc.Backward(loss)
		opt.Step()
		opt.ZeroGrad()
		if i == 0 {
			first = float64(time.Now().UnixNano()-t0) / 1e6
		}
	}
	acc.WaitForEveryone()
	return BenchResult{FirstStepMs: first, MsPerStep: float64(time.Since(t1).Microseconds()) / 1000 / float64(steps)}
}'''

LAUNCH = '''t0 := time.Now().UnixNano()
r, err := notebook_launcher.Launch(mlpBench, notebook_launcher.Options{{NumProcesses: 2, Compile: {compile}}}, t0, 2, {steps}, {warmup})
if err != nil {{
	panic(err)
}}
br := r.(BenchResult)
fmt.Printf("{label} procs=2 launch_to_first_step_ms=%.0f ms_per_step=%.2f\\n", br.FirstStepMs, br.MsPerStep)'''


def run(k, code):
    c, msgs = k.run(code, timeout=900)
    if c["status"] != "ok":
        raise SystemExit(f"cell failed: {c.get('ename')}: {c.get('evalue')}\n{code}")
    return text_of(msgs)


def main():
    rounds, steps = int(os.environ.get("ROUNDS", "3")), int(os.environ.get("STEPS", "60"))
    k = K()
    try:
        run(k, DECLS)
        for label, compile_ in [("cell-compiled-cold", "true")]:
            out = run(k, LAUNCH.format(compile=compile_, steps=steps, warmup=10, label=label))
            print([l for l in out.splitlines() if l.startswith(label)][0], flush=True)
        for _ in range(rounds):
            for label, compile_ in [("cell-interpreted", "false"), ("cell-compiled", "true")]:
                out = run(k, LAUNCH.format(compile=compile_, steps=steps, warmup=10, label=label))
                print([l for l in out.splitlines() if l.startswith(label)][0], flush=True)
    finally:
        k.kc.stop_channels()
        k.km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
