package discover

import (
	"fmt"
	"strings"
)

// GPU is one NVIDIA GPU as NVML reports it.
type GPU struct {
	Index         int
	Name          string
	UUID          string
	MemoryTotal   uint64 // bytes
	MemoryUsed    uint64 // bytes
	Utilization   int    // percent of the last sample period the GPU was busy
	DriverVersion string // e.g. 580.65.06
	CUDAVersion   string // the newest CUDA the driver supports, e.g. 13.0
}

// Count returns the number of GPUs NVML sees (0 when it cannot be used).
func Count() int {
	g, err := GPUs()
	if err != nil {
		return 0
	}
	return len(g)
}

// Report is a one-line summary for env commands: the GPUs, or why none are listed.
func Report() string {
	gpus, err := GPUs()
	switch {
	case err != nil:
		return "none found (" + err.Error() + ")"
	case len(gpus) == 0:
		return "none found (NVML sees no device)"
	}
	parts := make([]string, len(gpus))
	for i, g := range gpus {
		parts[i] = fmt.Sprintf("cuda:%d %s, %.1f GiB (%.1f GiB used), %d%% busy", g.Index, g.Name,
			float64(g.MemoryTotal)/(1<<30), float64(g.MemoryUsed)/(1<<30), g.Utilization)
	}
	return fmt.Sprintf("%d (driver %s, CUDA %s): %s", len(gpus), gpus[0].DriverVersion, gpus[0].CUDAVersion, strings.Join(parts, "; "))
}

// cudaVersion formats NVML's integer CUDA version (13000 → "13.0").
func cudaVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }
