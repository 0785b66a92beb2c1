package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// view returns a tensor sharing t's storage with a new layout.
func (t *Tensor) view(shape, strides []int, offset int) *Tensor {
	t.st.retain()
	return &Tensor{st: t.st, dev: t.dev, dtype: t.dtype, shape: shape, strides: strides, offset: offset}
}

// AsType returns t converted to dt (t itself when it already is dt). Conversions between float
// types are differentiable; float to int64 truncates toward zero.
func (t *Tensor) AsType(dt DType) *Tensor {
	if dt == t.dtype {
		return t
	}
	out := t.convertTo(dt)
	if dt.isFloat() {
		src := t.dtype
		record(out, "AsType", []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g.convertTo(src)} })
	}
	return out
}

// inferShape resolves one -1 in shape against n elements.
func inferShape(op string, have []int, n int, shape []int) []int {
	shape = slices.Clone(shape)
	neg, known := -1, 1
	for i, s := range shape {
		switch {
		case s == -1 && neg < 0:
			neg = i
		case s < 0:
			panic(fmt.Sprintf("tensors: %s: invalid shape %v (only one -1 allowed)", op, shape))
		default:
			known *= s
		}
	}
	if neg >= 0 {
		if known == 0 || n%known != 0 {
			panic(fmt.Sprintf("tensors: %s: cannot reshape %v (%d elements) into %v", op, have, n, shape))
		}
		shape[neg] = n / known
	}
	if numel(shape) != n {
		panic(fmt.Sprintf("tensors: %s: cannot reshape %v (%d elements) into %v", op, have, n, shape))
	}
	return shape
}

// Reshape returns the elements in a new shape (one -1 is inferred). It shares storage whenever
// the strides allow it (always for contiguous tensors; for views such as a slice of the last
// dimension split into heads, when each group of dimensions merged or split is itself
// contiguous), and copies otherwise.
func (t *Tensor) Reshape(shape ...int) *Tensor {
	shape = inferShape("Reshape", t.shape, t.Numel(), shape)
	if slices.Equal(shape, t.shape) {
		return t
	}
	src := t
	strides, ok := viewStrides(t.shape, t.strides, shape)
	if !ok {
		src = t.contig()
		strides = contiguousStrides(shape)
	}
	out := src.view(shape, strides, src.offset)
	releaseIfNot(src, t)
	record(out, "Reshape", []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g.Reshape(t.shape...)} })
	return out
}

// View is Reshape that never copies (PyTorch's view): it panics when t's strides cannot express
// the new shape.
func (t *Tensor) View(shape ...int) *Tensor {
	want := inferShape("View", t.shape, t.Numel(), shape)
	if _, ok := viewStrides(t.shape, t.strides, want); !ok {
		panic(fmt.Sprintf("tensors: View: a tensor of shape %v with strides %v cannot be viewed as %v without a copy; use Reshape or Contiguous().View", t.shape, t.strides, want))
	}
	return t.Reshape(want...)
}

// viewStrides returns strides that show the elements of (shape, strides) in newShape without
// moving them, if any exist (ATen's computeStride): each run of old dimensions that a group of
// new dimensions replaces must be contiguous within itself.
func viewStrides(shape, strides, newShape []int) ([]int, bool) {
	out := make([]int, len(newShape))
	if numel(shape) == 0 || len(shape) == 0 {
		return contiguousStrides(newShape), true
	}
	vd := len(newShape) - 1
	base := strides[len(strides)-1]
	tn, vn := 1, 1
	for td := len(shape) - 1; td >= 0; td-- {
		tn *= shape[td]
		if td == 0 || (shape[td-1] != 1 && strides[td-1] != tn*base) {
			for vd >= 0 && (vn < tn || newShape[vd] == 1) {
				out[vd] = vn * base
				vn *= newShape[vd]
				vd--
			}
			if vn != tn {
				return nil, false
			}
			if td > 0 {
				base = strides[td-1]
				tn, vn = 1, 1
			}
		}
	}
	if vd != -1 {
		return nil, false
	}
	return out, true
}

// Flatten merges dimensions startDim..endDim (inclusive, negative counts from the end).
func (t *Tensor) Flatten(startDim, endDim int) *Tensor {
	if t.Dim() == 0 {
		return t.Reshape(1)
	}
	s, e := t.normDim("Flatten", startDim), t.normDim("Flatten", endDim)
	if s > e {
		panic(fmt.Sprintf("tensors: Flatten: start dim %d after end dim %d for shape %v", startDim, endDim, t.shape))
	}
	shape := append(slices.Clone(t.shape[:s]), numel(t.shape[s:e+1]))
	return t.Reshape(append(shape, t.shape[e+1:]...)...)
}

