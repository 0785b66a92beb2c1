package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/syncbuf"
	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// wire is a fake kernel connection for a session's widgets: the comm
// messages and displays they send.
type wire struct {
	mu   sync.Mutex
	msgs []comm.Message
}

func (w *wire) SendComm(m comm.Message) {
	w.mu.Lock()
	w.msgs = append(w.msgs, m)
	w.mu.Unlock()
}

func (w *wire) Send(string, map[string]any) {}

// find waits for a message that match accepts and returns it.
func (w *wire) find(t *testing.T, what string, match func(comm.Message) bool) comm.Message {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		for _, m := range w.msgs {
			if match(m) {
				w.mu.Unlock()
				return m
			}
		}
		w.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %s among the comm messages", what)
	return comm.Message{}
}

// opened returns the comm_open of the first model named model.
func (w *wire) opened(t *testing.T, model string) comm.Message {
	t.Helper()
	return w.find(t, "comm_open of a "+model, func(m comm.Message) bool {
		st, _ := m.Data["state"].(map[string]any)
		return m.Type == "comm_open" && st["_model_name"] == model
	})
}

// widgetSession is a session serving comms to a fake connection.
func widgetSession(t *testing.T) (*Session, *syncbuf.Buffer, *wire, *comm.Manager) {
	t.Helper()
	t.Setenv("HF_HOME", t.TempDir())
	t.Setenv(gobuild.EnvCache, t.TempDir())
	w := &wire{}
	comms := comm.NewManager(w)
	comm.ServeWidgetControl(comms)
	out := &syncbuf.Buffer{}
	s := hosted(t, Options{Stdout: out, Stderr: out, Display: w, Comms: comms})
	return s, out, w, comms
}

// cell runs code as the kernel runs a cell: with its request id as parent.
func cell(t *testing.T, s *Session, out *syncbuf.Buffer, id, code string) Result {
	t.Helper()
	out.Reset()
	s.SetParent(id)
	r := s.Execute(context.Background(), code)
	if r.Error != nil {
		t.Fatalf("cell %s %q: %s: %s\n%v", id, code, r.Error.Ename, r.Error.Evalue, r.Error.Traceback)
	}
	return r
}

// deliver hands a front end's message to the session, as the kernel does.
func deliver(t *testing.T, s *Session, msg comm.Message) int {
	t.Helper()
	msg.Parent = json.RawMessage(`{"msg_id":"` + msg.MsgID + `"}`)
	n, err := s.DeliverComm(msg)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func click(id, msgID string) comm.Message {
	return comm.Message{Type: "comm_msg", CommID: id, MsgID: msgID,
		Data: map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}}
}

func TestWidgetValuesReachCellsAtOnceAndCallbacksRunBetweenCells(t *testing.T) {
	s, out, w, _ := widgetSession(t)
	cell(t, s, out, "c1", `import "github.com/goaccel/goaccel/widgets"
n := widgets.NewIntSlider("n", 1, 0, 10)
clicks := 0
b := widgets.NewButton("go")
b.OnClick(func() { clicks++; fmt.Println("clicked with", n.Value()) })
n.OnChange(func(v int) { fmt.Println("n is now", v) })`)
	slider := w.opened(t, "IntSliderModel")
	button := w.opened(t, "ButtonModel")

	// A cell reads the value the front end set, with no callback run yet.
	if got := deliver(t, s, comm.Message{Type: "comm_msg", CommID: slider.CommID, MsgID: "u1",
		Data: map[string]any{"method": "update", "state": map[string]any{"value": 7.0}}}); got != 1 {
		t.Fatalf("the slider's update deferred %d callbacks, want 1", got)
	}
	if r := cell(t, s, out, "c2", "n.Value()"); text(r) != "7" || strings.Contains(out.String(), "n is now") {
		t.Fatalf("n.Value() = %q (output %q): want 7, and the callback still waiting", text(r), out)
	}
	out.Reset()
	if r := s.RunDeferred(context.Background(), "u1"); r.Error != nil || !strings.Contains(out.String(), "n is now 7") {
		t.Fatalf("deferred OnChange: %+v, output %q", r.Error, out)
	}
	if n := deliver(t, s, click(button.CommID, "k1")); n != 1 {
		t.Fatalf("click deferred %d", n)
	}
	out.Reset()
	s.SetParent("k1")
	if r := s.RunDeferred(context.Background(), "k1"); r.Error != nil || !strings.Contains(out.String(), "clicked with 7") {
		t.Fatalf("deferred OnClick: %+v, output %q", r.Error, out)
	}
	if r := cell(t, s, out, "c3", "clicks"); text(r) != "1" {
		t.Fatalf("clicks = %q after the callback", text(r))
	}
	// The callback ran inside the cell's callback area: its msg_id was the click's.
	w.find(t, "the area capturing the click", func(m comm.Message) bool {
		st, _ := m.Data["state"].(map[string]any)
		return m.Type == "comm_msg" && st["msg_id"] == "k1"
	})
}

