// Package cuda runs goaccel's tensors on NVIDIA GPUs without cgo and without a CUDA toolkit at
// build time: the driver (libcuda.so.1), cuBLAS and NCCL are loaded at run time with purego from
// the driver's folders, /usr/local/cuda*, LD_LIBRARY_PATH or the nvidia/*/lib folders of a
// pip-installed PyTorch (CUDA 12 or 13), and goaccel's own kernels are PTX embedded in the
// binary. Importing it registers the "cuda" device type with package tensors (as a
// database/sql driver registers itself), so tensors.CUDA(0) works; package accelerate and
// notebook cells import it already:
//
//	import _ "github.com/goaccel/goaccel/cuda"
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
//
// The work is in the internal packages: cuda/internal/device is the backend (memory, streams,
// the kernels and cuBLAS calls of each op); cuda/internal/driver, cuda/internal/cublas and
// cuda/internal/nccl bind the libraries, which cuda/internal/lib finds and loads;
// cuda/internal/alloc caches device memory and cuda/internal/kernels holds the PTX. Package
// cuda/nccl is the "nccl" collective backend of package dist, and cuda/discover lists the GPUs
// through NVML for `goaccel env`.
//
// Files:
//   - cuda.go: the registration of the "cuda" device type, DeviceCount, Err, SetAllowTF32,
//     Synchronize, MemoryAllocated, MaxMemoryAllocated, ResetPeakMemoryStats and
//     MemoryReserved.
package cuda
