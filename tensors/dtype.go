package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
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

// Device names where a tensor's storage lives.
type Device struct {
	Type  string // "cpu" or "cuda"
	Index int
}

// CPU is the host device.
var CPU = Device{Type: "cpu"}

// CUDA returns the index-th NVIDIA GPU.
func CUDA(index int) Device { return Device{Type: "cuda", Index: index} }

// String returns "cpu" or "cuda:N".
func (d Device) String() string {
	if d.IsCPU() {
		return "cpu"
	}
	return fmt.Sprintf("%s:%d", d.Type, d.Index)
}

// IsCPU reports whether d is the host (the zero Device counts as the CPU).
func (d Device) IsCPU() bool { return d.Type == "cpu" || d.Type == "" }

// DeviceCount returns how many devices of a type ("cuda") this machine has: 0 when the type's
// driver or library is missing, or the type is not in this program (torch.cuda.device_count()).
// The CPU counts as one. Device types are registered by their packages, as database/sql
// drivers are: a program that uses GPUs imports github.com/goaccel/goaccel/cuda (package
// accelerate and notebook cells do).
func DeviceCount(deviceType string) int {
	if (Device{Type: deviceType}).IsCPU() {
		return 1
	}
	return backend.Count(deviceType)
}

// sameDevice reports whether a and b name the same device.
func sameDevice(a, b Device) bool { return a.norm() == b.norm() }

// norm returns d with the CPU spelled one way.
func (d Device) norm() Device {
	if d.IsCPU() {
		return CPU
	}
	return d
}

var cpuBackend = cpu.New()

// backendFor returns the kernels for a device: the CPU backend, or one registered by a device
// package (backend.Register) — the tensors API does not change when one is added.
func backendFor(d Device) backend.Backend {
	if d.IsCPU() {
		return cpuBackend
	}
	b, err := backend.Open(d.Type, d.Index)
	if err != nil {
		panic(fmt.Sprintf("tensors: device %s is not available (%v); use tensors.CPU", d, err))
	}
	return b
}

// RoundBFloat16 rounds v to the nearest bfloat16 (ties to even) and returns it widened.
func RoundBFloat16(v float32) float32 { return half.BF16ToF32(half.F32ToBF16(v)) }

// RoundFloat16 rounds v to the nearest IEEE half (ties to even) and returns it widened.
func RoundFloat16(v float32) float32 { return half.F16ToF32(half.F32ToF16(v)) }
