package accelerate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/accelerate/internal/atomicdir"
)

// Automatic checkpoint naming: ProjectDir/checkpoints/checkpoint_N, with
// the staging, previous and half-deleted folders of accelerate/internal/atomicdir
// beside them.

func (a *Accelerator) checkpointRoot() string {
	return filepath.Join(a.projectDir(), "checkpoints")
}

// projectDir is Config.ProjectDir, or the working directory: where a stop
// requested by the launcher saves, and a resume looks, when the
// configuration names no project folder.
func (a *Accelerator) projectDir() string {
	if a.cfg.ProjectDir != "" {
		return a.cfg.ProjectDir
	}
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}

func (a *Accelerator) checkpointFolder(n int) string {
	return filepath.Join(a.checkpointRoot(), "checkpoint_"+strconv.Itoa(n))
}

// checkpointNumbers lists, ascending, every N that some folder under
// checkpoints/ belongs to: checkpoint_N itself, or what an interrupted save
// or deletion of it left (.checkpoint_N.partial, checkpoint_N.old,
// .checkpoint_N.deleting, .checkpoint_N.old.deleting). With published set,
// only the N of existing checkpoint_N folders.
func (a *Accelerator) checkpointNumbers(published bool) []int {
	entries, _ := os.ReadDir(a.checkpointRoot())
	var ns []int
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		if !published {
			name = strings.TrimPrefix(name, ".")
			for _, suffix := range []string{".partial", ".deleting", ".old"} {
				name = strings.TrimSuffix(name, suffix)
			}
		}
		if s, ok := strings.CutPrefix(name, "checkpoint_"); ok {
			if n, err := strconv.Atoi(s); err == nil && n >= 0 && !slices.Contains(ns, n) {
				ns = append(ns, n)
			}
		}
	}
	slices.Sort(ns)
	return ns
}

// recoverCheckpoints finishes or undoes whatever a kill interrupted under
// checkpoints/: a publish, a deletion.
func (a *Accelerator) recoverCheckpoints() error {
	for _, n := range a.checkpointNumbers(false) {
		if err := (atomicdir.Folder{Path: a.checkpointFolder(n), Hook: a.checkpointHook}).Recover(); err != nil {
			return fmt.Errorf("recover checkpoint_%d: %w", n, err)
		}
	}
	return nil
}

// pruneCheckpoints deletes the oldest automatic checkpoints so that at most
// TotalLimit remain, counting the one just written (number current), which
// is never deleted, and deletes damaged ones (sealed, then cut short while
// being deleted), which count for nothing. It runs only once the new
// checkpoint is complete.
func (a *Accelerator) pruneCheckpoints(current int) error {
	if a.cfg.TotalLimit <= 0 {
		return nil
	}
	var others, remove []int
	for _, n := range a.checkpointNumbers(true) {
		switch {
		case n == current:
		case atomicdir.Damaged(a.checkpointFolder(n)):
			remove = append(remove, n)
		default:
			others = append(others, n)
		}
	}
	excess := len(others) - (a.cfg.TotalLimit - 1)
	remove = append(remove, others[:max(excess, 0)]...)
	for _, n := range remove {
		if err := (atomicdir.Folder{Path: a.checkpointFolder(n), Hook: a.checkpointHook}).Remove(); err != nil {
			return fmt.Errorf("remove old checkpoint_%d: %w", n, err)
		}
	}
	return nil
}

// latestCheckpoint returns the newest automatic checkpoint that is complete
// (dir is its name, from the folder to read, which differs after an
// interrupted save). Without one it falls back to the newest checkpoint_N
// folder without a manifest (saved by an older goaccel or copied by hand).
func (a *Accelerator) latestCheckpoint() (dir, from string, ok bool) {
	ns := a.checkpointNumbers(false)
	for i := len(ns) - 1; i >= 0; i-- {
		dir = a.checkpointFolder(ns[i])
		if from, ok := (atomicdir.Folder{Path: dir}).Resolve(); ok {
			return dir, from, true
		}
	}
	ns = a.checkpointNumbers(true)
	if len(ns) == 0 {
		return "", "", false
	}
	dir = a.checkpointFolder(ns[len(ns)-1])
	return dir, dir, true
}
