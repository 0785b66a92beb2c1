package accelerate

import (
	"fmt"
	"os"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/plots"
	"github.com/goaccel/goaccel/tensors"
)

// Accelerator runs one training loop unchanged on one process or on every
// process of a launched group. Create it with New before preparing anything.
type Accelerator struct {
	cfg    resolved
	c      comm
	device tensors.Device

	// gradient state (Accelerate's GradientState)
	step          int  // forward passes since the last sync (Accumulate)
	syncGradients bool // this step's gradients are all-reduced and the optimizer steps

	models     []*model
	optimizers []*optimizer
	schedulers []*scheduler
	samplers   []*shardSampler
	running    []*shardSampler // prepared loaders in the order their passes began
	custom     []Checkpointable
	scaler     *lossScaler // fp16 only

	stepWasSkipped bool
	optimizerSteps int64               // steps the first prepared optimizer took (restored by LoadState)
	saveIteration  int                 // next automatic checkpoint number
	stopCheck      stopCheck           // when the ranks next agree on a stop
	stopAgreed     workerinfo.StopMode // the stop every process agreed on (stop.go)
	resumeMode     string              // the launcher's resume request (workerinfo.EnvResume), for Prepare
	resumedFrom    string              // the checkpoint Prepare resumed from
	resumedState   string              // the folder it read (resumedFrom, or where an interrupted save left it)
	// worker is the process's link to its launcher (the host's): the
	// status its table shows, the stop it asks for.
	worker *workerinfo.Worker
	// checkpointHook, set by tests, is called at each step of SaveState
	// that touches the file system (see accelerate/internal/atomicdir.Folder.Hook).
	checkpointHook func(step string)
	trackers       []Tracker
	extra          []Tracker   // added with AddTracker
	notebook       *plots.Live // the "notebook" tracker's figure, shared by its runs

	trigger    bool                       // SetTrigger's flag, for CheckTrigger (triggers.go)
	joining    bool                       // inside JoinUnevenInputs without even batches (join.go)
	joinRounds int                        // this process's synchronising Backward calls inside it
	saveHooks  hookList[SaveStatePreHook] // hooks.go
	loadHooks  hookList[LoadStatePreHook]
}

// New returns an Accelerator for cfg, joining the process group described by
// the environment (RANK, WORLD_SIZE, … as set by notebook_launcher.Launch,
// `goaccel launch`, torchrun or Slurm). It panics on an invalid cfg with a
// message naming the field and its allowed values, and when the group cannot
// be joined.
func New(cfg Config) *Accelerator {
	r := cfg.resolve()
	c, err := joinGroup(r)
	if err != nil {
		panic(fmt.Sprintf("accelerate: join the process group: %v", err))
	}
	a := newWithComm(r, c)
	a.resumeMode = takeResume()
	a.worker.SetDevice(a.device.String()) // for the result line of a notebook launch
	a.worker.SetPhase(workerinfo.PhaseComputing)
	return a
}

func newWithComm(r resolved, c comm) *Accelerator {
	a := &Accelerator{cfg: r, c: c, device: pickDevice(r, c), syncGradients: true, worker: host.Current().Worker}
	if r.scaling {
		a.scaler = newLossScaler(r.GradScaler)
	}
	if r.InitProcessGroup.Timeout > 0 {
		c.SetTimeout(r.InitProcessGroup.Timeout)
	}
	return a
}

// must panics with context when a collective fails: a lost peer must stop
// this process with an error naming it, never let it train on alone.
func must(err error, what string) {
	if err != nil {
		panic(fmt.Sprintf("accelerate: %s: %v", what, err))
	}
}

// IsMainProcess reports whether this is the process of rank 0.
func (a *Accelerator) IsMainProcess() bool { return a.c.Rank() == 0 }

// IsLocalMainProcess reports whether this is the first process on its machine.
func (a *Accelerator) IsLocalMainProcess() bool { return a.c.LocalRank() == 0 }

// ProcessIndex is this process's rank.
func (a *Accelerator) ProcessIndex() int { return a.c.Rank() }

// LocalProcessIndex is this process's rank on its machine.
func (a *Accelerator) LocalProcessIndex() int { return a.c.LocalRank() }

// NumProcesses is the number of processes in the group.
func (a *Accelerator) NumProcesses() int { return a.c.Size() }

// Device is where prepared models and batches live: cuda:LOCAL_RANK when this
// machine has a usable NVIDIA GPU (LOCAL_RANK modulo the GPU count when there
// are more processes than GPUs), the CPU otherwise or with Config.CPU.
// GOACCEL_DEVICE names the device type to use instead ("cpu", "cuda").
func (a *Accelerator) Device() tensors.Device { return a.device }

// MixedPrecision is the resolved precision: "no", "fp16" or "bf16".
func (a *Accelerator) MixedPrecision() string { return a.cfg.MixedPrecision }

// GradientAccumulationSteps is the resolved accumulation count.
func (a *Accelerator) GradientAccumulationSteps() int { return a.cfg.GradientAccumulationSteps }

// SyncGradients reports whether the current step all-reduces gradients and
// lets the optimizer step (always true without accumulation).
func (a *Accelerator) SyncGradients() bool { return a.syncGradients }

// OptimizerStepWasSkipped reports whether the last optimizer step was skipped
// because fp16 gradients overflowed.
func (a *Accelerator) OptimizerStepWasSkipped() bool { return a.stepWasSkipped }

// Print prints its operands, like fmt.Println, on the main process only.
func (a *Accelerator) Print(args ...any) {
	if a.IsMainProcess() {
		fmt.Fprintln(os.Stdout, args...)
	}
}

// WaitForEveryone blocks until every process reaches it.
func (a *Accelerator) WaitForEveryone() { must(a.c.Barrier(), "WaitForEveryone") }

// MainProcessFirst runs fn on the main process first, then on the others
// (e.g. the main process downloads a dataset the others then read).
func (a *Accelerator) MainProcessFirst(fn func()) {
	if !a.IsMainProcess() {
		a.WaitForEveryone()
	}
	fn()
	if a.IsMainProcess() {
		a.WaitForEveryone()
	}
}

// LocalMainProcessFirst is MainProcessFirst per machine.
func (a *Accelerator) LocalMainProcessFirst(fn func()) {
	if !a.IsLocalMainProcess() {
		a.WaitForEveryone()
	}
	fn()
	if a.IsLocalMainProcess() {
		a.WaitForEveryone()
	}
}

// SplitBetweenProcesses returns this process's share [start, end) of n items:
// contiguous shares, the first n % NumProcesses processes getting one extra.
//
//	start, end := acc.SplitBetweenProcesses(len(prompts))
//	for _, p := range prompts[start:end] { … }
func (a *Accelerator) SplitBetweenProcesses(n int) (start, end int) {
	return splitRange(n, a.c.Size(), a.c.Rank())
}

func splitRange(n, procs, rank int) (start, end int) {
	per, extra := n/procs, n%procs
	start = rank*per + min(rank, extra)
	end = start + per
	if rank < extra {
		end++
	}
	return start, end
}

// EndTraining closes the trackers and, when no other Accelerator of this
// process uses it, leaves the process group. Call it once at the end of
// training on every process.
func (a *Accelerator) EndTraining() {
	for _, t := range a.trackers {
		if err := t.Finish(); err != nil {
			fmt.Fprintf(os.Stderr, "accelerate: tracker %T: %v\n", t, err)
		}
	}
	a.trackers = nil
	a.worker.Flush()    // the launcher's table shows where training ended
	a.WaitForEveryone() // nobody leaves while a peer may still be in a collective
	_ = leaveGroup(a.c)
}
