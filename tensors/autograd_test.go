package tensors

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

func TestGradAccumulatesUntilZeroGrad(t *testing.T) {
	w := New([]float32{1, 2, 3}, 3).SetRequiresGrad(true)
	w.MulScalar(2).Sum().Backward()
	w.MulScalar(3).Sum().Backward()
	if got := w.Grad().Float32s(); !slices.Equal(got, []float32{5, 5, 5}) {
		t.Fatalf("accumulated grad %v, want [5 5 5]", got)
	}
	w.ZeroGrad()
	if w.Grad() != nil {
		t.Fatal("ZeroGrad left a gradient")
	}
	w.MulScalar(4).Sum().Backward()
	if got := w.Grad().Float32s(); !slices.Equal(got, []float32{4, 4, 4}) {
		t.Fatalf("grad after ZeroGrad %v, want [4 4 4]", got)
	}
}

func TestNoGradRecordsNothing(t *testing.T) {
	w := Ones(2).SetRequiresGrad(true)
	var y *Tensor
	NoGrad(func() {
		if IsGradEnabled() {
			t.Error("IsGradEnabled inside NoGrad")
		}
		y = w.Mul(w).Sum()
	})
	if y.RequiresGrad() || !y.IsLeaf() {
		t.Fatalf("result under NoGrad requires grad=%v leaf=%v", y.RequiresGrad(), y.IsLeaf())
	}
	if !IsGradEnabled() {
		t.Fatal("grad still disabled after NoGrad")
	}
}

func TestDetachStopsGradientAndSharesStorage(t *testing.T) {
	w := New([]float32{1, 2}, 2).SetRequiresGrad(true)
	d := w.Detach()
	w.Mul(d).Sum().Backward()
	if got := w.Grad().Float32s(); !slices.Equal(got, []float32{1, 2}) {
		t.Fatalf("grad through detached factor %v, want [1 2]", got)
	}
	d.Fill(7)
	if got := w.Float32s(); !slices.Equal(got, []float32{7, 7}) {
		t.Fatalf("detached tensor does not share storage: %v", got)
	}
}

// TestOnGradReadyFiresOnceWhenFinalOutputSideFirst pins the hook contract the distributed
// layer relies on: each leaf's hook runs once, after every contribution to its gradient
// (w1 is used twice), and the output layer's parameters become ready before the input's.
func TestOnGradReadyFiresOnceWhenFinalOutputSideFirst(t *testing.T) {
	g := NewGenerator(3)
	x := g.Randn(8, 16)
	w1 := g.Randn(16, 16).SetRequiresGrad(true)
	w2 := g.Randn(4, 16).SetRequiresGrad(true)
	var order []string
	seen := map[string][]float32{}
	for name, p := range map[string]*Tensor{"w1": w1, "w2": w2} {
		p.OnGradReady(func(leaf *Tensor) {
			order = append(order, name)
			seen[name] = leaf.Grad().Float32s()
		})
	}
	h := Linear(Linear(x, w1, nil).Tanh(), w1, nil).ReLU() // w1 twice
	loss := Linear(h, w2, nil).Pow(2).Mean()
	loss.Backward()
	if strings.Join(order, ",") != "w2,w1" {
		t.Fatalf("hook order %v, want [w2 w1]", order)
	}
	for name, p := range map[string]*Tensor{"w1": w1, "w2": w2} {
		if !slices.Equal(seen[name], p.Grad().Float32s()) {
			t.Fatalf("%s: gradient seen by hook differs from the final gradient", name)
		}
	}
}

func TestHookRemoveStopsCalls(t *testing.T) {
	w := Ones(3).SetRequiresGrad(true)
	calls := 0
	h := w.OnGradReady(func(*Tensor) { calls++ })
	w.Sum().Backward()
	h.Remove()
	w.Sum().Backward()
	if calls != 1 {
		t.Fatalf("hook ran %d times, want 1", calls)
	}
}

func mustPanic(t *testing.T, want string, fn func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want %q", want)
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Fatalf("panic %q does not contain %q", msg, want)
		}
	}()
	fn()
}

func TestErrorsNameOpAndShapes(t *testing.T) {
	a, b := Zeros(2, 3), Zeros(4)
	cases := []struct {
		name, want string
		fn         func()
	}{
		{"broadcast", "tensors: Add: shapes [2 3] and [4] are not broadcastable", func() { a.Add(b) }},
		{"matmul", "tensors: MatMul: shapes [2 3] and [4] are not aligned", func() { a.MatMul(b) }},
		{"linear", "tensors: Linear: input shape [2 3] and weight shape [4 4]", func() { Linear(a, Zeros(4, 4), nil) }},
		{"reshape", "cannot reshape [2 3] (6 elements) into [4 2]", func() { a.Reshape(4, 2) }},
		{"new", "tensors: New: 3 values do not fill shape [2 2]", func() { New([]float32{1, 2, 3}, 2, 2) }},
		{"backward-non-scalar", "call Backward on a one-element loss", func() { a.SetRequiresGrad(true).Mul(a).Backward() }},
		{"backward-no-grad", "does not require grad", func() { b.Sum().Backward() }},
		{"ce-target-range", "target 7 at row 0 is outside [0, 3)", func() { CrossEntropy(Zeros(1, 3), FromInt64([]int64{7}, 1)) }},
		{"ce-target-dtype", "target must hold int64", func() { CrossEntropy(Zeros(1, 3), Zeros(1)) }},
		{"dim", "tensors: Softmax: dimension 2 out of range for shape [4]", func() { b.Softmax(2) }},
		{"data32", "Data32: need a contiguous float32 cpu tensor", func() { a.T().Data32() }},
		{"cuda", "device cuda:99 is not available", func() { a.To(CUDA(99)) }}, // none here, or not that many
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mustPanic(t, c.want, c.fn) })
	}
}

