package accelerate

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// The loss scaler follows Config.GradScaler: its first scale, growth after GrowthInterval good
// steps by GrowthFactor, back-off by BackoffFactor on an overflow.
func TestGradScalerKwargsSetTheLossScaler(t *testing.T) {
	acc := soloAcc(Config{MixedPrecision: "fp16", GradScaler: GradScalerKwargs{InitScale: 1024, GrowthFactor: 4, BackoffFactor: 0.25, GrowthInterval: 3}})
	w := tensors.Ones(2).SetRequiresGrad(true)
	var opt optim.Optimizer = optim.NewSGD([]*tensors.Tensor{w}, optim.SGDConfig{LR: 0.1})
	acc.Prepare(&opt)
	step := func(loss *tensors.Tensor) float64 {
		acc.Backward(loss)
		opt.Step()
		opt.ZeroGrad()
		return acc.scaler.scale
	}
	if acc.scaler.scale != 1024 {
		t.Fatalf("initial scale %v, want 1024", acc.scaler.scale)
	}
	acc.Backward(w.Sum())
	if g := w.Grad().Float32s()[0]; g != 1024 {
		t.Errorf("the loss was scaled by %v, want 1024", g)
	}
	opt.ZeroGrad()
	var scales []float64
	for range 3 {
		scales = append(scales, step(w.Sum()))
	}
	scales = append(scales, step(w.MulScalar(1e36).Sum())) // overflows: ×0.25
	if want := []float64{1024, 1024, 4096, 1024}; fmt.Sprint(scales) != fmt.Sprint(want) {
		t.Errorf("scales after each step %v, want %v", scales, want)
	}
	off := soloAcc(Config{MixedPrecision: "fp16", GradScaler: GradScalerKwargs{Enabled: Off}})
	if off.scaler != nil {
		t.Error("GradScaler.Enabled Off still built a loss scaler")
	}
	if soloAcc(Config{MixedPrecision: "bf16"}).scaler != nil {
		t.Error("bf16 got a loss scaler")
	}
}

// Config.DDP.BucketCapMB sets the size of the all-reduce buckets (DDP's bucket_cap_mb).
func TestBucketCapMBSetsTheBuckets(t *testing.T) {
	count := func(cfg Config) int {
		acc := newWithComm(withCfg(cfg), twin{started: make(chan int, 64)})
		var m nn.Module = nn.NewSequential(nn.NewLinear(600, 600), nn.NewLinear(600, 600), nn.NewLinear(600, 600))
		acc.Prepare(&m)
		return len(m.(*model).red.buckets)
	}
	// Gradients in backward order: b3 (600 floats), w3 (360,000), b2, w2, b1, w1. The first
	// bucket stops at 1 MiB (262,144 floats), the others at the cap.
	for _, c := range []struct {
		mb   float64
		want int
	}{
		{0, 2},   // 25 MiB: [b3] [w3 … w1]
		{2, 4},   // [b3] [w3 b2] [w2 b1] [w1]
		{0.5, 6}, // every parameter alone
	} {
		if n := count(Config{DDP: DistributedDataParallelKwargs{BucketCapMB: c.mb}}); n != c.want {
			t.Errorf("BucketCapMB %v: %d buckets, want %d", c.mb, n, c.want)
		}
	}
}

