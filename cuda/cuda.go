package cuda

import (
	"github.com/goaccel/goaccel/cuda/internal/device"
	"github.com/goaccel/goaccel/tensors/backend"
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

// MemoryAllocated returns the bytes of GPU index's memory that its live tensors hold, as
// torch.cuda.memory_allocated (the caching allocator's blocks in use, by their rounded sizes).
func MemoryAllocated(index int) (int64, error) {
	d, err := device.Open(index)
	if err != nil {
		return 0, err
	}
	return d.CacheStats().LiveBytes, nil
}

// MaxMemoryAllocated returns the most bytes of GPU index's memory its live tensors have held
// since the program began or since ResetPeakMemoryStats, as torch.cuda.max_memory_allocated.
func MaxMemoryAllocated(index int) (int64, error) {
	d, err := device.Open(index)
	if err != nil {
		return 0, err
	}
	return d.CacheStats().PeakLiveBytes, nil
}

// ResetPeakMemoryStats starts MaxMemoryAllocated of GPU index again from the bytes in use now,
// as torch.cuda.reset_peak_memory_stats.
func ResetPeakMemoryStats(index int) error {
	d, err := device.Open(index)
	if err != nil {
		return err
	}
	d.ResetPeakMemory()
	return nil
}

// MemoryReserved returns the bytes of GPU index's memory the caching allocator holds, in use
// or cached for reuse, as torch.cuda.memory_reserved.
func MemoryReserved(index int) (int64, error) {
	d, err := device.Open(index)
	if err != nil {
		return 0, err
	}
	st := d.CacheStats()
	return st.LiveBytes + st.CachedBytes, nil
}
