package comm

// The ipywidgets control comm: a front end that connects to a kernel with
// widgets already shown (a reloaded page, a second browser tab) asks for all
// their states in one message instead of one request_state per widget.

// ControlTarget is the target name of the widget control comm.
const ControlTarget = "jupyter.widget.control"

// StateHolder is a comm Handler that knows the full state of its widget
// model, for the control comm's update_states (widgets' models, and the
// mirrors of a launched worker's widgets).
type StateHolder interface {
	WidgetState() map[string]any
}

// ServeWidgetControl registers the control comm's target on m: its
// request_states is answered with the states of every open comm whose
// handler is a StateHolder, binary values as buffers, each as ipywidgets
// sends it and the front end's _loadFromKernel reads it: {"model_name",
// "model_module", "model_module_version", "state"}.
func ServeWidgetControl(m *Manager) {
	m.RegisterTarget(ControlTarget, func(c *Comm, _ Message) (Handler, error) {
		return controlHandler{c}, nil
	})
}

type controlHandler struct{ c *Comm }

func (h controlHandler) HandleMsg(msg Message) {
	if msg.Data["method"] != "request_states" {
		return
	}
	m := h.c.m
	states := map[string]any{}
	var paths [][]any
	var buffers [][]byte
	m.mu.Lock()
	holders := map[string]StateHolder{}
	for id, c := range m.comms {
		if s, ok := c.h.(StateHolder); ok {
			holders[id] = s
		}
	}
	m.mu.Unlock()
	for id, s := range holders {
		state, p, b := SeparateBuffers(s.WidgetState())
		states[id] = map[string]any{
			"model_name": state["_model_name"], "model_module": state["_model_module"],
			"model_module_version": state["_model_module_version"], "state": state,
		}
		for _, path := range p {
			paths = append(paths, append([]any{id, "state"}, path...))
		}
		buffers = append(buffers, b...)
	}
	if paths == nil {
		paths = [][]any{}
	}
	h.c.Reply(msg, map[string]any{"method": "update_states", "states": states, "buffer_paths": paths}, buffers)
}

func (controlHandler) HandleClose(Message) {}
