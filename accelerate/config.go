package accelerate

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
	// LogWith names the trackers: "jsonl", "notebook", "tensorboard", "mlflow", or "all".
	LogWith []string
	// LoggingDir is where trackers write (Accelerate's ProjectConfiguration.logging_dir):
	// jsonl and tensorboard under LoggingDir/<project>, mlflow's tracking folder in
	// LoggingDir/mlruns; "" means ProjectDir/logs.
	LoggingDir string

	// DDP tunes the data-parallel gradient all-reduce (Accelerate's DistributedDataParallelKwargs).
	DDP DistributedDataParallelKwargs
	// GradScaler tunes fp16's dynamic loss scaling (Accelerate's GradScalerKwargs).
	GradScaler GradScalerKwargs
	// InitProcessGroup tunes the process group (Accelerate's InitProcessGroupKwargs).
	InitProcessGroup InitProcessGroupKwargs
}

// DistributedDataParallelKwargs is what Accelerate's DistributedDataParallelKwargs sets that
// goaccel's gradient synchronisation has.
type DistributedDataParallelKwargs struct {
	// BucketCapMB is the size of the buckets gradients are all-reduced in, in MiB, as DDP's
	// bucket_cap_mb (0 means 25). Smaller buckets start the all-reduce earlier in the backward
	// pass; larger ones make fewer, bigger collectives. The first bucket is at most 1 MiB, as
	// in DDP.
	BucketCapMB float64
}

// GradScalerKwargs configures fp16's loss scaler as torch's GradScaler arguments (Accelerate's
// GradScalerKwargs). Zero fields take PyTorch's defaults; they do nothing without
// MixedPrecision "fp16".
type GradScalerKwargs struct {
	InitScale      float64 // the first scale (0 means 65536)
	GrowthFactor   float64 // the scale is multiplied by it after GrowthInterval good steps (0 means 2; must be > 1)
	BackoffFactor  float64 // and by this after a step whose gradients overflowed (0 means 0.5; must be in (0, 1))
	GrowthInterval int     // good steps in a row before the scale grows (0 means 2000)
	// Enabled (default on) scales the loss; Off computes fp16 without loss scaling or skipped steps.
	Enabled Toggle
}

// InitProcessGroupKwargs configures the process group (Accelerate's InitProcessGroupKwargs).
type InitProcessGroupKwargs struct {
	// Timeout bounds every collective (all-reduce, gather, WaitForEveryone, …), so a process
	// whose peers stopped fails with an error instead of waiting for ever; raise it when one
	// process may work alone for long (evaluation on the main process while the others wait).
	// 0 keeps the group's: GOACCEL_DIST_TIMEOUT, else 30 minutes. A process's Accelerators share
	// its group: the last one created with a Timeout sets it.
	Timeout time.Duration
}

// resolved is a Config after defaults, environment overrides and validation.
type resolved struct {
	Config
	evenBatches, stepWithOpt, scaling bool
}

var knownTrackers = []string{"jsonl", "notebook", "tensorboard", "mlflow"}

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
		checkTracker(name)
		trackers = append(trackers, name)
	}
	c.LogWith = trackers
	if c.LoggingDir == "" && c.ProjectDir != "" {
		c.LoggingDir = filepath.Join(c.ProjectDir, "logs")
	}
	c.DDP = c.DDP.resolve()
	c.GradScaler = c.GradScaler.resolve()
	if c.InitProcessGroup.Timeout < 0 {
		panic(fmt.Sprintf("accelerate: Config.InitProcessGroup.Timeout is %v; use a positive duration (or 0 for the group's default)", c.InitProcessGroup.Timeout))
	}
	return resolved{Config: c, evenBatches: c.EvenBatches.or(true), stepWithOpt: c.StepSchedulerWithOptimizer.or(true),
		scaling: c.MixedPrecision == "fp16" && c.GradScaler.Enabled.or(true)}
}

func (k DistributedDataParallelKwargs) resolve() DistributedDataParallelKwargs {
	if k.BucketCapMB == 0 {
		k.BucketCapMB = 25
	}
	if !(k.BucketCapMB > 0) || math.IsInf(k.BucketCapMB, 0) {
		panic(fmt.Sprintf("accelerate: Config.DDP.BucketCapMB is %v; use a positive size in MiB (or 0 for 25)", k.BucketCapMB))
	}
	return k
}

func (k GradScalerKwargs) resolve() GradScalerKwargs {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&k.InitScale, 65536)
	def(&k.GrowthFactor, 2)
	def(&k.BackoffFactor, 0.5)
	if k.GrowthInterval == 0 {
		k.GrowthInterval = 2000
	}
	switch {
	case !(k.InitScale > 0) || math.IsInf(k.InitScale, 0):
		panic(fmt.Sprintf("accelerate: Config.GradScaler.InitScale is %v; use a positive scale (or 0 for 65536)", k.InitScale))
	case !(k.GrowthFactor > 1) || math.IsInf(k.GrowthFactor, 0):
		panic(fmt.Sprintf("accelerate: Config.GradScaler.GrowthFactor is %v; it must be greater than 1 (or 0 for 2)", k.GrowthFactor))
	case !(k.BackoffFactor > 0 && k.BackoffFactor < 1):
		panic(fmt.Sprintf("accelerate: Config.GradScaler.BackoffFactor is %v; it must be between 0 and 1 (or 0 for 0.5)", k.BackoffFactor))
	case k.GrowthInterval < 0:
		panic(fmt.Sprintf("accelerate: Config.GradScaler.GrowthInterval is %d; use a positive step count (or 0 for 2000)", k.GrowthInterval))
	case k.Enabled < Auto || k.Enabled > Off:
		panic(fmt.Sprintf("accelerate: Config.GradScaler.Enabled is %d; use accelerate.Auto, accelerate.On or accelerate.Off", k.Enabled))
	}
	return k
}

func checkChoice(field, v string, allowed ...string) {
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	panic(fmt.Sprintf("accelerate: %s is %q; allowed values: %s", field, v, strings.Join(allowed, ", ")))
}
