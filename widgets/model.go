package widgets

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
)

// The widget protocol as ipywidgets 8 speaks it.
const (
	// ProtocolVersion is the widget message protocol version (comm_open's
	// metadata, and the display bundle's version_major.version_minor).
	ProtocolVersion = "2.1.0"
	// ViewMIME is the MIME type of a widget's display bundle.
	ViewMIME = "application/vnd.jupyter.widget-view+json"
	// Target is the comm target of widget models.
	Target = "jupyter.widget"

	controlsModule = "@jupyter-widgets/controls"
	baseModule     = "@jupyter-widgets/base"
	outputModule   = "@jupyter-widgets/output"
	modulesVersion = "2.0.0"
)

// Widget is any widget of this package: what Display, NewHBox, NewVBox and
// Interact take. Its model id is its comm's id ("" outside a kernel).
type Widget interface {
	ModelID() string
}

// spec names a model's front-end classes and which attached models it has.
type spec struct {
	kind                      string // the Go type's name, for text/plain
	model, view               string // "IntSliderModel", "IntSliderView"
	modelModule, modelVersion string
	viewModule, viewVersion   string
	style                     string // the style model's name ("" none)
	noLayout, noDOM           bool   // layout and style models themselves
	immutable                 []string
}

// controls is the spec of a model of @jupyter-widgets/controls.
func controls(kind, model, view, style string) spec {
	return spec{kind: kind, model: model, view: view, style: style,
		modelModule: controlsModule, modelVersion: modulesVersion, viewModule: controlsModule, viewVersion: modulesVersion}
}

// model is one widget model: its state, kept here and mirrored by the front
// end over its comm. Every method is safe for concurrent use: a cell reads
// values while the front end's updates arrive on the executor's goroutine
// that delivers comm messages.
type model struct {
	spec spec
	mgr  *comm.Manager // nil outside a kernel: the widget is a plain value
	c    *comm.Comm

	mu     sync.Mutex // guards state; held while a change is sent, so messages leave in order
	state  map[string]any
	layout *Layout
	style  *Style

	// validate, when set, turns a value the front end sent for key into the
	// one the widget keeps (clamping a slider's value), after the check
	// that it has the key's type. It reads the state it is given (m.mu is
	// held).
	validate func(state map[string]any, key string, v any) any
	// changed is called, at once and without locks held, with the keys a
	// front end's update changed and the message that carried it.
	changed func(msg comm.Message, keys []string)
	// custom receives the content of a front end's custom message.
	custom func(msg comm.Message, content map[string]any)

	watchMu  sync.Mutex
	watchers []func(msg *comm.Message) // Interact's, told of value changes
}

// watch registers fn to be told of each change of the widget's value, with
// the front end's message that made it (nil when code made it).
func (m *model) watch(fn func(msg *comm.Message)) {
	m.watchMu.Lock()
	m.watchers = append(m.watchers, fn)
	m.watchMu.Unlock()
}

// notify tells the watchers of a value change.
func (m *model) notify(msg *comm.Message) {
	m.watchMu.Lock()
	ws := append([]func(msg *comm.Message){}, m.watchers...)
	m.watchMu.Unlock()
	for _, w := range ws {
		w(msg)
	}
}

// newModel makes a model of s with state (the widget's own keys; the common
// ones are added). The widget sets its hooks, then opens it.
func newModel(s spec, state map[string]any) *model {
	m := &model{spec: s, mgr: host.Current().Comms, state: map[string]any{
		"_model_module": s.modelModule, "_model_module_version": s.modelVersion, "_model_name": s.model,
		"_view_module": s.viewModule, "_view_module_version": s.viewVersion, "_view_name": s.view,
	}}
	if !s.noDOM {
		m.state["_dom_classes"] = []any{}
		m.state["tabbable"] = nil
		m.state["tooltip"] = nil
	}
	for k, v := range state {
		m.state[k] = v
	}
	if !s.noLayout {
		m.layout = newLayout()
		m.state["layout"] = ref(m.layout.m)
	}
	if s.style != "" {
		m.style = newStyle(s.style)
		m.state["style"] = ref(m.style.m)
	}
	return m
}

// open opens the model's comm to the front end (nothing outside a kernel)
// and returns m.
func (m *model) open() *model {
	if m.mgr == nil {
		return m
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	state, paths, buffers := comm.SeparateBuffers(m.state)
	m.c = m.mgr.Open(Target, map[string]any{"state": state, "buffer_paths": paths},
		map[string]any{"version": ProtocolVersion}, buffers, handler{m})
	return m
}

// ref is how the widget protocol refers to another model.
func ref(m *model) string { return "IPY_MODEL_" + m.ModelID() }

// ModelID returns the model's id: its comm's id, "" outside a kernel.
func (m *model) ModelID() string {
	if m.c == nil {
		return ""
	}
	return m.c.ID()
}

// Close closes the widget's comm, and its layout's and style's: the front
// end removes its views.
func (m *model) Close() {
	if m.c != nil {
		m.c.Close(nil)
	}
	if m.layout != nil {
		m.layout.m.Close()
	}
	if m.style != nil {
		m.style.m.Close()
	}
}

// get returns the value of key.
func (m *model) get(key string) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[key]
}

// set changes keys of the state and sends the front end those that changed
// (update). It reports which changed.
func (m *model) set(kv map[string]any) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	changed := map[string]any{}
	var keys []string
	for k, v := range kv {
		if equal(m.state[k], v) {
			continue
		}
		m.state[k] = v
		changed[k] = v
		keys = append(keys, k)
	}
	if len(changed) > 0 {
		m.send(comm.Message{}, "update", changed)
	}
	return keys
}

