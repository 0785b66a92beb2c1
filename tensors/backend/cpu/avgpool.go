package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// AvgPool2d implements backend.AvgPoolOps: planes on every core, each window summed in order and
// divided by its divisor (PyTorch's CPU kernel does the same).
func (c *CPU) AvgPool2d(y, x *backend.Buffer, p backend.AvgPoolParams) {
	if x.DType == backend.F64 {
		avgPool(y.F64, x.F64, p)
		return
	}
	avgPool(y.F32, x.F32, p)
}

// divisor returns the divisor of output (i, j)'s window.
func divisor(p backend.AvgPoolParams, i, j int) int {
	if p.Divisor > 0 {
		return p.Divisor
	}
	_, _, dr := p.Rows(i)
	_, _, dc := p.Cols(j)
	return dr * dc
}

func avgPool[T float](y, x []T, p backend.AvgPoolParams) {
	work := p.Planes * p.OH * p.OW * max(1, p.KH*p.KW)
	if p.Adaptive {
		work = p.Planes * p.H * p.W
	}
	parallelFor(p.Planes, work, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			in := x[pl*p.H*p.W:][:p.H*p.W]
			out := y[pl*p.OH*p.OW:][:p.OH*p.OW]
			for i := range p.OH {
				r0, r1, _ := p.Rows(i)
				for j := range p.OW {
					c0, c1, _ := p.Cols(j)
					var s T
					for r := r0; r < r1; r++ {
						for _, v := range in[r*p.W+c0 : r*p.W+c1] {
							s += v
						}
					}
					out[i*p.OW+j] = s / T(divisor(p, i, j))
				}
			}
		}
	})
}

// AvgPool2dGrad implements backend.AvgPoolOps: each output's gradient over its divisor is added
// to its window's inputs, plane by plane (a plane's windows in order on one core).
func (c *CPU) AvgPool2dGrad(dx, gy *backend.Buffer, p backend.AvgPoolParams) {
	if gy.DType == backend.F64 {
		avgPoolGrad(dx.F64, gy.F64, p)
		return
	}
	avgPoolGrad(dx.F32, gy.F32, p)
}

func avgPoolGrad[T float](dx, gy []T, p backend.AvgPoolParams) {
	parallelFor(p.Planes, p.Planes*p.H*p.W*2, func(lo, hi int) {
		for pl := lo; pl < hi; pl++ {
			d := dx[pl*p.H*p.W:][:p.H*p.W]
			clear(d)
			g := gy[pl*p.OH*p.OW:][:p.OH*p.OW]
			for i := range p.OH {
				r0, r1, _ := p.Rows(i)
				for j := range p.OW {
					c0, c1, _ := p.Cols(j)
					v := g[i*p.OW+j] / T(divisor(p, i, j))
					for r := r0; r < r1; r++ {
						row := d[r*p.W+c0 : r*p.W+c1]
						for k := range row {
							row[k] += v
						}
					}
				}
			}
		}
	})
}
