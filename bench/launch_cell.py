#!/usr/bin/python3
"""Driver of bench/launch_cell.sh: runs the MLP benchmark from notebook cells
of a goaccel kernel (JUPYTER_DATA_DIR names where it is installed), launched
on 2 workers with notebook_launcher.Launch: compiled (--compile) with a cold
build cache once, then ROUNDS rounds of: interpreted, compiled with a warm
cache, and the baselines named by the command lines in BASELINES (one per
line: the compiled program and Accelerate), so load changes hit all alike.
Launch to first step is measured from the cell, just before Launch, to the
end of rank 0's first training step. Prints one line per run:

  cell-interpreted procs=2 launch_to_first_step_ms=310 ms_per_step=8.1
"""
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from kernel_e2e import K, result_of, text_of  # noqa: E402

DECLS = '''import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

type BenchResult struct {
	FirstStepMs  float64
	MsPerStep    float64
	CPUMsPerStep float64 // rank 0's CPU time per step, which other load inflates less than wall time
}

// cpuTime is this process's CPU time: the sum over its threads of the
// first field of /proc/self/task/*/schedstat (ns on a CPU). Cells cannot
// import syscall for getrusage.
func cpuTime() time.Duration {
	tasks, _ := os.ReadDir("/proc/self/task")
	var ns int64
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			ns += n
		}
	}
	return time.Duration(ns)
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
	var c1 time.Duration
	for i := 0; i < warmup+steps; i++ {
		if i == warmup {
			acc.WaitForEveryone()
			t1, c1 = time.Now(), cpuTime()
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
	wall, cpu := time.Since(t1), cpuTime()-c1
	return BenchResult{FirstStepMs: first, MsPerStep: float64(wall.Microseconds()) / 1000 / float64(steps),
		CPUMsPerStep: float64(cpu.Microseconds()) / 1000 / float64(steps)}
}'''

LAUNCH = '''t0 := time.Now().UnixNano()
r, err := notebook_launcher.Launch(mlpBench, notebook_launcher.Options{{NumProcesses: 2, Compile: {compile}}}, t0, 2, {steps}, {warmup})
if err != nil {{
	panic(err)
}}
br := r.(BenchResult)
fmt.Printf("{label} procs=2 launch_to_first_step_ms=%.0f ms_per_step=%.2f cpu_ms_per_step=%.2f\\n", br.FirstStepMs, br.MsPerStep, br.CPUMsPerStep)'''


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
        baselines = [shlex.split(l) for l in os.environ.get("BASELINES", "").splitlines() if l.strip()]
        runs = [("cell-interpreted", "false"), ("cell-compiled", "true")] + [(None, cmd) for cmd in baselines]
        for r in range(rounds):
            # A different order each round, so no run always follows the same one.
            for label, what in runs[r % len(runs):] + runs[:r % len(runs)]:
                if label is None:
                    p = subprocess.run(what, capture_output=True, text=True)
                    print(p.stdout.strip() or f"baseline {what[0]} failed: {p.stderr.strip()[-300:]}", flush=True)
                    continue
                out = run(k, LAUNCH.format(compile=what, steps=steps, warmup=10, label=label))
                print([l for l in out.splitlines() if l.startswith(label)][0], flush=True)
    finally:
        k.kc.stop_channels()
        k.km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
