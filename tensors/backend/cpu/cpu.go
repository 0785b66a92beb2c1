package cpu

import (
	"fmt"
	"sync"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
)

// CPU is the host backend. Its zero value is not usable; call New.
//
// Buffers released to it are kept in free lists by size class (backend.SizeClass) and handed
// out again, warm and already mapped, to later allocations of a similar size: Go would
// otherwise zero every fresh buffer and the kernel fault its pages in, which costs several times
// the work of a memory-bound op.
type CPU struct {
	mu     sync.Mutex
	free   map[poolKey][]*backend.Buffer
	pooled int // bytes currently held in free lists

	columnsOnly bool // tests: convolve by columns even where the direct kernels run
}

type poolKey struct {
	dt    backend.DType
	class int // elements
}

// minPooled is the smallest buffer (elements) worth pooling; smaller ones are cheap for the
// garbage collector.
const minPooled = 256

// maxPooled bounds the bytes kept for reuse so a one-off large step does not pin memory forever.
const maxPooled = 512 << 20

// New returns a CPU backend with an empty buffer pool.
func New() *CPU { return &CPU{free: map[poolKey][]*backend.Buffer{}} }

// Name implements backend.Backend.
func (c *CPU) Name() string { return "cpu" }

// classOf returns the pooled capacity (elements) for n elements of dt.
func classOf(dt backend.DType, n int) int {
	sz := dt.Size()
	return backend.SizeClass(n*sz) / sz
}

// Alloc implements backend.Backend.
func (c *CPU) Alloc(dt backend.DType, n int) *backend.Buffer {
	if b := c.reuse(dt, n); b != nil {
		c.Fill(b, 0)
		return b
	}
	return c.newBuffer(dt, n)
}

// AllocUninit implements backend.Backend.
func (c *CPU) AllocUninit(dt backend.DType, n int) *backend.Buffer {
	if b := c.reuse(dt, n); b != nil {
		return b
	}
	return c.newBuffer(dt, n)
}

// newBuffer allocates a buffer of n elements with its class's capacity, so it can serve any
// request of that class once released.
func (c *CPU) newBuffer(dt backend.DType, n int) *backend.Buffer {
	if n < minPooled {
		return newBuffer(dt, n, n)
	}
	return newBuffer(dt, n, classOf(dt, n))
}

func (c *CPU) reuse(dt backend.DType, n int) *backend.Buffer {
	if n < minPooled {
		return nil
	}
	k := poolKey{dt, classOf(dt, n)}
	c.mu.Lock()
	l := c.free[k]
	if len(l) == 0 {
		c.mu.Unlock()
		return nil
	}
	b := l[len(l)-1]
	l[len(l)-1] = nil
	c.free[k] = l[:len(l)-1]
	c.pooled -= k.class * dt.Size()
	c.mu.Unlock()
	resize(b, n)
	return b
}

// Release implements backend.Backend: the buffer goes to its class's free list. Buffers below
// minPooled elements, and any beyond maxPooled bytes of free lists, are left to the garbage
// collector.
func (c *CPU) Release(b *backend.Buffer) {
	if b == nil || b.Len < minPooled {
		return
	}
	k := poolKey{b.DType, capacity(b)}
	if k.class != classOf(b.DType, b.Len) {
		return // not one of the pool's buffers (a host buffer made elsewhere)
	}
	sz := k.class * b.DType.Size()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pooled+sz > maxPooled {
		return
	}
	c.free[k] = append(c.free[k], b)
	c.pooled += sz
}

// Pooled returns the bytes held in free lists, for tests and benchmarks.
func (c *CPU) Pooled() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pooled
}

func newBuffer(dt backend.DType, n, capacity int) *backend.Buffer {
	b := &backend.Buffer{DType: dt, Len: n}
	switch dt {
	case backend.F32:
		b.F32 = make([]float32, n, capacity)
	case backend.F64:
		b.F64 = make([]float64, n, capacity)
	case backend.I64:
		b.I64 = make([]int64, n, capacity)
	case backend.BF16, backend.F16:
		b.U16 = make([]uint16, n, capacity)
	default:
		panic(fmt.Sprintf("cpu: unknown dtype %d", dt))
	}
	return b
}

// capacity is the number of elements b's slice can hold.
func capacity(b *backend.Buffer) int {
	switch b.DType {
	case backend.F32:
		return cap(b.F32)
	case backend.F64:
		return cap(b.F64)
	case backend.I64:
		return cap(b.I64)
	}
	return cap(b.U16)
}

// resize sets b's length to n elements (n within its capacity).
func resize(b *backend.Buffer, n int) {
	b.Len = n
	switch b.DType {
	case backend.F32:
		b.F32 = b.F32[:n]
	case backend.F64:
		b.F64 = b.F64[:n]
	case backend.I64:
		b.I64 = b.I64[:n]
	default:
		b.U16 = b.U16[:n]
	}
}

// Fill implements backend.Backend.
func (c *CPU) Fill(b *backend.Buffer, v float64) {
	switch b.DType {
	case backend.F32:
		fill(b.F32, float32(v))
	case backend.F64:
		fill(b.F64, v)
	case backend.I64:
		fill(b.I64, int64(v))
	case backend.BF16:
		fill(b.U16, half.F32ToBF16(float32(v)))
	case backend.F16:
		fill(b.U16, half.F32ToF16(float32(v)))
	}
}

func fill[T any](s []T, v T) {
	var zero T
	if any(v) == any(zero) {
		clear(s)
		return
	}
	fillDoubling(s, v)
}

var _ backend.Backend = (*CPU)(nil)
