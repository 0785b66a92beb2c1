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

var leave atomic.Pointer[func() error]

// SetLeave records how this process leaves its process group cleanly
// (accelerate: a barrier, then closing the connections) for a worker whose
// function returned without doing so.
func SetLeave(f func() error) { leave.Store(&f) }

// Leave runs what SetLeave recorded, once. A worker that exits while its
// peers still read from it would reset their connections.
func Leave() error {
	if f := leave.Swap(nil); f != nil {
		return (*f)()
	}
	return nil
}
