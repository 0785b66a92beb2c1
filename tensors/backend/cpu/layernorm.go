package cpu

import (
	"math"

	"github.com/goaccel/goaccel/tensors/backend"
)

// LayerNorm implements backend.Backend.
func (c *CPU) LayerNorm(y, mean, rstd, x, w, b *backend.Buffer, rows, n int, eps float64) {
	if x.DType == backend.F64 {
		layerNorm(y.F64, mean.F64, rstd.F64, x.F64, opt64(w), opt64(b), rows, n, eps)
		return
	}
	layerNorm(y.F32, mean.F32, rstd.F32, x.F32, opt32(w), opt32(b), rows, n, eps)
}

func opt32(b *backend.Buffer) []float32 {
	if b == nil {
		return nil
	}
	return b.F32
}

func opt64(b *backend.Buffer) []float64 {
	if b == nil {
		return nil
	}
	return b.F64
}

func layerNorm[T float](y, mean, rstd, x, w, b []T, rows, n int, eps float64) {
	parallelFor(rows, rows*n*4, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := x[r*n : (r+1)*n]
			var s float64
			for _, v := range row {
				s += float64(v)
			}
			mu := s / float64(n)
			var ss float64
			for _, v := range row {
				d := float64(v) - mu
				ss += d * d
			}
			rs := 1 / math.Sqrt(ss/float64(n)+eps)
			mean[r], rstd[r] = T(mu), T(rs)
			out := y[r*n : (r+1)*n]
			for i, v := range row {
				h := T((float64(v) - mu) * rs)
				if w != nil {
					h *= w[i]
				}
				if b != nil {
					h += b[i]
				}
				out[i] = h
			}
		}
	})
}

// LayerNormGrad implements backend.Backend.
func (c *CPU) LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w *backend.Buffer, rows, n int) {
	if x.DType == backend.F64 {
		layerNormGrad(opt64(dx), opt64(dw), opt64(db), gy.F64, x.F64, mean.F64, rstd.F64, opt64(w), rows, n)
		return
	}
	layerNormGrad(opt32(dx), opt32(dw), opt32(db), gy.F32, x.F32, mean.F32, rstd.F32, opt32(w), rows, n)
}

func layerNormGrad[T float](dx, dw, db, gy, x, mean, rstd, w []T, rows, n int) {
	for r := 0; r < rows; r++ {
		xr, gr := x[r*n:(r+1)*n], gy[r*n:(r+1)*n]
		mu, rs := float64(mean[r]), float64(rstd[r])
		var sg, sgx float64
		for i, g := range gr {
			xh := (float64(xr[i]) - mu) * rs
			if dw != nil {
				dw[i] += T(float64(g) * xh)
			}
			if db != nil {
				db[i] += g
			}
			gh := float64(g)
			if w != nil {
				gh *= float64(w[i])
			}
			sg += gh
			sgx += gh * xh
		}
		if dx == nil {
			continue
		}
		sg /= float64(n)
		sgx /= float64(n)
		out := dx[r*n : (r+1)*n]
		for i, g := range gr {
			xh := (float64(xr[i]) - mu) * rs
			gh := float64(g)
			if w != nil {
				gh *= float64(w[i])
			}
			out[i] = T(rs * (gh - sg - xh*sgx))
		}
	}
}
