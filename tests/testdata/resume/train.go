package main

// This file is the training function of the restart, stop/resume and hang
// tests, compiled as a program (main.go) and, less its package line, sent
// to a notebook as its cells (tests/resume_e2e.py): the same source both ways.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// RunCfg configures trainCkpt.
type RunCfg struct {
	Dir    string // the project folder: checkpoints go to Dir/checkpoints
	Epochs int
	// Marks is a folder where rank 1 writes the file "reached" once it
	// reaches step MarkAt (in the first group only, not after a restart);
	// with Pause it then waits there, mid-step, until it is killed.
	Marks  string
	MarkAt int
	Pause  bool
	// StepDelayMS slows each step down, so that a stop lands mid-epoch.
	StepDelayMS int
}

// Trained is what trainCkpt returns: the final weights, and how many steps
// this process ran (fewer than the run's when it resumed from a checkpoint).
type Trained struct {
	Weights []float32
	Ran     int
	Main    bool // this is the main process
}

// trainCkpt trains a small MLP with dropout and AdamW data-parallel on a
// fixed regression task (32 steps per epoch on each of 2 processes),
// saving an automatic checkpoint every 8 steps. The loop resumes by itself
// when its launcher asks (a restart, --resume): Prepare loads the latest
// checkpoint and the loop starts at the loader's epoch.
func trainCkpt(cfg RunCfg) Trained {
	accelerate.SetSeed(1, false)
	acc := accelerate.New(accelerate.Config{ProjectDir: cfg.Dir, AutomaticCheckpointNaming: true, TotalLimit: 2})
	g := tensors.NewGenerator(3)
	x := g.Randn(512, 16)
	y := x.MatMul(g.Randn(16, 1))
	var model nn.Module = nn.NewSequential(nn.NewLinear(16, 32), nn.ReLU{}, nn.NewDropout(0.1), nn.NewLinear(32, 1))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-2})
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 8, Shuffle: true, Seed: 7})
	acc.Prepare(&model, &opt, &loader)
	first := os.Getenv("GOACCEL_RESTART_COUNT") == "0" && acc.Resumed() == ""
	var out Trained
	for epoch := loader.Epoch(); epoch < cfg.Epochs; epoch++ {
		for loader.Next() {
			step := epoch*loader.Len() + loader.Position()
			xb, yb := loader.Batch()
			acc.Backward(tensors.MSE(model.Forward(xb), yb))
			if first && step == cfg.MarkAt && acc.ProcessIndex() == 1 {
				os.WriteFile(filepath.Join(cfg.Marks, "reached"), []byte(fmt.Sprint(os.Getpid())), 0o644)
				for cfg.Pause {
					time.Sleep(time.Second) // mid-step: its gradients are all-reduced, the optimizer has not stepped
				}
			}
			opt.Step()
			opt.ZeroGrad()
			out.Ran++
			time.Sleep(time.Duration(cfg.StepDelayMS) * time.Millisecond)
			if step%8 == 0 {
				if _, err := acc.SaveState(""); err != nil {
					panic(err)
				}
			}
		}
	}
	for _, p := range acc.UnwrapModel(model).Parameters() {
		out.Weights = append(out.Weights, p.Float32s()...)
	}
	out.Main = acc.IsMainProcess()
	acc.EndTraining()
	return out
}

// trainAndReport runs trainCkpt and prints its result on the main process
// (the main of an exported program discards the result): the weights as a
// WEIGHTS line of JSON, the steps it ran as a RAN line.
func trainAndReport(cfg RunCfg) {
	res := trainCkpt(cfg)
	if res.Main {
		b, _ := json.Marshal(res.Weights)
		fmt.Printf("WEIGHTS %s\nRAN %d\n", b, res.Ran)
	}
}

// skipOne all-reduces a value on every rank at each step, except that rank
// 1 takes another branch at step 2 and never joins that all-reduce.
func skipOne(steps int) {
	acc := accelerate.New(accelerate.Config{})
	v := tensors.Ones(4)
	for step := 0; step < steps; step++ {
		if acc.ProcessIndex() == 1 && step == 2 {
			time.Sleep(time.Hour) // the branch only rank 1 takes
			continue
		}
		v = acc.Reduce(v, "sum")
	}
}
