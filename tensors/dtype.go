package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
)

// DType is a tensor's element type.
type DType int

// Element types. Float32 is the default; Float64 is for gradient checks; BFloat16 and Float16
// store mixed-precision values; Int64 holds labels and indices.
const (
	Float32 DType = iota
	Float64
	BFloat16
	Float16
	Int64
)

// String returns PyTorch's name without the "torch." prefix, e.g. "bfloat16".
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case BFloat16:
		return "bfloat16"
	case Float16:
		return "float16"
	case Int64:
		return "int64"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

func (d DType) isFloat() bool { return d != Int64 }

func (d DType) be() backend.DType { return backend.DType(d) }

// RoundBFloat16 rounds v to the nearest bfloat16 (ties to even) and returns it widened.
func RoundBFloat16(v float32) float32 { return half.BF16ToF32(half.F32ToBF16(v)) }

// RoundFloat16 rounds v to the nearest IEEE half (ties to even) and returns it widened.
func RoundFloat16(v float32) float32 { return half.F16ToF32(half.F32ToF16(v)) }
