package cpu

import (
	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
)

// CPU is the host backend. Its zero value is not usable; call New.
//
// Its buffers come from a pool (bufferpool.go): buffers released to it, and those the program dropped
// without Release once the garbage collector finds them unreachable, are kept in free lists by
// size class (backend.SizeClass) and handed out again, warm and already mapped, to later
// allocations of a similar size. Go would otherwise zero every fresh buffer and the kernel fault
// its pages in, which costs several times the work of a memory-bound op.
type CPU struct {
	pool

	columnsOnly bool // tests: convolve by columns even where the direct kernels run
}

// New returns a CPU backend with an empty buffer pool.
func New() *CPU {
	c := &CPU{}
	c.pool.init()
	return c
}

// Name implements backend.Backend.
func (c *CPU) Name() string { return "cpu" }

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
	fillRow(s, v)
}

var _ backend.Backend = (*CPU)(nil)
