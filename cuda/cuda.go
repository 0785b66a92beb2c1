// Package cuda runs goaccel's tensors on NVIDIA GPUs without cgo and without a CUDA toolkit at
// build time: the driver (libcuda.so.1), cuBLAS and NCCL are loaded at run time with purego from
// the driver's folders, /usr/local/cuda*, LD_LIBRARY_PATH or the nvidia/*/lib folders of a
// pip-installed PyTorch (CUDA 12 or 13), and goaccel's own kernels are PTX embedded in the
// binary. Package tensors imports it, so tensors.CUDA(0) works in any program:
//
//	x := tensors.Randn(1024, 1024).To(tensors.CUDA(0))
//	y := x.MatMul(x) // cuBLAS, queued on the device's stream
//	fmt.Println(y.Sum().Item()) // the read-back waits for the queued work
//
// When no GPU is usable (no driver, no device, no cuBLAS) DeviceCount is 0, Err says why,
// and the Accelerator trains on the CPU. Nothing is loaded until a program first asks for a GPU.
//
// Float32 products use full float32 arithmetic unless SetAllowTF32(true) (or
// GOACCEL_ALLOW_TF32=1) lets cuBLAS use TF32 tensor cores; bfloat16 and float16 products under
// autocast use tensor cores with float32 accumulation.
package cuda

import (
	"github.com/goaccel/goaccel/cuda/internal/device"
	"github.com/goaccel/goaccel/internal/backend"
)

func init() {
	backend.Register("cuda", func(i int) (backend.Core, error) { return device.Open(i) }, device.Count)
}

// DeviceCount returns the number of usable GPUs: 0 when the driver, a GPU or cuBLAS is missing.
func DeviceCount() int { return device.Count() }

// Err says why no GPU is usable (nil when one is): which library is missing and where it was
// looked for, or the driver's error.
func Err() error { return device.Err() }

// SetAllowTF32 lets float32 matrix products use TF32 tensor cores (about 10 mantissa bits per
// product, several times faster), as PyTorch's torch.backends.cuda.matmul.allow_tf32 does.
func SetAllowTF32(on bool) { device.SetTF32(on) }

// Synchronize waits for the work queued on GPU index (for timing); it reports a bad input a
// kernel found by panicking, as a read-back does.
func Synchronize(index int) error {
	d, err := device.Open(index)
	if err != nil {
		return err
	}
	d.Synchronize()
	return nil
}
