package cpu

import (
	"fmt"
	"sync"

	"github.com/goaccel/goaccel/internal/backend"
	"github.com/goaccel/goaccel/internal/half"
)

// CPU is the host backend. Its zero value is not usable; call New.
type CPU struct {
	mu     sync.Mutex
	free   map[poolKey][]*backend.Buffer
	pooled int // bytes currently held in free lists
}

type poolKey struct {
	dt backend.DType
	n  int
}

// maxPooled bounds the bytes kept for reuse so a one-off large step does not pin memory forever.
const maxPooled = 256 << 20

// New returns a CPU backend with an empty buffer pool.
func New() *CPU { return &CPU{free: map[poolKey][]*backend.Buffer{}} }

// Name implements backend.Backend.
func (c *CPU) Name() string { return "cpu" }

func elemSize(dt backend.DType) int {
	switch dt {
	case backend.F32:
		return 4
	case backend.BF16, backend.F16:
		return 2
	}
	return 8
}

// Alloc implements backend.Backend.
func (c *CPU) Alloc(dt backend.DType, n int) *backend.Buffer {
	if b := c.reuse(dt, n); b != nil {
		c.Fill(b, 0)
		return b
	}
	return newBuffer(dt, n)
}

// AllocUninit implements backend.Backend.
func (c *CPU) AllocUninit(dt backend.DType, n int) *backend.Buffer {
	if b := c.reuse(dt, n); b != nil {
		return b
	}
	return newBuffer(dt, n)
}

func (c *CPU) reuse(dt backend.DType, n int) *backend.Buffer {
	if n < 64 {
		return nil
	}
	k := poolKey{dt, n}
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.free[k]
	if len(l) == 0 {
		return nil
	}
	b := l[len(l)-1]
	l[len(l)-1] = nil
	c.free[k] = l[:len(l)-1]
	c.pooled -= n * elemSize(dt)
	return b
}

// Release implements backend.Backend. Small buffers are left to the garbage collector.
func (c *CPU) Release(b *backend.Buffer) {
	if b == nil || b.Len < 64 {
		return
	}
	sz := b.Len * elemSize(b.DType)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pooled+sz > maxPooled {
		return
	}
	k := poolKey{b.DType, b.Len}
	c.free[k] = append(c.free[k], b)
	c.pooled += sz
}

func newBuffer(dt backend.DType, n int) *backend.Buffer {
	b := &backend.Buffer{DType: dt, Len: n}
	switch dt {
	case backend.F32:
		b.F32 = make([]float32, n)
	case backend.F64:
		b.F64 = make([]float64, n)
	case backend.I64:
		b.I64 = make([]int64, n)
	case backend.BF16, backend.F16:
		b.U16 = make([]uint16, n)
	default:
		panic(fmt.Sprintf("cpu: unknown dtype %d", dt))
	}
	return b
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
	for i := range s {
		s[i] = v
	}
}

var _ backend.Backend = (*CPU)(nil)
