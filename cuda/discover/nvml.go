//go:build cgo

package discover

import (
	"fmt"
	"sync"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

var (
	initOnce sync.Once
	initErr  error
	callMu   sync.Mutex
)

// returnName names NVML's return codes without calling NVML (nvmlErrorString is an NVML call,
// which is not safe after a failed init).
func returnName(r nvml.Return) string {
	switch r {
	case nvml.ERROR_UNINITIALIZED:
		return "NVML not initialised"
	case nvml.ERROR_NOT_SUPPORTED:
		return "not supported"
	case nvml.ERROR_NO_PERMISSION:
		return "no permission"
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return "the NVIDIA kernel driver is not loaded"
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		return "libnvidia-ml.so.1 not found (no NVIDIA driver installed)"
	case nvml.ERROR_GPU_IS_LOST:
		return "the GPU is lost"
	case nvml.ERROR_INSUFFICIENT_SIZE:
		return "buffer too small"
	}
	return fmt.Sprintf("NVML error %d", int(r))
}

// GPUs returns the GPUs NVML sees. NVML stays initialised after the first successful call.
func GPUs() ([]GPU, error) {
	initOnce.Do(func() {
		if r := nvml.Init(); r != nvml.SUCCESS {
			initErr = fmt.Errorf("NVML: %s", returnName(r))
		}
	})
	if initErr != nil {
		return nil, initErr
	}
	callMu.Lock()
	defer callMu.Unlock()
	n, r := nvml.DeviceGetCount()
	if r != nvml.SUCCESS {
		return nil, fmt.Errorf("NVML: count devices: %s", returnName(r))
	}
	driver, _ := nvml.SystemGetDriverVersion()
	cv, _ := nvml.SystemGetCudaDriverVersion()
	out := make([]GPU, 0, n)
	for i := 0; i < n; i++ {
		d, r := nvml.DeviceGetHandleByIndex(i)
		if r != nvml.SUCCESS {
			return nil, fmt.Errorf("NVML: device %d: %s", i, returnName(r))
		}
		g := GPU{Index: i, DriverVersion: driver, CUDAVersion: cudaVersion(cv)}
		g.Name, _ = d.GetName()
		g.UUID, _ = d.GetUUID()
		if m, r := d.GetMemoryInfo(); r == nvml.SUCCESS {
			g.MemoryTotal, g.MemoryUsed = m.Total, m.Used
		}
		if u, r := d.GetUtilizationRates(); r == nvml.SUCCESS {
			g.Utilization = int(u.Gpu)
		}
		out = append(out, g)
	}
	return out, nil
}
