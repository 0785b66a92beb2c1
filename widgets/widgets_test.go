package widgets

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
)

// front is a fake kernel connection: it records what the widgets send (comm
// messages and displays) and delivers what a front end would send.
type front struct {
	t    *testing.T
	mgr  *comm.Manager
	mu   sync.Mutex
	msgs []comm.Message
	disp []map[string]any
}

func (f *front) SendComm(m comm.Message) {
	f.mu.Lock()
	f.msgs = append(f.msgs, m)
	f.mu.Unlock()
}

func (f *front) Send(msgType string, content map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if msgType == "display_data" {
		f.disp = append(f.disp, content["data"].(map[string]any))
	} else {
		f.msgs = append(f.msgs, comm.Message{Type: msgType, Data: content})
	}
}

// withKernel installs a fake kernel for the test: widgets made in it open
// comms to f.
func withKernel(t *testing.T) *front {
	f := &front{t: t}
	f.mgr = comm.NewManager(f)
	comm.ServeWidgetControl(f.mgr)
	host.ForTest(t, host.Host{Display: f, Comms: f.mgr})
	f.mgr.SetParent("cell-1")
	return f
}

// sent returns the messages sent since the last call.
func (f *front) sent() []comm.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.msgs
	f.msgs = nil
	return m
}

// displays returns the displays published since the last call.
func (f *front) displays() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := f.disp
	f.disp = nil
	return d
}

// open returns the comm_open of the model id among msgs.
func openOf(t *testing.T, msgs []comm.Message, id string) comm.Message {
	t.Helper()
	for _, m := range msgs {
		if m.Type == "comm_open" && m.CommID == id {
			return m
		}
	}
	t.Fatalf("no comm_open of %s among %d messages", id, len(msgs))
	return comm.Message{}
}

// update delivers a front end's update of w, as JSON gives it, with msgID.
func (f *front) update(w Widget, msgID string, state map[string]any) int {
	f.t.Helper()
	raw, _ := json.Marshal(state)
	var decoded map[string]any
	_ = json.Unmarshal(raw, &decoded)
	n, err := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: w.ModelID(), MsgID: msgID,
		Parent: json.RawMessage(`{"msg_id":"` + msgID + `"}`),
		Data:   map[string]any{"method": "update", "state": decoded, "buffer_paths": []any{}}})
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

// runDeferred runs the work msgID deferred, as the session does.
func (f *front) runDeferred(msgID string) {
	f.mgr.SetParent(msgID)
	for _, j := range f.mgr.Take(msgID) {
		if j.Around != nil {
			j.Around(j.Run)
		} else {
			j.Run()
		}
	}
	f.mgr.Finish()
}

// normalize turns a state into what JSON gives back, with references and
// binary values replaced by placeholders, as the golden file has them.
func normalize(t *testing.T, state map[string]any) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, v := range state {
		switch v := v.(type) {
		case string:
			if strings.HasPrefix(v, "IPY_MODEL_") {
				out[k] = "IPY_MODEL_"
				continue
			}
		case []byte:
			out[k] = "<bytes>"
			continue
		}
		out[k] = v
	}
	raw, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// TestStatesMatchIpywidgets compares each widget's state, as its comm_open
