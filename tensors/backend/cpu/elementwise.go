package cpu

import (
	"sync"

	"github.com/goaccel/goaccel/tensors/backend"
)

// fuseTile is the length of the rows a fused program computes at a time: one per step, in the
// L1 and L2 caches, as long as streamF32's tiles so that a streamed result is computed straight
// into them.
const fuseTile = streamTile

// fused is an Elementwise program ready to run: each step's kernel chosen once.
type fused struct {
	p     *backend.Elementwise
	unary []func(d, s []float32) // step i's kernel when it is unary
	work  int                    // per element, relative to an add
}

func compile(p *backend.Elementwise) *fused {
	f := &fused{p: p, unary: make([]func(d, s []float32), len(p.Steps))}
	for i, s := range p.Steps {
		switch {
		case s.Binary && s.BinaryOp == backend.Div:
			f.work += 4
		case s.Binary:
			f.work++
		default:
			f.unary[i], _ = unaryF32(s.Unary, s.P, s.Q)
			f.work += cost(s.Unary)
		}
	}
	return f
}

// scratch holds one tile per step and, for a sum, the run being summed, for one goroutine at a
// time.
type scratch struct{ rows, run []float32 }

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (s *scratch) tiles(steps int) []float32 {
	if need := steps * fuseTile; cap(s.rows) < need {
		s.rows = make([]float32, need)
	}
	return s.rows
}

// tile computes the elements [off, off+len(out)) of the program's result into out
// (len(out) ≤ fuseTile), the steps before the last into rows.
func (f *fused) tile(out []float32, off int, rows []float32) {
	m := len(out)
	steps := f.p.Steps
	operand := func(a int) []float32 {
		if a < 0 {
			in := f.p.Inputs[-1-a]
			return in.Buf.F32[in.Offset+off : in.Offset+off+m]
		}
		return rows[a*fuseTile : a*fuseTile+m]
	}
	for i, s := range steps {
		d := out
		if i < len(steps)-1 {
			d = rows[i*fuseTile : i*fuseTile+m]
		}
		if s.Binary {
			binaryRow(s.BinaryOp, d, operand(s.A), 0, 1, operand(s.B), 0, 1)
		} else {
			f.unary[i](d, operand(s.A))
		}
	}
}

// span computes the elements [lo, lo+len(d)) of the result into d, a tile at a time.
func (f *fused) span(d []float32, lo int, rows []float32) {
	for off := 0; off < len(d); off += fuseTile {
		end := min(len(d), off+fuseTile)
		f.tile(d[off:end], lo+off, rows)
	}
}

// Elementwise implements backend.ElementwiseOps: each chunk of the result a tile at a time,
// streamed out through streamF32's tiles when dst is large and cold (as Unary and Binary store
// theirs). (Streaming the last step straight into dst with the one-pass kernels measured no
// faster: their fence, once a tile, waits for the stores.)
func (c *CPU) Elementwise(dst *backend.Buffer, p *backend.Elementwise, n int) {
	if n == 0 {
		return
	}
	if len(p.Steps) == 1 {
		// One op: Binary's and Unary's kernels, which stream theirs in one pass.
		s, a := p.Steps[0], p.Inputs[-1-p.Steps[0].A]
		if s.Binary {
			b := p.Inputs[-1-s.B]
			c.Binary(s.BinaryOp, dst, backend.Strided{Buf: a.Buf, Offset: a.Offset, Strides: []int{1}},
				backend.Strided{Buf: b.Buf, Offset: b.Offset, Strides: []int{1}}, []int{n})
			return
		}
		if a.Offset == 0 && a.Buf.Len == n {
			c.Unary(s.Unary, dst, a.Buf, s.P, s.Q)
			return
		}
	}
	f := compile(p)
	stream := streams(dst, n)
	parallelFor(n, n*f.work, func(lo, hi int) {
		s := scratchPool.Get().(*scratch)
		rows := s.tiles(len(p.Steps))
		d := dst.F32[lo:hi]
		if stream {
			streamF32(d, func(t []float32, off int) { f.tile(t, lo+off, rows) })
		} else {
			f.span(d, lo, rows)
		}
		scratchPool.Put(s)
	})
}

// ElementwiseSum implements backend.ElementwiseOps: the runs Reduce sums a long row in (sumLong),
// each computed into a scratch row and summed by sumRow, so the result has Reduce's bits.
func (c *CPU) ElementwiseSum(p *backend.Elementwise, n int) float64 {
	if n == 0 {
		return 0
	}
	f := compile(p)
	run := n
	if n >= 2*sumChunk {
		run = sumChunk
	}
	parts := make([]float64, (n+run-1)/run)
	parallelFor(len(parts), n*f.work, func(lo, hi int) {
		s := scratchPool.Get().(*scratch)
		rows := s.tiles(len(p.Steps))
		if cap(s.run) < run {
			s.run = make([]float32, run)
		}
		for r := lo; r < hi; r++ {
			d := s.run[:min(run, n-r*run)]
			f.span(d, r*run, rows)
			parts[r] = sumRow(d)
		}
		scratchPool.Put(s)
	})
	var total float64
	for _, v := range parts {
		total += v
	}
	return total
}
