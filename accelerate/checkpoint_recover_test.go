package accelerate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// saveNumbered saves a checkpoint whose weights and counter are n into dir
// ("" for automatic naming) and returns the folder written.
func saveNumbered(t *testing.T, cfg Config, dir string, n int) string {
	t.Helper()
	a, model, counter := killModel(cfg)
	a.saveIteration = n
	for _, p := range model.Parameters() {
		p.Fill(float64(n))
	}
	counter.v = int64(n)
	path, err := a.SaveState(dir)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// loadedNumber loads dir ("" for the latest automatic checkpoint) and
// returns the number the checkpoint was saved with.
func loadedNumber(t *testing.T, cfg Config, dir string) (int, error) {
	t.Helper()
	a, model, counter := killModel(cfg)
	if err := a.LoadState(dir); err != nil {
		return 0, err
	}
	w := model.Parameters()[0].Float32s()[0]
	if int(w) != int(counter.v) || a.saveIteration != int(w)+1 {
		t.Fatalf("the loaded checkpoint mixes saves: weights %v, counter %d, iteration %d", w, counter.v, a.saveIteration-1)
	}
	return int(w), nil
}

func entryNames(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

// A kill between SaveState's two renames (the previous checkpoint moved to
// dir.old, the new one still .dir.partial) used to leave no checkpoint, and
// the next save deleted both. LoadState reads the new one through; the next
// save finishes the swap and leaves only dir.
func TestKillBetweenTheRenamesOfAnExplicitSaveLosesNothing(t *testing.T) {
	root := t.TempDir()
	ckpt := filepath.Join(root, "ckpt")
	saveNumbered(t, Config{}, ckpt, 1)
	saveNumbered(t, Config{}, filepath.Join(root, "newer"), 2)
	mustRename(t, ckpt, ckpt+".old")
	mustRename(t, filepath.Join(root, "newer"), filepath.Join(root, ".ckpt.partial"))
	if n, err := loadedNumber(t, Config{}, ckpt); err != nil || n != 2 {
		t.Fatalf("LoadState after a kill between the renames = save %d, %v; want save 2", n, err)
	}
	saveNumbered(t, Config{}, ckpt, 3)
	if got := entryNames(t, root); got != "ckpt" {
		t.Fatalf("after the next save the folder holds %q; want only ckpt", got)
	}
	if n, err := loadedNumber(t, Config{}, ckpt); err != nil || n != 3 {
		t.Fatalf("LoadState = save %d, %v; want 3", n, err)
	}
}

// If the new checkpoint was not complete, the previous one moved aside is
// the one to load.
func TestIncompleteNewCheckpointFallsBackToThePreviousOne(t *testing.T) {
	root := t.TempDir()
	ckpt := filepath.Join(root, "ckpt")
	saveNumbered(t, Config{}, ckpt, 1)
	saveNumbered(t, Config{}, filepath.Join(root, "newer"), 2)
	os.Remove(filepath.Join(root, "newer", "model.safetensors"))
	mustRename(t, ckpt, ckpt+".old")
	mustRename(t, filepath.Join(root, "newer"), filepath.Join(root, ".ckpt.partial"))
	if n, err := loadedNumber(t, Config{}, ckpt); err != nil || n != 1 {
		t.Fatalf("LoadState = save %d, %v; want the previous save 1", n, err)
	}
}

// With automatic naming: a half-deleted checkpoint_N (a kill while pruning)
// is never taken for the latest, and stale partial folders do not pile up.
func TestAutomaticCheckpointsIgnoreHalfDeletedAndClearStaleFolders(t *testing.T) {
	project := t.TempDir()
	cfg := Config{ProjectDir: project, AutomaticCheckpointNaming: true, TotalLimit: 2}
	root := filepath.Join(project, "checkpoints")
	saveNumbered(t, cfg, "", 0)
	saveNumbered(t, cfg, "", 1)
	os.Remove(filepath.Join(root, "checkpoint_1", "model.safetensors")) // pruning got this far
	for _, stale := range []string{".checkpoint_7.partial", ".checkpoint_8.partial", ".checkpoint_9.deleting"} {
		if err := os.MkdirAll(filepath.Join(root, stale), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := loadedNumber(t, cfg, ""); err != nil || n != 0 {
		t.Fatalf("LoadState(\"\") = save %d, %v; want checkpoint_0, the newest complete one", n, err)
	}
	saveNumbered(t, cfg, "", 2)
	if got := entryNames(t, root); got != "checkpoint_0 checkpoint_2" {
		t.Fatalf("checkpoints/ holds %q after a save; want checkpoint_0 checkpoint_2", got)
	}
}

// With TotalLimit 1 the only checkpoint is deleted only after the new one is
// complete: a failed save leaves it in place.
func TestTotalLimitOneKeepsTheOnlyCheckpointUntilTheNewOneIsComplete(t *testing.T) {
	project := t.TempDir()
	cfg := Config{ProjectDir: project, AutomaticCheckpointNaming: true, TotalLimit: 1}
	saveNumbered(t, cfg, "", 0)
	a, _, _ := killModel(cfg)
	a.saveIteration = 1
	a.RegisterForCheckpointing(failingState{})
	if _, err := a.SaveState(""); err == nil {
		t.Fatal("SaveState with a failing registered object succeeded")
	}
	if n, err := loadedNumber(t, cfg, ""); err != nil || n != 0 {
		t.Fatalf("after a failed save LoadState(\"\") = save %d, %v; want checkpoint_0", n, err)
	}
}

type failingState struct{}

func (failingState) StateDict() ([]byte, error)   { return nil, os.ErrPermission }
func (failingState) LoadStateDict(b []byte) error { return nil }
