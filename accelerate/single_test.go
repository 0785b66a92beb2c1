package accelerate

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

func soloAcc(c Config) *Accelerator { return newWithComm(c.resolve(), solo{}) }

func TestPrepareExplainsConcreteTypedVariables(t *testing.T) {
	acc := soloAcc(Config{})
	lin := nn.NewLinear(2, 2)
	sgd := optim.NewSGD(lin.Parameters(), optim.SGDConfig{LR: 0.1})
	for _, tc := range []struct {
		arg  any
		want string
	}{
		{&lin, "var model nn.Module"},
		{&sgd, "var opt optim.Optimizer"},
		{lin, "pass a pointer to the variable"},
		{new(int), "Prepare takes pointers"},
		{new(*struct{ W []float32 }), "var model nn.Module = &MyNet"},
	} {
		msg := panicMessage(func() { acc.Prepare(tc.arg) })
		if !strings.Contains(msg, tc.want) {
			t.Errorf("Prepare(%T) panic = %q; want it to mention %q", tc.arg, msg, tc.want)
		}
	}
}

func TestPrepareWrapsInPlaceAndUnwrapModelReturnsTheOriginal(t *testing.T) {
	acc := soloAcc(Config{})
	lin := nn.NewLinear(2, 2)
	var m nn.Module = lin
	var opt optim.Optimizer = optim.NewSGD(lin.Parameters(), optim.SGDConfig{LR: 0.1})
	acc.Prepare(&m, &opt)
	if _, ok := m.(*model); !ok {
		t.Fatalf("Prepare left the model as %T", m)
	}
	if acc.UnwrapModel(m) != nn.Module(lin) {
		t.Error("UnwrapModel did not return the original module")
	}
	acc.Prepare(&m)
	if len(acc.models) != 1 {
		t.Error("preparing a prepared model wrapped it twice")
	}
}

func TestLossScalerBacksOffOnOverflowAndGrowsAfter2000Steps(t *testing.T) {
	s := newLossScaler(GradScalerKwargs{}.resolve())
	p := tensors.Zeros(2).SetRequiresGrad(true)
	p.SetGrad(tensors.New([]float32{float32(math.Inf(1)), 1}, 2))
	s.unscale([]*tensors.Tensor{p})
	if !s.foundInf {
		t.Fatal("inf gradient not detected")
	}
	s.update()
	if s.scale != 32768 {
		t.Errorf("scale after overflow = %v; want 32768", s.scale)
	}
	for i := 0; i < 2000; i++ {
		p.SetGrad(tensors.New([]float32{1, 1}, 2))
		s.unscale([]*tensors.Tensor{p})
		s.update()
	}
	if s.scale != 65536 {
		t.Errorf("scale after 2000 good steps = %v; want 65536", s.scale)
	}
}

func TestFP16SkipsTheStepWhoseGradientsOverflow(t *testing.T) {
	acc := soloAcc(Config{MixedPrecision: "fp16"})
	w := tensors.Ones(2).SetRequiresGrad(true)
	var opt optim.Optimizer = optim.NewSGD([]*tensors.Tensor{w}, optim.SGDConfig{LR: 0.1})
	acc.Prepare(&opt)
	loss := w.MulScalar(1e35).Sum() // ×65536 overflows float32
	acc.Backward(loss)
	opt.Step()
	if !acc.OptimizerStepWasSkipped() {
		t.Fatal("step with inf gradients was not skipped")
	}
	if got := w.Float32s(); got[0] != 1 {
		t.Errorf("skipped step changed the weights: %v", got)
	}
	opt.ZeroGrad()
	acc.Backward(w.Sum())
	if norm := acc.ClipGradNorm(opt.Params(), 100); math.Abs(norm-math.Sqrt2) > 1e-4 {
		t.Errorf("ClipGradNorm under fp16 = %v; want the unscaled norm √2", norm)
	}
	opt.Step()
	if acc.OptimizerStepWasSkipped() {
		t.Error("finite step was skipped")
	}
	if got := w.Float32s(); math.Abs(float64(got[0])-0.9) > 1e-6 {
		t.Errorf("weights after an unscaled step = %v; want 0.9", got)
	}
}

func TestMixedPrecisionForwardRunsUnderAutocastAndTrains(t *testing.T) {
	for _, mp := range []string{"bf16", "fp16"} {
		t.Run(mp, func(t *testing.T) { testMixedPrecisionTrains(t, mp) })
	}
}