func TestACallbackThatPanicsIsReportedAndTheSessionKept(t *testing.T) {
	s, out, w, _ := widgetSession(t)
	cell(t, s, out, "c1", `import "github.com/goaccel/goaccel/widgets"
keep := 42
b := widgets.NewButton("boom")
b.OnClick(func() {
	fmt.Println("about to fail")
	explode()
})
func explode() {
	var m map[string]int
	m["x"] = 1
}`)
	button := w.opened(t, "ButtonModel")
	deliver(t, s, click(button.CommID, "k1"))
	out.Reset()
	r := s.RunDeferred(context.Background(), "k1")
	if r.Error != nil {
		t.Fatalf("a callback's panic is reported in its output, not as an error: %+v", r.Error)
	}
	// yaegi places a frame at its function's first statement, as in a cell's traceback.
	for _, want := range []string{"about to fail\npanic in a widget callback: assignment to entry in nil map\n", "in explode, cell [1] line 9", "in func, cell [1] line 5"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report %q lacks %q", out.String(), want)
		}
	}
	if strings.Contains(out.String(), "panic: main(") {
		t.Errorf("the interpreter's frame lines leak into the report: %q", out)
	}
	if r := cell(t, s, out, "c2", "keep"); text(r) != "42" {
		t.Fatalf("keep = %q after the panic", text(r))
	}
	deliver(t, s, click(button.CommID, "k2")) // the widget still works
	if r := s.RunDeferred(context.Background(), "k2"); r.Error != nil {
		t.Fatal(r.Error)
	}
}

func TestAnInterruptStopsACallbackLoop(t *testing.T) {
	s, out, w, _ := widgetSession(t)
	cell(t, s, out, "c1", `import "github.com/goaccel/goaccel/widgets"
b := widgets.NewButton("spin")
b.OnClick(func() {
	for {
	}
})`)
	button := w.opened(t, "ButtonModel")
	deliver(t, s, click(button.CommID, "k1"))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := s.RunDeferred(ctx, "k1")
	if !r.Interrupted || time.Since(start) > 5*time.Second {
		t.Fatalf("interrupted callback: %+v after %v", r, time.Since(start))
	}
	if r := cell(t, s, out, "c2", "1 + 1"); text(r) != "2" {
		t.Fatalf("a cell after the interrupted callback: %q", text(r))
	}
}

