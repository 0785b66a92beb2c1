package accelerate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/syncbuf"
	"github.com/goaccel/goaccel/nn"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

type syncBuffer = syncbuf.Buffer

// sharedDir is a folder the test process and its workers agree on.
func sharedDir(t *testing.T) string {
	if d := os.Getenv("ACC_TEST_DIR"); d != "" {
		return d
	}
	d := t.TempDir()
	t.Setenv("ACC_TEST_DIR", d)
	return d
}

// launch runs fn on n worker processes (re-executing this test only) and
// fails the test with the workers' output when any of them fails.
func launch(t *testing.T, n int, fn func()) {
	t.Helper()
	if testing.Short() {
		t.Skip("multi-process test")
	}
	var out syncBuffer
	_, err := nl.Launch(fn, nl.Options{NumProcesses: n, Args: []string{"-test.run=^" + t.Name() + "$"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("workers failed: %v\noutput:\n%s", err, out.String())
	}
}

// group joins the launched group once per worker process.
var group = sync.OnceValue(func() comm {
	c, err := joinGroup(withCfg(Config{}))
	if err != nil {
		panic(err)
	}
	return c
})

func writeJSON(path string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		panic(err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// regression is a deterministic 96-sample linear regression data set.
func regression() *data.TensorDataset {
	g := tensors.NewGenerator(7)
	x := g.Randn(96, 4)
	w := tensors.New([]float32{1, -2, 0.5, 3}, 4, 1)
	y := x.MatMul(w).Add(g.Randn(96, 1).MulScalar(0.1))
	return data.NewTensorDataset(x, y)
}

type runCfg struct {
	Name    string
	Batch   int
	Shuffle bool
	Split   bool
	GA      int
	Epochs  int
	MLP     bool    // a two-layer MLP with AdamW instead of a linear model with SGD
	BN      bool    // an MLP with a BatchNorm1d, converted to SyncBatchNorm, with SGD
	Bucket  float64 // Config.DDP.BucketCapMB
}

// train runs cfg on acc and returns the final parameters and the scheduler's step count.
func train(acc *Accelerator, cfg runCfg) ([]float32, int) {
	tensors.ManualSeed(3)
	var model nn.Module = nn.NewLinear(4, 1)
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.05, Momentum: 0.9})
	if cfg.MLP {
		model = nn.NewSequential(nn.NewLinear(4, 16), &nn.ReLU{}, nn.NewLinear(16, 1))
		opt = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 0.01})
	}
	if cfg.BN {
		model = nn.ConvertSyncBatchNorm(nn.NewSequential(nn.NewLinear(4, 16), nn.NewBatchNorm1d(16), &nn.ReLU{}, nn.NewLinear(16, 1)))
		opt = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.05, Momentum: 0.9})
	}
	sched := optim.NewLambdaLR(opt, func(int) float64 { return 1 })
	var s optim.Scheduler = sched
	loader := data.NewLoader(regression(), data.LoaderConfig{BatchSize: cfg.Batch, Shuffle: cfg.Shuffle, Seed: 11})
	acc.Prepare(&model, &opt, &loader, &s)
	for e := 0; e < cfg.Epochs; e++ {
		for loader.Next() {
			x, y := loader.Batch()
			acc.Accumulate(model, func() {
				loss := tensors.MSE(model.Forward(x), y)
				acc.Backward(loss)
				opt.Step()
				s.Step()
				opt.ZeroGrad()
			})
		}
	}
	var out []float32
	for _, p := range acc.UnwrapModel(model).Parameters() {
		out = append(out, p.Float32s()...)
	}
	for _, b := range nn.NamedBuffersOf(acc.UnwrapModel(model)) { // running statistics
		out = append(out, b.Param.Float32s()...)
	}
	return out, sched.LastEpoch()
}

func withCfg(c Config) resolved { return c.resolve() }

func resultPath(dir, name string) string { return filepath.Join(dir, name+".json") }
