package accelerate

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/goaccel/goaccel/accelerate/internal/atomicdir"
	"github.com/goaccel/goaccel/internal/workerinfo"
)

// A launcher asks for a resume through the environment (EnvResume): after
// a restart (the latest automatic checkpoint, if any) or with --resume (the
// latest, which must exist). Prepare then loads that checkpoint into what
// it prepared, so a training loop written as
//
//	acc.Prepare(&model, &opt, &loader)
//	for epoch := loader.Epoch(); epoch < cfg.Epochs; epoch++ {
//		for loader.Next() { … }
//	}
//
// continues where the checkpoint left off, mid-epoch included, with no
// code of its own for it.

// resumeOnPrepare loads the latest automatic checkpoint into what Prepare
// holds now, when the launcher asked for it. Every process calls it (from
// Prepare); rank 0 picks the checkpoint, so all load the same one.
func (a *Accelerator) resumeOnPrepare() {
	mode := a.resumeMode
	if mode == "" {
		return
	}
	dir := ""
	if a.IsMainProcess() {
		if d, _, ok := a.latestCheckpoint(); ok {
			dir = d
		}
	}
	b, err := a.c.BroadcastBytes([]byte(dir), 0)
	must(err, "resume: agree on the checkpoint")
	dir = string(b)
	if dir == "" {
		if mode == workerinfo.ResumeLatest {
			panic(fmt.Sprintf("accelerate: resume: there is no checkpoint under %s to resume from; launch without --resume to start afresh, "+
				"or set Config.ProjectDir to the folder the stopped run saved in", a.checkpointRoot()))
		}
		return // restarted before the first checkpoint: start over
	}
	from, ok := (atomicdir.Folder{Path: dir}).Resolve()
	if !ok {
		panic(fmt.Sprintf("accelerate: resume from %s: the folder is incomplete or missing on rank %d (every process must see the checkpoint folder)", dir, a.ProcessIndex()))
	}
	if err := a.loadState(from); err != nil {
		panic(fmt.Sprintf("accelerate: resume from %s: %v", dir, err))
	}
	if a.resumedFrom != dir {
		a.Print(fmt.Sprintf("accelerate: resumed from %s (after %d optimizer steps)", dir, a.optimizerSteps))
	}
	a.resumedFrom, a.resumedState = dir, from
	a.worker.SetCheckpoint(dir, a.optimizerSteps, true)
}

// takeResume returns the launcher's resume request and removes it from the
// environment: it is for the process's first Accelerator (the training),
// not for another one made later (an evaluation), nor for the processes
// the worker starts.
func takeResume() string {
	mode := os.Getenv(workerinfo.EnvResume)
	os.Unsetenv(workerinfo.EnvResume)
	return mode
}

// Resumed returns the checkpoint folder Prepare resumed from (a restarted
// group, or a launch with --resume), or "" when it started afresh.
func (a *Accelerator) Resumed() string { return a.resumedFrom }

// resumeCustom loads, after a resume, the state of custom objects
// registered from index first on (RegisterForCheckpointing after Prepare).
func (a *Accelerator) resumeCustom(first int) {
	if a.resumedState == "" {
		return
	}
	for i := first; i < len(a.custom); i++ {
		name := "custom_checkpoint_" + strconv.Itoa(i) + ".bin"
		b, err := os.ReadFile(filepath.Join(a.resumedState, name))
		if err == nil {
			err = a.custom[i].LoadStateDict(b)
		}
		if err != nil {
			panic(fmt.Sprintf("accelerate: resume from %s: %s: %v", a.resumedFrom, name, err))
		}
	}
}
