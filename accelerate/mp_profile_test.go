package accelerate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// traceEvent is an entry of a Chrome trace as the test parses it.
type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	Ts   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	Pid  *int           `json:"pid"`
	Tid  *int64         `json:"tid"`
	Args map[string]any `json:"args"`
}

// parseChromeTrace checks a file against the Chrome trace event format as Perfetto and
// chrome://tracing read it: a JSON object whose traceEvents are metadata ("M") or complete
// ("X") events, each with a name, a process and a thread, an X event with a time and a
// non-negative duration, and the X events of one thread properly nested (each one either
// inside the one before it or after it).
func parseChromeTrace(t *testing.T, path string) []traceEvent {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents     []traceEvent `json:"traceEvents"`
		DisplayTimeUnit string       `json:"displayTimeUnit"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	if len(doc.TraceEvents) == 0 || (doc.DisplayTimeUnit != "ms" && doc.DisplayTimeUnit != "ns") {
		t.Fatalf("%s: %d events, displayTimeUnit %q", path, len(doc.TraceEvents), doc.DisplayTimeUnit)
	}
	byThread := map[[2]int64][]traceEvent{}
	for i, e := range doc.TraceEvents {
		if e.Name == "" || e.Pid == nil {
			t.Fatalf("event %d has no name or pid: %+v", i, e)
		}
		switch e.Ph {
		case "M":
		case "X":
			if e.Ts == nil || e.Dur == nil || *e.Dur < 0 || e.Tid == nil {
				t.Fatalf("complete event %d lacks ts, tid or a duration: %+v", i, e)
			}
			k := [2]int64{int64(*e.Pid), *e.Tid}
			byThread[k] = append(byThread[k], e)
		default:
			t.Fatalf("event %d has phase %q", i, e.Ph)
		}
	}
	const slack = 0.002 // µs: float rounding of the microsecond times
	for k, es := range byThread {
		sort.SliceStable(es, func(i, j int) bool { return *es[i].Ts < *es[j].Ts })
		var open []traceEvent
		for _, e := range es {
			for len(open) > 0 && *open[len(open)-1].Ts+*open[len(open)-1].Dur <= *e.Ts+slack {
				open = open[:len(open)-1]
			}
			if len(open) > 0 {
				p := open[len(open)-1]
				if *e.Ts+*e.Dur > *p.Ts+*p.Dur+slack {
					t.Fatalf("process %d thread %d: %s [%f, +%f] overlaps %s [%f, +%f] without nesting in it", k[0], k[1], e.Name, *e.Ts, *e.Dur, p.Name, *p.Ts, *p.Dur)
				}
			}
			open = append(open, e)
		}
	}
	return doc.TraceEvents
}

// TestProfileOfAnMNISTLaunchIsAChromeTraceOfBothRanks profiles 15 steps of an MLP trained on
// MNIST by two processes: each writes profile_<rank>.json and rank 0 profile_all.json, which
// parses as a Chrome trace holding both ranks, their ops with shapes, backward nodes, data
// loading and the gradient all-reduces (on the reducer's goroutine, beside the backward pass).
func TestProfileOfAnMNISTLaunchIsAChromeTraceOfBothRanks(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{}), c)
		train, err := data.MNIST("train")
		if err != nil {
			panic(err)
		}
		SetSeed(1, false)
		model := mlp(128)
		var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
		loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 64, Shuffle: true, Seed: 1})
		acc.Prepare(&model, &opt, &loader)
		res := acc.Profile(ProfileKwargs{OutputTraceDir: filepath.Join(dir, "trace")}, func() {
			for step := 0; step < 15 && loader.Next(); step++ {
				x, y := loader.Batch()
				acc.Backward(tensors.CrossEntropy(model.Forward(x), y))
				opt.Step()
				opt.ZeroGrad()
			}
		})
		if c.Rank() == 0 {
			os.WriteFile(filepath.Join(dir, "table.txt"), []byte(res.Table()), 0o644)
		}
	})
	for rank := range 2 {
		parseChromeTrace(t, filepath.Join(dir, "trace", fmt.Sprintf("profile_%d.json", rank)))
	}
	events := parseChromeTrace(t, filepath.Join(dir, "trace", "profile_all.json"))
	count := map[int]map[string]int{0: {}, 1: {}}
	allReduceThreads := map[int]map[int64]bool{0: {}, 1: {}}
	opThreads := map[int]map[int64]bool{0: {}, 1: {}}
	for _, e := range events {
		if e.Ph != "X" {
			continue
		}
		pid := *e.Pid
		if count[pid] == nil {
			t.Fatalf("event of process %d: %+v", pid, e)
		}
		count[pid][e.Cat+":"+e.Name]++
		switch {
		case e.Cat == "collective" && strings.HasPrefix(e.Name, "all-reduce"):
			count[pid]["all-reduces"]++
			if strings.HasPrefix(e.Name, "all-reduce-coalesced") { // the gradient buckets'
				allReduceThreads[pid][*e.Tid] = true
			}
			if e.Args["bytes"] == nil {
				t.Errorf("all-reduce without its size: %+v", e)
			}
		case e.Cat == "op" && e.Name == "Linear":
			opThreads[pid][*e.Tid] = true
			if e.Args["device"] != "cpu" || e.Args["shapes"] == nil {
				t.Errorf("Linear without device or shapes: %+v", e)
			}
		}
	}
	for pid := range 2 {
		c := count[pid]
		t.Logf("rank %d: %d all-reduces, %d Linear, %d LinearBackward, %d AdamStep, %d DataLoader.Next", pid, c["all-reduces"], c["op:Linear"], c["backward:LinearBackward"], c["op:AdamStep"], c["data:DataLoader.Next"])
		if c["all-reduces"] < 15 || c["wait:wait gradient all-reduce"] != 15 || c["op:Linear"] < 30 || c["backward:LinearBackward"] < 30 || c["op:AdamStep"] != 15 || c["data:DataLoader.Next"] < 15 || c["step:Profile"] != 1 {
			t.Errorf("rank %d's events: %v", pid, c)
		}
		for g := range allReduceThreads[pid] {
			if opThreads[pid][g] {
				t.Errorf("rank %d: the gradient all-reduces ran on the goroutine of the forward pass (%d); the reducer runs them beside the backward pass", pid, g)
			}
		}
	}
	table, err := os.ReadFile(filepath.Join(dir, "table.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rank 0's table:\n%s", table)
}
