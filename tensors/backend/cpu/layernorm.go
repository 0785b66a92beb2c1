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
	if lnRowsVector(n) {
		layerNormF32(y.F32, mean.F32, rstd.F32, x.F32, opt32(w), opt32(b), rows, n, eps)
		return
	}
	layerNorm(y.F32, mean.F32, rstd.F32, x.F32, opt32(w), opt32(b), rows, n, eps)
}

// layerNormF32 is layerNorm with the row kernels of layernorm_amd64.s (rows of a multiple of 16
// floats): the same float64 arithmetic, eight values a step.
func layerNormF32(y, mean, rstd, x, w, b []float32, rows, n int, eps float64) {
	parallelFor(rows, rows*n*4, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			row := x[r*n : (r+1)*n]
			done, s := sumF32(row)
			for _, v := range row[done:] {
				s += float64(v)
			}
			mu := s / float64(n)
			rs := 1 / math.Sqrt(lnDev(row, mu)/float64(n)+eps)
			mean[r], rstd[r] = float32(mu), float32(rs)
			lnApply(y[r*n:(r+1)*n], row, w, b, mu, rs)
		}
	})
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

// lnGradChunks is how many row chunks LayerNormGrad splits rows into: each sums its rows' weight
// and bias gradients apart, and the chunks' sums are added in order, so the result depends on
// the sizes only, not on the number of cores.
func lnGradChunks(rows, n int) int {
	return max(1, min(16, rows, rows*n/(1<<14)))
}

func layerNormGrad[T float](dx, dw, db, gy, x, mean, rstd, w []T, rows, n int) {
	chunks := lnGradChunks(rows, n)
	if chunks == 1 {
		layerNormGradRows(dx, dw, db, gy, x, mean, rstd, w, 0, rows, n)
		return
	}
	// Each chunk's dw and db sums, side by side.
	var part []T
	pw, pb := dw != nil, db != nil
	if pw || pb {
		part = make([]T, 2*chunks*n)
	}
	parallelFor(chunks, rows*n*8, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			var cw, cb []T
			if pw {
				cw = part[2*c*n : (2*c+1)*n]
			}
			if pb {
				cb = part[(2*c+1)*n : (2*c+2)*n]
			}
			layerNormGradRows(dx, cw, cb, gy, x, mean, rstd, w, c*rows/chunks, (c+1)*rows/chunks, n)
		}
	})
	for c := range chunks {
		if pw {
			for i, v := range part[2*c*n : (2*c+1)*n] {
				dw[i] += v
			}
		}
		if pb {
			for i, v := range part[(2*c+1)*n : (2*c+2)*n] {
				db[i] += v
			}
		}
	}
}

// layerNormGradRows is layerNormGrad over rows [lo, hi), adding into dw and db.
func layerNormGradRows[T float](dx, dw, db, gy, x, mean, rstd, w []T, lo, hi, n int) {
	if x32, ok := any(x).([]float32); ok && w != nil && lnRowsVector(n) {
		f := func(s []T) []float32 {
			if s == nil {
				return nil
			}
			return any(s).([]float32)
		}
		layerNormGradRowsF32(f(dx), f(dw), f(db), f(gy), x32, f(mean), f(rstd), f(w), lo, hi, n)
		return
	}
	for r := lo; r < hi; r++ {
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

// layerNormGradRowsF32 is layerNormGradRows with the row kernels of layernorm_amd64.s.
func layerNormGradRowsF32(dx, dw, db, gy, x, mean, rstd, w []float32, lo, hi, n int) {
	for r := lo; r < hi; r++ {
		xr, gr := x[r*n:(r+1)*n], gy[r*n:(r+1)*n]
		mu, rs := float64(mean[r]), float64(rstd[r])
		sg, sgx := lnGradSums(gr, xr, w, dw, db, mu, rs)
		if dx != nil {
			lnGradDx(dx[r*n:(r+1)*n], gr, xr, w, mu, rs, sg/float64(n), sgx/float64(n))
		}
	}
}
