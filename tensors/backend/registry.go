package backend

import (
	"fmt"
	"sync"
)

// Opener returns the device of one index of a device type.
type Opener func(index int) (Core, error)

var (
	mu      sync.Mutex
	openers = map[string]Opener{}
	counts  = map[string]func() int{}
	opened  = map[deviceKey]Backend{}
)

// deviceKey names one device (a struct key: Open runs on every op and must not allocate).
type deviceKey struct {
	typ   string
	index int
}

// Register makes a device type ("cuda") available; a device package calls it from init. count
// reports how many devices of the type this machine has (0 when its driver is missing).
func Register(deviceType string, open Opener, count func() int) {
	mu.Lock()
	defer mu.Unlock()
	openers[deviceType] = open
	counts[deviceType] = count
	for k := range opened {
		delete(opened, k)
	}
}

// Count returns the number of devices of a type (0 for a type not registered).
func Count(deviceType string) int {
	mu.Lock()
	count := counts[deviceType]
	mu.Unlock()
	if count == nil {
		return 0
	}
	return count()
}

// Open returns the (cached, completed) backend for deviceType:index.
func Open(deviceType string, index int) (Backend, error) {
	k := deviceKey{deviceType, index}
	mu.Lock()
	defer mu.Unlock()
	if b, ok := opened[k]; ok {
		return b, nil
	}
	key := fmt.Sprintf("%s:%d", deviceType, index)
	open, ok := openers[deviceType]
	if !ok {
		if deviceType == "cuda" {
			return nil, fmt.Errorf(`device type "cuda" is not registered in this program: import _ "github.com/goaccel/goaccel/cuda" (package accelerate and notebook cells do)`)
		}
		return nil, fmt.Errorf("device type %q is not registered in this program: import the package that provides it", deviceType)
	}
	c, err := open(index)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	b := Complete(c)
	opened[k] = b
	return b, nil
}
