package accelerate

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// TestSaveAndLoadStatePreHooks: a save hook sees the unwrapped models, their state dicts and
// the folder being written; it writes a file of its own that ends up in the checkpoint, and
// takes over one model's saving (weights[i] = nil: no model_1.safetensors). The load hook sees
// the checkpoint folder and takes over that model's loading (models[i] = nil). Remove
// unregisters; a hook's error stops SaveState.
func TestSaveAndLoadStatePreHooks(t *testing.T) {
	acc := soloAcc(Config{})
	tensors.ManualSeed(1)
	var a, b nn.Module = nn.NewLinear(2, 2), nn.NewLinear(3, 1)
	inner := []nn.Module{a, b}
	acc.Prepare(&a, &b)
	var calls []string
	acc.RegisterSaveStatePreHook(func(models []nn.Module, weights []map[string]*tensors.Tensor, dir string) error {
		if len(models) != 2 || models[0] != inner[0] || models[1] != inner[1] {
			t.Errorf("save hook got models %v; want the unwrapped ones", models)
		}
		if len(weights) != 2 || weights[0]["weight"] == nil || weights[1]["bias"] == nil {
			t.Errorf("save hook got weights %v", weights)
		}
		calls = append(calls, "save")
		weights[1] = nil
		return os.WriteFile(filepath.Join(dir, "model_1.custom"), []byte("mine"), 0o644)
	})
	second := acc.RegisterSaveStatePreHook(func([]nn.Module, []map[string]*tensors.Tensor, string) error {
		calls = append(calls, "second")
		return nil
	})
	acc.RegisterLoadStatePreHook(func(models []nn.Module, dir string) error {
		if b, err := os.ReadFile(filepath.Join(dir, "model_1.custom")); err != nil || string(b) != "mine" {
			t.Errorf("load hook: model_1.custom: %q, %v", b, err)
		}
		calls = append(calls, "load")
		models[1] = nil
		return nil
	})
	dir := filepath.Join(t.TempDir(), "ckpt")
	if _, err := acc.SaveState(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "model_1.custom")); err != nil {
		t.Errorf("the hook's file is not in the checkpoint: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "model_1.safetensors")); !os.IsNotExist(err) {
		t.Errorf("model_1.safetensors was written though the hook saved model 1 itself (stat: %v)", err)
	}
	second.Remove()
	second.Remove()
	want := acc.GetStateDict(a)["weight"].Float32s()
	tensors.NoGrad(func() { inner[0].Parameters()[0].Fill(7) })
	if err := acc.LoadState(dir); err != nil {
		t.Fatal(err)
	}
	if got := acc.GetStateDict(a)["weight"].Float32s(); !slices.Equal(got, want) {
		t.Errorf("model 0 after LoadState %v; want %v", got, want)
	}
	if strings.Join(calls, ",") != "save,second,load" {
		t.Errorf("hooks ran %v; want save, second, load", calls)
	}
	acc.RegisterSaveStatePreHook(func([]nn.Module, []map[string]*tensors.Tensor, string) error { return errors.New("disk quota") })
	if _, err := acc.SaveState(filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "disk quota") {
		t.Errorf("SaveState with a failing hook: %v", err)
	}
}

// TestGetStateDictIsTheUnwrappedModels: names as the model was built, buffers included
// (BatchNorm's running statistics), values shared with the model.
func TestGetStateDictIsTheUnwrappedModels(t *testing.T) {
	acc := soloAcc(Config{})
	built := nn.NewSequential(nn.NewLinear(3, 4), nn.NewBatchNorm1d(4))
	var model nn.Module = built
	acc.Prepare(&model)
	got := acc.GetStateDict(model)
	want := nn.StateDict(built)
	var gk, wk []string
	for k := range got {
		gk = append(gk, k)
	}
	for k := range want {
		wk = append(wk, k)
	}
	slices.Sort(gk)
	slices.Sort(wk)
	if !slices.Equal(gk, wk) || !slices.ContainsFunc(gk, func(k string) bool { return strings.HasSuffix(k, "running_mean") }) {
		t.Fatalf("GetStateDict keys %v; want the built model's %v, running statistics included", gk, wk)
	}
	for k, v := range want {
		if !slices.Equal(got[k].Float32s(), v.Float32s()) {
			t.Errorf("%s differs", k)
		}
	}
}

func TestCheckTriggerOnOneProcess(t *testing.T) {
	acc := soloAcc(Config{})
	if acc.CheckTrigger() {
		t.Fatal("CheckTrigger before any SetTrigger")
	}
	acc.SetTrigger()
	if !acc.CheckTrigger() {
		t.Fatal("CheckTrigger after SetTrigger is false")
	}
	if acc.CheckTrigger() {
		t.Fatal("CheckTrigger did not lower the trigger")
	}
}
