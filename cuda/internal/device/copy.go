package device

import (
	"math"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
)

// maxDims is the kernels' MAXD: iteration shapes with more dimensions (after coalescing) run
// as several launches over their leading dimensions.
const maxDims = 8

// shapeArg and viewArg are the kernels' Shape and View structs.
type shapeArg struct {
	N  [maxDims]int64
	ND int64
}

type viewArg struct {
	Off int64
	St  [maxDims]int64
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

func contiguous(shape []int) []int { return backend.ContiguousStrides(shape...) }

// forEachBlock splits a coalesced shape with more than maxDims dimensions into launches over its
// last maxDims dimensions, calling fn with that shape and each operand's extra offset.
func forEachBlock(shape []int, strides [][]int, fn func(shape shapeArg, offs []int, inner [][]int) error) error {
	lead := max(0, len(shape)-maxDims)
	var sh shapeArg
	sh.ND = int64(len(shape) - lead)
	for i, n := range shape[lead:] {
		sh.N[i] = int64(n)
	}
	inner := make([][]int, len(strides))
	for i, st := range strides {
		inner[i] = st[lead:]
	}
	idx := make([]int, lead)
	offs := make([]int, len(strides))
	for {
		for i, st := range strides {
			offs[i] = 0
			for k := 0; k < lead; k++ {
				offs[i] += idx[k] * st[k]
			}
		}
		if err := fn(sh, offs, inner); err != nil {
			return err
		}
		k := lead - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return nil
		}
	}
}

func view(off int, st []int) viewArg {
	v := viewArg{Off: int64(off)}
	for i, s := range st {
		v.St[i] = int64(s)
	}
	return v
}

// Copy implements backend.Core: a device memcpy when both views run contiguously in one type,
// else a strided (converting) kernel.
func (d *Device) Copy(dst, src backend.Strided, shape []int) {
	n := numel(shape)
	if n == 0 {
		return
	}
	d.run("copy", func() error { return d.copy(dst, src, shape) })
}

func (d *Device) copy(dst, src backend.Strided, shape []int) error {
	shp, sts := backend.Coalesce(shape, dst.Strides, src.Strides)
	dt, st := dst.Buf.DType, src.Buf.DType
	if dt == st && len(shp) == 1 && sts[0][0] == 1 && sts[1][0] == 1 {
		sz := dt.Size()
		return d.drv.CopyDtoD(addr(dst.Buf, dst.Offset), addr(src.Buf, src.Offset), shp[0]*sz, d.stream)
	}
	total := int64(numel(shp[max(0, len(shp)-maxDims):]))
	return forEachBlock(shp, sts, func(sh shapeArg, offs []int, in [][]int) error {
		dv, sv := view(dst.Offset+offs[0], in[0]), view(src.Offset+offs[1], in[1])
		if dt == st {
			name := map[int]string{2: "copy_2", 4: "copy_4", 8: "copy_8"}[dt.Size()]
			return d.launch(name, blocksFor(total), dst.Buf.Ptr, dv, src.Buf.Ptr, sv, sh, total)
		}
		return d.launch("copy_convert", blocksFor(total), dst.Buf.Ptr, dv, int32(dt), src.Buf.Ptr, sv, int32(st), sh, total)
	})
}

// Fill implements backend.Core.
func (d *Device) Fill(b *backend.Buffer, v float64) {
	if b.Len == 0 {
		return
	}
	d.run("fill", func() error {
		switch b.DType {
		case backend.F32:
			return d.drv.Memset32(b.Ptr, math.Float32bits(float32(v)), b.Len, d.stream)
		case backend.BF16:
			return d.drv.Memset16(b.Ptr, half.F32ToBF16(float32(v)), b.Len, d.stream)
		case backend.F16:
			return d.drv.Memset16(b.Ptr, half.F32ToF16(float32(v)), b.Len, d.stream)
		case backend.I64:
			return d.launch("fill_8", blocksFor(int64(b.Len)), b.Ptr, uint64(int64(v)), int64(b.Len))
		}
		return d.launch("fill_8", blocksFor(int64(b.Len)), b.Ptr, math.Float64bits(v), int64(b.Len))
	})
}
