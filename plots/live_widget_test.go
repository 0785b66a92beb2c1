package plots

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
)

type commRecorder struct {
	mu   sync.Mutex
	msgs []comm.Message
}

func (r *commRecorder) SendComm(m comm.Message) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
}

func TestLiveAsAWidgetSendsItsImageAsABinaryBuffer(t *testing.T) {
	r := withSink(t)
	rec := &commRecorder{}
	host.ForTest(t, host.Host{Display: r, Comms: comm.NewManager(rec)})
	c := &fakeClock{t: time.Unix(0, 0)}
	live := newTestLive(c)
	live.Widget = true
	for step := range 100 {
		if err := live.Add(step, map[string]float64{"loss": 1 / float64(step+1)}); err != nil {
			t.Fatal(err)
		}
		c.t = c.t.Add(20 * time.Millisecond)
	}
	if err := live.Flush(); err != nil {
		t.Fatal(err)
	}
	if len(r.msgs) != 1 || r.msgs[0] != "display_data" {
		t.Fatalf("displays %v: want the image widget shown once", r.msgs)
	}
	var last comm.Message
	for _, m := range rec.msgs {
		if m.Type == "comm_msg" && m.Data["method"] == "update" {
			last = m
		}
	}
	st, _ := last.Data["state"].(map[string]any)
	if st["format"] != "png" || len(last.Buffers) != 1 || !bytes.HasPrefix(last.Buffers[0], []byte("\x89PNG")) {
		t.Fatalf("final update: state %v with %d buffers; want a PNG buffer", st, len(last.Buffers))
	}
	if live.Draws() < 2 {
		t.Fatalf("%d draws", live.Draws())
	}
}

// shownRecorder records comm messages with how many displays went out
// before each.
type shownRecorder struct {
	commRecorder
	displays *recorder
	before   []int
}

func (r *shownRecorder) SendComm(m comm.Message) {
	r.displays.mu.Lock()
	n := len(r.displays.msgs)
	r.displays.mu.Unlock()
	r.commRecorder.SendComm(m)
	r.mu.Lock()
	r.before = append(r.before, n)
	r.mu.Unlock()
}

// The image widget is shown with its first figure already in it: shown
// empty, the page's <img> holds an empty image until the next update (seen
// in JupyterLab as one image more than the Live drew).
func TestLiveAsAWidgetIsShownWithItsFirstImage(t *testing.T) {
	r := withSink(t)
	rec := &shownRecorder{displays: r}
	host.ForTest(t, host.Host{Display: r, Comms: comm.NewManager(rec)})
	c := &fakeClock{t: time.Unix(0, 0)}
	live := newTestLive(c)
	live.Widget = true
	for step := range 5 {
		if err := live.Add(step, map[string]float64{"loss": 1 / float64(step+1)}); err != nil {
			t.Fatal(err)
		}
		c.t = c.t.Add(time.Second)
	}
	if live.Draws() == 0 || len(r.msgs) != 1 {
		t.Fatalf("%d draws, displays %v", live.Draws(), r.msgs)
	}
	for i, m := range rec.msgs {
		if m.Type == "comm_open" || len(m.Buffers) == 0 {
			continue
		}
		if rec.before[i] != 0 {
			t.Fatalf("the image's first bytes went out after its display (message %d of %d)", i, len(rec.msgs))
		}
		return
	}
	t.Fatal("no image bytes sent")
}
