package profiling

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"
	"time"
)

// TestSpansNestPerGoroutine: events nest on the goroutine that ran them (self time is the
// duration less the nested events'), another goroutine's events do not nest in them, and only
// one recorder is installed at a time.
func TestSpansNestPerGoroutine(t *testing.T) {
	r := NewRecorder()
	if err := Install(r); err != nil {
		t.Fatal(err)
	}
	if err := Install(NewRecorder()); err != ErrRunning {
		t.Errorf("a second Install: %v; want ErrRunning", err)
	}
	outer := Begin(CatOp, "outer", Args{})
	inner := Begin(CatOp, "inner", Args{Device: "cpu", Shapes: [][]int{{2, 3}}})
	time.Sleep(2 * time.Millisecond)
	var wg sync.WaitGroup
	wg.Go(func() { Begin(CatCollective, "all-reduce(sum)", Args{Bytes: 8}).EndWaited(time.Millisecond) })
	wg.Wait()
	inner.End()
	outer.End()
	Uninstall(r)
	Begin(CatOp, "after", Args{}).End()
	events, _ := r.Events()
	if len(events) != 3 {
		t.Fatalf("events %+v", events)
	}
	o, i, c := events[0], events[1], events[2]
	if o.Name != "outer" || i.Name != "inner" || c.Name != "all-reduce(sum)" {
		t.Fatalf("events %+v", events)
	}
	if o.Self != o.Dur-i.Dur || i.Self != i.Dur || i.Dur < 2*time.Millisecond {
		t.Errorf("outer %v self %v, inner %v self %v", o.Dur, o.Self, i.Dur, i.Self)
	}
	if c.Goroutine == o.Goroutine || c.LockWait != time.Millisecond || c.Args.Bytes != 8 {
		t.Errorf("collective %+v", c)
	}
	rows := r.Summary()
	if len(rows) != 3 || rows[0].Name != "inner" || rows[0].Calls != 1 {
		t.Errorf("summary %+v", rows)
	}
}

// TestChromeTraceIsTheEventFormat writes a trace and merges two: JSON with traceEvents, the
// metadata naming the process and its goroutines, complete events with µs times and args.
func TestChromeTraceIsTheEventFormat(t *testing.T) {
	var traces [][]byte
	for rank := range 2 {
		r := NewRecorder()
		Install(r)
		s := Begin(CatOp, "MatMul", Args{Device: "cpu", DType: "float32", Shapes: [][]int{{2, 3}, {3, 4}}})
		s.End()
		Uninstall(r)
		var b bytes.Buffer
		if err := r.WriteChromeTrace(&b, rank, "rank"); err != nil {
			t.Fatal(err)
		}
		traces = append(traces, b.Bytes())
	}
	var merged bytes.Buffer
	if err := Merge(&merged, traces); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Name, Ph, Cat string
			Ts            float64
			Dur           *float64
			Pid           int
			Tid           int64
			Args          map[string]any
		}
	}
	if err := json.Unmarshal(merged.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, merged.String())
	}
	pids := map[int]bool{}
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "X":
			pids[e.Pid] = true
			if e.Name != "MatMul" || e.Cat != CatOp || e.Dur == nil || e.Ts < 1e15 || e.Tid == 0 || e.Args["device"] != "cpu" {
				t.Errorf("event %+v", e)
			}
		case "M":
		default:
			t.Errorf("phase %q", e.Ph)
		}
	}
	if len(pids) != 2 {
		t.Errorf("processes %v; want 2", pids)
	}
}

func BenchmarkGoroutineID(b *testing.B) {
	for range b.N {
		goroutineID()
	}
}

// BenchmarkSpan is the cost of one recorded event while a profile runs.
func BenchmarkSpan(b *testing.B) {
	r := NewRecorder()
	for range b.N {
		r.Start(CatOp, "Add", Args{}).End()
	}
}