// TestAWorkersWidgetWorksAndAStopButtonStopsTheLaunchGracefully launches two
// workers whose rank 0 shows a slider: the front end's update reaches the
// worker (its echo comes back), and a graceful stop ends training on both
// ranks at one step, the launch returning what rank 0 had.
func TestAWorkersWidgetWorksAndAStopButtonStopsTheLaunchGracefully(t *testing.T) {
	dir := t.TempDir()
	s, out, w, _ := widgetSession(t)
	cell(t, s, out, "c1", `import (
	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/widgets"
)
func train(dir string) int {
	acc := accelerate.New(accelerate.Config{})
	var x *widgets.IntSlider
	if acc.IsMainProcess() {
		x = widgets.NewIntSlider("x", 0, 0, 10)
		widgets.Display(x)
	}
	ds := data.NewTensorDataset(tensors.Zeros(4000, 1), tensors.Zeros(4000, 1))
	loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 1})
	acc.Prepare(&loader)
	steps := 0
	for loader.Next() {
		steps++
		if steps == 1 {
			os.WriteFile(dir+"/started-"+os.Getenv("RANK"), nil, 0o644)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if x != nil {
		return steps*100 + x.Value()
	}
	return steps
}`)
	done := make(chan Result, 1)
	go func() {
		s.SetParent("launch")
		done <- s.Execute(context.Background(), fmt.Sprintf("%%accelerate launch --num_processes 2 train(%q)", dir))
	}()
	for _, rank := range []string{"0", "1"} {
		waitFile(t, filepath.Join(dir, "started-"+rank))
	}
	slider := w.opened(t, "IntSliderModel")
	deliver(t, s, comm.Message{Type: "comm_msg", CommID: slider.CommID, MsgID: "u1",
		Data: map[string]any{"method": "update", "state": map[string]any{"value": 5.0}}})
	// The worker's widget took it: its echo comes back through the relay, answering the update.
	w.find(t, "the worker's echo_update", func(m comm.Message) bool {
		return m.CommID == slider.CommID && m.Data["method"] == "echo_update" && string(m.Parent) == `{"msg_id":"u1"}`
	})
	if n := s.StopLaunches(workers.StopFinish); n != 1 {
		t.Fatalf("StopLaunches asked %d launches, want 1", n)
	}
	var r Result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the launch did not end after the stop")
	}
	if r.Error != nil {
		t.Fatalf("stopped launch: %s: %s\n%s", r.Error.Ename, r.Error.Evalue, out)
	}
	v, err := strconv.Atoi(text(r))
	if err != nil || v%100 != 5 || v/100 >= 2000 || v/100 < 1 {
		t.Fatalf("result %q: want steps×100 + 5 with fewer steps than the 2000 of a whole pass\n%s", text(r), out)
	}
	t.Logf("result %s; cell output:\n%s", text(r), out)
	if !strings.Contains(out.String(), "stop requested") {
		t.Errorf("the cell does not say a stop was requested:\n%s", out)
	}
	// Once the workers are gone, the widget answers from its mirror.
	if n, err := s.DeliverComm(comm.Message{Type: "comm_msg", CommID: slider.CommID, MsgID: "r1", Parent: json.RawMessage(`{"msg_id":"r1"}`),
		Data: map[string]any{"method": "request_state"}}); err != nil || n != 0 {
		t.Fatalf("request_state after the launch: %d, %v", n, err)
	}
	reply := w.find(t, "the mirror's state", func(m comm.Message) bool {
		return m.CommID == slider.CommID && string(m.Parent) == `{"msg_id":"r1"}`
	})
	if st := reply.Data["state"].(map[string]any); st["value"] != 5.0 || st["_model_name"] != "IntSliderModel" {
		t.Fatalf("mirror state %v", st)
	}
	if s.StopLaunches(workers.StopFinish) != 0 {
		t.Fatal("a stop with no launch running asked one")
	}
}

func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear in 60 s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestEveryWidgetWorksFromACell uses each widget's API from interpreted
// code: constructors, promoted methods (Layout, Style, SetTooltip), typed
// callbacks, boxes of them and Interact.
func TestEveryWidgetWorksFromACell(t *testing.T) {
	s, out, w, _ := widgetSession(t)
	r := cell(t, s, out, "c1", `import (
	"image"
	"github.com/goaccel/goaccel/widgets"
)
fs := widgets.NewFloatSlider("lr", 0.01, 0.001, 0.1)
fs.SetReadoutFormat(".3f")
fs.OnChange(func(v float64) { fmt.Println("lr", v) })
dd := widgets.NewDropdown("opt", []string{"sgd", "adam"}, "adam")
dd.OnChange(func(v string) { fmt.Println("opt", v) })
cb := widgets.NewCheckbox("bf16", false)
cb.OnChange(func(v bool) { fmt.Println("bf16", v) })
tx := widgets.NewText("name", "run-1")
tx.OnSubmit(func(v string) { fmt.Println("submit", v) })
p := widgets.NewProgress("loss", 10)
p.SetValue(4)
p.Style().Set("bar_color", "green")
h := widgets.NewHTML("<b>ok</b>")
h.Layout().Set("width", "200px")
h.SetTooltip("status")
img := widgets.NewImage(nil)
img.SetImage(image.NewRGBA(image.Rect(0, 0, 2, 2)))
o := widgets.NewOutput()
o.AppendStdout("hello\n")
fs.SetValue(0.05)
dd.SetValue("sgd")
cb.SetValue(true)
row := widgets.NewHBox(fs, dd, cb, tx)
col := widgets.NewVBox(row, p, h, img, o)
widgets.Display(col)
ia := widgets.Interact(func() { fmt.Println("interact", fs.Value(), dd.Value()) }, fs, dd)
fmt.Println(len(col.Children()), len(ia.Children()), p.Value(), tx.Value(), len(o.Outputs()))`)
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	for _, want := range []string{"lr 0.05", "opt sgd", "bf16 true", "interact 0.05 sgd", "5 3 4 run-1 1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	text := w.opened(t, "TextModel")
	deliver(t, s, comm.Message{Type: "comm_msg", CommID: text.CommID, MsgID: "s1",
		Data: map[string]any{"method": "custom", "content": map[string]any{"event": "submit"}}})
	out.Reset()
	if r := s.RunDeferred(context.Background(), "s1"); r.Error != nil || !strings.Contains(out.String(), "submit run-1") {
		t.Fatalf("OnSubmit: %+v, %q", r.Error, out)
	}
}
