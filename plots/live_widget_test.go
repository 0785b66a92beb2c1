package plots

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
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
	comm.Install(comm.NewManager(rec))
	t.Cleanup(func() { comm.Install(nil) })
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