// ClipGradValue unscales fp16 gradients first, those of every prepared optimizer even when it
// clips only some parameters, and does nothing while gradients accumulate.
func TestClipGradValueUnscalesAndWaitsForSync(t *testing.T) {
	acc := soloAcc(Config{MixedPrecision: "fp16", GradientAccumulationSteps: 2})
	a := tensors.Zeros(3).SetRequiresGrad(true)
	b := tensors.Zeros(1).SetRequiresGrad(true)
	var opt optim.Optimizer = optim.NewSGD([]*tensors.Tensor{a, b}, optim.SGDConfig{LR: 1})
	acc.Prepare(&opt)
	loss := func() *tensors.Tensor {
		return a.Mul(tensors.New([]float32{4, -0.5, -3}, 3)).Sum().Add(b.MulScalar(7).Sum())
	}
	acc.doSync() // step 1 of 2: gradients accumulate
	acc.Backward(loss())
	before := a.Grad().Float32s()
	acc.ClipGradValue([]*tensors.Tensor{a}, 1)
	if got := a.Grad().Float32s(); got[0] != before[0] {
		t.Fatalf("clipped on a step that does not sync: %v → %v", before, got)
	}
	acc.doSync() // step 2: sync
	acc.Backward(loss())
	acc.ClipGradValue([]*tensors.Tensor{a}, 1)
	// Two accumulated steps of loss/2: gradients (4, −0.5, −3) and 7, clipped in true units.
	if got := a.Grad().Float32s(); math.Abs(float64(got[0])-1) > 1e-6 || math.Abs(float64(got[1])+0.5) > 1e-6 || math.Abs(float64(got[2])+1) > 1e-6 {
		t.Errorf("clipped gradient %v, want [1 -0.5 -1]", got)
	}
	if got := b.Grad().Float32s()[0]; math.Abs(float64(got)-7) > 1e-5 {
		t.Errorf("the other parameter's gradient is %v; want it unscaled to 7 too", got)
	}
	opt.Step()
	if got := b.Float32s()[0]; math.Abs(float64(got)+7) > 1e-5 {
		t.Errorf("after the step b = %v, want −7 (unscaled once, not twice)", got)
	}
	if msg := panicMessage(func() { acc.ClipGradValue(opt.Params(), -1) }); !strings.Contains(msg, "clipValue") {
		t.Errorf("negative clipValue: panic %q", msg)
	}
}

// Autocast runs a block outside the model in the configured precision, and does nothing without it.
func TestAutocastBlockUsesTheConfiguredPrecision(t *testing.T) {
	x := tensors.New([]float32{1.00390625, 1}, 1, 2) // 1 + 2⁻⁸ is not a bfloat16
	w := tensors.New([]float32{1, 1}, 2, 1)
	for _, c := range []struct {
		mp   string
		want float32
	}{{"no", 2.00390625}, {"bf16", 2}} {
		var out *tensors.Tensor
		soloAcc(Config{MixedPrecision: c.mp}).Autocast(func() { out = x.MatMul(w) })
		if got := out.Float32s()[0]; got != c.want || out.DType() != tensors.Float32 {
			t.Errorf("%s: MatMul in the block = %v (%v), want %v float32", c.mp, got, out.DType(), c.want)
		}
	}
}

func TestSaveModelWritesTheUnwrappedWeights(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "export")
	acc := soloAcc(Config{})
	lin := nn.NewLinear(3, 2)
	var m nn.Module = nn.NewSequential(lin)
	acc.Prepare(&m)
	if err := acc.SaveModel(m, dir); err != nil {
		t.Fatal(err)
	}
	sd, err := nn.LoadSafetensors(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sd) != 2 || sd["0.weight"] == nil || sd["0.bias"] == nil {
		t.Errorf("saved tensors %v; want the unwrapped model's 0.weight and 0.bias", keys(sd))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("export folder holds %d entries; want model.safetensors only", len(entries))
	}
}

func keys(m map[string]*tensors.Tensor) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A scheduler over a prepared optimizer with parameter groups moves every group.
func TestSchedulerOverAPreparedGroupedOptimizer(t *testing.T) {
	acc := soloAcc(Config{})
	w, b := tensors.Zeros(2, 2).SetRequiresGrad(true), tensors.Zeros(2).SetRequiresGrad(true)
	var opt optim.Optimizer = optim.NewAdamWGroups([]optim.ParamGroup{{Params: []*tensors.Tensor{w}, LR: 0.1, WeightDecay: 0.1}, {Params: []*tensors.Tensor{b}, LR: 0.02}}, optim.AdamConfig{})
	acc.Prepare(&opt)
	var sched optim.Scheduler = optim.NewStepLR(opt, 1, 0.5)
	acc.Prepare(&sched)
	sched.Step()
	gs := opt.(optim.Grouped).ParamGroups()
	if gs[0].LR != 0.05 || gs[1].LR != 0.01 {
		t.Errorf("group LRs after one halving: %v, %v; want 0.05, 0.01", gs[0].LR, gs[1].LR)
	}
}