// sends it, with ipywidgets 8.1.9's for the same arguments (testdata, made by
// ipywidgets_states.py there).
func TestStatesMatchIpywidgets(t *testing.T) {
	raw, err := os.ReadFile("testdata/ipywidgets-8.1.9-states.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden map[string]map[string]any
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	f := withKernel(t)
	for _, tc := range []struct {
		name string
		make func() Widget
	}{
		{"IntSlider", func() Widget { return NewIntSlider("", 0, 0, 100) }},
		{"FloatSlider", func() Widget { return NewFloatSlider("", 0, 0, 100) }},
		{"Dropdown", func() Widget { return NewDropdown("", []string{"a", "b"}, "a") }},
		{"Checkbox", func() Widget { return NewCheckbox("", false) }},
		{"Text", func() Widget { return NewText("", "") }},
		{"Button", func() Widget { return NewButton("") }},
		{"FloatProgress", func() Widget { return NewProgress("", 100) }},
		{"HTML", func() Widget { return NewHTML("") }},
		{"Image", func() Widget { return NewImage([]byte{1}) }},
		{"Output", func() Widget { return NewOutput() }},
		{"HBox", func() Widget { return NewHBox() }},
		{"VBox", func() Widget { return NewVBox() }},
		{"Layout", func() Widget { return newLayout() }},
		{"SliderStyle", func() Widget { return newStyle("SliderStyleModel") }},
		{"ButtonStyle", func() Widget { return newStyle("ButtonStyleModel") }},
		{"ProgressStyle", func() Widget { return newStyle("ProgressStyleModel") }},
		{"DescriptionStyle", func() Widget { return newStyle("DescriptionStyleModel") }},
		{"CheckboxStyle", func() Widget { return newStyle("CheckboxStyleModel") }},
		{"TextStyle", func() Widget { return newStyle("TextStyleModel") }},
		{"HTMLStyle", func() Widget { return newStyle("HTMLStyleModel") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.make()
			open := openOf(t, f.sent(), w.ModelID())
			if open.Target != Target || open.Metadata["version"] != ProtocolVersion {
				t.Fatalf("comm_open target %q, metadata %v", open.Target, open.Metadata)
			}
			state, _ := open.Data["state"].(map[string]any)
			if tc.name == "Image" {
				// The value travels as a buffer: out of the state, named in buffer_paths.
				if _, in := state["value"]; in || !reflect.DeepEqual(open.Data["buffer_paths"], [][]any{{"value"}}) || len(open.Buffers) != 1 {
					t.Fatalf("Image's value is not a buffer: state %v, paths %v", state, open.Data["buffer_paths"])
				}
				state["value"] = []byte{}
			}
			want := golden[tc.name]
			if tc.name == "HBox" || tc.name == "VBox" {
				want["children"] = []any{}
			}
			if got := normalize(t, state); !reflect.DeepEqual(got, want) {
				for k := range want {
					if !reflect.DeepEqual(got[k], want[k]) {
						t.Errorf("%s: %v, ipywidgets has %v", k, got[k], want[k])
					}
				}
				for k := range got {
					if _, ok := want[k]; !ok {
						t.Errorf("%s: %v, which ipywidgets lacks", k, got[k])
					}
				}
			}
		})
	}
}

func TestFrontEndUpdatesApplyAtOnceAndDeferCallbacks(t *testing.T) {
	f := withKernel(t)
	s := NewIntSlider("n", 5, 0, 10)
	var got []int
	s.OnChange(func(v int) { got = append(got, v) })
	f.sent()
	for _, tc := range []struct {
		name      string
		sendValue any
		want      int
		corrected bool
		deferred  int
	}{
		{"in range", 7, 7, false, 1},
		{"clamped", 42, 10, true, 1},
		{"rounded", 3.6, 4, true, 1},
		{"not a number", "x", 4, true, 0},
		{"unchanged", 4, 4, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := f.update(s, "m-"+tc.name, map[string]any{"value": tc.sendValue, "nope": 1})
			if s.Value() != tc.want {
				t.Fatalf("Value() = %d right after the update, want %d", s.Value(), tc.want)
			}
			if n != tc.deferred {
				t.Fatalf("deferred %d callbacks, want %d", n, tc.deferred)
			}
			msgs := f.sent()
			if len(msgs) == 0 || msgs[0].Data["method"] != "echo_update" || string(msgs[0].Parent) != `{"msg_id":"m-`+tc.name+`"}` {
				t.Fatalf("first message %+v: want the echo_update, answering the update", msgs)
			}
			if echo := msgs[0].Data["state"].(map[string]any); len(echo) != 1 || echo["nope"] != nil {
				t.Fatalf("echoed %v: want only the keys the widget has", echo)
			}
			corrected := len(msgs) > 1 && msgs[1].Data["method"] == "update"
			if corrected != tc.corrected {
				t.Fatalf("messages %+v: corrected update sent %v, want %v", msgs, corrected, tc.corrected)
			}
			if corrected && msgs[1].Data["state"].(map[string]any)["value"] != tc.want {
				t.Fatalf("corrected update %v, want value %d", msgs[1].Data, tc.want)
			}
			before := len(got)
			f.runDeferred("m-" + tc.name)
			f.sent() // the callback area's capture
			if len(got)-before != tc.deferred || (tc.deferred > 0 && got[len(got)-1] != tc.want) {
				t.Fatalf("callbacks saw %v", got)
			}
		})
	}
	// Code's changes run the callbacks at once and send an update.
	got = nil
	s.SetValue(2)
	if !reflect.DeepEqual(got, []int{2}) {
		t.Fatalf("SetValue ran callbacks %v", got)
	}
	if msgs := f.sent(); len(msgs) != 1 || msgs[0].Data["method"] != "update" || len(msgs[0].Parent) != 0 {
		t.Fatalf("SetValue sent %+v", msgs)
	}
}