// send sends state keys as an update or echo_update answering to (m.mu held).
func (m *model) send(to comm.Message, method string, state map[string]any) {
	if m.c == nil {
		return
	}
	state, paths, buffers := comm.SeparateBuffers(state)
	m.c.Reply(to, map[string]any{"method": method, "state": state, "buffer_paths": paths}, buffers)
}

// snapshot returns a copy of the full state.
func (m *model) snapshot() map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]any, len(m.state))
	for k, v := range m.state {
		out[k] = v
	}
	return out
}

// handler is a model's comm.Handler and comm.StateHolder.
type handler struct{ m *model }

// WidgetState returns the full state, for the control comm.
func (h handler) WidgetState() map[string]any { return h.m.snapshot() }

// HandleClose is called when the front end closes the widget.
func (handler) HandleClose(comm.Message) {}

// HandleMsg handles a message from the front end: an update, a request for
// the full state, or a custom message. It runs at once, even while a cell
// runs; a malformed message changes nothing.
func (h handler) HandleMsg(msg comm.Message) {
	m := h.m
	switch msg.Data["method"] {
	case "update":
		m.update(msg)
	case "request_state":
		m.mu.Lock()
		m.send(msg, "update", m.state)
		m.mu.Unlock()
	case "custom":
		content, _ := msg.Data["content"].(map[string]any)
		if content != nil && m.custom != nil {
			m.custom(msg, content)
		}
	}
}

// echoUpdates is whether front ends' updates are echoed to every front end
// (protocol 2.1's echo_update); JUPYTER_WIDGETS_ECHO=0 turns it off, as in
// ipywidgets.
var echoUpdates = !(os.Getenv("JUPYTER_WIDGETS_ECHO") == "0" || strings.EqualFold(os.Getenv("JUPYTER_WIDGETS_ECHO"), "false"))

// update applies a front end's update: keys the model has, with values of
// their type, validated. The keys it got are echoed back (echo_update, so
// other front ends follow); a value the model corrected or refused is sent
// back as an update, as ipywidgets does.
func (m *model) update(msg comm.Message) {
	state, _ := msg.Data["state"].(map[string]any)
	if state == nil {
		return
	}
	if paths, ok := msg.Data["buffer_paths"].([]any); ok && len(paths) > 0 {
		if err := comm.PutBuffers(state, paths, msg.Buffers); err != nil {
			return
		}
	}
	m.mu.Lock()
	echo, corrected := map[string]any{}, map[string]any{}
	var keys []string
	for k, v := range state {
		cur, known := m.state[k]
		if !known || strings.HasPrefix(k, "_model") || strings.HasPrefix(k, "_view") || m.isImmutable(k) {
			continue
		}
		echo[k] = v
		nv, ok := like(cur, v)
		if !ok {
			corrected[k] = cur // not of the key's type: the front end gets the model's value back
			continue
		}
		if m.validate != nil {
			nv = m.validate(m.state, k, nv)
		}
		if !sameValue(nv, v) {
			corrected[k] = nv
		}
		if !equal(cur, nv) {
			m.state[k] = nv
			keys = append(keys, k)
		}
	}
	if echoUpdates && len(echo) > 0 {
		m.send(msg, "echo_update", echo)
	}
	if len(corrected) > 0 {
		m.send(msg, "update", corrected)
	}
	m.mu.Unlock()
	if len(keys) > 0 && m.changed != nil {
		m.changed(msg, keys)
	}
}

func (m *model) isImmutable(k string) bool {
	for _, i := range m.spec.immutable {
		if i == k {
			return true
		}
	}
	return false
}

// like returns v as a value of cur's type (JSON numbers as the int or float64
// the model keeps), and whether it is one. A key that may be null (cur nil)
// takes null, strings, booleans and numbers.
func like(cur, v any) (any, bool) {
	switch cur.(type) {
	case int:
		f, ok := v.(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
			if n, isInt := v.(int); isInt {
				return n, true
			}
			return nil, false
		}
		return int(math.Round(f)), true
	case float64:
		switch f := v.(type) {
		case float64:
			return f, !math.IsNaN(f)
		case int:
			return float64(f), true
		}
		return nil, false
	case string:
		s, ok := v.(string)
		return s, ok
	case bool:
		b, ok := v.(bool)
		return b, ok
	case []byte:
		b, ok := v.([]byte)
		return b, ok
	case []any:
		l, ok := v.([]any)
		return l, ok
	case map[string]any:
		o, ok := v.(map[string]any)
		return o, ok
	case nil:
		switch v.(type) {
		case nil, string, bool, float64:
			return v, true
		}
		return nil, false
	}
	return nil, false
}

// equal compares two state values.
func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

// sameValue compares a kept value with what the front end sent: numbers by
// value (the front end's 7.0 is the model's 7).
func sameValue(kept, sent any) bool {
	if f, ok := sent.(float64); ok {
		switch k := kept.(type) {
		case int:
			return float64(k) == f
		case float64:
			return k == f
		}
	}
	return equal(kept, sent)
}

// text is the widget's text/plain form: its kind and the keys that differ
// from nothing, as ipywidgets' repr.
func (m *model) text(keys ...string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var parts []string
	for _, k := range keys {
		v := m.state[k]
		if s, ok := v.(string); ok {
			if s == "" {
				continue
			}
			v = fmt.Sprintf("%q", s)
		}
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	return m.spec.kind + "(" + strings.Join(parts, ", ") + ")"
}