func TestBackwardTwiceThroughFreedGraphPanics(t *testing.T) {
	w := Ones(2).SetRequiresGrad(true)
	loss := w.Exp().Sum()
	loss.Backward()
	mustPanic(t, "already used by a backward pass", func() { loss.Backward() })
}

func TestViewsShareStorage(t *testing.T) {
	x := Arange(0, 12, 1).Reshape(3, 4)
	x.Slice(1, 1, 3).Fill(-1)
	want := []float32{0, -1, -1, 3, 4, -1, -1, 7, 8, -1, -1, 11}
	if got := x.Float32s(); !slices.Equal(got, want) {
		t.Fatalf("after filling a slice view: %v, want %v", got, want)
	}
	tr := x.T()
	if tr.IsContiguous() || !slices.Equal(tr.Shape(), []int{4, 3}) {
		t.Fatalf("T: contiguous=%v shape %v", tr.IsContiguous(), tr.Shape())
	}
	if got := tr.Contiguous().Float32s()[:3]; !slices.Equal(got, []float32{0, 4, 8}) {
		t.Fatalf("T().Contiguous first row %v, want [0 4 8]", got)
	}
	if c := x.Contiguous(); c != x {
		t.Fatal("Contiguous copied an already contiguous tensor")
	}
}

// TestRecycledBuffersDoNotCorruptResults runs the same step repeatedly on tensors large enough
// for the buffer pool: gradients must be identical every time and kept activations unchanged.
func TestRecycledBuffersDoNotCorruptResults(t *testing.T) {
	g := NewGenerator(5)
	x, y := g.Randn(32, 40), RandInt(0, 10, 32)
	w1, w2 := g.Randn(64, 40).SetRequiresGrad(true), g.Randn(10, 64).SetRequiresGrad(true)
	var first [][]float32
	for step := range 4 {
		h := Linear(x, w1, nil).ReLU()
		keep := h.Float32s()
		loss := CrossEntropy(Linear(h.Add(h), w2, nil), y) // h used twice
		loss.Backward()
		_ = Linear(x, w1, nil).Exp() // allocations after backward reuse pooled buffers
		if !slices.Equal(keep, h.Float32s()) {
			t.Fatalf("step %d: activation changed after backward", step)
		}
		grads := [][]float32{w1.Grad().Float32s(), w2.Grad().Float32s()}
		if step == 0 {
			first = grads
		} else {
			for i := range grads {
				if !slices.Equal(grads[i], first[i]) {
					t.Fatalf("step %d: gradient %d differs from step 0", step, i)
				}
			}
		}
		w1.ZeroGrad()
		w2.ZeroGrad()
	}
}

func TestRandomGeneratorsAreReproducible(t *testing.T) {
	ManualSeed(42)
	a := Randn(5).Float32s()
	ManualSeed(42)
	b := Randn(5).Float32s()
	if !slices.Equal(a, b) {
		t.Fatal("ManualSeed did not reproduce Randn")
	}
	g := NewGenerator(1)
	g.Perm(10)
	st := g.State()
	p1 := g.Perm(10)
	if err := g.SetState(st); err != nil {
		t.Fatal(err)
	}
	if p2 := g.Perm(10); !slices.Equal(p1, p2) {
		t.Fatalf("SetState did not restore the stream: %v vs %v", p1, p2)
	}
	if err := g.SetState([]byte("junk")); err == nil {
		t.Fatal("SetState accepted junk")
	}
	u := Rand(1000).Float64s()
	lo, hi := slices.Min(u), slices.Max(u)
	if lo < 0 || hi >= 1 {
		t.Fatalf("Rand outside [0,1): %v..%v", lo, hi)
	}
	r := RandInt(3, 6, 1000).Int64s()
	if slices.Min(r) != 3 || slices.Max(r) != 5 {
		t.Fatalf("RandInt(3,6) range %d..%d", slices.Min(r), slices.Max(r))
	}
}

