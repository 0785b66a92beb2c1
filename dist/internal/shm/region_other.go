//go:build !linux && !darwin

package shm

import (
	"context"
	"errors"
	"os"

	"github.com/goaccel/goaccel/dist/internal/reduce"
)

// DefaultSlotBytes is the staging space per rank and round.
const DefaultSlotBytes = 4 << 20

var errNoShm = errors.New("shm: shared-memory collectives need Linux or macOS")

// Region is unavailable on this platform.
type Region struct{}

// Available reports whether shared memory can be used here.
func Available() bool { return false }

// Dir is where region files would go.
func Dir() string { return os.TempDir() }

// Create fails on this platform.
func Create(path string, rank, size, slot int) (*Region, error) { return nil, errNoShm }

// Open fails on this platform.
func Open(path string, rank, size int) (*Region, error) { return nil, errNoShm }

// Watch does nothing on this platform.
func (g *Region) Watch(lost <-chan struct{}, why func() error) {}

// AllReduce fails on this platform.
func (g *Region) AllReduce(ctx context.Context, buf []byte, dt reduce.DType, op reduce.Op) error {
	return errNoShm
}

// AllReduceV fails on this platform.
func (g *Region) AllReduceV(ctx context.Context, bufs [][]byte, dt reduce.DType, op reduce.Op, scale float64) error {
	return errNoShm
}

// Close does nothing on this platform.
func (g *Region) Close() error { return nil }

// AllGather fails on this platform.
func (g *Region) AllGather(ctx context.Context, send, recv []byte) error { return errNoShm }

// Broadcast fails on this platform.
func (g *Region) Broadcast(ctx context.Context, buf []byte, root int) error { return errNoShm }

// Barrier fails on this platform.
func (g *Region) Barrier(ctx context.Context) error { return errNoShm }
