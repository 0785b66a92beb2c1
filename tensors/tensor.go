package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Tensor is an n-dimensional array on a device with an optional autograd history. Tensors made
// by shape operations (Transpose, Permute, Slice, View, compatible Reshape) share storage with
// their source.
type Tensor struct {
	st      *storage
	dev     Device
	dtype   DType
	shape   []int
	strides []int
	offset  int

	requiresGrad bool
	grad         *Tensor        // the gradient (this tensor's own handle)
	gradOut      *Tensor        // the handle Grad handed out for grad, if any
	node         *node          // the op that produced this tensor; nil for leaves
	hooks        []*HookHandle  // OnGradReady hooks (leaves)
	bw           *backwardState // bookkeeping during a backward pass
	released     bool           // Release was called on this handle
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
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

func checkShape(op string, shape []int) {
	for _, s := range shape {
		if s < 0 {
			panic(fmt.Sprintf("tensors: %s: negative dimension in shape %v", op, shape))
		}
	}
}

// empty allocates a contiguous tensor whose contents the caller will overwrite.
func empty(dt DType, dev Device, shape ...int) *Tensor {
	backend.CollectIfDue()
	shape = append([]int(nil), shape...)
	be := backendFor(dev)
	return &Tensor{st: newStorage(be, be.AllocUninit(dt.be(), numel(shape))), dev: dev, dtype: dt, shape: shape, strides: contiguousStrides(shape)}
}

// zeros allocates a contiguous zero tensor.
func zeros(dt DType, dev Device, shape ...int) *Tensor {
	backend.CollectIfDue()
	shape = append([]int(nil), shape...)
	be := backendFor(dev)
	return &Tensor{st: newStorage(be, be.Alloc(dt.be(), numel(shape))), dev: dev, dtype: dt, shape: shape, strides: contiguousStrides(shape)}
}

// be is the backend of t's device: the one its storage was made by (looking the device up in
// the registry would take a lock on every op).
func (t *Tensor) be() backend.Backend { return t.st.be }

func (t *Tensor) strided() backend.Strided {
	return backend.Strided{Buf: t.buf(), Offset: t.offset, Strides: t.strides}
}

// Shape returns a copy of the dimensions.
func (t *Tensor) Shape() []int { return append([]int(nil), t.shape...) }

// Dim returns the number of dimensions.
func (t *Tensor) Dim() int { return len(t.shape) }

// Size returns the length of dimension dim; negative dims count from the end.
func (t *Tensor) Size(dim int) int { return t.shape[t.normDim("Size", dim)] }

// Numel returns the number of elements.
func (t *Tensor) Numel() int { return numel(t.shape) }

// DType returns the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Device returns where the storage lives.
func (t *Tensor) Device() Device { return t.dev }

// normDim resolves a possibly negative dimension, panicking with the op name when out of range.
func (t *Tensor) normDim(op string, dim int) int {
	n := len(t.shape)
	d := dim
	if d < 0 {
		d += n
	}
	if d < 0 || d >= n {
		panic(fmt.Sprintf("tensors: %s: dimension %d out of range for shape %v", op, dim, t.shape))
	}
	return d
}

func (t *Tensor) isContiguous() bool {
	acc := 1
	for i := len(t.shape) - 1; i >= 0; i-- {
		if t.shape[i] != 1 && t.strides[i] != acc {
			return false
		}
		acc *= t.shape[i]
	}
	return true
}

// IsContiguous reports whether the elements are laid out row-major without gaps.
func (t *Tensor) IsContiguous() bool { return t.isContiguous() }

// contig returns t if it is contiguous with offset 0, else a contiguous copy (no autograd).
func (t *Tensor) contig() *Tensor {
	if t.offset == 0 && t.isContiguous() && t.buf().Len == numel(t.shape) {
		return t
	}
	out := empty(t.dtype, t.dev, t.shape...)
	t.be().Copy(out.strided(), t.strided(), t.shape)
	return out
}

// Contiguous returns t when it is already contiguous, otherwise a contiguous copy. It is
// differentiable.
func (t *Tensor) Contiguous() *Tensor {
	c := t.contig()
	if c == t {
		return t
	}
	record(c, "Contiguous", []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g} })
	return c
}

