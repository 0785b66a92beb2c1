package cpu

import (
	"math"
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Reduce implements backend.Backend.
func (c *CPU) Reduce(op backend.ReduceOp, dst, src *backend.Buffer, outer, n, inner int) {
	if n == 0 {
		// An empty axis: its sums are zero, and its extremes have no value (package tensors
		// refuses them), so they write nothing; no row is read.
		if op == backend.Sum {
			c.Fill(dst, 0)
		}
		return
	}
	work := outer * n * inner
	switch src.DType {
	case backend.F32:
		if op == backend.ArgMax || op == backend.ArgMin {
			argReduce(op, dst.I64, src.F32, outer, n, inner)
			return
		}
		if op == backend.Sum && outer == 1 && inner == 1 && n >= 2*sumChunk {
			dst.F32[0] = float32(sumLong(src.F32[:n]))
			return
		}
		parallelFor(outer, work, func(lo, hi int) { reduce(op, dst.F32, src.F32, lo, hi, n, inner) })
	case backend.F64:
		if op == backend.ArgMax || op == backend.ArgMin {
			argReduce(op, dst.I64, src.F64, outer, n, inner)
			return
		}
		parallelFor(outer, work, func(lo, hi int) { reduce(op, dst.F64, src.F64, lo, hi, n, inner) })
	case backend.I64:
		if op == backend.ArgMax || op == backend.ArgMin {
			argReduce(op, dst.I64, src.I64, outer, n, inner)
			return
		}
		reduce(op, dst.I64, src.I64, 0, outer, n, inner)
	default:
		panic("cpu: Reduce on 16-bit storage; convert first")
	}
}

func reduce[T num](op backend.ReduceOp, d, s []T, lo, hi, n, inner int) {
	for o := lo; o < hi; o++ {
		base := o * n * inner
		out := d[o*inner : (o+1)*inner]
		if inner == 1 {
			row := s[base : base+n]
			switch op {
			case backend.Sum:
				out[0] = T(sumRow(row))
			case backend.Max:
				m := row[0]
				for _, v := range row[1:] {
					if v > m || v != v {
						m = v
					}
				}
				out[0] = m
			case backend.Min:
				m := row[0]
				for _, v := range row[1:] {
					if v < m || v != v {
						m = v
					}
				}
				out[0] = m
			}
			continue
		}
		copy(out, s[base:base+inner])
		for j := 1; j < n; j++ {
			row := s[base+j*inner : base+(j+1)*inner]
			switch op {
			case backend.Sum:
				if unsafe.Sizeof(out[0]) == 4 {
					// float32: vector adds for the leading part of the row.
					of := unsafe.Slice((*float32)(unsafe.Pointer(&out[0])), len(out))
					rf := unsafe.Slice((*float32)(unsafe.Pointer(&row[0])), len(row))
					k := vecF32(backend.Add, of, of, rf, 0)
					out, row = out[k:], row[k:]
				}
				for i, v := range row {
					out[i] += v
				}
				out = d[o*inner : (o+1)*inner]
			case backend.Max:
				for i, v := range row {
					if v > out[i] || v != v {
						out[i] = v
					}
				}
			case backend.Min:
				for i, v := range row {
					if v < out[i] || v != v {
						out[i] = v
					}
				}
			}
		}
	}
}

// argReduce writes the index of the first maximum (minimum); NaN counts as the extreme.
func argReduce[T num](op backend.ReduceOp, d []int64, s []T, outer, n, inner int) {
	for o := 0; o < outer; o++ {
		for i := 0; i < inner; i++ {
			base := o*n*inner + i
			best, bi := s[base], 0
			for j := 1; j < n && best == best; j++ {
				v := s[base+j*inner]
				if v != v || (op == backend.ArgMax && v > best) || (op == backend.ArgMin && v < best) {
					best, bi = v, j
				}
			}
			d[o*inner+i] = int64(bi)
		}
	}
}

// Softmax implements backend.Backend.
func (c *CPU) Softmax(dst, src *backend.Buffer, outer, n, inner int, log bool) {
	if n == 0 {
		return // nothing to write, and no row to read
	}
	work := outer * n * inner * 8
	if src.DType == backend.F32 && inner == 1 {
		parallelFor(outer, work, func(lo, hi int) {
			for o := lo; o < hi; o++ {
				softmaxRowF32(dst.F32[o*n:(o+1)*n], src.F32[o*n:(o+1)*n], log)
			}
		})
		return
	}
	if src.DType == backend.F64 {
		parallelFor(outer, work, func(lo, hi int) { softmax(dst.F64, src.F64, lo, hi, n, inner, log) })
		return
	}
	parallelFor(outer, work, func(lo, hi int) { softmax(dst.F32, src.F32, lo, hi, n, inner, log) })
}

func softmax[T float](d, s []T, lo, hi, n, inner int, log bool) {
	for o := lo; o < hi; o++ {
		for i := 0; i < inner; i++ {
			base := o*n*inner + i
			m := s[base]
			for j := 1; j < n; j++ {
				if v := s[base+j*inner]; v > m {
					m = v
				}
			}
			var sum float64
			for j := 0; j < n; j++ {
				e := expT(s[base+j*inner] - m)
				sum += e
				if !log {
					d[base+j*inner] = T(e)
				}
			}
			if log {
				lse := T(math.Log(sum))
				for j := 0; j < n; j++ {
					d[base+j*inner] = s[base+j*inner] - m - lse
				}
				continue
			}
			inv := T(1 / sum)
			for j := 0; j < n; j++ {
				d[base+j*inner] *= inv
			}
		}
	}
}

// SoftmaxGrad implements backend.Backend.
func (c *CPU) SoftmaxGrad(dx, gy, y *backend.Buffer, outer, n, inner int, log bool) {
	if n == 0 {
		return
	}
	work := outer * n * inner * 4
	if y.DType == backend.F64 {
		parallelFor(outer, work, func(lo, hi int) { softmaxGrad(dx.F64, gy.F64, y.F64, lo, hi, n, inner, log) })
		return
	}
	parallelFor(outer, work, func(lo, hi int) { softmaxGrad(dx.F32, gy.F32, y.F32, lo, hi, n, inner, log) })
}

func softmaxGrad[T float](dx, gy, y []T, lo, hi, n, inner int, log bool) {
	for o := lo; o < hi; o++ {
		for i := 0; i < inner; i++ {
			base := o*n*inner + i
			var dot float64
			for j := 0; j < n; j++ {
				k := base + j*inner
				if log {
					dot += float64(gy[k])
				} else {
					dot += float64(gy[k] * y[k])
				}
			}
			for j := 0; j < n; j++ {
				k := base + j*inner
				if log {
					dx[k] = gy[k] - T(expT(y[k])*dot)
				} else {
					dx[k] = y[k] * (gy[k] - T(dot))
				}
			}
		}
	}
}

// sumRow adds a row in float64 with independent accumulators, so the adds overlap instead of
// waiting on one another: sixteen vector lanes for float32 where the CPU has them, four scalars
// for the rest.
func sumRow[T num](row []T) float64 {
	var a0, a1, a2, a3 float64
	i := 0
	if len(row) >= 16 && unsafe.Sizeof(row[0]) == 4 {
		// float32 (the only 4-byte element type here).
		i, a0 = sumF32(unsafe.Slice((*float32)(unsafe.Pointer(&row[0])), len(row)))
	}
	for ; i+4 <= len(row); i += 4 {
		r := row[i : i+4 : i+4]
		a0 += float64(r[0])
		a1 += float64(r[1])
		a2 += float64(r[2])
		a3 += float64(r[3])
	}
	for ; i < len(row); i++ {
		a0 += float64(row[i])
	}
	return (a0 + a1) + (a2 + a3)
}

// sumChunk is the length of the runs a long sum adds separately (on every core) before adding
// their sums in order: fixed, so the result does not depend on the number of cores.
const sumChunk = 1 << 16

// sumLong is the float64 sum of a long float32 row, run by run.
func sumLong(x []float32) float64 {
	parts := make([]float64, (len(x)+sumChunk-1)/sumChunk)
	parallelFor(len(parts), len(x), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			parts[r] = sumRow(x[r*sumChunk : min(len(x), (r+1)*sumChunk)])
		}
	})
	var total float64
	for _, v := range parts {
		total += v
	}
	return total
}
