// Package workerinfo carries facts about a worker process from the packages
// that learn them (accelerate picks the device) to the worker's report to
// its launcher (internal/workerjob).
package workerinfo

import "sync/atomic"

var device atomic.Value

// SetDevice records the device this process trains on, e.g. "cpu" or "cuda:1".
func SetDevice(d string) { device.Store(d) }

// Device returns the device SetDevice recorded, or "cpu" (the tensors
// default) when nothing chose one.
func Device() string {
	if d, ok := device.Load().(string); ok && d != "" {
		return d
	}
	return "cpu"
}
