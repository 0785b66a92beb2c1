package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// broadcastShapes returns the NumPy broadcast of the shapes or panics naming op and both shapes.
func broadcastShapes(op string, shapes ...[]int) []int {
	nd := 0
	for _, s := range shapes {
		nd = max(nd, len(s))
	}
	out := make([]int, nd)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		for i, d := range s {
			j := nd - len(s) + i
			switch {
			case out[j] == d || d == 1:
			case out[j] == 1:
				out[j] = d
			default:
				desc := fmt.Sprint(shapes[0])
				for _, o := range shapes[1:] {
					desc += " and " + fmt.Sprint(o)
				}
				panic(fmt.Sprintf("tensors: %s: shapes %s are not broadcastable", op, desc))
			}
		}
	}
	return out
}

// bcast describes t broadcast to shape: stride 0 on the broadcast dimensions.
func (t *Tensor) bcast(shape []int) backend.Strided {
	st := make([]int, len(shape))
	off := len(shape) - len(t.shape)
	for i := range t.shape {
		if t.shape[i] != 1 {
			st[off+i] = t.strides[i]
		}
	}
	return backend.Strided{Buf: t.buf(), Offset: t.offset, Strides: st}
}

// sumTo reduces a broadcast gradient g back to shape (the adjoint of broadcasting): g itself
// when it already has shape, else a new tensor.
func sumTo(g *Tensor, shape []int) *Tensor {
	if slices.Equal(g.shape, shape) {
		return g
	}
	lead := len(g.shape) - len(shape)
	var dims []int
	for i := range g.shape {
		if i < lead || (shape[i-lead] == 1 && g.shape[i] != 1) {
			dims = append(dims, i)
		}
	}
	if len(dims) == 0 {
		return g.Reshape(shape...)
	}
	s := g.SumDims(true, dims...)
	return handOver(s, s.Reshape(shape...))
}

// sumToOwned is sumTo of an internal temporary x, which it releases when the result is another
// tensor.
func sumToOwned(x *Tensor, shape []int) *Tensor { return handOver(x, sumTo(x, shape)) }

// checkDevices panics, naming op and the devices, unless every non-nil tensor of ts is on ts[0]'s
// device.
func checkDevices(op string, ts ...*Tensor) {
	var first *Tensor
	for _, t := range ts {
		if t == nil {
			continue
		}
		if first == nil {
			first = t
			continue
		}
		if !sameDevice(t.dev, first.dev) {
			panic(fmt.Sprintf("tensors: %s: operands on different devices (%s and %s); move them with To", op, first.dev, t.dev))
		}
	}
}

// promote brings two operands to a common dtype and checks they share a device.
// float64 wins over float32; any float wins over int64; 16-bit floats compute in float32.
func promote(op string, a, b *Tensor) (*Tensor, *Tensor) {
	if !sameDevice(a.dev, b.dev) {
		panic(fmt.Sprintf("tensors: %s: operands on different devices (%s and %s)", op, a.dev, b.dev))
	}
	if a.dtype == b.dtype && a.dtype != BFloat16 && a.dtype != Float16 {
		return a, b
	}
	dt := Float32
	switch {
	case a.dtype == Float64 || b.dtype == Float64:
		dt = Float64
	case a.dtype == Int64 && b.dtype == Int64:
		dt = Int64
	}
	return a.AsType(dt), b.AsType(dt)
}

// dense returns t contiguous and in a type elementwise math runs in: t itself when it already
// is, else a temporary the caller releases (releaseIfNot).
func (t *Tensor) dense() *Tensor {
	c := t.computable()
	d := c.contig()
	if d != c && c != t {
		c.release()
	}
	return d
}

// computable returns t in a type elementwise math runs in: 16-bit floats and int64 widen to
// float32; float32 and float64 stay as they are.
func (t *Tensor) computable() *Tensor {
	switch t.dtype {
	case Float32, Float64:
		return t
	}
	return t.AsType(Float32)
}