func TestDropoutKeepsExpectationAndZeroesAboutP(t *testing.T) {
	ManualSeed(1)
	x := Ones(100000)
	y := Dropout(x, 0.3, true).Float32s()
	zeros := 0
	var sum float64
	for _, v := range y {
		if v == 0 {
			zeros++
		} else if math.Abs(float64(v)-1/0.7) > 1e-6 {
			t.Fatalf("kept value %v, want %v", v, 1/0.7)
		}
		sum += float64(v)
	}
	if f := float64(zeros) / 1e5; math.Abs(f-0.3) > 0.01 {
		t.Fatalf("dropped fraction %v, want 0.3±0.01", f)
	}
	if m := sum / 1e5; math.Abs(m-1) > 0.02 {
		t.Fatalf("mean %v, want 1±0.02", m)
	}
	if Dropout(x, 0.3, false) != x {
		t.Fatal("Dropout in eval mode did not return its input")
	}
}

// TestDropoutMaskInOnePassMatchesComposed: float32 Dropout's one-pass mask on the CPU has the
// bits of the composed mask every other device computes (draws compared with keep, converted,
// times the scale) from the same seed, and leaves the generator in the same state.
func TestDropoutMaskInOnePassMatchesComposed(t *testing.T) {
	for _, p := range []float64{1e-9, 0.1, 0.25, 0.3, 0.5, 0.75, 0.9, 1 - 1e-7, 1} {
		keep := 1 - p
		scale := 0.0
		if keep > 0 {
			scale = 1 / keep
		}
		x := Ones(3, 1000)
		ManualSeed(11)
		fast := defaultGen.dropoutMask(float32(keep), float32(scale), x.shape...).Float32s()
		after := defaultGen.Uint64()
		ManualSeed(11)
		composed := dropoutMaskOn(x, keep, scale).Float32s()
		if next := defaultGen.Uint64(); next != after {
			t.Fatalf("p %v: the generator moved on differently (%x, composed %x)", p, after, next)
		}
		for i := range fast {
			if math.Float32bits(fast[i]) != math.Float32bits(composed[i]) {
				t.Fatalf("p %v, element %d: one pass %v, composed %v", p, i, fast[i], composed[i])
			}
		}
	}
}

// TestDropoutThresholdIsTheFloatComparison: the integer threshold of the one-pass mask keeps a draw
// exactly when its float32 value is below keep, at the draws next to the threshold, for keep
// values with and without an integer keep · 2²⁴.
func TestDropoutThresholdIsTheFloatComparison(t *testing.T) {
	keeps := []float32{0, 1, 0.5, 0.75, 0.1, 0.3, 0.9, 1 - 1e-7, 1e-9, math.Nextafter32(0.5, 1), math.Nextafter32(0.5, 0)}
	r := rand.New(rand.NewPCG(8, 8))
	for range 200 {
		keeps = append(keeps, r.Float32())
	}
	for _, keep := range keeps {
		below := dropoutBelow(keep)
		mid := int32(float64(keep) * (1 << 24))
		for u := max(0, mid-2); u <= min(1<<24-1, mid+2); u++ {
			if want, got := float32(u)/(1<<24) < keep, u < below; got != want {
				t.Fatalf("keep %v (threshold %d), draw %d: kept %v, the float comparison says %v", keep, below, u, got, want)
			}
		}
	}
}

// TestSteadyTrainingStepDoesNotGrowHeap runs many steps of a small MLP and checks the live
// heap after a collection stays flat apart from the CPU's pool (which holds the temporaries the
// steps dropped, for reuse): graphs are freed after Backward, and the pool is bounded.
func TestSteadyTrainingStepDoesNotGrowHeap(t *testing.T) {
	g := NewGenerator(9)
	x, y := g.Randn(64, 100), RandInt(0, 10, 64)
	w1, w2 := g.Randn(128, 100).MulScalar(0.1).SetRequiresGrad(true), g.Randn(10, 128).MulScalar(0.1).SetRequiresGrad(true)
	step := func() {
		CrossEntropy(Linear(Linear(x, w1, nil).ReLU(), w2, nil), y).Backward()
		for _, p := range []*Tensor{w1, w2} {
			d, gr := p.Data32(), p.Grad().Data32()
			for i := range d {
				d[i] -= 0.01 * gr[i]
			}
			p.ZeroGrad()
		}
	}
	pool := cpuBackend.(interface{ Pooled() int }) // the CPU's buffer pool
	live := func() uint64 {
		var ms runtime.MemStats
		backend.Collect()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc - uint64(pool.Pooled())
	}
	for range 20 {
		step()
	}
	before := live()
	for range 200 {
		step()
	}
	// The least of three readings: buffers whose reclaim is still on its way to the pool, and
	// garbage of earlier tests, only add.
	after := min(live(), live(), live())
	// A leaked graph would grow it by megabytes (each step's holds over 100 KB); the runtime's
	// own structures (cleanup records, stacks) move it by a few hundred KB on a loaded machine.
	if after > before+1<<20 {
		t.Fatalf("live heap (less the pool) grew from %d to %d bytes over 200 steps", before, after)
	}
	if p := pool.Pooled(); p > 64<<20 {
		t.Fatalf("the pool holds %d bytes after 200 steps of a model whose step makes a few MB", p)
	}
}
