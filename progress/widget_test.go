package progress

import (
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
)

// comms records the comm messages of widgets.
type comms struct {
	mu   sync.Mutex
	msgs []comm.Message
}

func (c *comms) SendComm(m comm.Message) {
	c.mu.Lock()
	c.msgs = append(c.msgs, m)
	c.mu.Unlock()
}

func TestWithWidgetABarIsAProgressWidgetUpdatedOverItsComm(t *testing.T) {
	s := withSink(t)
	rec := &comms{}
	host.ForTest(t, host.Host{Display: s, Comms: comm.NewManager(rec)})
	if got := chooseOutput(Options{Widget: true}); got.mode != widget {
		t.Fatalf("under a kernel with Widget: mode %v, want widget", got.mode)
	}
	if got := chooseOutput(Options{}); got.mode != notebook {
		t.Fatalf("by default: mode %v, want the HTML display", got.mode)
	}
	c := newClock()
	b := newRoot(Options{Total: 20, Desc: "train", Widget: true}, output{mode: widget}, c.now)
	for b.Next() {
		c.tick(50 * time.Millisecond)
	}
	if len(s.msgs) != 1 || s.msgs[0] != "display_data" {
		t.Fatalf("displays %v: want the row shown once, then only comm updates", s.msgs)
	}
	var progressID string
	var lastValue, style any
	for _, m := range rec.msgs {
		if m.Type == "comm_open" && m.Data["state"].(map[string]any)["_model_name"] == "FloatProgressModel" {
			progressID = m.CommID
		}
		if m.Type == "comm_msg" && m.CommID == progressID {
			st := m.Data["state"].(map[string]any)
			if v, ok := st["value"]; ok {
				lastValue = v
			}
			if v, ok := st["bar_style"]; ok {
				style = v
			}
		}
	}
	if progressID == "" || lastValue != 20.0 || style != "success" {
		t.Fatalf("progress %q: last value %v, style %v; want 20 and success", progressID, lastValue, style)
	}
	view := s.data[0]["application/vnd.jupyter.widget-view+json"].(map[string]any)
	if view["model_id"] == "" {
		t.Fatal("the display is not a widget view")
	}
}
