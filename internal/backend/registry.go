package backend

import (
	"fmt"
	"sync"
)

// Opener returns the backend for one device index of a device type.
type Opener func(index int) (Backend, error)

var (
	mu      sync.Mutex
	openers = map[string]Opener{}
	opened  = map[string]Backend{}
)

// Register makes a device type ("cuda") available; a backend package calls it from init.
func Register(deviceType string, open Opener) {
	mu.Lock()
	defer mu.Unlock()
	openers[deviceType] = open
	for k := range opened {
		delete(opened, k)
	}
}

// Open returns the (cached) backend for deviceType:index.
func Open(deviceType string, index int) (Backend, error) {
	key := fmt.Sprintf("%s:%d", deviceType, index)
	mu.Lock()
	defer mu.Unlock()
	if b, ok := opened[key]; ok {
		return b, nil
	}
	open, ok := openers[deviceType]
	if !ok {
		return nil, fmt.Errorf("device type %q is not available in this build", deviceType)
	}
	b, err := open(index)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	opened[key] = b
	return b, nil
}
