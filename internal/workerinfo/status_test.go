package workerinfo

import (
	"testing"
	"time"
)

// A status says what the process does: its phase outside collectives,
// the collective in progress with its number and how long it has run, the
// numbering going on after it ends.
func TestSnapshotFollowsPhasesAndCollectives(t *testing.T) {
	w := &Worker{rank: 3}
	prev := w.SetPhase(PhaseLoading)
	if s := w.snapshot(); s.Rank != 3 || s.Phase != "loading data" || s.Collective != "" {
		t.Fatalf("status while loading = %+v", s)
	}
	w.SetPhase(prev)
	w.SetSteps(41)
	before := w.snapshot().Seq
	c := w.EnterCollective("all-reduce(sum)")
	time.Sleep(20 * time.Millisecond)
	s := w.snapshot()
	if s.Collective != "all-reduce(sum)" || s.Seq != before+1 || s.WaitedMS < 20 || s.Step != 41 {
		t.Fatalf("status in a collective = %+v; want all-reduce(sum) #%d, waited ≥ 20 ms, step 41", s, before+1)
	}
	c.Leave()
	if s := w.snapshot(); s.Collective != "" || s.Seq != before+1 || s.WaitedMS != 0 {
		t.Fatalf("status after the collective = %+v; want none in progress, %d entered", s, before+1)
	}
	if s := w.snapshot(); s.RSS == 0 {
		t.Error("no memory in the status")
	}
}