func TestEchoCanBeTurnedOff(t *testing.T) {
	f := withKernel(t)
	c := NewCheckbox("x", false)
	f.sent()
	echoUpdates = false
	defer func() { echoUpdates = true }()
	f.update(c, "m", map[string]any{"value": true})
	if msgs := f.sent(); len(msgs) != 0 || !c.Value() {
		t.Fatalf("with echo off: sent %+v, value %v", msgs, c.Value())
	}
}

func TestRequestStateSendsTheWholeStateWithBuffers(t *testing.T) {
	f := withKernel(t)
	img := NewImage([]byte("first"))
	img.SetValue([]byte("\x89PNG..."))
	f.sent()
	if _, err := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: img.ModelID(), MsgID: "r", Data: map[string]any{"method": "request_state"}}); err != nil {
		t.Fatal(err)
	}
	msgs := f.sent()
	if len(msgs) != 1 || msgs[0].Data["method"] != "update" {
		t.Fatalf("request_state answered with %+v", msgs)
	}
	state := msgs[0].Data["state"].(map[string]any)
	if state["_model_name"] != "ImageModel" || state["format"] != "png" || string(msgs[0].Buffers[0]) != "\x89PNG..." {
		t.Fatalf("state %v, buffers %q", state, msgs[0].Buffers)
	}
	// An image from code is PNG-encoded.
	rgba := image.NewRGBA(image.Rect(0, 0, 2, 2))
	rgba.Set(0, 0, color.White)
	if err := img.SetImage(rgba); err != nil || !strings.HasPrefix(string(img.Value()), "\x89PNG") {
		t.Fatalf("SetImage: %v, %q", err, img.Value()[:4])
	}
}

func TestBinaryUpdatesFromTheFrontEnd(t *testing.T) {
	f := withKernel(t)
	img := NewImage(nil)
	f.sent()
	_, err := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: img.ModelID(), MsgID: "b", Buffers: [][]byte{[]byte("gif89")},
		Data: map[string]any{"method": "update", "state": map[string]any{"format": "gif"}, "buffer_paths": []any{[]any{"value"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if string(img.Value()) != "gif89" || img.str("format") != "gif" {
		t.Fatalf("value %q, format %q", img.Value(), img.str("format"))
	}
	echo := f.sent()[0]
	if echo.Data["method"] != "echo_update" || len(echo.Buffers) != 1 || string(echo.Buffers[0]) != "gif89" {
		t.Fatalf("echo %+v", echo)
	}
	// Paths that lead nowhere leave the widget as it was.
	_, _ = f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: img.ModelID(), Data: map[string]any{"method": "update",
		"state": map[string]any{}, "buffer_paths": []any{[]any{"value"}}}})
	if string(img.Value()) != "gif89" {
		t.Fatalf("a bad binary update changed the value to %q", img.Value())
	}
}

func TestButtonClicksCountAtOnceAndCallbacksWait(t *testing.T) {
	f := withKernel(t)
	b := NewButton("go")
	clicked := b.Clicked()
	ran := 0
	b.OnClick(func() { ran++ })
	n, err := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: b.ModelID(), MsgID: "c1",
		Data: map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}})
	if err != nil || n != 1 {
		t.Fatalf("click: deferred %d, %v", n, err)
	}
	select {
	case <-clicked:
	default:
		t.Fatal("Clicked's channel is still open after a click")
	}
	if b.Clicks() != 1 || ran != 0 {
		t.Fatalf("Clicks %d, callback ran %d times before the kernel ran it", b.Clicks(), ran)
	}
	f.runDeferred("c1")
	if ran != 1 {
		t.Fatalf("callback ran %d times", ran)
	}
	// Other custom messages are nothing.
	if n, _ := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: b.ModelID(), Data: map[string]any{"method": "custom", "content": map[string]any{"event": "hover"}}}); n != 0 || b.Clicks() != 1 {
		t.Fatalf("a custom message that is no click counted")
	}
}

