package accelerate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	nl "github.com/goaccel/goaccel/notebook_launcher"
)

// TestFSDPShardedCheckpointLoadsOnAnyProcessCount saves a SHARDED_STATE_DICT checkpoint after 3
// full-shard steps on N processes and loads it on M: the whole model each process then gathers
// is the saved one to the bit, and the optimizer state, saved again from the M processes, is the
// one the N processes wrote (every step count and moment, compared decoded: the JSON's key
// order may differ).
func TestFSDPShardedCheckpointLoadsOnAnyProcessCount(t *testing.T) {
	for _, tc := range []struct{ save, load int }{{2, 4}, {2, 1}, {4, 2}} {
		t.Run(fmt.Sprintf("%d-to-%d", tc.save, tc.load), func(t *testing.T) {
			dir := sharedDir(t)
			ckpt := filepath.Join(dir, "ckpt")
			launch(t, tc.save, func() {
				c := group()
				acc, model, opt := newFSDPRun(c, ShardedStateDict)
				fsdpSteps(acc, model, opt, c.Rank(), 0, 3)
				if _, err := acc.SaveState(ckpt); err != nil {
					panic(err)
				}
				writeJSON(resultPath(dir, fmt.Sprint("saved", c.Rank())), floats(acc.GetStateDict(model)))
			})
			loadAndSave := func(c comm) map[string][]float32 {
				acc, model, _ := newFSDPRun(c, ShardedStateDict)
				if err := acc.LoadState(ckpt); err != nil {
					panic(err)
				}
				got := floats(acc.GetStateDict(model))
				if _, err := acc.SaveState(filepath.Join(dir, "again")); err != nil {
					panic(err)
				}
				return got
			}
			var loaded map[string][]float32
			if tc.load == 1 {
				loaded = loadAndSave(solo{})
			} else {
				launchAgain(t, tc.load, func() {
					c := group()
					got := loadAndSave(c)
					writeJSON(resultPath(dir, fmt.Sprint("loaded", c.Rank())), got)
				})
				readJSON(t, resultPath(dir, "loaded0"), &loaded)
			}
			var saved map[string][]float32
			readJSON(t, resultPath(dir, "saved0"), &saved)
			if d, same := paramDiff(saved, loaded); !same {
				t.Errorf("the model loaded on %d processes differs from the one saved on %d by %g", tc.load, tc.save, d)
			}
			want, err := os.ReadFile(filepath.Join(ckpt, "optimizer.bin"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, "again", "optimizer.bin"))
			if err != nil {
				t.Fatal(err)
			}
			var gotState, wantState any
			if err := json.Unmarshal(got, &gotState); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &wantState); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotState, wantState) {
				t.Errorf("the optimizer state saved again on %d processes differs from the one saved on %d", tc.load, tc.save)
			}
		})
	}
}

// launchAgain is launch from a call site of its own: a worker re-executing the test serves the
// first Launch of its call site, so a test that launches twice launches the second time here.
func launchAgain(t *testing.T, n int, fn func()) {
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
