package comm

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// recorder is a Transport that keeps what it was given.
type recorder struct {
	mu   sync.Mutex
	sent []Message
}

func (r *recorder) SendComm(m Message) {
	r.mu.Lock()
	r.sent = append(r.sent, m)
	r.mu.Unlock()
}

func (r *recorder) last() Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent[len(r.sent)-1]
}

// handler records deliveries and runs do on each comm_msg.
type handler struct {
	msgs   []Message
	closed int
	do     func(Message)
}

func (h *handler) HandleMsg(m Message) {
	h.msgs = append(h.msgs, m)
	if h.do != nil {
		h.do(m)
	}
}
func (h *handler) HandleClose(Message) { h.closed++ }

func TestOpenSendsCommOpenAndDeliverReachesTheHandler(t *testing.T) {
	r := &recorder{}
	m := NewManager(r)
	h := &handler{}
	c := m.Open("jupyter.widget", map[string]any{"state": map[string]any{}}, map[string]any{"version": "2.1.0"}, nil, h)
	open := r.last()
	if open.Type != "comm_open" || open.CommID != c.ID() || open.Target != "jupyter.widget" || open.Metadata["version"] != "2.1.0" {
		t.Fatalf("comm_open sent: %+v", open)
	}
	if got := open.Content(); got["target_name"] != "jupyter.widget" || got["comm_id"] != c.ID() {
		t.Fatalf("comm_open content: %v", got)
	}
	if len(c.ID()) != 32 {
		t.Fatalf("comm id %q: want 32 hex digits", c.ID())
	}
	if _, err := m.Deliver(Message{Type: "comm_msg", CommID: c.ID(), Data: map[string]any{"method": "update"}}); err != nil {
		t.Fatal(err)
	}
	if len(h.msgs) != 1 || h.msgs[0].Data["method"] != "update" {
		t.Fatalf("handler got %+v", h.msgs)
	}
	c.Reply(h.msgs[0], map[string]any{"method": "echo_update"}, [][]byte{{1}})
	if got := r.last(); got.Type != "comm_msg" || got.Data["method"] != "echo_update" || len(got.Buffers) != 1 {
		t.Fatalf("reply sent: %+v", got)
	}
}