func TestTextSubmitAndDropdownIndex(t *testing.T) {
	f := withKernel(t)
	txt := NewText("name", "")
	var submitted string
	txt.OnSubmit(func(v string) { submitted = v })
	f.update(txt, "t1", map[string]any{"value": "gopher"})
	f.runDeferred("t1")
	if _, err := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: txt.ModelID(), MsgID: "t2",
		Data: map[string]any{"method": "custom", "content": map[string]any{"event": "submit"}}}); err != nil {
		t.Fatal(err)
	}
	f.runDeferred("t2")
	if submitted != "gopher" {
		t.Fatalf("submitted %q", submitted)
	}

	d := NewDropdown("opt", []string{"sgd", "adam"}, "sgd")
	var picked []string
	d.OnChange(func(v string) { picked = append(picked, v) })
	f.update(d, "d1", map[string]any{"index": 1})
	f.update(d, "d2", map[string]any{"index": 9}) // out of range: refused
	f.runDeferred("d1")
	f.runDeferred("d2")
	if d.Value() != "adam" || !reflect.DeepEqual(picked, []string{"adam"}) {
		t.Fatalf("value %q, callbacks %v", d.Value(), picked)
	}
	d.SetOptions([]string{"adam", "adamw"})
	if d.Value() != "adam" || d.Index() != 0 {
		t.Fatalf("after SetOptions: %q at %d", d.Value(), d.Index())
	}
}

func TestOutputCaptureSetsMsgIDToTheRequestThatRuns(t *testing.T) {
	f := withKernel(t)
	out := NewOutput()
	f.sent()
	f.mgr.SetParent("exec-9")
	out.Capture(func() {
		if got := out.str("msg_id"); got != "exec-9" {
			t.Errorf("msg_id %q inside Capture, want the running request's id", got)
		}
		out.Capture(func() {}) // nested: stays captured
	})
	var ids []any
	for _, m := range f.sent() {
		ids = append(ids, m.Data["state"].(map[string]any)["msg_id"])
	}
	if !reflect.DeepEqual(ids, []any{"exec-9", ""}) {
		t.Fatalf("msg_id updates %v, want exec-9 then empty", ids)
	}
	out.AppendStdout("hello\n")
	out.AppendDisplay(map[string]any{"text/plain": "x"})
	if o := out.Outputs(); len(o) != 2 || o[0]["text"] != "hello\n" || o[1]["output_type"] != "display_data" {
		t.Fatalf("outputs %v", o)
	}
	out.Clear(false)
	if len(out.Outputs()) != 0 {
		t.Fatal("Clear left outputs")
	}
}

func TestCallbacksWriteIntoTheRegisteringCellsArea(t *testing.T) {
	f := withKernel(t)
	b := NewButton("go")
	b.OnClick(func() {})
	// The button is the cell's result: its bundle is a VBox of it and the area.
	bundle := b.MIMEBundle()
	view := bundle[ViewMIME].(map[string]any)
	if view["model_id"] == b.ModelID() {
		t.Fatal("the result's bundle is the button alone; want it with the cell's callback area")
	}
	var box, area comm.Message
	for _, m := range f.sent() {
		if m.Type == "comm_open" && m.CommID == view["model_id"] {
			box = m
		}
		if m.Type == "comm_open" && m.Data["state"].(map[string]any)["_model_name"] == "OutputModel" {
			area = m
		}
	}
	children := box.Data["state"].(map[string]any)["children"]
	if !reflect.DeepEqual(children, []any{"IPY_MODEL_" + b.ModelID(), "IPY_MODEL_" + area.CommID}) {
		t.Fatalf("box children %v", children)
	}
	f.mgr.Finish()
	if d := f.displays(); len(d) != 0 {
		t.Fatalf("the area was shown twice: %v", d)
	}
	// A click captures into the area: msg_id is the click's id while the callback runs.
	if _, err := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: b.ModelID(), MsgID: "click-1",
		Data: map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}}); err != nil {
		t.Fatal(err)
	}
	f.runDeferred("click-1")
	var capture []string
	for _, m := range f.sent() {
		if m.CommID == area.CommID {
			capture = append(capture, fmt.Sprint(m.Data["state"].(map[string]any)["msg_id"]))
		}
	}
	if !reflect.DeepEqual(capture, []string{"click-1", ""}) {
		t.Fatalf("area msg_id updates %v", capture)
	}

	// Registered in a cell that shows nothing: the area is shown when the cell ends.
	f.mgr.SetParent("cell-2")
	b.OnClick(func() {})
	f.mgr.Finish()
	if d := f.displays(); len(d) != 1 || d[0][ViewMIME] == nil {
		t.Fatalf("displays at the end of the cell: %v", d)
	}
	// Display shows the widget, then the area.
	f.mgr.SetParent("cell-3")
	b.OnClick(func() {})
	if err := Display(b); err != nil {
		t.Fatal(err)
	}
	if d := f.displays(); len(d) != 2 || d[0][ViewMIME].(map[string]any)["model_id"] != b.ModelID() {
		t.Fatalf("Display: %v", d)
	}
}

