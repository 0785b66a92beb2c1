package tensors

import (
	"slices"
	"testing"

	"github.com/goaccel/goaccel/internal/profiling"
)

// TestOpSpansAllocateNothingWhileNoProfileRuns: the profiler's hook in the op path is one
// atomic load and a no-op End when no profile runs.
func TestOpSpansAllocateNothingWhileNoProfileRuns(t *testing.T) {
	a, b := Ones(2, 3), Ones(3)
	ts := []*Tensor{a, b}
	if n := testing.AllocsPerRun(1000, func() {
		opSpan("Add", a, b).End()
		opSpanOf("Cat", ts).End()
		backwardSpan("Add", a).End()
	}); n != 0 {
		t.Errorf("%v allocations per op with profiling off; want 0", n)
	}
}

// TestProfileRecordsOpsAndTheBackwardPass runs a small model's step under a recorder: its ops
// with their shapes and device, the backward pass with a node per op nested in it, and each
// event's self time within its total.
func TestProfileRecordsOpsAndTheBackwardPass(t *testing.T) {
	r := profiling.NewRecorder()
	if err := profiling.Install(r); err != nil {
		t.Fatal(err)
	}
	w := Randn(4, 3).SetRequiresGrad(true)
	x := Randn(2, 3)
	loss := CrossEntropy(Linear(x, w, nil).ReLU(), FromInt64([]int64{1, 3}, 2))
	loss.Backward()
	profiling.Uninstall(r)
	Ones(1).Add(Ones(1)) // not recorded
	events, dropped := r.Events()
	if dropped != 0 {
		t.Fatalf("%d events dropped", dropped)
	}
	byName := map[string]profiling.Event{}
	var names []string
	for _, e := range events {
		byName[e.Name] = e
		names = append(names, e.Name)
		if e.Self > e.Dur || e.Self < 0 {
			t.Errorf("%s: self %v outside its duration %v", e.Name, e.Self, e.Dur)
		}
	}
	lin, ok := byName["Linear"]
	if !ok || lin.Cat != profiling.CatOp || lin.Args.Device != "cpu" || lin.Args.DType != "float32" ||
		!slices.Equal(lin.Args.Shapes[0], []int{2, 3}) || !slices.Equal(lin.Args.Shapes[1], []int{4, 3}) {
		t.Errorf("Linear event %+v (events %v)", lin, names)
	}
	for _, n := range []string{"ReLU", "CrossEntropy", "Backward", "LinearBackward", "ReLUBackward", "CrossEntropyBackward"} {
		if _, ok := byName[n]; !ok {
			t.Errorf("no %s event among %v", n, names)
		}
	}
	bw, node := byName["Backward"], byName["LinearBackward"]
	if node.Cat != profiling.CatBackward || node.Start < bw.Start || node.Start+node.Dur > bw.Start+bw.Dur || bw.Self >= bw.Dur {
		t.Errorf("LinearBackward %+v is not nested in Backward %+v", node, bw)
	}
	if slices.Contains(names, "Add") {
		t.Error("an op after Uninstall was recorded")
	}
}

// BenchmarkSmallAdd is an op on small tensors (where a hook's cost shows most) with profiling
// off and on: the difference is the profiler's cost per op.
func BenchmarkSmallAdd(b *testing.B) {
	x, y := Ones(8), Ones(8)
	b.Run("off", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			x.Add(y).release()
		}
	})
	b.Run("on", func(b *testing.B) {
		r := profiling.NewRecorder()
		if err := profiling.Install(r); err != nil {
			b.Fatal(err)
		}
		defer profiling.Uninstall(r)
		b.ReportAllocs()
		for range b.N {
			x.Add(y).release()
		}
	})
}

// BenchmarkOpSpanOff is the profiler's hook in an op while no profile runs.
func BenchmarkOpSpanOff(b *testing.B) {
	x, y := Ones(8), Ones(8)
	for range b.N {
		opSpan("Add", x, y).End()
	}
}
