package symbols_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/symbols"
)

// trackingCell uses, from interpreted code, what issue 36 added to accelerate: the tensorboard
// and mlflow trackers with images and text, Profile, the save/load pre-hooks (cell closures as
// the hook types), SetTrigger/CheckTrigger, GetStateDict, FreeMemory and
// FindExecutableBatchSize with a cell function.
const trackingCell = `
package main

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

func Run(dir string) string {
	acc := accelerate.New(accelerate.Config{ProjectDir: dir, LogWith: []string{"tensorboard", "mlflow"}})
	if err := acc.InitTrackers("cell", map[string]any{"lr": 0.1}); err != nil {
		return err.Error()
	}
	var model nn.Module = nn.NewLinear(3, 1)
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.1})
	acc.Prepare(&model, &opt)
	saved := 0
	acc.RegisterSaveStatePreHook(func(models []nn.Module, weights []map[string]*tensors.Tensor, d string) error {
		saved = len(weights)
		return os.WriteFile(filepath.Join(d, "extra.txt"), []byte("x"), 0o644)
	})
	acc.RegisterLoadStatePreHook(func(models []nn.Module, d string) error { return nil })
	res := acc.Profile(accelerate.ProfileKwargs{OutputTraceDir: filepath.Join(dir, "trace")}, func() {
		for step := 0; step < 3; step++ {
			loss := tensors.MSE(model.Forward(tensors.Ones(4, 3)), tensors.Zeros(4, 1))
			acc.Backward(loss)
			opt.Step()
			opt.ZeroGrad()
			acc.Log(map[string]float64{"loss": loss.Item()}, step)
			if step == 1 {
				acc.SetTrigger()
			}
			if acc.CheckTrigger() {
				break
			}
		}
	})
	acc.LogImages(map[string]image.Image{"blank": image.NewGray(image.Rect(0, 0, 4, 4))}, 1)
	acc.LogText(map[string]string{"note": "hello"}, 1)
	if _, err := acc.SaveState(filepath.Join(dir, "ckpt")); err != nil {
		return err.Error()
	}
	if err := acc.LoadState(filepath.Join(dir, "ckpt")); err != nil {
		return err.Error()
	}
	keys := len(acc.GetStateDict(model))
	bs, err := accelerate.FindExecutableBatchSize(64, func(bs int) error {
		if bs > 50 {
			panic(fmt.Errorf("allocate: %w", tensors.ErrOutOfMemory))
		}
		return nil
	})
	if err != nil || errors.Is(err, tensors.ErrOutOfMemory) {
		return "FindExecutableBatchSize: " + err.Error()
	}
	acc.FreeMemory()
	acc.EndTraining()
	return fmt.Sprintf("saved %d, keys %d, batch %d, rows>0 %v", saved, keys, bs, len(res.Rows()) > 0)
}
`

func TestTrackersProfileAndHooksFromCells(t *testing.T) {
	t.Setenv("MLFLOW_TRACKING_URI", "")
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(symbols.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(trackingCell); err != nil {
		t.Fatalf("eval: %v", err)
	}
	v, err := i.Eval("main.Run")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	got := v.Interface().(func(string) string)(dir)
	if got != "saved 1, keys 2, batch 45, rows>0 true" {
		t.Errorf("cell: %s", got)
	}
	for _, p := range []string{"logs/cell", "logs/mlruns", "trace/profile_0.json", "ckpt/extra.txt"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	events, _ := filepath.Glob(filepath.Join(dir, "logs", "cell", "events.out.tfevents.*"))
	if len(events) != 1 || !strings.Contains(events[0], "tfevents") {
		t.Errorf("event files %v", events)
	}
}
