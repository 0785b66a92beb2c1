package accelerate

import (
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/profiling"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
)

// stepsOfMNIST trains the MLP of notebooks/mnist.ipynb (784-256-10, AdamW, batch 128) for
// steps steps through acc, logging the loss at every step, inside Profile when profile is
// set. It returns the wall time per step and the time per step spent in Log.
func stepsOfMNIST(b *testing.B, train data.Dataset, cfg Config, steps int, profile bool) (perStep, logging time.Duration, events int) {
	SetSeed(0, false)
	acc := newWithComm(withCfg(cfg), solo{})
	var model nn.Module = nn.NewSequential(nn.Flatten{}, nn.NewLinear(784, 256), nn.ReLU{}, nn.NewLinear(256, 10))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	acc.Prepare(&model, &opt, &loader)
	if err := acc.InitTrackers("bench", map[string]any{"lr": 1e-3, "batch_size": 128}); err != nil {
		b.Fatal(err)
	}
	var inLog time.Duration
	run := func() {
		for step := 0; step < steps && loader.Next(); step++ {
			xb, yb := loader.Batch()
			loss := nn.CrossEntropy(model.Forward(xb), yb)
			acc.Backward(loss)
			opt.Step()
			opt.ZeroGrad()
			l := loss.Item()
			t0 := time.Now()
			acc.Log(map[string]float64{"loss": l, "lr": 1e-3}, step)
			inLog += time.Since(t0)
		}
	}
	start := time.Now()
	if profile {
		for _, r := range acc.Profile(ProfileKwargs{}, run).Rows() {
			events += r.Calls
		}
	} else {
		run()
	}
	total := time.Since(start)
	acc.EndTraining()
	return total / time.Duration(steps), inLog / time.Duration(steps), events / steps
}

// BenchmarkTrackerAndProfilerOverheadPerStep runs 100 steps of MNIST MLP training per
// variant, in turn in the same loop (so that machine load hits them alike): no tracker, the
// tensorboard and mlflow (file store) trackers logging two values every step, and the whole
// run under Profile. It reports each variant's time per step, and for the trackers the time
// per step spent inside Log (the direct measure of their cost, which load does not blur), and
// for Profile the events recorded per step and their cost (events × the cost of one event,
// measured in the same run).
func BenchmarkTrackerAndProfilerOverheadPerStep(b *testing.B) {
	train, err := data.MNIST("train")
	if err != nil {
		b.Skipf("MNIST not available: %v", err)
	}
	b.Setenv("MLFLOW_TRACKING_URI", "")
	const steps = 100
	dir := b.TempDir()
	stepsOfMNIST(b, train, Config{}, steps, false) // warm-up
	// The cost of one recorded event, measured beside the steps.
	rec := profiling.NewRecorder()
	t0 := time.Now()
	for range 100000 {
		rec.Start(profiling.CatOp, "Add", profiling.Args{}).End()
	}
	perEvent := time.Since(t0) / 100000
	variants := []struct {
		name    string
		cfg     Config
		profile bool
	}{
		{"plain", Config{}, false},
		{"tensorboard", Config{ProjectDir: dir, LogWith: []string{"tensorboard"}}, false},
		{"mlflow", Config{ProjectDir: dir, LogWith: []string{"mlflow"}}, false},
		{"profile", Config{}, true},
	}
	per := make([]time.Duration, len(variants))
	logs := make([]time.Duration, len(variants))
	n, events := 0, 0
	for b.Loop() {
		for i, v := range variants {
			p, l, e := stepsOfMNIST(b, train, v.cfg, steps, v.profile)
			per[i] += p
			logs[i] += l
			events = max(events, e)
		}
		n++
	}
	// Profile's cost: the events of a step times the cost of one.
	b.ReportMetric(float64(events), "profile-events/step")
	b.ReportMetric(float64(time.Duration(events)*perEvent)/1e3, "profile-cost-µs/step")
	for i, v := range variants {
		b.ReportMetric(float64(per[i].Microseconds())/float64(n), v.name+"-µs/step")
		if v.cfg.LogWith != nil {
			b.ReportMetric(float64(logs[i].Nanoseconds())/1e3/float64(n), v.name+"-Log-µs/step")
		}
	}
}
