package workers

import (
	"os"
	"path/filepath"
	"strings"
)

// VisibleGPUs is how many NVIDIA GPUs this process may use: those the
// driver lists under /proc/driver/nvidia/gpus (no NVML call, which kills the
// process when the driver library is absent), limited by
// CUDA_VISIBLE_DEVICES when it is set.
func VisibleGPUs() int {
	dirs, _ := filepath.Glob("/proc/driver/nvidia/gpus/*")
	n := len(dirs)
	if v, ok := os.LookupEnv("CUDA_VISIBLE_DEVICES"); ok {
		v = strings.TrimSpace(v)
		if v == "" || strings.HasPrefix(v, "-1") {
			return 0
		}
		n = min(n, len(strings.Split(v, ",")))
	}
	return n
}
