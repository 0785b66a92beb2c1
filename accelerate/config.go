package accelerate

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Toggle is a setting whose default is on: Auto keeps the default, On and Off force it.
type Toggle int

// Toggle values.
const (
	Auto Toggle = iota // the documented default
	On
	Off
)

func (t Toggle) or(def bool) bool {
	switch t {
	case On:
		return true
	case Off:
		return false
	}
	return def
}

// Config configures an Accelerator (Accelerate's Accelerator(...) arguments).
// The zero value is a valid configuration: full precision, no accumulation.
type Config struct {
	// MixedPrecision is "no", "fp16" or "bf16"; "" takes ACCELERATE_MIXED_PRECISION, then "no".
	MixedPrecision string
	// GradientAccumulationSteps is how many steps' gradients add up before the
	// optimizer steps; 0 takes ACCELERATE_GRADIENT_ACCUMULATION_STEPS, then 1.
	GradientAccumulationSteps int
	// CPU forces the CPU even when a GPU exists (also ACCELERATE_USE_CPU=true).
	CPU bool
	// SplitBatches splits each loader batch across processes instead of giving
	// each process whole batches (the loader's batch size is then the global one).
	SplitBatches bool
	// EvenBatches (default on) fills the last round of batches with samples from
	// the start of the epoch so every process gets the same number of batches.
	// Off, the last round is left short: some processes may get one batch
	// fewer, so a per-batch collective (Gather, GatherForMetrics, Backward's
	// all-reduce) must not run on that last batch.
	EvenBatches Toggle
	// StepSchedulerWithOptimizer (default on) steps a prepared scheduler only
	// when its optimizer really stepped.
	StepSchedulerWithOptimizer Toggle
	// ProjectDir is where automatic checkpoints (ProjectDir/checkpoints) and
	// tracker logs (ProjectDir/logs) go.
	ProjectDir string
	// AutomaticCheckpointNaming makes SaveState("") write ProjectDir/checkpoints/checkpoint_N.
	AutomaticCheckpointNaming bool
	// TotalLimit keeps at most this many automatic checkpoints (0: all).
	TotalLimit int
	// LogWith names the trackers: "jsonl", "notebook", or "all".
	LogWith []string
}

// resolved is a Config after defaults, environment overrides and validation.
type resolved struct {
	Config
	evenBatches, stepWithOpt bool
}

var knownTrackers = []string{"jsonl", "notebook"}

// resolve applies environment overrides and defaults, and panics with a
// message naming the field and the allowed values when one is invalid.
func (c Config) resolve() resolved {
	if c.MixedPrecision == "" {
		c.MixedPrecision = strings.ToLower(os.Getenv("ACCELERATE_MIXED_PRECISION"))
		if c.MixedPrecision == "" {
			c.MixedPrecision = "no"
		}
		checkChoice("ACCELERATE_MIXED_PRECISION", c.MixedPrecision, "no", "fp16", "bf16")
	}
	checkChoice("Config.MixedPrecision", c.MixedPrecision, "no", "fp16", "bf16")
	if c.GradientAccumulationSteps == 0 {
		c.GradientAccumulationSteps = 1
		if v := os.Getenv("ACCELERATE_GRADIENT_ACCUMULATION_STEPS"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				panic(fmt.Sprintf("accelerate: ACCELERATE_GRADIENT_ACCUMULATION_STEPS is %q; use a whole number ≥ 1", v))
			}
			c.GradientAccumulationSteps = n
		}
	}
	if c.GradientAccumulationSteps < 1 {
		panic(fmt.Sprintf("accelerate: Config.GradientAccumulationSteps is %d; use a whole number ≥ 1 (or 0 for the default, 1)", c.GradientAccumulationSteps))
	}
	if v := os.Getenv("ACCELERATE_USE_CPU"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			panic(fmt.Sprintf("accelerate: ACCELERATE_USE_CPU is %q; use true or false", v))
		}
		c.CPU = c.CPU || b
	}
	for name, t := range map[string]Toggle{"EvenBatches": c.EvenBatches, "StepSchedulerWithOptimizer": c.StepSchedulerWithOptimizer} {
		if t < Auto || t > Off {
			panic(fmt.Sprintf("accelerate: Config.%s is %d; use accelerate.Auto, accelerate.On or accelerate.Off", name, t))
		}
	}
	if c.TotalLimit < 0 {
		panic(fmt.Sprintf("accelerate: Config.TotalLimit is %d; use 0 (keep all) or a positive count", c.TotalLimit))
	}
	if c.AutomaticCheckpointNaming && c.ProjectDir == "" {
		panic("accelerate: Config.AutomaticCheckpointNaming needs Config.ProjectDir (checkpoints go to ProjectDir/checkpoints)")
	}
	var trackers []string
	for _, name := range c.LogWith {
		if name == "all" {
			trackers = append(trackers, knownTrackers...)
			continue
		}
		checkChoice("Config.LogWith", name, append([]string{"all"}, knownTrackers...)...)
		trackers = append(trackers, name)
	}
	c.LogWith = trackers
	return resolved{Config: c, evenBatches: c.EvenBatches.or(true), stepWithOpt: c.StepSchedulerWithOptimizer.or(true)}
}

func checkChoice(field, v string, allowed ...string) {
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	panic(fmt.Sprintf("accelerate: %s is %q; allowed values: %s", field, v, strings.Join(allowed, ", ")))
}
