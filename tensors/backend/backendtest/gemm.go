package backendtest

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// gemmCase is one batched product's shape and layout; leading dimensions are padded, matrices
// start at offsets and sit apart by more than their size, so a device that ignores any of them
// reads or writes the wrong elements.
type gemmCase struct {
	batch, m, n, k int
	alpha, beta    float64
	shareB         bool // strideB 0: every product reads the one B
}

var gemmCases = []gemmCase{
	{batch: 3, m: 17, n: 13, k: 29, alpha: 1.5, beta: 0},
	{batch: 3, m: 17, n: 13, k: 29, alpha: 1, beta: -0.5},
	{batch: 2, m: 5, n: 70, k: 9, alpha: 1, beta: 1, shareB: true},
	{batch: 1, m: 96, n: 80, k: 130, alpha: 1, beta: 0},
	{batch: 2, m: 3, n: 4, k: 0, alpha: 1, beta: 0.5}, // C = β·C
}

// gemmOperand is a matrix operand: its buffer's values and its layout.
type gemmOperand struct {
	v                   []float64
	off, ld, stride, sz int
}

// newOperand lays out batch matrices of rows×cols (stored) with padding.
func (s *suite) newOperand(batch, rows, cols int, shared bool) gemmOperand {
	o := gemmOperand{off: 5, ld: cols + 3}
	o.stride = rows*o.ld + 7
	if shared {
		o.stride = 0
	}
	o.sz = o.off + max(batch-1, 0)*o.stride + rows*o.ld
	o.v = s.uniform(o.sz, -2, 2)
	return o
}

// gemmRef is C = α·op(A)·op(B) + β·C in float64 over the laid-out operands (β = 0 never reads C).
func gemmRef(transA, transB bool, c gemmCase, a, b, cm gemmOperand) []float64 {
	out := append([]float64(nil), cm.v...)
	for bi := range c.batch {
		for i := range c.m {
			for j := range c.n {
				sum := 0.0
				for l := range c.k {
					ai := a.off + bi*a.stride + i*a.ld + l
					if transA {
						ai = a.off + bi*a.stride + l*a.ld + i
					}
					bj := b.off + bi*b.stride + l*b.ld + j
					if transB {
						bj = b.off + bi*b.stride + j*b.ld + l
					}
					sum += a.v[ai] * b.v[bj]
				}
				ci := cm.off + bi*cm.stride + i*cm.ld + j
				v := c.alpha * sum
				if c.beta != 0 {
					v += c.beta * cm.v[ci]
				}
				out[ci] = v
			}
		}
	}
	return out
}

// gemmTypes are the element types of a product: the buffers' (A and B), C's and lowp.
var gemmTypes = []struct{ ab, c, lowp backend.DType }{
	{backend.F32, backend.F32, backend.F32},
	{backend.F64, backend.F64, backend.F64},
	{backend.F32, backend.F32, backend.BF16},
	{backend.F32, backend.F32, backend.F16},
	{backend.BF16, backend.F32, backend.F32},
	{backend.BF16, backend.F32, backend.BF16},
	{backend.F16, backend.F32, backend.F32},
}

// checkGemm: every transposition of batched products with padded, offset and shared operands,
// α and β (β = 0 must not read C, which holds NaN), an empty inner dimension, and products in
// float64, float32, and float32 with operands rounded to bfloat16 or float16 (or stored so).
func checkGemm(s *suite) {
	for _, ty := range gemmTypes {
		for _, c := range gemmCases {
			for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
				rowsA, colsA, rowsB, colsB := c.m, c.k, c.k, c.n
				if tr[0] {
					rowsA, colsA = c.k, c.m
				}
				if tr[1] {
					rowsB, colsB = c.n, c.k
				}
				a, b := s.newOperand(c.batch, rowsA, colsA, false), s.newOperand(c.batch, rowsB, colsB, c.shareB)
				cm := s.newOperand(c.batch, c.m, c.n, false)
				round16 := ty.lowp
				if ty.ab == backend.BF16 || ty.ab == backend.F16 {
					round16 = ty.ab
				}
				for i := range a.v {
					a.v[i] = round(round16, round(ty.ab, a.v[i]))
				}
				for i := range b.v {
					b.v[i] = round(round16, round(ty.ab, b.v[i]))
				}
				if c.beta == 0 {
					for i := range cm.v {
						cm.v[i] = poisonValue(ty.c)
					}
				}
				for i := range cm.v {
					cm.v[i] = round(ty.c, cm.v[i])
				}
				ab, bb, cb := s.put(ty.ab, a.v), s.put(ty.ab, b.v), s.put(ty.c, cm.v)
				s.be.Gemm(ty.lowp, tr[0], tr[1], c.batch, c.m, c.n, c.k, c.alpha,
					ab, a.off, a.ld, a.stride, bb, b.off, b.ld, b.stride, c.beta, cb, cm.off, cm.ld, cm.stride)
				what := fmt.Sprintf("Gemm %s×%s→%s lowp %s, batch %d of %d×%d×%d, transA %v transB %v, α %g β %g",
					ty.ab, ty.ab, ty.c, ty.lowp, c.batch, c.m, c.n, c.k, tr[0], tr[1], c.alpha, c.beta)
				s.expect(what, cb, gemmRef(tr[0], tr[1], c, a, b, cm), tolerance(ty.c))
			}
		}
	}
}
