package backend_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// coreOnly hides the CPU's fused ops, so Complete composes them from Core on host memory.
type coreOnly struct{ backend.Core }

func randBuf(r *rand.Rand, n int) *backend.Buffer {
	b := backend.NewHost(backend.F32, n)
	for i := range b.F32 {
		b.F32[i] = float32(r.NormFloat64())
	}
	return b
}

func idxBuf(v ...int64) *backend.Buffer {
	b := backend.NewHost(backend.I64, len(v))
	copy(b.I64, v)
	return b
}

func same(t *testing.T, what string, got, want *backend.Buffer, tol float64) {
	t.Helper()
	for i := range want.F32 {
		if d := math.Abs(float64(got.F32[i] - want.F32[i])); d > tol*(1+math.Abs(float64(want.F32[i]))) || math.IsNaN(float64(got.F32[i])) {
			t.Fatalf("%s: element %d = %v, fused kernel %v", what, i, got.F32[i], want.F32[i])
		}
	}
}

// TestComposedFusedOpsMatchTheCPUKernels runs each fallback on host memory against the CPU's
// fused kernel, on shapes with padding, strides, overlapping windows and repeated indices.
func TestComposedFusedOpsMatchTheCPUKernels(t *testing.T) {
	c := cpu.New()
	g := backend.Complete(coreOnly{c})
	if _, ok := g.(backend.Transfer); ok {
		t.Fatal("a host core gained Transfer")
	}
	if backend.Complete(c) != backend.Backend(c) {
		t.Fatal("Complete wrapped a backend that has every op")
	}
	r := rand.New(rand.NewPCG(1, 2))
	alloc := func(n int) (*backend.Buffer, *backend.Buffer) {
		return backend.NewHost(backend.F32, n), backend.NewHost(backend.F32, n)
	}
	x := randBuf(r, 3*5*4)
	for _, log := range []bool{false, true} {
		a, b := alloc(60)
		c.Softmax(a, x, 3, 5, 4, log)
		g.Softmax(b, x, 3, 5, 4, log)
		same(t, "Softmax", b, a, 1e-6)
		gy := randBuf(r, 60)
		da, db := alloc(60)
		c.SoftmaxGrad(da, gy, a, 3, 5, 4, log)
		g.SoftmaxGrad(db, gy, a, 3, 5, 4, log)
		same(t, "SoftmaxGrad", db, da, 1e-5)
	}
	w, bias := randBuf(r, 6), randBuf(r, 6)
	ya, yb := alloc(60)
	ma, mb := alloc(10)
	ra, rb := alloc(10)
	c.LayerNorm(ya, ma, ra, x, w, bias, 10, 6, 1e-5)
	g.LayerNorm(yb, mb, rb, x, w, bias, 10, 6, 1e-5)
	same(t, "LayerNorm", yb, ya, 1e-5)
	gy := randBuf(r, 60)
	dxa, dxb := alloc(60)
	dwa, dwb := alloc(6)
	dba, dbb := alloc(6)
	c.LayerNormGrad(dxa, dwa, dba, gy, x, ma, ra, w, 10, 6)
	g.LayerNormGrad(dxb, dwb, dbb, gy, x, ma, ra, w, 10, 6)
	same(t, "LayerNormGrad dx", dxb, dxa, 1e-5)
	same(t, "LayerNormGrad dw", dwb, dwa, 1e-5)
	same(t, "LayerNormGrad db", dbb, dba, 1e-5)

	target := idxBuf(2, -100, 0, 4)
	logits := randBuf(r, 20)
	la, lb := alloc(4)
	pa, pb := alloc(20)
	c.CrossEntropy(la, pa, nil, logits, target, 4, 5, -100, 0.1)
	g.CrossEntropy(lb, pb, nil, logits, target, 4, 5, -100, 0.1)
	same(t, "CrossEntropy", lb, la, 1e-5)
	gl := randBuf(r, 4)
	ca, cb := alloc(20)
	c.CrossEntropyGrad(ca, gl, pa, target, 4, 5, -100, 0.1)
	g.CrossEntropyGrad(cb, gl, pa, target, 4, 5, -100, 0.1)
	same(t, "CrossEntropyGrad", cb, ca, 1e-5)

	src := randBuf(r, 2*4*3)
	ia, ib := alloc(2 * 3 * 3)
	sel := idxBuf(3, 0, 3)
	c.IndexSelect(ia, src, sel, 2, 4, 3)
	g.IndexSelect(ib, src, sel, 2, 4, 3)
	same(t, "IndexSelect", ib, ia, 0)
	aa, ab := alloc(24)
	c.IndexAdd(aa, ia, sel, 2, 4, 3)
	g.IndexAdd(ab, ia, sel, 2, 4, 3)
	same(t, "IndexAdd", ab, aa, 1e-6)
	gidx := idxBuf(0, 3, 1, 1, 2, 2, 3, 3, 0, 0, 1, 2)
	ga, gb := alloc(12)
	c.Gather(ga, src, gidx, 2, 4, 2, 3)
	g.Gather(gb, src, gidx, 2, 4, 2, 3)
	same(t, "Gather", gb, ga, 0)
	sa, sb := alloc(24)
	c.ScatterAdd(sa, ga, gidx, 2, 4, 2, 3)
	g.ScatterAdd(sb, ga, gidx, 2, 4, 2, 3)
	same(t, "ScatterAdd", sb, sa, 1e-6)

	img := randBuf(r, 2*7*6)
	for _, k := range []struct{ kh, kw, stride, pad int }{{3, 3, 1, 1}, {2, 3, 2, 0}, {3, 2, 2, 2}} {
		oh, ow := (7+2*k.pad-k.kh)/k.stride+1, (6+2*k.pad-k.kw)/k.stride+1
		n := 2 * k.kh * k.kw * oh * ow
		cola, colb := alloc(n + 5)
		c.Im2col(cola, 5, oh*ow, img, 0, 2, 7, 6, k.kh, k.kw, k.stride, k.pad, oh, ow)
		g.Im2col(colb, 5, oh*ow, img, 0, 2, 7, 6, k.kh, k.kw, k.stride, k.pad, oh, ow)
		same(t, "Im2col", colb, cola, 0)
		xa, xb := alloc(84)
		c.Col2im(xa, 0, cola, 5, oh*ow, 2, 7, 6, k.kh, k.kw, k.stride, k.pad, oh, ow)
		g.Col2im(xb, 0, cola, 5, oh*ow, 2, 7, 6, k.kh, k.kw, k.stride, k.pad, oh, ow)
		same(t, "Col2im", xb, xa, 1e-6)
	}
	for _, k := range []struct{ k, stride int }{{2, 2}, {3, 1}} {
		oh, ow := (7-k.k)/k.stride+1, (6-k.k)/k.stride+1
		pya, pyb := alloc(2 * oh * ow)
		arga, argb := backend.NewHost(backend.I64, 2*oh*ow), backend.NewHost(backend.I64, 2*oh*ow)
		c.MaxPool2d(pya, arga, img, 2, 7, 6, k.k, k.stride, oh, ow)
		g.MaxPool2d(pyb, argb, img, 2, 7, 6, k.k, k.stride, oh, ow)
		same(t, "MaxPool2d", pyb, pya, 0)
		for i := range arga.I64 {
			if arga.I64[i] != argb.I64[i] {
				t.Fatalf("MaxPool2d argmax %d = %d, fused %d", i, argb.I64[i], arga.I64[i])
			}
		}
		gp := randBuf(r, 2*oh*ow)
		xa, xb := alloc(84)
		c.MaxPool2dGrad(xa, gp, arga, 2, 7, 6, k.k, k.stride, oh, ow)
		g.MaxPool2dGrad(xb, gp, arga, 2, 7, 6, k.k, k.stride, oh, ow)
		same(t, "MaxPool2dGrad", xb, xa, 1e-6)
	}
}

func TestComposedIndexOpsCheckTheirIndices(t *testing.T) {
	g := backend.Complete(coreOnly{cpu.New()})
	dst, src := backend.NewHost(backend.F32, 4), backend.NewHost(backend.F32, 8)
	for name, fn := range map[string]func(){
		"IndexSelect": func() { g.IndexSelect(dst, src, idxBuf(0, 4), 1, 4, 2) },
		"Gather":      func() { g.Gather(dst, src, idxBuf(0, 1, -1, 2), 1, 8, 4, 1) },
		"CrossEntropy": func() {
			g.CrossEntropy(backend.NewHost(backend.F32, 2), src, nil, src, idxBuf(1, 9), 2, 4, -100, 0)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s accepted an index out of range", name)
				}
			}()
			fn()
		}()
	}
}
