package tensors

import (
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/sim"
)

// The tests of temporaries dropped without Release (storage.go's lifetime rule).

// TestKernelsNeverSeeAReclaimedBuffer runs the op suite (every PyTorch fixture forward and
// backward, and the finite-difference gradient checks) on the simulated devices with a garbage
// collection inside every kernel, after the kernel has looked its operands up: an op that let go
// of a tensor before its kernel returned would have its buffer reclaimed there, and the device
// panics naming the kernel.
func TestKernelsNeverSeeAReclaimedBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("a collection per kernel: seconds")
	}
	defer sim.CollectEachKernel(true)()
	before := sim.Checked()
	defer func() { t.Logf("%d call stacks of kernels checked", sim.Checked()-before) }()
	fx := loadParityFixtures(t)
	for _, d := range []Device{{Type: "sim"}, {Type: "simfused"}} {
		for _, c := range fx.Cases {
			t.Run(d.String()+"/"+c.Name, func(t *testing.T) { checkParity(t, c, d, 1e-5) })
		}
		for _, c := range gradCases() {
			t.Run(d.String()+"/grad/"+c.name, func(t *testing.T) {
				checkGrad(t, c.f, c.in(NewGenerator(1)), d)
			})
		}
	}
}

// TestCollectEachKernelCatchesAnOpThatLetsGo makes sure the check above can fail: a kernel given
// a buffer whose tensor nothing holds panics.
func TestCollectEachKernelCatchesAnOpThatLetsGo(t *testing.T) {
	defer sim.CollectEachKernel(true)()
	d := Device{Type: "sim"}
	x := Randn(64).To(d)
	buf := x.buf()
	be := x.be()
	x = nil
	out := be.AllocUninit(backend.F32, 64)
	defer func() {
		r := recover()
		if msg, _ := r.(string); !strings.Contains(msg, "was reclaimed while the kernel used it") {
			t.Fatalf("panic %v; want the reclaimed-operand report", r)
		}
	}()
	be.Unary(backend.Exp, out, buf, 0, 0)
	t.Fatal("the kernel ran on a buffer whose tensor was dropped")
}

// rss returns the process's resident set in bytes (Linux).
func rss(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// TestDroppedTemporariesKeepMemoryBounded is the loop: 10,000 iterations that each make
// 4 MB temporaries and drop them without Release. The resident memory stays within a few
// hundred MB of where it started (the pacer's budget, at most 256 MiB, plus the pool), where the
// buffers would otherwise accumulate until Go's collector noticed; and the pool serves almost
// every iteration (fresh allocations are a small share).
func TestDroppedTemporariesKeepMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 iterations")
	}
	x, y := Randn(1024, 1024), Randn(1024, 1024)
	backend.Collect()
	before := rss(t)
	peak := before
	for i := range 10000 {
		// Two 4 MB temporaries, each read (a deferred result nobody reads is never made; a
		// chain read only at its end is made as one).
		s := x.Add(y)
		_ = s.At(0, 0)
		_ = s.MulScalar(0.5).At(0, 0)
		if i%100 == 0 {
			peak = max(peak, rss(t))
		}
	}
	peak = max(peak, rss(t))
	if grew := peak - before; grew > 400<<20 {
		t.Fatalf("resident memory grew by %d MB over 10,000 iterations of 4 MB temporaries (bound 400 MB)", grew>>20)
	}
	t.Logf("resident memory: %d MB before, peak %d MB", before>>20, peak>>20)
}