func testMixedPrecisionTrains(t *testing.T, mp string) {
	acc := soloAcc(Config{MixedPrecision: mp})
	tensors.ManualSeed(2)
	var model nn.Module = nn.NewLinear(4, 1)
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.05})
	loader := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 16})
	acc.Prepare(&model, &opt, &loader)
	var first, last float64
	for e := 0; e < 5; e++ {
		for loader.Next() {
			x, y := loader.Batch()
			out := model.Forward(x)
			if out.DType() != tensors.Float32 {
				t.Fatalf("autocast output dtype %v; want float32", out.DType())
			}
			loss := tensors.MSE(out, y)
			if first == 0 {
				first = loss.Item()
			}
			last = loss.Item()
			acc.Backward(loss)
			opt.Step()
			opt.ZeroGrad()
		}
	}
	if p := acc.UnwrapModel(model).Parameters()[0]; p.DType() != tensors.Float32 {
		t.Errorf("master weights are %v; want float32", p.DType())
	}
	if !(last < first/4) {
		t.Errorf("%s training did not converge: loss %v → %v", mp, first, last)
	}
}

func TestLoadStateOfAnotherModelNamesTheMismatchedTensors(t *testing.T) {
	dir := t.TempDir()
	a := soloAcc(Config{})
	var m1 nn.Module = nn.NewSequential(nn.NewLinear(4, 8), nn.NewLinear(8, 1))
	a.Prepare(&m1)
	if _, err := a.SaveState(filepath.Join(dir, "ck")); err != nil {
		t.Fatal(err)
	}
	b := soloAcc(Config{})
	var m2 nn.Module = nn.NewSequential(nn.NewLinear(4, 6), nn.NewLinear(6, 1))
	b.Prepare(&m2)
	err := b.LoadState(filepath.Join(dir, "ck"))
	if err == nil || !strings.Contains(err.Error(), "0.weight") || !strings.Contains(err.Error(), "1.weight") {
		t.Errorf("LoadState of a different model = %v; want an error naming 0.weight and 1.weight", err)
	}
}

func TestAutomaticCheckpointsKeepTotalLimitAndAccelerateLayout(t *testing.T) {
	dir := t.TempDir()
	a := soloAcc(Config{ProjectDir: dir, AutomaticCheckpointNaming: true, TotalLimit: 2})
	var m nn.Module = nn.NewLinear(2, 1)
	var opt optim.Optimizer = optim.NewSGD(m.Parameters(), optim.SGDConfig{LR: 0.1})
	var sched optim.Scheduler = optim.NewStepLR(opt, 1, 0.5)
	a.Prepare(&m, &opt, &sched)
	a.RegisterForCheckpointing(optim.NewConstantSchedule(opt))
	var last string
	for i := 0; i < 4; i++ {
		p, err := a.SaveState("")
		if err != nil {
			t.Fatal(err)
		}
		last = p
	}
	if want := filepath.Join(dir, "checkpoints", "checkpoint_3"); last != want {
		t.Errorf("fourth automatic checkpoint at %s; want %s", last, want)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "checkpoints"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "checkpoint_2,checkpoint_3" {
		t.Errorf("checkpoints kept = %v; want the last 2", names)
	}
	for _, f := range []string{"model.safetensors", "optimizer.bin", "scheduler.bin", "random_states_0.json", "custom_checkpoint_0.bin", "goaccel_state.json"} {
		if _, err := os.Stat(filepath.Join(last, f)); err != nil {
			t.Errorf("checkpoint lacks %s: %v", f, err)
		}
	}
	if err := a.LoadState(""); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.SaveState(""); filepath.Base(p) != "checkpoint_4" {
		t.Errorf("save after loading checkpoint_3 went to %s; want checkpoint_4", p)
	}
}

func TestJSONLTrackerWritesOneLinePerLogOnMainProcess(t *testing.T) {
	dir := t.TempDir()
	a := soloAcc(Config{ProjectDir: dir, LogWith: []string{"jsonl", "notebook"}})
	if err := a.InitTrackers("run1", map[string]any{"lr": 0.1}); err != nil {
		t.Fatal(err)
	}
	a.Log(map[string]float64{"loss": 0.5}, 1)
	a.Log(map[string]float64{"loss": 0.25}, 2)
	a.EndTraining()
	f, err := os.Open(filepath.Join(dir, "logs", "run1", "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 2 || !strings.Contains(lines[1], `"loss":0.25`) || !strings.Contains(lines[1], `"step":2`) {
		t.Errorf("metrics.jsonl = %q; want two records with loss and step", lines)
	}
}