func TestInteractRerunsOnceForABurstOfChanges(t *testing.T) {
	f := withKernel(t)
	x := NewIntSlider("x", 1, 0, 10)
	var seen []int
	ia := Interact(func() { seen = append(seen, x.Value()) }, x)
	if !reflect.DeepEqual(seen, []int{1}) {
		t.Fatalf("first run saw %v", seen)
	}
	f.update(x, "u1", map[string]any{"value": 2})
	f.update(x, "u2", map[string]any{"value": 3})
	f.runDeferred("u1")
	f.runDeferred("u2")
	if !reflect.DeepEqual(seen, []int{1, 3}) {
		t.Fatalf("runs saw %v, want one re-run with the last value", seen)
	}
	x.SetValue(5)
	if seen[len(seen)-1] != 5 {
		t.Fatalf("code's change: %v", seen)
	}
	if len(ia.Children()) != 2 || ia.Output() == nil {
		t.Fatalf("Interactive children %d", len(ia.Children()))
	}
}

func TestValuesAreReadWhileUpdatesArrive(t *testing.T) {
	f := withKernel(t)
	s := NewFloatSlider("lr", 0.5, 0, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			f.update(s, fmt.Sprint("m", i), map[string]any{"value": float64(i%100) / 100})
		}
	}()
	for i := 0; i < 1000; i++ {
		if v := s.Value(); v < 0 || v > 1 {
			t.Fatalf("value %v out of range", v)
		}
	}
	<-done
}

func TestLayoutAndStyleAreModelsOfTheirOwn(t *testing.T) {
	f := withKernel(t)
	p := NewProgress("loss", 10)
	f.sent()
	if err := p.Layout().Set("width", "300px"); err != nil {
		t.Fatal(err)
	}
	if err := p.Style().Set("bar_color", "green"); err != nil {
		t.Fatal(err)
	}
	if err := p.Layout().Set("colour", "x"); err == nil {
		t.Fatal("an unknown layout property was accepted")
	}
	msgs := f.sent()
	if len(msgs) != 2 || msgs[0].CommID != p.Layout().ModelID() || msgs[1].CommID != p.Style().ModelID() {
		t.Fatalf("messages %+v", msgs)
	}
	if p.Layout().Get("width") != "300px" || NewImage(nil).Style() != nil {
		t.Fatal("layout or style")
	}
}

func TestWidgetsOutsideAKernelArePlainValues(t *testing.T) {
	host.ForTest(t, host.Host{})
	s := NewIntSlider("n", 3, 0, 5)
	out := NewOutput()
	ran := false
	out.Capture(func() { ran = true })
	if s.ModelID() != "" || !ran || s.Value() != 3 {
		t.Fatalf("id %q, capture ran %v, value %d", s.ModelID(), ran, s.Value())
	}
	if err := Display(s); err != nil {
		t.Fatal(err)
	}
}

func TestControlCommListsEveryWidget(t *testing.T) {
	f := withKernel(t)
	s := NewIntSlider("n", 3, 0, 5)
	img := NewImage([]byte("png"))
	f.sent()
	if _, err := f.mgr.Deliver(comm.Message{Type: "comm_open", CommID: "ctl", Target: comm.ControlTarget}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.mgr.Deliver(comm.Message{Type: "comm_msg", CommID: "ctl", Data: map[string]any{"method": "request_states"}}); err != nil {
		t.Fatal(err)
	}
	reply := f.sent()[0]
	states := reply.Data["states"].(map[string]any)
	if states[img.ModelID()] == nil || states[s.Layout().ModelID()] == nil {
		t.Fatalf("update_states lacks widgets: %d states", len(states))
	}
	e := states[s.ModelID()].(map[string]any)
	if e["model_name"] != "IntSliderModel" || e["model_module"] != controlsModule || e["state"].(map[string]any)["value"] != 3 {
		t.Fatalf("the slider's entry: %v", e)
	}
}
