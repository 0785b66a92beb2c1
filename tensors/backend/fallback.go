package backend

import "fmt"

// Helpers of the composed (fallback) fused ops. They run only on devices that lack the fused
// op, so they favour simple, exact compositions of Core ops over speed.

// whole is a contiguous view of b as shape.
func whole(b *Buffer, shape ...int) Strided {
	return Strided{Buf: b, Strides: ContiguousStrides(shape...)}
}

// at is a view of b at off with the given strides.
func at(b *Buffer, off int, strides ...int) Strided {
	return Strided{Buf: b, Offset: off, Strides: strides}
}

func (x *completed) tmp(dt DType, n int) *Buffer { return x.AllocUninit(dt, n) }

func (x *completed) release(bs ...*Buffer) { releaseAll(x, bs...) }

// scalar returns a one-element buffer holding v.
func (x *completed) scalar(dt DType, v float64) *Buffer {
	b := x.AllocUninit(dt, 1)
	x.Fill(b, v)
	return b
}

// toHost returns b's elements in host memory (b itself on a host core).
func (x *completed) toHost(b *Buffer) *Buffer {
	if x.tr == nil {
		return b
	}
	return x.tr.Download(b)
}

// fromHost returns a device buffer holding the host buffer h's elements.
func (x *completed) fromHost(h *Buffer) *Buffer {
	if x.tr == nil {
		return h
	}
	return x.tr.Upload(h)
}

// iota returns the int64 buffer 0, 1, …, n-1.
func (x *completed) iota(n int) *Buffer {
	h := NewHost(I64, n)
	for i := range h.I64 {
		h.I64[i] = int64(i)
	}
	return x.fromHost(h)
}

// indices returns idx's values on the host, each checked against [0, n).
func (x *completed) indices(idx *Buffer, n int) []int64 {
	v := x.toHost(idx).I64
	for _, i := range v {
		checkIndex(i, n)
	}
	return v
}

func checkIndex(i int64, n int) {
	if i < 0 || int(i) >= n {
		panic(fmt.Sprintf("tensors: index %d out of range for dimension of size %d", i, n))
	}
}

// checkRange panics unless every element of the int64 buffer idx lies in [0, n); it reads only
// the extremes back.
func (x *completed) checkRange(idx *Buffer, n int) {
	if idx.Len == 0 {
		return
	}
	ext := x.tmp(I64, 2)
	lo, hi := x.tmp(I64, 1), x.tmp(I64, 1)
	x.Reduce(Min, lo, idx, 1, idx.Len, 1)
	x.Reduce(Max, hi, idx, 1, idx.Len, 1)
	x.Copy(at(ext, 0, 1), at(lo, 0, 1), []int{1})
	x.Copy(at(ext, 1, 1), at(hi, 0, 1), []int{1})
	v := x.toHost(ext).I64
	x.release(ext, lo, hi)
	checkIndex(v[0], n)
	checkIndex(v[1], n)
}

// addInto adds the view src into the view dst (shape), through a contiguous temporary.
func (x *completed) addInto(dst, src Strided, shape []int) {
	n := 1
	for _, s := range shape {
		n *= s
	}
	if n == 0 {
		return
	}
	t := x.tmp(dst.Buf.DType, n)
	x.Binary(Add, t, dst, src, shape)
	x.Copy(dst, whole(t, shape...), shape)
	x.Release(t)
}

// load returns v's elements as a whole contiguous buffer: v's own buffer when v spans all of it,
// else a copy (owned reports which; store writes an owned copy back).
func (x *completed) load(v Vec) (b *Buffer, owned bool) {
	if v.Off == 0 && v.Len == v.Buf.Len {
		return v.Buf, false
	}
	b = x.tmp(v.Buf.DType, v.Len)
	x.Copy(whole(b, v.Len), at(v.Buf, v.Off, 1), []int{v.Len})
	return b, true
}

// store writes b back into v (a no-op when b is v's own buffer) and releases an owned b.
func (x *completed) store(v Vec, b *Buffer, owned bool) {
	if !owned {
		return
	}
	x.Copy(at(v.Buf, v.Off, 1), whole(b, v.Len), []int{v.Len})
	x.Release(b)
}

// unaryNew returns op(a) in a new buffer.
func (x *completed) unaryNew(op UnaryOp, a *Buffer, p float64) *Buffer {
	d := x.tmp(a.DType, a.Len)
	x.Unary(op, d, a, p, 0)
	return d
}

// binaryFlat computes dst = a op b over n contiguous elements (b broadcast when bScalar).
func (x *completed) binaryFlat(op BinaryOp, dst, a, b *Buffer, n int, bScalar bool) {
	bs := at(b, 0, 1)
	if bScalar {
		bs = at(b, 0, 0)
	}
	x.Binary(op, dst, at(a, 0, 1), bs, []int{n})
}
