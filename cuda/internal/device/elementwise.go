package device

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// suffix is a float kernel's type suffix.
func suffix(dt backend.DType) string {
	switch dt {
	case backend.F32:
		return "_f32"
	case backend.F64:
		return "_f64"
	case backend.I64:
		return "_i64"
	}
	panic(fmt.Sprintf("cuda: no kernel for %s (convert first)", dt))
}

// Unary implements backend.Core.
func (d *Device) Unary(op backend.UnaryOp, dst, x *backend.Buffer, p, q float64) {
	n := int64(x.Len)
	d.run("unary op", func() error {
		return d.launch("unary"+suffix(x.DType), blocksFor(n), int32(op), dst.Ptr, x.Ptr, n, p, q)
	})
}

// UnaryGrad implements backend.Core.
func (d *Device) UnaryGrad(op backend.UnaryOp, dx, gy, x, y *backend.Buffer, p, q float64) {
	n := int64(gy.Len)
	d.run("unary op gradient", func() error {
		return d.launch("unary_grad"+suffix(gy.DType), blocksFor(n), int32(op), dx.Ptr, gy.Ptr, addr(x, 0), addr(y, 0), n, p, q)
	})
}

// Binary implements backend.Core: a flat kernel when both operands run contiguously (or b is one
// broadcast value), else the strided one.
func (d *Device) Binary(op backend.BinaryOp, dst *backend.Buffer, a, b backend.Strided, shape []int) {
	n := numel(shape)
	if n == 0 {
		return
	}
	d.run("binary op", func() error {
		shp, sts := backend.Coalesce(shape, contiguous(shape), a.Strides, b.Strides)
		dt := a.Buf.DType
		if len(shp) == 1 && sts[1][0] == 1 && (sts[2][0] == 1 || sts[2][0] == 0) && dt != backend.I64 {
			scalar := int32(0)
			if sts[2][0] == 0 {
				scalar = 1
			}
			return d.launch("binary_flat"+suffix(dt), blocksFor(int64(n)), int32(op), dst.Ptr, addr(a.Buf, a.Offset), addr(b.Buf, b.Offset), scalar, int64(n))
		}
		return forEachBlock(shp, sts, func(sh shapeArg, offs []int, in [][]int) error {
			total := int64(numel(shp[max(0, len(shp)-maxDims):]))
			return d.launch("binary"+suffix(dt), blocksFor(total), int32(op), addr(dst, offs[0]),
				a.Buf.Ptr, view(a.Offset+offs[1], in[1]), b.Buf.Ptr, view(b.Offset+offs[2], in[2]), sh, total)
		})
	})
}

// Where implements backend.Core.
func (d *Device) Where(dst *backend.Buffer, cond, a, b backend.Strided, shape []int) {
	n := numel(shape)
	if n == 0 {
		return
	}
	d.run("where", func() error {
		shp, sts := backend.Coalesce(shape, contiguous(shape), cond.Strides, a.Strides, b.Strides)
		return forEachBlock(shp, sts, func(sh shapeArg, offs []int, in [][]int) error {
			total := int64(numel(shp[max(0, len(shp)-maxDims):]))
			return d.launch("where"+suffix(dst.DType), blocksFor(total), addr(dst, offs[0]),
				cond.Buf.Ptr, int32(cond.Buf.DType), view(cond.Offset+offs[1], in[1]),
				a.Buf.Ptr, view(a.Offset+offs[2], in[2]), b.Buf.Ptr, view(b.Offset+offs[3], in[3]), sh, total)
		})
	})
}

// Reduce implements backend.Core.
func (d *Device) Reduce(op backend.ReduceOp, dst, src *backend.Buffer, outer, n, inner int) {
	outs := int64(outer * inner)
	d.run("reduction", func() error {
		return d.launch("reduce"+suffix(src.DType), rowsGrid(outs), int32(op), dst.Ptr, src.Ptr, int64(outer), int64(n), int64(inner))
	})
}

// Softmax implements backend.SoftmaxOps (nothing to do when the axis is empty).
func (d *Device) Softmax(dst, src *backend.Buffer, outer, n, inner int, log bool) {
	if n == 0 {
		return
	}
	d.run("softmax", func() error {
		return d.launch("softmax"+suffix(src.DType), rowsGrid(int64(outer*inner)), dst.Ptr, src.Ptr, int64(outer), int64(n), int64(inner), b2i(log))
	})
}

// SoftmaxGrad implements backend.SoftmaxOps.
func (d *Device) SoftmaxGrad(dx, gy, y *backend.Buffer, outer, n, inner int, log bool) {
	if n == 0 {
		return
	}
	d.run("softmax gradient", func() error {
		return d.launch("softmax_grad"+suffix(y.DType), rowsGrid(int64(outer*inner)), dx.Ptr, gy.Ptr, y.Ptr, int64(outer), int64(n), int64(inner), b2i(log))
	})
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