// TestDroppedDeviceTemporariesKeepDeviceMemoryBounded is the same loop, 2,000 iterations (8 GB
// of temporaries), on the simulated device: its memory, which Go's collector does not see (the
// device counts it), stays within two of the pacer's budgets of what the program holds, and the
// dropped buffers are reclaimed.
func TestDroppedDeviceTemporariesKeepDeviceMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 iterations")
	}
	d := Device{Type: "sim", Index: 3}
	dev := sim.Lookup("sim", 3)
	x, y := Randn(1024, 1024).To(d), Randn(1024, 1024).To(d)
	backend.Collect()
	before := dev.Stats()
	for range 2000 {
		_ = x.Add(y).MulScalar(0.5)
	}
	after := dev.Stats()
	if after.Reclaimed-before.Reclaimed < 3800 {
		t.Fatalf("%d buffers reclaimed over 4,000 dropped temporaries", after.Reclaimed-before.Reclaimed)
	}
	// Dropped buffers come back when a collection's cleanups run; the pacer waits for them (50 ms
	// at most), but on a loaded machine some run after it has gone on, so the next budget's worth may be charged
	// before the last of the previous one is back (seen: 324–356 MB over a 256 MB budget while
	// two builds ran). Bounded means within two budgets of what the program holds.
	_, budget := dev.Pacer().Bounds()
	if most := after.MaxLiveBytes - before.LiveBytes; most > 2*budget {
		t.Fatalf("device memory peaked %d MB above what the program holds (bound: twice the pacer's largest budget, %d MB)", most>>20, budget>>20)
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
}

// TestReachableTensorsAreNeverReclaimed drops everything but what the test keeps in the ways a
// program keeps tensors (a view of a dropped tensor, a slice of results, a graph awaiting its
// backward pass, a gradient, a tensor in a map), churns through temporaries of the same sizes
// with collections in between, and checks that every kept value is intact and the backward pass
// is right, on every device.
func TestReachableTensorsAreNeverReclaimed(t *testing.T) {
	for _, d := range testDevices {
		t.Run(d.String(), func(t *testing.T) {
			g := NewGenerator(5)
			w := g.Randn(256, 256).To(d).SetRequiresGrad(true)
			view := g.Randn(256, 512).To(d).Slice(1, 128, 384).T() // its base is dropped
			viewVals := view.Float32s()
			var kept []*Tensor
			var keptVals [][]float32
			for i := range 8 {
				r := g.Randn(256, 256).To(d).MulScalar(float64(i))
				kept = append(kept, r)
				keptVals = append(keptVals, r.Float32s())
			}
			byName := map[string]*Tensor{"a": g.Randn(256, 256).To(d).Exp()}
			mapVals := byName["a"].Float32s()
			x := g.Randn(256, 256).To(d)
			loss := x.MatMul(w).Tanh().Mul(x).Sum() // the graph holds x, the tanh, the product
			wantGrad := func() []float32 {
				th := x.MatMul(w).Tanh()
				gy := x.Mul(OnesLike(th).Sub(th.Mul(th)))
				return x.T().MatMul(gy).Float32s()
			}()
			for round := range 5 {
				for range 30 {
					_ = g.Randn(256, 256).To(d).Add(g.Randn(256, 512).To(d).Slice(1, 0, 256))
				}
				backend.Collect()
				if round == 2 {
					loss.Backward()
				}
			}
			checkSame := func(what string, got, want []float32) {
				t.Helper()
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s changed at %d: %v, was %v", what, i, got[i], want[i])
					}
				}
			}
			checkSame("the view of a dropped tensor", view.Float32s(), viewVals)
			for i, r := range kept {
				checkSame("a tensor kept in a slice", r.Float32s(), keptVals[i])
			}
			checkSame("a tensor kept in a map", byName["a"].Float32s(), mapVals)
			got := w.Grad().Float32s()
			for i := range got {
				if math.Abs(float64(got[i]-wantGrad[i])) > 1e-3*(1+math.Abs(float64(wantGrad[i]))) {
					t.Fatalf("gradient through a graph built before the churn: [%d] = %v, want %v", i, got[i], wantGrad[i])
				}
			}
		})
	}
}

// TestDataKeepsItsMemoryFromTheRecycler: a slice from Data32 outlives its tensor; its memory must
// never be handed to another tensor.
func TestDataKeepsItsMemoryFromTheRecycler(t *testing.T) {
	data := Full(7, 1024, 1024).Data32() // the tensor is dropped at once
	for range 100 {
		_ = Zeros(1024, 1024).AddScalar(1)
	}
	backend.Collect()
	for range 100 {
		_ = Zeros(1024, 1024).AddScalar(1)
	}
	for i, v := range data {
		if v != 7 {
			t.Fatalf("data[%d] = %v after its tensor was dropped and memory churned; want 7", i, v)
		}
	}
}
