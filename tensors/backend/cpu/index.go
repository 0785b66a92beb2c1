package cpu

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

func checkIndex(i int64, n int) int {
	if i < 0 || int(i) >= n {
		panic(fmt.Sprintf("tensors: index %d out of range for dimension of size %d", i, n))
	}
	return int(i)
}

// IndexSelect implements backend.Backend.
func (c *CPU) IndexSelect(dst, src, idx *backend.Buffer, outer, n, inner int) {
	switch src.DType {
	case backend.F32:
		indexSelect(dst.F32, src.F32, idx.I64, outer, n, inner)
	case backend.F64:
		indexSelect(dst.F64, src.F64, idx.I64, outer, n, inner)
	case backend.I64:
		indexSelect(dst.I64, src.I64, idx.I64, outer, n, inner)
	default:
		indexSelect(dst.U16, src.U16, idx.I64, outer, n, inner)
	}
}

func indexSelect[T any](d, s []T, idx []int64, outer, n, inner int) {
	m := len(idx)
	for o := 0; o < outer; o++ {
		for j, ix := range idx {
			r := checkIndex(ix, n)
			copy(d[(o*m+j)*inner:(o*m+j+1)*inner], s[(o*n+r)*inner:(o*n+r+1)*inner])
		}
	}
}

// IndexAdd implements backend.Backend.
func (c *CPU) IndexAdd(dst, src, idx *backend.Buffer, outer, n, inner int) {
	if dst.DType == backend.F64 {
		indexAdd(dst.F64, src.F64, idx.I64, outer, n, inner)
		return
	}
	indexAdd(dst.F32, src.F32, idx.I64, outer, n, inner)
}

func indexAdd[T float](d, s []T, idx []int64, outer, n, inner int) {
	m := len(idx)
	for o := 0; o < outer; o++ {
		for j, ix := range idx {
			r := checkIndex(ix, n)
			dr := d[(o*n+r)*inner : (o*n+r+1)*inner]
			for i, v := range s[(o*m+j)*inner : (o*m+j+1)*inner] {
				dr[i] += v
			}
		}
	}
}

// Gather implements backend.Backend.
func (c *CPU) Gather(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	switch src.DType {
	case backend.F32:
		gather(dst.F32, src.F32, idx.I64, outer, n, m, inner)
	case backend.F64:
		gather(dst.F64, src.F64, idx.I64, outer, n, m, inner)
	case backend.I64:
		gather(dst.I64, src.I64, idx.I64, outer, n, m, inner)
	default:
		gather(dst.U16, src.U16, idx.I64, outer, n, m, inner)
	}
}

func gather[T any](d, s []T, idx []int64, outer, n, m, inner int) {
	for o := 0; o < outer; o++ {
		for j := 0; j < m; j++ {
			for i := 0; i < inner; i++ {
				k := (o*m+j)*inner + i
				d[k] = s[(o*n+checkIndex(idx[k], n))*inner+i]
			}
		}
	}
}

// ScatterAdd implements backend.Backend.
func (c *CPU) ScatterAdd(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	if dst.DType == backend.F64 {
		scatterAdd(dst.F64, src.F64, idx.I64, outer, n, m, inner)
		return
	}
	scatterAdd(dst.F32, src.F32, idx.I64, outer, n, m, inner)
}

func scatterAdd[T float](d, s []T, idx []int64, outer, n, m, inner int) {
	for o := 0; o < outer; o++ {
		for j := 0; j < m; j++ {
			for i := 0; i < inner; i++ {
				k := (o*m+j)*inner + i
				d[(o*n+checkIndex(idx[k], n))*inner+i] += s[k]
			}
		}
	}
}