// Transpose swaps two dimensions (a view).
func (t *Tensor) Transpose(d0, d1 int) *Tensor {
	a, b := t.normDim("Transpose", d0), t.normDim("Transpose", d1)
	perm := make([]int, t.Dim())
	for i := range perm {
		perm[i] = i
	}
	perm[a], perm[b] = b, a
	return t.permute("Transpose", perm)
}

// T transposes a 2-D tensor.
func (t *Tensor) T() *Tensor {
	if t.Dim() != 2 {
		panic(fmt.Sprintf("tensors: T: need a 2-D tensor, have shape %v (use Transpose or Permute)", t.shape))
	}
	return t.Transpose(0, 1)
}

// Permute reorders dimensions (a view): output dim i is input dim dims[i].
func (t *Tensor) Permute(dims ...int) *Tensor {
	if len(dims) != t.Dim() {
		panic(fmt.Sprintf("tensors: Permute: %v does not list the %d dimensions of shape %v", dims, t.Dim(), t.shape))
	}
	perm := make([]int, len(dims))
	seen := make([]bool, len(dims))
	for i, d := range dims {
		perm[i] = t.normDim("Permute", d)
		if seen[perm[i]] {
			panic(fmt.Sprintf("tensors: Permute: dimension %d repeated in %v", d, dims))
		}
		seen[perm[i]] = true
	}
	return t.permute("Permute", perm)
}

func (t *Tensor) permute(name string, perm []int) *Tensor {
	shape, strides := make([]int, len(perm)), make([]int, len(perm))
	inv := make([]int, len(perm))
	for i, p := range perm {
		shape[i], strides[i] = t.shape[p], t.strides[p]
		inv[p] = i
	}
	out := t.view(shape, strides, t.offset)
	record(out, name, []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g.permute(name, inv)} })
	return out
}

// Squeeze removes the given size-1 dimensions, or all of them when none are given.
func (t *Tensor) Squeeze(dims ...int) *Tensor {
	drop := make([]bool, t.Dim())
	if len(dims) == 0 {
		for i, s := range t.shape {
			drop[i] = s == 1
		}
	}
	for _, d := range dims {
		if i := t.normDim("Squeeze", d); t.shape[i] == 1 {
			drop[i] = true
		}
	}
	var shape, strides []int
	for i, s := range t.shape {
		if !drop[i] {
			shape, strides = append(shape, s), append(strides, t.strides[i])
		}
	}
	return t.restride("Squeeze", shape, strides)
}

// Unsqueeze inserts a size-1 dimension at dim (negative counts from the end of the result).
func (t *Tensor) Unsqueeze(dim int) *Tensor {
	d := dim
	if d < 0 {
		d += t.Dim() + 1
	}
	if d < 0 || d > t.Dim() {
		panic(fmt.Sprintf("tensors: Unsqueeze: dimension %d out of range for shape %v", dim, t.shape))
	}
	shape := slices.Insert(slices.Clone(t.shape), d, 1)
	st := 1
	if d < t.Dim() {
		st = t.strides[d] * t.shape[d]
	}
	strides := slices.Insert(slices.Clone(t.strides), d, st)
	return t.restride("Unsqueeze", shape, strides)
}

// restride is a view with the same elements in the same order (only size-1 dims changed).
func (t *Tensor) restride(name string, shape, strides []int) *Tensor {
	if shape == nil {
		shape, strides = []int{}, []int{}
	}
	out := t.view(shape, strides, t.offset)
	record(out, name, []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g.Reshape(t.shape...)} })
	return out
}

// Slice returns elements start..end-1 along dim (a view). Negative bounds count from the end;
// bounds beyond the dimension are clipped, as in Python slicing.
func (t *Tensor) Slice(dim, start, end int) *Tensor {
	d := t.normDim("Slice", dim)
	n := t.shape[d]
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	start, end = min(max(start, 0), n), min(max(end, 0), n)
	if end < start {
		end = start
	}
	shape := slices.Clone(t.shape)
	shape[d] = end - start
	out := t.view(shape, slices.Clone(t.strides), t.offset+start*t.strides[d])
	record(out, "Slice", []*Tensor{t}, func(g *Tensor) []*Tensor {
		gx := zeros(g.dtype, g.dev, t.shape...)
		st := backend.Strided{Buf: gx.buf(), Offset: start * gx.strides[d], Strides: gx.strides}
		g.be().Copy(st, g.strided(), g.shape)
		return []*Tensor{gx}
	})
	return out
}
