package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// TopK implements backend.SamplingOps.
func (c *CPU) TopK(vals, idx, src *backend.Buffer, outer, n, inner, k int, largest bool) {
	parallelFor(outer*inner, outer*inner*n*max(1, k/8), func(lo, hi int) {
		row := make([]float64, n)
		pos := make([]int64, k)
		for t := lo; t < hi; t++ {
			o, i := t/inner, t%inner
			for j := range n {
				row[j] = loadF64(src, (o*n+j)*inner+i)
			}
			backend.TopKRow(pos, row, largest)
			for r, j := range pos {
				d := (o*k+r)*inner + i
				idx.I64[d] = j
				s := (o*n+int(j))*inner + i
				if src.DType == backend.F64 {
					vals.F64[d] = src.F64[s]
				} else {
					vals.F32[d] = src.F32[s]
				}
			}
		}
	})
}

// Multinomial implements backend.SamplingOps.
func (c *CPU) Multinomial(dst, probs, u *backend.Buffer, rows, n, samples int, replacement bool) {
	w := make([]float64, n)
	for r := range rows {
		for j := range n {
			w[j] = loadF64(probs, r*n+j)
		}
		backend.MultinomialRow(dst.I64[r*samples:(r+1)*samples], w, u.F64[r*samples:(r+1)*samples], replacement)
	}
}
