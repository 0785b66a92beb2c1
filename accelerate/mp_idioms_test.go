package accelerate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

type idiomResult struct {
	Shared, Own []float32 // Randn after SetSeed(42, false) and SetSeed(42, true)
	LoaderSeed  uint64    // the seed a loader drew after SetSeed(7, false)
	SaveErr     string
}

// SetSeed seeds every process alike (or, device-specific, each with seed + rank), and the
// model-export idiom (WaitForEveryone, then SaveModel or a write guarded by IsMainProcess)
// writes once, from the main process.
func TestSetSeedAndMainProcessSaveOnTwoProcesses(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{}), c)
		var r idiomResult
		SetSeed(42, false)
		r.Shared = tensors.Randn(5).Float32s()
		SetSeed(42, true)
		r.Own = tensors.Randn(5).Float32s()
		SetSeed(7, false)
		r.LoaderSeed = tensors.DefaultGenerator().Uint64()
		var model nn.Module = nn.NewLinear(3, 2)
		acc.Prepare(&model)
		acc.WaitForEveryone()
		if err := acc.SaveModel(model, filepath.Join(dir, fmt.Sprint("export_from_rank", c.Rank()))); err != nil {
			r.SaveErr = err.Error()
		}
		writeJSON(resultPath(dir, fmt.Sprint("idioms", c.Rank())), r)
	})
	var r [2]idiomResult
	for i := range r {
		readJSON(t, resultPath(dir, fmt.Sprint("idioms", i)), &r[i])
		if r[i].SaveErr != "" {
			t.Errorf("rank %d: SaveModel: %s", i, r[i].SaveErr)
		}
		if want := tensors.NewGenerator(42 + uint64(i)).Randn(5).Float32s(); fmt.Sprint(r[i].Own) != fmt.Sprint(want) {
			t.Errorf("rank %d after SetSeed(42, true): %v; want the stream of seed %d", i, r[i].Own, 42+i)
		}
	}
	if want := tensors.NewGenerator(42).Randn(5).Float32s(); fmt.Sprint(r[0].Shared) != fmt.Sprint(want) || fmt.Sprint(r[1].Shared) != fmt.Sprint(want) {
		t.Errorf("after SetSeed(42, false): rank 0 %v, rank 1 %v; want both %v", r[0].Shared, r[1].Shared, want)
	}
	if r[0].LoaderSeed != r[1].LoaderSeed {
		t.Error("after SetSeed the processes drew different loader seeds")
	}
	if _, err := os.Stat(filepath.Join(dir, "export_from_rank0", "model.safetensors")); err != nil {
		t.Errorf("the main process did not save: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "export_from_rank1")); !os.IsNotExist(err) {
		t.Errorf("rank 1 wrote an export (stat: %v); only the main process saves", err)
	}
}

// Config.InitProcessGroup.Timeout bounds a collective whose peer does not come: the waiting
// process fails with an error naming the timeout instead of waiting for the default 30 minutes.
func TestInitProcessGroupTimeoutBoundsCollectives(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{InitProcessGroup: InitProcessGroupKwargs{Timeout: 300 * time.Millisecond}}), c)
		if c.Rank() == 1 {
			time.Sleep(2 * time.Second) // busy on its own, far past the timeout
		}
		writeJSON(resultPath(dir, fmt.Sprint("timeout", c.Rank())), panicMessage(acc.WaitForEveryone))
	})
	var msg string
	readJSON(t, resultPath(dir, "timeout0"), &msg)
	if !strings.Contains(msg, "timed out after 300ms") {
		t.Errorf("rank 0's WaitForEveryone: %q; want a timeout after 300ms (rank 1 came after 2 s)", msg)
	}
}
