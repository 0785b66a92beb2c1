package tensors

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"
)

// deferShape has more elements than deferMin and a length that is not a multiple of any tile.
var deferShape = []int{257, 263}

// deferredPair returns two random tensors whose ops defer, and copies of them (exported, so ops
// on them run at once) to compute the same ops eagerly.
func deferredPair(t *testing.T, seed uint64, shape ...int) (x, y, ex, ey *Tensor) {
	t.Helper()
	if len(shape) == 0 {
		shape = deferShape
	}
	g := NewGenerator(seed)
	x, y = g.Randn(shape...), g.Randn(shape...).AddScalar(0.5)
	x.buf()
	y.buf()
	ex, ey = New(x.Float32s(), shape...), New(y.Float32s(), shape...)
	ex.Data32()
	ey.Data32()
	return x, y, ex, ey
}

func isDeferred(z *Tensor) bool { return z.st.lazy.Load()&lazyPending != 0 }

func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: element %d is %v, want %v (the ops run one at a time)", what, i, got[i], want[i])
		}
	}
}

// deferredChains are chains of ops; e is applied to each result: the identity, or (for the
// reference) an export that makes the next op run at once.
var deferredChains = []struct {
	name string
	f    func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor
}{
	{"add", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(x.Add(y)) }},
	{"sub", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(x.Sub(y)) }},
	{"mul", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(x.Mul(y)) }},
	{"div", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(x.Div(y)) }},
	{"add-scale", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(e(x.Add(y)).MulScalar(0.5)) }},
	{"squared-error", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(e(x.Sub(y)).Pow(2)) }},
	{"cube", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(x.Pow(3)) }},
	{"functions", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor {
		return e(e(e(e(x.Exp()).Tanh()).Add(e(y.Sigmoid()))).ReLU())
	}},
	{"gelu-silu", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(e(x.GELU()).Mul(e(y.SiLU()))) }},
	{"shared-operand", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor {
		d := e(x.Sub(y))
		return e(e(d.Mul(d)).Add(d))
	}},
	{"same-input-twice", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor {
		return e(e(e(x.Mul(x)).SubScalar(1)).DivScalar(3))
	}},
	{"longer-than-a-chain", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor {
		z := x
		for i := range 3 * deferMaxSteps {
			z = e(e(e(z.MulScalar(0.9)).Add(y)).AddScalar(float64(i) / 10))
		}
		return z
	}},
	{"many-inputs", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor {
		a := e(x.Add(e(y.MulScalar(2))))
		b := e(a.Mul(e(e(x.Neg()).Exp())))
		c := e(b.Add(e(e(y.Abs()).Sqrt())))
		return e(c.Sub(e(e(x.Sigmoid()).Mul(y))))
	}},
	{"reshaped", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor {
		return e(e(e(x.Add(y)).Reshape(-1).Neg()).Reshape(x.Shape()...))
	}},
	{"transposed", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor { return e(e(x.Add(y)).T().MulScalar(2)) }},
	{"sliced", func(x, y *Tensor, e func(*Tensor) *Tensor) *Tensor {
		return e(e(x.Mul(y)).Slice(0, 1, 200).AddScalar(1))
	}},
}

func keepAsIs(t *Tensor) *Tensor { return t }

// exported returns t with its storage exported (ops on it run at once), checking it was not
// deferred.
func exported(t *Tensor) *Tensor {
	if isDeferred(t) {
		panic("an op on exported tensors was deferred")
	}
	if t.isContiguous() {
		t.Data32()
	} else {
		t.export()
	}
	return t
}

// TestDeferredChainsMatchTheOpsOneAtATime runs chains of elementwise ops on tensors whose ops
// defer, and on copies whose ops run at once: every element, and every sum, has the same bits;
// in tensors that fit in the caches and in tensors whose results are streamed to memory and
// summed in runs.
func TestDeferredChainsMatchTheOpsOneAtATime(t *testing.T) {
	for _, shape := range [][]int{deferShape, {1031, 1030}} {
		for i, c := range deferredChains {
			t.Run(fmt.Sprint(shape, c.name), func(t *testing.T) {
				x, y, ex, ey := deferredPair(t, uint64(i), shape...)
				z, want := c.f(x, y, keepAsIs), c.f(ex, ey, exported)
				if c.name != "transposed" && c.name != "sliced" && !isDeferred(z) {
					t.Fatal("the chain's result was computed at once, not deferred")
				}
				sum, wantSum := z.Sum().Item(), want.Sum().Item()
				if math.Float32bits(float32(sum)) != math.Float32bits(float32(wantSum)) {
					t.Errorf("sum %v, want %v", sum, wantSum)
				}
				mean, wantMean := z.Mean().Item(), want.Mean().Item()
				if math.Float32bits(float32(mean)) != math.Float32bits(float32(wantMean)) {
					t.Errorf("mean %v, want %v", mean, wantMean)
				}
				sameBits(t, c.name, z.Float32s(), want.Float32s())
				if isDeferred(z) {
					t.Error("the result is still deferred after its elements were read")
				}
			})
		}
	}
}

