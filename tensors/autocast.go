package tensors

import (
	"fmt"
	"sync/atomic"
)

// autocastDT holds the active autocast dtype plus one (0 = off). Process-wide, like NoGrad.
var autocastDT atomic.Int32

// autocastType returns the low-precision type matmul-like ops compute in, or Float32.
func autocastType() DType {
	if v := autocastDT.Load(); v != 0 {
		return DType(v - 1)
	}
	return Float32
}

// Autocast runs fn with mixed precision: MatMul, Linear and Conv2d round their float32 operands
// to dt (BFloat16 or Float16) and accumulate in float32, producing float32 results; their
// backward passes use the same precision. Reductions, softmax and losses stay float32.
func Autocast(dt DType, fn func()) {
	if dt != BFloat16 && dt != Float16 {
		panic(fmt.Sprintf("tensors: Autocast: dtype must be BFloat16 or Float16, have %s", dt))
	}
	prev := autocastDT.Swap(int32(dt) + 1)
	defer autocastDT.Store(prev)
	fn()
}