func TestDeliverRefusesBadMessagesWithErrors(t *testing.T) {
	r := &recorder{}
	m := NewManager(r)
	boom := m.Open("t", nil, nil, nil, &handler{do: func(Message) { panic("bad state type") }})
	for _, tc := range []struct {
		name string
		msg  Message
		want string
	}{
		{"no comm id", Message{Type: "comm_msg"}, "without a comm_id"},
		{"unknown comm", Message{Type: "comm_msg", CommID: "nope"}, "no such comm"},
		{"unknown close", Message{Type: "comm_close", CommID: "nope"}, "no such comm"},
		{"not a comm type", Message{Type: "execute_request", CommID: boom.ID()}, "not a comm message"},
		{"handler panics", Message{Type: "comm_msg", CommID: boom.ID()}, "panicked: bad state type"},
		{"unknown target", Message{Type: "comm_open", CommID: "x1", Target: "nobody"}, `target "nobody"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Deliver(tc.msg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Deliver(%+v) = %v, want an error containing %q", tc.msg, err, tc.want)
			}
		})
	}
	if _, err := m.Deliver(Message{Type: "comm_msg", CommID: "nope"}); !errors.Is(err, ErrUnknownComm) {
		t.Fatalf("unknown comm: %v, want ErrUnknownComm", err)
	}
	if got := r.last(); got.Type != "comm_close" || got.CommID != "x1" {
		t.Fatalf("a comm_open to an unknown target must be answered with its comm_close, sent %+v", got)
	}
}

func TestTargetsOpenCommsFromTheFrontEnd(t *testing.T) {
	r := &recorder{}
	m := NewManager(r)
	h := &handler{}
	m.RegisterTarget("jupyter.widget.control", func(c *Comm, open Message) (Handler, error) {
		if c.ID() != "ctl" || open.Target != "jupyter.widget.control" {
			t.Errorf("target got comm %s, open %+v", c.ID(), open)
		}
		return h, nil
	})
	m.RegisterTarget("refuses", func(*Comm, Message) (Handler, error) { return nil, errors.New("not now") })
	if _, err := m.Deliver(Message{Type: "comm_open", CommID: "ctl", Target: "jupyter.widget.control"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Deliver(Message{Type: "comm_msg", CommID: "ctl", Data: map[string]any{"method": "request_states"}}); err != nil || len(h.msgs) != 1 {
		t.Fatalf("message to the opened comm: %v, handler got %d", err, len(h.msgs))
	}
	if _, err := m.Deliver(Message{Type: "comm_open", CommID: "r", Target: "refuses"}); err == nil || !strings.Contains(err.Error(), "not now") {
		t.Fatalf("refused open: %v", err)
	}
	if got := r.last(); got.Type != "comm_close" || got.CommID != "r" {
		t.Fatalf("a refused open must be closed, sent %+v", got)
	}
	if _, err := m.Deliver(Message{Type: "comm_close", CommID: "ctl"}); err != nil || h.closed != 1 {
		t.Fatalf("close: %v, HandleClose called %d times", err, h.closed)
	}
	if m.Lookup("ctl") != nil {
		t.Fatal("a closed comm is still open")
	}
}

func TestInfoFiltersByTarget(t *testing.T) {
	m := NewManager(&recorder{})
	a := m.Open("jupyter.widget", nil, nil, nil, nil)
	b := m.Open("other", nil, nil, nil, nil)
	m.Register("remote", "jupyter.widget", nil)
	for _, tc := range []struct {
		target string
		want   map[string]string
	}{
		{"", map[string]string{a.ID(): "jupyter.widget", b.ID(): "other", "remote": "jupyter.widget"}},
		{"jupyter.widget", map[string]string{a.ID(): "jupyter.widget", "remote": "jupyter.widget"}},
		{"none", map[string]string{}},
	} {
		if got := m.Info(tc.target); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Info(%q) = %v, want %v", tc.target, got, tc.want)
		}
	}
	b.Close(nil)
	m.Forget("remote")
	if got := m.Info(""); len(got) != 1 {
		t.Fatalf("after Close and Forget: %v", got)
	}
	b.Send(map[string]any{"x": 1}, nil) // closed: sends nothing and does not panic
}

func TestDeferredWorkIsKeyedByTheMessageThatDeferredIt(t *testing.T) {
	m := NewManager(&recorder{})
	var ran []string
	c := m.Open("t", nil, nil, nil, &handler{do: func(msg Message) {
		m.Defer(msg, Job{Run: func() { ran = append(ran, msg.MsgID+"a") }})
		m.Defer(msg, Job{Run: func() { ran = append(ran, msg.MsgID+"b") }})
	}})
	for _, id := range []string{"m1", "m2"} {
		n, err := m.Deliver(Message{Type: "comm_msg", CommID: c.ID(), MsgID: id})
		if err != nil || n != 2 {
			t.Fatalf("Deliver %s: %d deferred, %v; want 2", id, n, err)
		}
	}
	for _, j := range m.Take("m2") {
		j.Run()
	}
	for _, j := range m.Take("m1") {
		j.Run()
	}
	if want := []string{"m2a", "m2b", "m1a", "m1b"}; !reflect.DeepEqual(ran, want) {
		t.Fatalf("ran %v, want %v", ran, want)
	}
	if jobs := m.Take("m1"); jobs != nil {
		t.Fatalf("Take twice returned %d jobs", len(jobs))
	}
}

func TestDeferredWorkIsBounded(t *testing.T) {
	m := NewManager(&recorder{})
	for i := range maxDeferred + 10 {
		m.Defer(Message{MsgID: string(rune('a' + i%50))}, Job{Run: func() {}})
		m.Defer(Message{MsgID: "x" + strings.Repeat("y", i%500)}, Job{Run: func() {}})
	}
	total := 0
	m.mu.Lock()
	for _, jobs := range m.deferred {
		total += len(jobs)
	}
	queued := m.queued
	m.mu.Unlock()
	if total > maxDeferred || total != queued {
		t.Fatalf("%d jobs queued (counter %d), bound %d", total, queued, maxDeferred)
	}
}

func TestSeparateAndPutBuffersRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		state map[string]any
		paths [][]any
	}{
		{"none", map[string]any{"value": 1.0}, [][]any{}},
		{"top level", map[string]any{"value": []byte("png"), "format": "png"}, [][]any{{"value"}}},
		{"nested", map[string]any{"x": map[string]any{"data": []byte{1, 2}, "shape": []any{2.0}}}, [][]any{{"x", "data"}}},
		{"in a list", map[string]any{"l": []any{"a", []byte{3}}}, [][]any{{"l", 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := deepCopy(tc.state)
			out, paths, bufs := SeparateBuffers(tc.state)
			if !reflect.DeepEqual(paths, tc.paths) {
				t.Fatalf("paths %v, want %v", paths, tc.paths)
			}
			if !reflect.DeepEqual(tc.state, orig) {
				t.Fatalf("SeparateBuffers changed its argument: %v", tc.state)
			}
			if len(paths) > 0 && reflect.DeepEqual(out, orig) {
				t.Fatalf("buffers still in the state: %v", out)
			}
			// As the wire gives them back: paths are JSON lists with numbers as float64.
			var jpaths []any
			for _, p := range paths {
				var jp []any
				for _, s := range p {
					if n, ok := s.(int); ok {
						jp = append(jp, float64(n))
					} else {
						jp = append(jp, s)
					}
				}
				jpaths = append(jpaths, jp)
			}
			back := deepCopy(out)
			if err := PutBuffers(back, jpaths, bufs); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, orig) {
				t.Fatalf("round trip: %v, want %v", back, orig)
			}
		})
	}
}

func TestPutBuffersRejectsBadPaths(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []any
		bufs  [][]byte
	}{
		{"more paths than buffers", []any{[]any{"a"}}, nil},
		{"not a list", []any{"a"}, [][]byte{{1}}},
		{"empty path", []any{[]any{}}, [][]byte{{1}}},
		{"index into a map", []any{[]any{1.0}}, [][]byte{{1}}},
		{"through a number", []any{[]any{"n", "x"}}, [][]byte{{1}}},
		{"index out of range", []any{[]any{"l", 5.0}}, [][]byte{{1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := map[string]any{"n": 1.0, "l": []any{nil}}
			if err := PutBuffers(state, tc.paths, tc.bufs); err == nil {
				t.Fatalf("PutBuffers(%v) succeeded", tc.paths)
			}
		})
	}
}

func deepCopy(v map[string]any) map[string]any {
	out := map[string]any{}
	for k, x := range v {
		out[k] = copyAny(x)
	}
	return out
}

func copyAny(x any) any {
	switch x := x.(type) {
	case map[string]any:
		return deepCopy(x)
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = copyAny(x[i])
		}
		return out
	}
	return x
}

// stateHandler is a StateHolder with a fixed state.
type stateHandler struct{ state map[string]any }

func (stateHandler) HandleMsg(Message)             {}
func (stateHandler) HandleClose(Message)           {}
func (h stateHandler) WidgetState() map[string]any { return h.state }

func TestControlCommAnswersRequestStatesWithEveryWidgetsState(t *testing.T) {
	r := &recorder{}
	m := NewManager(r)
	ServeWidgetControl(m)
	model := func(name string) map[string]any {
		return map[string]any{"_model_name": name, "_model_module": "@jupyter-widgets/controls", "_model_module_version": "2.0.0"}
	}
	sa, sb := model("FloatSliderModel"), model("ImageModel")
	sa["value"] = 3.0
	sb["value"], sb["format"] = []byte("img"), "png"
	a := m.Open("jupyter.widget", nil, nil, nil, stateHandler{sa})
	b := m.Open("jupyter.widget", nil, nil, nil, stateHandler{sb})
	m.Open("other", nil, nil, nil, &handler{})
	if _, err := m.Deliver(Message{Type: "comm_open", CommID: "ctl", Target: ControlTarget, MsgID: "o"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Deliver(Message{Type: "comm_msg", CommID: "ctl", MsgID: "q", Parent: []byte(`{"msg_id":"q"}`),
		Data: map[string]any{"method": "request_states"}}); err != nil {
		t.Fatal(err)
	}
	got := r.last()
	states, _ := got.Data["states"].(map[string]any)
	if got.Data["method"] != "update_states" || len(states) != 2 || string(got.Parent) != `{"msg_id":"q"}` {
		t.Fatalf("update_states: %+v", got)
	}
	// Each entry as ipywidgets' _handle_control_comm_msg sends it, which is
	// what the front end's _loadFromKernel reads: the model's class, then
	// its state.
	entry := func(id string) (map[string]any, map[string]any) {
		e, _ := states[id].(map[string]any)
		st, _ := e["state"].(map[string]any)
		return e, st
	}
	if e, st := entry(a.ID()); e["model_name"] != "FloatSliderModel" || e["model_module"] != "@jupyter-widgets/controls" ||
		e["model_module_version"] != "2.0.0" || st["value"] != 3.0 || st["_model_name"] != "FloatSliderModel" {
		t.Fatalf("entry of a: %v", e)
	}
	if e, st := entry(b.ID()); e["model_name"] != "ImageModel" || st["format"] != "png" || st["value"] != nil {
		t.Fatalf("entry of b (its value is a buffer): %v", e)
	}
	paths := got.Data["buffer_paths"].([][]any)
	if len(paths) != 1 || !reflect.DeepEqual(paths[0], []any{b.ID(), "state", "value"}) || string(got.Buffers[0]) != "img" {
		t.Fatalf("buffer_paths %v, buffers %q", paths, got.Buffers)
	}
}

func TestFinishRunsWhatAtFinishRegisteredOnce(t *testing.T) {
	m := NewManager(&recorder{})
	n := 0
	m.AtFinish(func() { n++ })
	m.AtFinish(func() { n += 10 })
	m.Finish()
	m.Finish()
	if n != 11 {
		t.Fatalf("ran %d, want 11 (each once)", n)
	}
}
