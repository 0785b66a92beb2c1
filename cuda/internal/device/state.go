package device

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/goaccel/goaccel/cuda/internal/cublas"
	"github.com/goaccel/goaccel/cuda/internal/driver"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

// libs are the loaded driver and cuBLAS, or why they could not be loaded.
type libs struct {
	drv   *driver.Driver
	blas  *cublas.Library
	count int
	err   error
}

var (
	loadOnce sync.Once
	loaded   libs

	devMu   sync.Mutex
	devices = map[int]*Device{}

	tf32 atomic.Bool
)

// EnvAllowTF32 lets float32 matrix products use TF32 tensor cores when set to 1 or true.
const EnvAllowTF32 = "GOACCEL_ALLOW_TF32"

// deviceNodes reports whether the kernel driver exposes a GPU (/dev/nvidia0, /dev/nvidia1, …, or
// WSL's /dev/dxg): without one the driver library is not even loaded, so CPU-only programs pay
// nothing for CUDA. (/dev/nvidiactl alone is left by a driver library that found no GPU.)
func deviceNodes() bool {
	if _, err := os.Stat("/dev/dxg"); err == nil {
		return true
	}
	gpus, _ := filepath.Glob("/dev/nvidia[0-9]*")
	return len(gpus) > 0
}

func load() libs {
	loadOnce.Do(func() {
		if v, err := strconv.ParseBool(os.Getenv(EnvAllowTF32)); err == nil {
			tf32.Store(v)
		}
		if runtime.GOOS != "linux" {
			loaded.err = fmt.Errorf("no NVIDIA GPU: goaccel uses NVIDIA GPUs on Linux only (this is %s/%s); tensors stay on the CPU", runtime.GOOS, runtime.GOARCH)
			return
		}
		if os.Getenv(lib.EnvPath) == "" && !deviceNodes() {
			loaded.err = fmt.Errorf("no NVIDIA GPU here: no /dev/nvidia0 device node (is the driver loaded? set %s to try the libraries in a folder anyway)", lib.EnvPath)
			return
		}
		d, err := driver.Load()
		if err != nil {
			loaded.err = err
			return
		}
		n, err := d.DeviceCount()
		if err != nil {
			loaded.err = err
			return
		}
		if n == 0 {
			loaded.err = fmt.Errorf("the CUDA driver (%s) sees no device", d.Lib.Path)
			return
		}
		b, err := cublas.Load()
		if err != nil {
			loaded.err = fmt.Errorf("%d GPU(s) found, but matrix products need cuBLAS: %w", n, err)
			return
		}
		loaded = libs{drv: d, blas: b, count: n}
	})
	return loaded
}

// Count returns the number of usable GPUs: 0 when the driver, a GPU or cuBLAS is missing.
func Count() int { return load().count }

// Err says why no GPU is usable (nil when one is).
func Err() error { return load().err }

// Driver returns the loaded driver, or why it is not.
func Driver() (*driver.Driver, error) {
	l := load()
	if l.drv == nil {
		return nil, l.err
	}
	return l.drv, nil
}

// SetTF32 lets float32 products use TF32 tensor cores (PyTorch's
// torch.backends.cuda.matmul.allow_tf32); off by default.
func SetTF32(on bool) { tf32.Store(on) }

// Open returns the backend of GPU index (opened once per process).
func Open(index int) (*Device, error) {
	l := load()
	if l.err != nil {
		return nil, l.err
	}
	if index < 0 || index >= l.count {
		return nil, fmt.Errorf("cuda:%d does not exist: this machine has %d GPU(s) (cuda:0 … cuda:%d)", index, l.count, l.count-1)
	}
	devMu.Lock()
	defer devMu.Unlock()
	if d, ok := devices[index]; ok {
		return d, nil
	}
	d, err := newDevice(l, index)
	if err != nil {
		return nil, fmt.Errorf("cuda:%d: %w", index, err)
	}
	devices[index] = d
	return d, nil
}
