package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
	_ "github.com/goaccel/goaccel/tensors/backend/defaults" // the devices every program has: the CPU
)

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
// drivers are: the CPU by tensors/backend/cpu, which every program links in
// (tensors/backend/defaults); a program that uses GPUs imports github.com/goaccel/goaccel/cuda
// (package accelerate and notebook cells do).
func DeviceCount(deviceType string) int {
	return backend.Count(Device{Type: deviceType}.norm().Type)
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

// cpuBackend is the host's kernels, opened once: every op on the CPU reaches them without the
// registry's lock.
var cpuBackend = openBackend(CPU)

// backendFor returns the kernels for a device: the CPU's, or those of a device its package
// registered (backend.Register) — the tensors API does not change when one is added.
func backendFor(d Device) backend.Backend {
	if d.IsCPU() {
		return cpuBackend
	}
	return openBackend(d)
}

// openBackend opens a registered device, panicking with what to do when it is not available.
func openBackend(d Device) backend.Backend {
	d = d.norm()
	b, err := backend.Open(d.Type, d.Index)
	if err != nil {
		panic(fmt.Sprintf("tensors: device %s is not available (%v); use tensors.CPU", d, err))
	}
	return b
}

// ErrOutOfMemory is what an op panics with, wrapped in an error that names the device and the
// sizes, when its device is full even after the device's cache was emptied and the garbage
// collector ran (errors.Is(recover().(error), tensors.ErrOutOfMemory); PyTorch raises
// torch.OutOfMemoryError). The CPU never does: Go's runtime ends the process when the machine's
// memory runs out.
var ErrOutOfMemory = backend.ErrOutOfMemory
