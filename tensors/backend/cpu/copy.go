package cpu

import (
	"slices"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
)

// Copy implements backend.Backend: a strided copy with element-type conversion.
func (c *CPU) Copy(dst, src backend.Strided, shape []int) {
	n := 1
	for _, s := range shape {
		n *= s
	}
	if n == 0 {
		return
	}
	if dst.Buf.DType == src.Buf.DType {
		switch src.Buf.DType {
		case backend.F32:
			copyStrided(dst.Buf.F32, dst.Offset, dst.Strides, src.Buf.F32, src.Offset, src.Strides, shape)
		case backend.F64:
			copyStrided(dst.Buf.F64, dst.Offset, dst.Strides, src.Buf.F64, src.Offset, src.Strides, shape)
		case backend.I64:
			copyStrided(dst.Buf.I64, dst.Offset, dst.Strides, src.Buf.I64, src.Offset, src.Strides, shape)
		default:
			copyStrided(dst.Buf.U16, dst.Offset, dst.Strides, src.Buf.U16, src.Offset, src.Strides, shape)
		}
		return
	}
	// Conversion: gather src contiguously, convert, scatter into dst.
	cs := contiguousStrides(shape)
	s := src
	if !slices.Equal(src.Strides, cs) {
		tmp := newBuffer(src.Buf.DType, n, n)
		c.Copy(backend.Strided{Buf: tmp, Strides: cs}, src, shape)
		s = backend.Strided{Buf: tmp, Strides: cs}
	}
	if slices.Equal(dst.Strides, cs) {
		convert(dst.Buf, dst.Offset, s.Buf, s.Offset, n)
		return
	}
	tmp := newBuffer(dst.Buf.DType, n, n)
	convert(tmp, 0, s.Buf, s.Offset, n)
	c.Copy(dst, backend.Strided{Buf: tmp, Strides: cs}, shape)
}

func contiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= shape[i]
	}
	return st
}

// copyStrided copies an n-d strided view; the innermost dimension is a tight loop.
func copyStrided[T any](d []T, dOff int, dSt []int, s []T, sOff int, sSt []int, shape []int) {
	if len(shape) > 1 {
		// Merge dimensions that run on in both views: many short rows become few long ones.
		shp, sts := backend.Coalesce(shape, dSt, sSt)
		dSt, sSt, shape = sts[0], sts[1], shp
	}
	nd := len(shape)
	if nd == 0 {
		d[dOff] = s[sOff]
		return
	}
	inner, di, si := shape[nd-1], dSt[nd-1], sSt[nd-1]
	var idxBuf [8]int
	var idx []int
	if nd-1 > len(idxBuf) {
		idx = make([]int, nd-1)
	} else {
		idx = idxBuf[:nd-1]
	}
	for {
		dp, sp := dOff, sOff
		for k := range idx {
			dp += idx[k] * dSt[k]
			sp += idx[k] * sSt[k]
		}
		switch {
		case di == 1 && si == 1:
			copy(d[dp:dp+inner], s[sp:sp+inner])
		case di == 1 && si == 0: // broadcast: fill
			fillRow(d[dp:dp+inner], s[sp])
		default:
			for j := 0; j < inner; j++ {
				d[dp+j*di] = s[sp+j*si]
			}
		}
		k := nd - 2
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// fillRow sets every element of row to v: a float32 row of 64 or more with vector stores
// through the cache (a scalar gradient expanded over a tensor, as a sum's backward does, is
// read again at once), others with fillDoubling.
func fillRow[T any](row []T, v T) {
	if r, ok := any(row).([]float32); ok && haveFillF32 && len(r) >= 64 {
		f := any(v).(float32)
		n := len(r) &^ 31
		fillF32(&r[0], f, n)
		for i := n; i < len(r); i++ {
			r[i] = f
		}
		return
	}
	fillDoubling(row, v)
}

// fillDoubling sets every element of row to v. Long rows fill a short head in a loop, then double it with
// copy (memmove moves whole vectors): a scalar gradient expanded over a large tensor, as a sum's
// backward does, goes several times faster.
func fillDoubling[T any](row []T, v T) {
	const head = 64
	if len(row) <= 2*head {
		for j := range row {
			row[j] = v
		}
		return
	}
	for j := range row[:head] {
		row[j] = v
	}
	for k := head; k < len(row); k *= 2 {
		copy(row[k:], row[:k])
	}
}

// convert converts n contiguous elements between element types.
func convert(dst *backend.Buffer, dOff int, src *backend.Buffer, sOff int, n int) {
	switch dst.DType {
	case backend.F32:
		d := dst.F32[dOff : dOff+n]
		switch src.DType {
		case backend.F64:
			for i, v := range src.F64[sOff : sOff+n] {
				d[i] = float32(v)
			}
		case backend.I64:
			for i, v := range src.I64[sOff : sOff+n] {
				d[i] = float32(v)
			}
		case backend.BF16:
			for i, v := range src.U16[sOff : sOff+n] {
				d[i] = half.BF16ToF32(v)
			}
		case backend.F16:
			for i, v := range src.U16[sOff : sOff+n] {
				d[i] = half.F16ToF32(v)
			}
		case backend.F32:
			copy(d, src.F32[sOff:sOff+n])
		}
	case backend.F64:
		d := dst.F64[dOff : dOff+n]
		switch src.DType {
		case backend.F32:
			for i, v := range src.F32[sOff : sOff+n] {
				d[i] = float64(v)
			}
		case backend.I64:
			for i, v := range src.I64[sOff : sOff+n] {
				d[i] = float64(v)
			}
		case backend.BF16:
			for i, v := range src.U16[sOff : sOff+n] {
				d[i] = float64(half.BF16ToF32(v))
			}
		case backend.F16:
			for i, v := range src.U16[sOff : sOff+n] {
				d[i] = float64(half.F16ToF32(v))
			}
		case backend.F64:
			copy(d, src.F64[sOff:sOff+n])
		}
	case backend.I64:
		d := dst.I64[dOff : dOff+n]
		for i := 0; i < n; i++ {
			d[i] = int64(loadF64(src, sOff+i))
		}
	case backend.BF16, backend.F16:
		d := dst.U16[dOff : dOff+n]
		if src.DType == backend.F32 {
			s := src.F32[sOff : sOff+n]
			parallelFor(n, n*2, func(lo, hi int) {
				if dst.DType == backend.BF16 {
					f32ToBF16(d[lo:hi], s[lo:hi])
					return
				}
				for i := lo; i < hi; i++ {
					d[i] = half.F32ToF16(s[i])
				}
			})
			return
		}
		for i := 0; i < n; i++ {
			if dst.DType == backend.BF16 {
				d[i] = half.F32ToBF16(float32(loadF64(src, sOff+i)))
			} else {
				d[i] = half.F32ToF16(float32(loadF64(src, sOff+i)))
			}
		}
	}
}

// loadF64 reads one element as float64 (slow path for rare conversions).
func loadF64(b *backend.Buffer, i int) float64 {
	switch b.DType {
	case backend.F32:
		return float64(b.F32[i])
	case backend.F64:
		return b.F64[i]
	case backend.I64:
		return float64(b.I64[i])
	case backend.BF16:
		return float64(half.BF16ToF32(b.U16[i]))
	}
	return float64(half.F16ToF32(b.U16[i]))
}
