package accelerate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// oomAbove is a training function that runs out of device memory above limit: as a panic
// (what an op on a full GPU does) or as a returned error wrapping tensors.ErrOutOfMemory.
func oomAbove(limit int, asPanic bool, tried *[]int) func(int) error {
	return func(bs int) error {
		*tried = append(*tried, bs)
		if bs <= limit {
			return nil
		}
		err := fmt.Errorf("tensors: allocate on cuda:0: allocate %d bytes of device memory: %w", bs<<20, tensors.ErrOutOfMemory)
		if asPanic {
			panic(err)
		}
		return err
	}
}

func TestFindExecutableBatchSizeBacksOffOnOutOfMemory(t *testing.T) {
	for _, tc := range []struct {
		name    string
		start   int
		limit   int
		panics  bool
		reduce  func(int) int
		want    int
		tries   []int
		wantErr error
	}{
		{name: "fits", start: 64, limit: 100, want: 64, tries: []int{64}},
		{name: "0.9 back-off, panic", start: 128, limit: 100, panics: true, want: 92, tries: []int{128, 115, 103, 92}},
		{name: "error", start: 128, limit: 100, want: 92, tries: []int{128, 115, 103, 92}},
		{name: "halving", start: 128, limit: 40, panics: true, reduce: func(bs int) int { return bs / 2 }, want: 32, tries: []int{128, 64, 32}},
		{name: "nothing fits", start: 4, limit: 0, panics: true, reduce: func(bs int) int { return bs / 2 }, tries: []int{4, 2, 1}, wantErr: ErrNoExecutableBatchSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tried []int
			got, err := FindExecutableBatchSizeWith(tc.start, tc.reduce, oomAbove(tc.limit, tc.panics, &tried))
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || !errors.Is(err, tensors.ErrOutOfMemory) {
					t.Fatalf("err %v; want %v wrapping the last out-of-memory", err, tc.wantErr)
				}
			} else if err != nil || got != tc.want {
				t.Fatalf("batch size %d, err %v; want %d", got, err, tc.want)
			}
			if fmt.Sprint(tried) != fmt.Sprint(tc.tries) {
				t.Errorf("tried %v; want %v", tried, tc.tries)
			}
		})
	}
}

func TestFindExecutableBatchSizePassesOtherFailuresOn(t *testing.T) {
	boom := errors.New("bad data")
	var calls int
	bs, err := FindExecutableBatchSize(32, func(int) error { calls++; return boom })
	if !errors.Is(err, boom) || bs != 32 || calls != 1 {
		t.Errorf("got %d, %v after %d calls; want the error of the first call", bs, err, calls)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "index out of range") {
			t.Errorf("panic %v; want the function's own panic", r)
		}
	}()
	FindExecutableBatchSize(32, func(int) error { panic("index out of range") })
}

// TestFreeMemoryDropsPreparedObjects: after FreeMemory nothing of the Accelerator keeps a
// prepared model alive (the garbage collector reclaims it once the caller drops it too), the
// step count is 0 and SaveState has no model to write.
func TestFreeMemoryDropsPreparedObjects(t *testing.T) {
	acc := soloAcc(Config{GradientAccumulationSteps: 2})
	collected := make(chan bool, 1)
	func() {
		lin := nn.NewLinear(64, 64)
		runtime.AddCleanup(lin, func(c chan bool) { c <- true }, collected)
		var model nn.Module = lin
		var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.1})
		acc.Prepare(&model, &opt)
		acc.Accumulate(model, func() { acc.Backward(model.Forward(tensors.Ones(1, 64)).Sum()) })
	}()
	if acc.step == 0 || len(acc.models) != 1 {
		t.Fatalf("before FreeMemory: step %d, %d models", acc.step, len(acc.models))
	}
	acc.FreeMemory()
	if acc.step != 0 || len(acc.models)+len(acc.optimizers) != 0 {
		t.Errorf("after FreeMemory: step %d, %d models, %d optimizers", acc.step, len(acc.models), len(acc.optimizers))
	}
	deadline := time.Now().Add(10 * time.Second)
	for done := false; !done; {
		runtime.GC()
		select {
		case <-collected:
			done = true
		case <-time.After(10 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("the prepared model was not collected after FreeMemory: something still holds it")
			}
		}
	}
	dir := t.TempDir()
	if _, err := acc.SaveState(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "model.safetensors")); !os.IsNotExist(err) {
		t.Errorf("SaveState after FreeMemory wrote a model (stat: %v)", err)
	}
}
