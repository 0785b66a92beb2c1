package launch

import (
	"encoding/json"
	"io"
	"reflect"
	"sync"
	"testing"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

type sent struct {
	mu   sync.Mutex
	msgs []comm.Message
}

func (s *sent) SendComm(m comm.Message) {
	s.mu.Lock()
	s.msgs = append(s.msgs, m)
	s.mu.Unlock()
}

func (s *sent) last() comm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.msgs[len(s.msgs)-1]
}

// TestARelayedWidgetIsMirroredAndAnswersOnceItsWorkerEnded: a worker's
// comm_open and updates go out as they are, the session lists the comm, and
// after the launch the mirror answers request_state with the last state
// (binary values as buffers) and takes updates.
func TestARelayedWidgetIsMirroredAndAnswersOnceItsWorkerEnded(t *testing.T) {
	out := &sent{}
	comms := comm.NewManager(out)
	r := newRelay(comms, io.Discard, &workers.Control{})
	// As a worker's frames give them: JSON numbers, buffer paths as lists.
	r.fromWorker(0, comm.Message{Type: "comm_open", CommID: "w1", Target: "jupyter.widget",
		Data:    map[string]any{"state": map[string]any{"_model_name": "ImageModel", "format": "png"}, "buffer_paths": []any{[]any{"value"}}},
		Buffers: [][]byte{[]byte("v1")}})
	r.fromWorker(0, comm.Message{Type: "comm_msg", CommID: "w1",
		Data:    map[string]any{"method": "update", "state": map[string]any{"width": "100"}, "buffer_paths": []any{[]any{"value"}}},
		Buffers: [][]byte{[]byte("v2")}})
	if got := out.last(); got.Type != "comm_msg" || got.Data["method"] != "update" {
		t.Fatalf("relayed %+v", got)
	}
	if info := comms.Info("jupyter.widget"); info["w1"] != "jupyter.widget" {
		t.Fatalf("the session does not list the worker's widget: %v", info)
	}
	r.detach()
	if _, err := comms.Deliver(comm.Message{Type: "comm_msg", CommID: "w1", MsgID: "q", Parent: json.RawMessage(`{"msg_id":"q"}`),
		Data: map[string]any{"method": "request_state"}}); err != nil {
		t.Fatal(err)
	}
	got := out.last()
	st := got.Data["state"].(map[string]any)
	if st["_model_name"] != "ImageModel" || st["width"] != "100" || string(got.Parent) != `{"msg_id":"q"}` ||
		!reflect.DeepEqual(got.Data["buffer_paths"], [][]any{{"value"}}) || string(got.Buffers[0]) != "v2" {
		t.Fatalf("the mirror answered %+v", got)
	}
	if _, err := comms.Deliver(comm.Message{Type: "comm_msg", CommID: "w1", MsgID: "u",
		Data: map[string]any{"method": "update", "state": map[string]any{"width": "50"}}}); err != nil {
		t.Fatal(err)
	}
	if got := out.last(); got.Data["method"] != "echo_update" || r.remotes["w1"].WidgetState()["width"] != "50" {
		t.Fatalf("an update after the launch: %+v", got)
	}
	r.fromWorker(0, comm.Message{Type: "comm_close", CommID: "w1"})
	if len(comms.Info("")) != 0 {
		t.Fatal("a closed widget is still listed")
	}
}

// TestNoLaunchWidgetsWithoutComms: a launch without the session's comms
// drops its workers' widget messages.
func TestNoLaunchWidgetsWithoutComms(t *testing.T) {
	r := newRelay(nil, io.Discard, &workers.Control{})
	r.fromWorker(0, comm.Message{Type: "comm_open", CommID: "w1"})
	r.detach()
}
