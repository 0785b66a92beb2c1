//go:build !cgo

package discover

import "errors"

// GPUs reports that this build has no NVML: go-nvml needs cgo.
func GPUs() ([]GPU, error) {
	return nil, errors.New("NVML is not in this build (it needs cgo); CUDA itself still works")
}
