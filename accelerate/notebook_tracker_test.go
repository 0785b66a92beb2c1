package accelerate

import (
	"sync"
	"testing"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/plots"
)

type recordingSink struct {
	mu   sync.Mutex
	msgs []string
}

func (r *recordingSink) Send(msgType string, content map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, msgType)
}

func TestNotebookTrackerDrawsUnderTheKernelOnly(t *testing.T) {
	a := soloAcc(Config{LogWith: []string{"notebook"}})
	if err := a.InitTrackers("quiet", nil); err != nil {
		t.Fatal(err)
	}
	a.Log(map[string]float64{"loss": 1}, 0)
	a.EndTraining() // no sink: nothing to draw, nothing to fail

	sink := &recordingSink{}
	host.ForTest(t, host.Host{Display: sink})
	a = soloAcc(Config{LogWith: []string{"notebook"}})
	if err := a.InitTrackers("run", nil); err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 3; step++ {
		a.Log(map[string]float64{"loss": 1 / float64(step+1)}, step)
	}
	a.EndTraining()
	if len(sink.msgs) == 0 || sink.msgs[0] != "display_data" {
		t.Errorf("messages sent to the kernel = %v; want a display_data with the plot first", sink.msgs)
	}
}

func TestNotebookTrackerDrawsASecondRunBesideTheFirst(t *testing.T) {
	sink := &recordingSink{}
	host.ForTest(t, host.Host{Display: sink})
	a := soloAcc(Config{LogWith: []string{"notebook"}})
	for _, run := range []string{"lr=1e-3", "lr=1e-2"} {
		if err := a.InitTrackers(run, nil); err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 3; step++ {
			a.Log(map[string]float64{"loss": 1 / float64(step+1)}, step)
		}
	}
	a.EndTraining()
	if got := a.notebook.Runs(); len(got) != 2 || got[1] != "lr=1e-2" {
		t.Errorf("runs in the figure %v, want both", got)
	}
}

func TestALiveAddedToSeveralAcceleratorsCollectsTheirRuns(t *testing.T) {
	host.ForTest(t, host.Host{Display: &recordingSink{}})
	live := plots.NewLive("sweep")
	for _, lr := range []string{"a", "b", "c"} {
		a := soloAcc(Config{})
		a.AddTracker(live)
		if err := a.InitTrackers("lr="+lr, nil); err != nil {
			t.Fatal(err)
		}
		a.Log(map[string]float64{"loss": 1}, 0)
		a.EndTraining()
	}
	if got := live.Runs(); len(got) != 3 {
		t.Errorf("runs %v, want 3", got)
	}
}
