package accelerate

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func panicMessage(fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	fn()
	return ""
}

func TestInvalidConfigPanicsNamingFieldAndAllowedValues(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		env  map[string]string
		want []string
	}{
		{Config{MixedPrecision: "fp32"}, nil, []string{"Config.MixedPrecision", `"fp32"`, "no, fp16, bf16"}},
		{Config{GradientAccumulationSteps: -1}, nil, []string{"Config.GradientAccumulationSteps", "≥ 1"}},
		{Config{TotalLimit: -3}, nil, []string{"Config.TotalLimit"}},
		{Config{LogWith: []string{"wandb"}}, nil, []string{"Config.LogWith", `"wandb"`, "Weights & Biases", "jsonl", "notebook", "tensorboard", "mlflow", "AddTracker"}},
		{Config{LogWith: []string{"comet_ml"}}, nil, []string{"Config.LogWith", "Comet", "tensorboard, mlflow"}},
		{Config{LogWith: []string{"tensorbord"}}, nil, []string{"Config.LogWith", `"tensorbord"`, "all, jsonl, notebook, tensorboard, mlflow"}},
		{Config{EvenBatches: 7}, nil, []string{"Config.EvenBatches", "accelerate.Off"}},
		{Config{AutomaticCheckpointNaming: true}, nil, []string{"ProjectDir"}},
		{Config{}, map[string]string{"ACCELERATE_MIXED_PRECISION": "fp8"}, []string{"ACCELERATE_MIXED_PRECISION", "bf16"}},
		{Config{}, map[string]string{"ACCELERATE_GRADIENT_ACCUMULATION_STEPS": "two"}, []string{"ACCELERATE_GRADIENT_ACCUMULATION_STEPS"}},
		{Config{}, map[string]string{"ACCELERATE_USE_CPU": "maybe"}, []string{"ACCELERATE_USE_CPU", "true or false"}},
		{Config{DDP: DistributedDataParallelKwargs{BucketCapMB: -1}}, nil, []string{"Config.DDP.BucketCapMB", "positive"}},
		{Config{GradScaler: GradScalerKwargs{InitScale: -2}}, nil, []string{"Config.GradScaler.InitScale"}},
		{Config{GradScaler: GradScalerKwargs{GrowthFactor: 0.5}}, nil, []string{"Config.GradScaler.GrowthFactor", "greater than 1"}},
		{Config{GradScaler: GradScalerKwargs{BackoffFactor: 1.5}}, nil, []string{"Config.GradScaler.BackoffFactor", "between 0 and 1"}},
		{Config{GradScaler: GradScalerKwargs{GrowthInterval: -5}}, nil, []string{"Config.GradScaler.GrowthInterval"}},
		{Config{GradScaler: GradScalerKwargs{Enabled: 9}}, nil, []string{"Config.GradScaler.Enabled", "accelerate.Off"}},
		{Config{InitProcessGroup: InitProcessGroupKwargs{Timeout: -time.Second}}, nil, []string{"Config.InitProcessGroup.Timeout"}},
	} {
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		msg := panicMessage(func() { tc.cfg.resolve() })
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("resolve(%+v, env %v) panic = %q; want it to mention %q", tc.cfg, tc.env, msg, w)
			}
		}
		for k := range tc.env {
			t.Setenv(k, "")
		}
	}
}

func TestEnvironmentFillsUnsetConfig(t *testing.T) {
	t.Setenv("ACCELERATE_MIXED_PRECISION", "bf16")
	t.Setenv("ACCELERATE_GRADIENT_ACCUMULATION_STEPS", "4")
	t.Setenv("ACCELERATE_USE_CPU", "true")
	r := Config{}.resolve()
	if r.MixedPrecision != "bf16" || r.GradientAccumulationSteps != 4 || !r.CPU {
		t.Errorf("resolve from env = %+v; want bf16, 4 steps, CPU", r.Config)
	}
	if r := (Config{MixedPrecision: "no", GradientAccumulationSteps: 2}).resolve(); r.MixedPrecision != "no" || r.GradientAccumulationSteps != 2 {
		t.Errorf("explicit config lost to env: %+v", r.Config)
	}
	if r := (Config{}).resolve(); !r.evenBatches || !r.stepWithOpt {
		t.Error("EvenBatches and StepSchedulerWithOptimizer must default to on")
	}
	if r := (Config{EvenBatches: Off, LogWith: []string{"all"}}).resolve(); r.evenBatches || len(r.LogWith) != 4 {
		t.Errorf("EvenBatches Off / LogWith all: %+v", r)
	}
}

func TestSplitRangeGivesFirstProcessesOneExtra(t *testing.T) {
	for _, tc := range []struct {
		n, procs int
		want     [][2]int
	}{
		{10, 3, [][2]int{{0, 4}, {4, 7}, {7, 10}}},
		{9, 3, [][2]int{{0, 3}, {3, 6}, {6, 9}}},
		{2, 3, [][2]int{{0, 1}, {1, 2}, {2, 2}}},
		{5, 1, [][2]int{{0, 5}}},
	} {
		for r, w := range tc.want {
			if s, e := splitRange(tc.n, tc.procs, r); s != w[0] || e != w[1] {
				t.Errorf("splitRange(%d, %d, rank %d) = [%d, %d); want [%d, %d)", tc.n, tc.procs, r, s, e, w[0], w[1])
			}
		}
	}
}
