package sim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// SetMemoryLimit bounds the device's live bytes, as a GPU's memory bounds it (0: no limit): an
// allocation that would pass it, after the garbage collector has given back the buffers nothing
// references, panics with an error wrapping backend.ErrOutOfMemory that names the limit. Tests
// use it to show what does not fit one device.
func (d *Device) SetMemoryLimit(bytes int64) {
	d.mu.Lock()
	d.limit = bytes
	d.mu.Unlock()
}

// ResetPeak starts MaxLiveBytes again from the bytes live now (torch.cuda.reset_peak_memory_stats).
func (d *Device) ResetPeak() {
	d.mu.Lock()
	d.maxBytes = d.liveBytes
	d.mu.Unlock()
}

// checkLimit panics when n more bytes would pass the limit even after a collection.
func (d *Device) checkLimit(n int64) {
	d.mu.Lock()
	limit, live := d.limit, d.liveBytes
	d.mu.Unlock()
	if limit == 0 || live+n <= limit {
		return
	}
	backend.Collect() // buffers dropped without Release come back first, as on a GPU
	d.mu.Lock()
	live = d.liveBytes
	d.mu.Unlock()
	if live+n > limit {
		panic(fmt.Errorf("tensors: allocating %d bytes on %s with %d in use: %w (the device's limit is %d bytes)", n, d.name, live, backend.ErrOutOfMemory, limit))
	}
}
