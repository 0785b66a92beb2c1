package cpu

import (
	"fmt"
	"sync"

	"github.com/goaccel/goaccel/tensors/backend"
)

// host is the program's CPU device: one buffer pool for every tensor on the host.
var host = sync.OnceValue(New)

func init() {
	backend.Register("cpu", open, func() int { return 1 })
}

// open is the CPU's backend.Opener: the host is device 0, the only one.
func open(index int) (backend.Core, error) {
	if index != 0 {
		return nil, fmt.Errorf("the CPU is one device, index 0 (asked for %d)", index)
	}
	return host(), nil
}
