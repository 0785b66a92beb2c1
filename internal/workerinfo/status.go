package workerinfo

import (
	"strconv"
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

// SetPhase records what the worker does outside collectives and returns
// the phase it replaces, for the caller to restore:
//
//	defer w.SetPhase(w.SetPhase(workerinfo.PhaseLoading))
func (w *Worker) SetPhase(p Phase) (previous Phase) { return Phase(w.phase.Swap(int32(p))) }

// SetSteps records how many optimizer steps the training took (its own
// count, restored with a checkpoint).
func (w *Worker) SetSteps(n int64) { w.steps.Store(n) }

// AddSamples counts n samples a loader gave out.
func (w *Worker) AddSamples(n int) { w.samples.Add(int64(n)) }

// Collective is a collective in progress, from EnterCollective to Leave.
type Collective struct {
	w   *Worker
	seq int64
}

// EnterCollective records that a collective named name starts (dist calls
// it for every collective, in the order ranks must agree on).
func (w *Worker) EnterCollective(name string) Collective {
	n := w.seq.Add(1)
	w.nameMu.Lock()
	w.collName = name
	w.nameMu.Unlock()
	w.collSince.Store(time.Now().UnixNano())
	w.inside.Store(n)
	return Collective{w, n}
}

// Leave records that the collective ended.
func (c Collective) Leave() {
	if c.w != nil {
		c.w.inside.CompareAndSwap(c.seq, 0)
	}
}

// SetStoppable records that the worker can stop at a step boundary when
// asked (accelerate, once a loader is prepared and a launcher listens),
// and tells the launcher at once (an interrupt then stops it gracefully).
func (w *Worker) SetStoppable() {
	if !w.stoppable.Swap(true) {
		w.notify()
	}
}

// SetCheckpoint records the checkpoint the worker last saved (resumed
// false) or loaded, and the optimizer step it holds, and tells the
// launcher at once (a restart resumes from it).
func (w *Worker) SetCheckpoint(dir string, step int64, resumed bool) {
	w.ckpt.Store(&checkpoint{dir, step, resumed})
	w.notify()
}

// SetPosition installs where, which returns the line of the worker's
// program that ran last (an interpreted worker's marked statements).
func (w *Worker) SetPosition(where func() int) { w.position.Store(&where) }

type checkpoint struct {
	dir     string
	step    int64
	resumed bool
}

// snapshot is the current Status of this process (without Stacks).
func (w *Worker) snapshot() Status {
	s := Status{Rank: w.rank, Phase: Phase(w.phase.Load()).String(), Step: w.steps.Load(), Samples: w.samples.Load(),
		Seq: w.seq.Load(), RSS: rss(), Stoppable: w.stoppable.Load()}
	if n := w.inside.Load(); n != 0 {
		w.nameMu.Lock()
		s.Collective = w.collName
		w.nameMu.Unlock()
		s.Seq = n
		s.WaitedMS = max(0, time.Since(time.Unix(0, w.collSince.Load())).Milliseconds())
	}
	if c := w.ckpt.Load(); c != nil {
		s.Checkpoint, s.CheckpointStep, s.Resumed = c.dir, c.step, c.resumed
	}
	if where := w.position.Load(); where != nil {
		s.Line = (*where)()
	}
	return s
}
