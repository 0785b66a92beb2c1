package cpu

import (
	"math"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// coldF32 returns a cold buffer of n float32s that starts off elements past an allocation's
// start, so that every alignment of a streamed output to its 32-byte lines is seen.
func coldF32(n, off int) *backend.Buffer {
	s := make([]float32, n+off)[off:]
	return &backend.Buffer{DType: backend.F32, F32: s, Len: n, Cold: true}
}

// TestStreamedBinaryOpsMatchScalar checks the one-pass non-temporal kernels (and the tile path
// of the ops without one) against the scalar formula, on cold outputs large enough to be
// streamed, at every alignment, with operands read from an offset.
func TestStreamedBinaryOpsMatchScalar(t *testing.T) {
	c := New()
	const n = streamMin + 45
	a, b := newBuffer(backend.F32, n+5, n+5), newBuffer(backend.F32, n+5, n+5)
	for i := range n + 5 {
		a.F32[i] = float32(i%1000)*0.37 - 3
		b.F32[i] = float32(i%7) + 0.5
	}
	for op, f := range arithmeticOps {
		for off := range 8 {
			d := coldF32(n, off)
			c.Binary(op, d, backend.Strided{Buf: a, Offset: 5, Strides: []int{1}}, backend.Strided{Buf: b, Offset: off % 3, Strides: []int{1}}, []int{n})
			for i := range n {
				if want := f(a.F32[5+i], b.F32[off%3+i]); d.F32[i] != want {
					t.Fatalf("op %d, output offset %d: d[%d] = %v, want %v", op, off, i, d.F32[i], want)
				}
			}
		}
	}
}

// TestStreamedUnaryOpsMatchScalar does the same for the unary ops with vector kernels (and Neg
// and a Pow other than 2, which keep their loops), signed zeros and infinities included, and
// checks the cached path on warm outputs of every length around the vector width.
func TestStreamedUnaryOpsMatchScalar(t *testing.T) {
	c := New()
	cases := []struct {
		name string
		op   backend.UnaryOp
		p    float64
		f    func(x float32) float32
	}{
		{"AddScalar", backend.AddScalar, 1.25, func(x float32) float32 { return x + 1.25 }},
		{"MulScalar", backend.MulScalar, 0.1, func(x float32) float32 { return x * float32(0.1) }},
		{"MulScalar by -0.5", backend.MulScalar, -0.5, func(x float32) float32 { return x * -0.5 }},
		{"Pow 2", backend.Pow, 2, func(x float32) float32 { return x * x }},
		{"Pow 3", backend.Pow, 3, func(x float32) float32 { return float32(math.Pow(float64(x), 3)) }},
		{"Neg", backend.Neg, 0, func(x float32) float32 { return -x }},
	}
	const n = streamMin + 45
	x := newBuffer(backend.F32, n, n)
	for i := range n {
		x.F32[i] = float32(i%1000)*0.37 - 3
	}
	x.F32[7], x.F32[8], x.F32[9] = float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1))
	for _, tc := range cases {
		for off := range 8 {
			d := coldF32(n, off)
			c.Unary(tc.op, d, x, tc.p, 0)
			for i := range n {
				got, want := d.F32[i], tc.f(x.F32[i])
				if got != want || math.Signbit(float64(got)) != math.Signbit(float64(want)) {
					t.Fatalf("%s, output offset %d: d[%d] = %v, want %v (x = %v)", tc.name, off, i, got, want, x.F32[i])
				}
			}
		}
		for m := 1; m <= 40; m++ {
			xs := &backend.Buffer{DType: backend.F32, F32: x.F32[:m], Len: m}
			d := newBuffer(backend.F32, m, m)
			c.Unary(tc.op, d, xs, tc.p, 0)
			for i := range m {
				got, want := d.F32[i], tc.f(x.F32[i])
				if got != want || math.Signbit(float64(got)) != math.Signbit(float64(want)) {
					t.Fatalf("%s, %d elements: d[%d] = %v, want %v (x = %v)", tc.name, m, i, got, want, x.F32[i])
				}
			}
		}
	}
}

// TestStreamVVAndVSMatchPlainLoop runs the one-pass non-temporal kernels (streamVV's Add, Sub and
// Mul, streamVS's Add and Mul) at every length of streamEdges and every alignment of the output,
// and checks that each computes the part it reports, from the output's first 32-byte boundary in
// whole rounds of 32 lanes, with the plain loop's bits, and writes nothing else.
func TestStreamVVAndVSMatchPlainLoop(t *testing.T) {
	cases := []struct {
		name   string
		op     backend.BinaryOp
		scalar bool
	}{
		{"Add", backend.Add, false},
		{"Sub", backend.Sub, false},
		{"Mul", backend.Mul, false},
		{"Add scalar", backend.Add, true},
		{"Mul scalar", backend.Mul, true},
	}
	const s = float32(-0.3)
	for _, tc := range cases {
		f := arithmeticOps[tc.op]
		for _, n := range streamEdges() {
			x, y := streamInputs(n, 1), streamInputs(n, 5)
			want := make([]float32, n)
			for i := range want {
				if tc.scalar {
					want[i] = f(x[i], s)
				} else {
					want[i] = f(x[i], y[i])
				}
			}
			for off := range 8 {
				d, all := guarded(n, off)
				var h, m int
				if tc.scalar {
					h, m = streamVS(tc.op, d, x, s)
				} else {
					h, m = streamVV(tc.op, d, x, y)
				}
				wantH, wantM := 0, 0
				if haveStreamingStores && n > 0 {
					if k := streamHead(d); (n-k)&^31 > 0 {
						wantH, wantM = k, (n-k)&^31
					}
				}
				if h != wantH || m != wantM {
					t.Fatalf("%s, %d elements at offset %d: computed [%d, %d), want [%d, %d)", tc.name, n, off, h, h+m, wantH, wantH+wantM)
				}
				checkBits(t, tc.name, d[h:h+m], want[h:h+m], all, off+h, off+h+m)
			}
		}
	}
}