// To returns the tensor on device d (t itself when it is already there). The copy is
// differentiable: the gradient moves back to t's device.
func (t *Tensor) To(d Device) *Tensor {
	if sameDevice(d, t.dev) {
		return t
	}
	defer opSpan("To", t).End()
	out := t.moved(d)
	src := t.dev
	record(out, "To", []*Tensor{t}, func(g *Tensor) []*Tensor { return []*Tensor{g.To(src)} })
	return out
}

// moved returns a contiguous copy of t's elements on device d (no autograd): a download when t
// is on a device, an upload when d is one, both through the host between two devices.
func (t *Tensor) moved(d Device) *Tensor {
	var h *Tensor // t's elements in host memory, contiguous
	if t.onDevice() {
		h = t.host()
	} else {
		h = t.contig() // may be t itself: the upload copies it
	}
	be := backendFor(d)
	backend.CollectIfDue()
	tr, ok := be.(backend.Transfer)
	if !ok {
		// A host device: h is the result unless it is t's own storage.
		if h == t {
			h = t.convertTo(t.dtype)
		}
		h.dev = d.norm()
		h.st.be = be // h's storage is its own: a copy made above
		return h
	}
	out := &Tensor{st: newStorage(be, tr.Upload(h.buf())), dev: d.norm(), dtype: t.dtype, shape: h.shape, strides: h.strides}
	if h != t {
		h.release() // the host copy was only a way to the device
	}
	return out
}

// MoveTo moves the storage of the leaf tensor t to device d in place, keeping t's identity, so
// that every holder of t (a module, an optimizer) sees it on d, as PyTorch's module.to(device)
// moves parameters. Its gradient, if any, moves too. It panics for a tensor computed by an op
// (use To for those).
func (t *Tensor) MoveTo(d Device) {
	if t.node != nil {
		panic("tensors: MoveTo: the tensor was computed by an op; only leaf tensors move in place (use To)")
	}
	if sameDevice(d, t.dev) {
		return
	}
	m := t.moved(d)
	old := t.st
	t.st, t.dev, t.shape, t.strides, t.offset = m.st, m.dev, m.shape, m.strides, 0
	old.drop()
	if t.grad != nil {
		g := t.grad.moved(d)
		t.grad.release()
		t.grad, t.gradOut = g, nil
	}
}

// onDevice reports whether t's storage is device memory the host cannot address.
func (t *Tensor) onDevice() bool {
	_, ok := t.be().(backend.Transfer)
	return ok
}

// host returns t's elements as a contiguous tensor in host memory that the caller owns (no
// autograd): a download from a device, a private copy on the CPU.
func (t *Tensor) host() *Tensor {
	c := t.contig()
	if tr, ok := c.be().(backend.Transfer); ok {
		h := &Tensor{st: newStorage(cpuBackend, tr.Download(c.buf())), dev: CPU, dtype: c.dtype, shape: c.shape, strides: c.strides}
		if c != t {
			c.release()
		}
		return h
	}
	if c == t {
		c = t.convertTo(t.dtype)
	}
	return c
}

// Data32 returns the live storage of a contiguous float32 CPU tensor (no copy). Writes change
// the tensor; autograd does not see them. Tensors on other devices have no host storage: read
// them with Float32s.
func (t *Tensor) Data32() []float32 {
	if t.dtype != Float32 || !t.isContiguous() || t.onDevice() {
		panic(fmt.Sprintf("tensors: Data32: need a contiguous float32 cpu tensor, have %s %v on %s (use Contiguous, AsType(Float32), or Float32s for a copy)", t.dtype, t.shape, t.dev))
	}
	t.export()
	return hostF32(t.buf())[t.offset : t.offset+t.Numel()]
}

// DataPtr returns the device address of the first element of t, a contiguous tensor on a GPU, for
// libraries that read and write device memory themselves (NCCL), as PyTorch's data_ptr(). Work
// queued on the device before is ordered before theirs only on the device's stream. The address
// is valid while t is reachable: keep t (runtime.KeepAlive) until that work is queued. It panics
// for CPU tensors (Data32 exposes their storage) and non-contiguous ones.
func (t *Tensor) DataPtr() uintptr {
	if !t.onDevice() || !t.isContiguous() {
		panic(fmt.Sprintf("tensors: DataPtr: need a contiguous tensor on a GPU, have %v on %s", t.shape, t.dev))
	}
	t.export()
	return t.buf().Ptr + uintptr(t.offset*t.dtype.be().Size())
}

