package workerinfo

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Phase is what a worker does outside collectives.
type Phase int32

// The phases, as the launcher's status table names them (String).
const (
	PhaseStarting Phase = iota
	PhaseJoining
	PhaseComputing
	PhaseLoading
	PhaseSaving
	PhaseRestoring
	PhaseStopping
)

var phaseNames = [...]string{"starting", "joining the process group", "computing", "loading data", "saving a checkpoint", "loading a checkpoint", "stopping"}

func (p Phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase " + strconv.Itoa(int(p))
}

// Status is what a worker tells its launcher about itself, a few times a
// second: one JSON line on the status pipe.
type Status struct {
	Rank  int    `json:"rank"`
	Phase string `json:"phase"`
	// Step counts the optimizer steps taken (restored with a checkpoint),
	// Samples the samples prepared loaders gave out in this process.
	Step    int64 `json:"step"`
	Samples int64 `json:"samples"`
	// Collective is the collective in progress ("" when none), Seq the
	// number of collectives this rank entered (the one in progress
	// included: every rank's Nth collective must be the same one), and
	// WaitedMS how long the one in progress has run.
	Collective string `json:"collective,omitempty"`
	Seq        int64  `json:"seq"`
	WaitedMS   int64  `json:"waited_ms,omitempty"`
	// RSS is the process's resident memory in bytes.
	RSS uint64 `json:"rss"`
	// Line is, in an interpreted worker, the line of its program whose
	// statement ran last (0 elsewhere).
	Line int `json:"line,omitempty"`
	// Stoppable says the worker stops at its next step boundary when
	// asked (it trains with a prepared loader).
	Stoppable bool `json:"stoppable,omitempty"`
	// Checkpoint is the last checkpoint this worker saved or resumed from,
	// CheckpointStep the optimizer step it holds; Resumed says it was
	// loaded, not saved.
	Checkpoint     string `json:"checkpoint,omitempty"`
	CheckpointStep int64  `json:"checkpoint_step,omitempty"`
	Resumed        bool   `json:"resumed,omitempty"`
	// Stopped says the worker saved its state on a stop request and is
	// leaving (Checkpoint names where).
	Stopped bool `json:"stopped,omitempty"`
	// Stacks, in the answer to a stacks request, is every goroutine's
	// stack (runtime.Stack).
	Stacks string `json:"stacks,omitempty"`
}

// The process's live counters. Each is one atomic, so the hot paths that
// update them (every collective, every batch) cost a few nanoseconds and
// the reporter reads them without a lock.
var (
	phase     atomic.Int32 // a Phase
	steps     atomic.Int64
	samples   atomic.Int64
	seq       atomic.Int64 // collectives entered
	inside    atomic.Int64 // seq of the collective in progress, 0 when none
	collSince atomic.Int64 // its start, in Unix nanoseconds
	nameMu    sync.Mutex   // a string under a lock: storing one atomically would allocate per collective
	collName  string
	stoppable atomic.Bool
	ckpt      atomic.Pointer[checkpoint]
	position  atomic.Pointer[func() int]
)

type checkpoint struct {
	dir     string
	step    int64
	resumed bool
}

// SetPhase records what the worker does outside collectives and returns
// the phase it replaces, for the caller to restore:
//
//	defer workerinfo.SetPhase(workerinfo.SetPhase(workerinfo.PhaseLoading))
func SetPhase(p Phase) (previous Phase) { return Phase(phase.Swap(int32(p))) }

// SetSteps records how many optimizer steps the training took (its own
// count, restored with a checkpoint).
func SetSteps(n int64) { steps.Store(n) }

// AddSamples counts n samples a loader gave out.
func AddSamples(n int) { samples.Add(int64(n)) }

// Collective is a collective in progress, from EnterCollective to Leave.
type Collective struct{ seq int64 }

// EnterCollective records that a collective named name starts (dist calls
// it for every collective, in the order ranks must agree on).
func EnterCollective(name string) Collective {
	n := seq.Add(1)
	nameMu.Lock()
	collName = name
	nameMu.Unlock()
	collSince.Store(time.Now().UnixNano())
	inside.Store(n)
	return Collective{n}
}

// Leave records that the collective ended.
func (c Collective) Leave() { inside.CompareAndSwap(c.seq, 0) }

// SetStoppable records that the worker can stop at a step boundary when
// asked (accelerate, once a loader is prepared and a launcher listens),
// and tells the launcher at once (an interrupt then stops it gracefully).
func SetStoppable() {
	if !stoppable.Swap(true) {
		notify()
	}
}

// SetCheckpoint records the checkpoint the worker last saved (resumed
// false) or loaded, and the optimizer step it holds, and tells the
// launcher at once (a restart resumes from it).
func SetCheckpoint(dir string, step int64, resumed bool) {
	ckpt.Store(&checkpoint{dir, step, resumed})
	notify()
}

// SetPosition installs where, which returns the line of the worker's
// program that ran last (an interpreted worker's marked statements).
func SetPosition(where func() int) { position.Store(&where) }

// snapshot is the current Status of this process (without Stacks).
func snapshot(rank int) Status {
	s := Status{Rank: rank, Phase: Phase(phase.Load()).String(), Step: steps.Load(), Samples: samples.Load(),
		Seq: seq.Load(), RSS: rss(), Stoppable: stoppable.Load()}
	if n := inside.Load(); n != 0 {
		nameMu.Lock()
		s.Collective = collName
		nameMu.Unlock()
		s.Seq = n
		s.WaitedMS = max(0, time.Since(time.Unix(0, collSince.Load())).Milliseconds())
	}
	if c := ckpt.Load(); c != nil {
		s.Checkpoint, s.CheckpointStep, s.Resumed = c.dir, c.step, c.resumed
	}
	if w := position.Load(); w != nil {
		s.Line = (*w)()
	}
	return s
}
