package accelerate

import (
	"sync"
	"testing"

	"github.com/goaccel/goaccel/internal/displaysink"
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
	displaysink.Set(sink)
	defer displaysink.Set(nil)
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