// Data64 is Data32 for float64 tensors.
func (t *Tensor) Data64() []float64 {
	if t.dtype != Float64 || !t.isContiguous() || t.onDevice() {
		panic(fmt.Sprintf("tensors: Data64: need a contiguous float64 cpu tensor, have %s %v on %s (or Float64s for a copy)", t.dtype, t.shape, t.dev))
	}
	t.export()
	return hostF64(t.buf())[t.offset : t.offset+t.Numel()]
}

// convertTo returns a contiguous copy of t with element type dt (no autograd).
func (t *Tensor) convertTo(dt DType) *Tensor {
	out := empty(dt, t.dev, t.shape...)
	t.be().Copy(out.strided(), t.strided(), t.shape)
	return out
}

// hostAs returns t's elements as a contiguous host tensor of type dt, sharing t's storage when
// t already is one (callers copy what they hand out).
func (t *Tensor) hostAs(dt DType) *Tensor {
	defer opSpan("ReadBack", t).End()
	c := t.onHost()
	if c.dtype != dt || !c.isContiguous() {
		c = c.convertTo(dt)
	}
	return c
}

// Float32s returns the elements in row-major order as float32 (a copy; from a device, a
// download that waits for the work queued on the tensor).
func (t *Tensor) Float32s() []float32 {
	c := t.hostAs(Float32)
	out := append([]float32(nil), hostF32(c.buf())[c.offset:c.offset+c.Numel()]...)
	if c != t {
		c.release()
	}
	return out
}

// Float64s returns the elements in row-major order as float64 (a copy).
func (t *Tensor) Float64s() []float64 {
	c := t.hostAs(Float64)
	out := append([]float64(nil), hostF64(c.buf())[c.offset:c.offset+c.Numel()]...)
	if c != t {
		c.release()
	}
	return out
}

// Int64s returns the elements in row-major order as int64 (a copy; floats truncate).
func (t *Tensor) Int64s() []int64 {
	c := t.hostAs(Int64)
	out := append([]int64(nil), hostI64(c.buf())[c.offset:c.offset+c.Numel()]...)
	if c != t {
		c.release()
	}
	return out
}

// At returns the element at index, one per dimension (negative counts from the end), as
// PyTorch's t[i, j].item(): from a device, a download of that element.
func (t *Tensor) At(index ...int) float64 {
	if len(index) != len(t.shape) {
		panic(fmt.Sprintf("tensors: At: %d indices for a tensor of shape %v, need one per dimension", len(index), t.shape))
	}
	off := t.offset
	for d, i := range index {
		if i < -t.shape[d] || i >= t.shape[d] {
			panic(fmt.Sprintf("tensors: At: index %d out of range for dimension %d of shape %v", i, d, t.shape))
		}
		if i < 0 {
			i += t.shape[d]
		}
		off += i * t.strides[d]
	}
	e := t.view([]int{}, []int{}, off)
	defer e.release()
	return e.Float64s()[0]
}

// Item returns the value of a one-element tensor.
func (t *Tensor) Item() float64 {
	if t.Numel() != 1 {
		panic(fmt.Sprintf("tensors: Item: tensor of shape %v has %d elements, need exactly 1", t.shape, t.Numel()))
	}
	return t.Float64s()[0]
}

// CopyFrom copies src's values into t (same shape; dtype converted; from any device), outside
// autograd.
func (t *Tensor) CopyFrom(src *Tensor) {
	if !slices.Equal(t.shape, src.shape) {
		panic(fmt.Sprintf("tensors: CopyFrom: shapes %v and %v differ", t.shape, src.shape))
	}
	if !sameDevice(src.dev, t.dev) {
		m := src.moved(t.dev)
		defer m.release()
		src = m
	}
	t.be().Copy(t.strided(), src.strided(), t.shape)
	keep(t, src)
}

// Fill sets every element to v, outside autograd.
func (t *Tensor) Fill(v float64) {
	if t.isContiguous() && t.offset == 0 && t.buf().Len == t.Numel() {
		t.be().Fill(t.buf(), v)
		keep(t)
		return
	}
	f := FullLike(t, v)
	t.be().Copy(t.strided(), f.strided(), t.shape)
	f.release()
	keep(t)
}

func bufOf(t *Tensor) *backend.Buffer {
	if t == nil {
		return nil
	}
	return t.buf()
}

// onHost is t itself for host-addressable storage, else a host copy.
func (t *Tensor) onHost() *Tensor {
	if t.onDevice() {
		return t.host()
	}
	return t
}