// TestDeferredResultKeepsTheValuesOfItsOperands changes, frees or exposes an operand after a
// deferred op read it: the result still has the values the operands had when the op was called.
func TestDeferredResultKeepsTheValuesOfItsOperands(t *testing.T) {
	cases := []struct {
		name   string
		change func(x *Tensor)
	}{
		{"Fill", func(x *Tensor) { x.Fill(7) }},
		{"CopyFrom", func(x *Tensor) { x.CopyFrom(Full(3, deferShape...)) }},
		{"ScaleInPlace", func(x *Tensor) { ScaleInPlace([]*Tensor{x}, -2) }},
		{"Data32", func(x *Tensor) { x.Data32()[0] = 1e6 }},
		{"Release and reuse", func(x *Tensor) {
			x.Release()
			for range 4 {
				Full(math.NaN(), deferShape...).Release()
			}
		}},
		{"a view written", func(x *Tensor) { x.Reshape(-1).Fill(-1) }},
		{"MoveTo", func(x *Tensor) { x.MoveTo(CPU); x.Fill(5) }},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y, ex, ey := deferredPair(t, uint64(100+i))
			z := x.Add(y).MulScalar(0.5)
			u := x.Sub(y) // dropped: computed (when still reachable) or never
			_ = u
			if !isDeferred(z) {
				t.Fatal("not deferred")
			}
			c.change(x)
			sameBits(t, "after "+c.name, z.Float32s(), ex.Add(ey).MulScalar(0.5).Float32s())
		})
	}
}

// TestReleasedDeferredResultIsNeverComputed: a deferred result released before anyone read it
// panics on use like any released tensor.
func TestReleasedDeferredResultIsNeverComputed(t *testing.T) {
	x, y, _, _ := deferredPair(t, 7)
	z := x.Add(y)
	z.Release()
	mustPanic(t, "use of a released tensor", func() { z.Float32s() })
}

// TestOpsThatDoNotDefer: results that need a gradient, small ones, broadcasting and other types
// are computed at once.
func TestOpsThatDoNotDefer(t *testing.T) {
	x, y, _, _ := deferredPair(t, 8)
	w := x.Contiguous().SetRequiresGrad(true)
	for name, z := range map[string]*Tensor{
		"needs a gradient": w.MulScalar(2),
		"small":            Full(1, 8, 8).Add(Full(2, 8, 8)),
		"broadcast":        x.Add(Full(1, deferShape[1])),
		"float64":          x.AsType(Float64).MulScalar(2),
		"non-contiguous":   x.T().MulScalar(2),
	} {
		if isDeferred(z) {
			t.Errorf("%s: deferred", name)
		}
	}
	if z := w.MulScalar(2); z.node == nil {
		t.Error("a result that needs a gradient has no autograd node")
	}
	_ = y
}

// TestDeferredResultReadFromManyGoroutines: concurrent first reads compute it once, each seeing
// every element.
func TestDeferredResultReadFromManyGoroutines(t *testing.T) {
	x, y, ex, ey := deferredPair(t, 9)
	want := ex.Mul(ey).AddScalar(1).Float32s()
	for range 20 {
		z := x.Mul(y).AddScalar(1)
		var wg sync.WaitGroup
		got := make([][]float32, 4)
		for g := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[g] = z.Float32s()
			}()
		}
		wg.Wait()
		for _, v := range got {
			sameBits(t, "concurrent read", v, want)
		}
	}
}

// TestDroppedDeferredResultsAreNotKeptByTheirOperands: a loop that drops deferred results keeps
// its operand's list of readers bounded once they are collected.
func TestDroppedDeferredResultsAreNotKeptByTheirOperands(t *testing.T) {
	x, y, _, _ := deferredPair(t, 10)
	for i := range 20000 {
		_ = x.Add(y)
		if i%5000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	runtime.GC()
	_ = x.Add(y)
	x.st.mu.Lock()
	n := len(x.st.readers)
	x.st.mu.Unlock()
	if n > 5000 {
		t.Fatalf("x lists %d readers after its dropped results were collected", n)
	}
}
