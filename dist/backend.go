package dist

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/goaccel/goaccel/dist/internal/mesh"
	"github.com/goaccel/goaccel/dist/internal/reduce"
)

// Op is a reduction operation.
type Op int

// Reductions. Mean divides the sum by the group size (torch's AVG).
const (
	Sum Op = iota
	Mean
	Max
	Min
)

// Avg is Mean under torch's name.
const Avg = Mean

func (o Op) String() string {
	switch o {
	case Sum:
		return "sum"
	case Mean:
		return "mean"
	case Max:
		return "max"
	case Min:
		return "min"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// DType is the element type of a buffer handed to a Backend (Size is the
// width of one element in bytes): one type for the collectives and the
// transports that reduce.
type DType = reduce.DType

// Element types of collective buffers.
const (
	Float32 = reduce.Float32
	Float64 = reduce.Float64
	Int64   = reduce.Int64
)

// Backend is what a collective implementation provides; Group is the front
// users call (as database/sql over database/sql/driver). Buffers are
// little-endian bytes of dt elements, the same length on every rank.
// AllReduce and ReduceScatter are only asked for Sum, Max and Min: Group
// turns Mean into Sum and a division. A backend may treat every error as
// fatal to the group.
type Backend interface {
	AllReduce(ctx context.Context, buf []byte, dt DType, op Op) error
	// AllGather writes every rank's send into recv, rank-major (len(recv) = size × len(send)).
	AllGather(ctx context.Context, send, recv []byte) error
	// ReduceScatter reduces send (size × len(recv)) and leaves chunk r in recv on rank r.
	ReduceScatter(ctx context.Context, send, recv []byte, dt DType, op Op) error
	Broadcast(ctx context.Context, buf []byte, root int) error
	Barrier(ctx context.Context) error
	Close() error
}

// Store is the rendezvous key-value store, for backends that exchange setup
// data (an NCCL unique id, addresses). Keys are private to the group.
type Store interface {
	Set(ctx context.Context, key string, value []byte) error
	// Get waits until key is set.
	Get(ctx context.Context, key string) ([]byte, error)
	Add(ctx context.Context, key string, delta int64) (int64, error)
	Wait(ctx context.Context, keys ...string) error
}

// Rendezvous is what a backend gets to open itself.
type Rendezvous struct {
	Config Config
	Store  Store
	// Hosts identifies each rank's machine; equal strings share memory.
	Hosts []string
	// Lost is closed when any peer is lost or closed its group; PeerErr then
	// returns the error naming it. A backend's waits for a peer that has not
	// arrived should end on it.
	Lost    <-chan struct{}
	PeerErr func() error

	mesh    *mesh.Mesh // the CPU backend's connections
	members []int      // mesh rank of each rank of the group; nil: the same numbers
}

// meshRanks maps ranks of the group being opened to ranks of the mesh.
func (rv *Rendezvous) meshRanks(ranks []int) []int {
	if rv.members == nil {
		return ranks
	}
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = rv.members[r]
	}
	return out
}

// OpenFunc opens a backend for one group.
type OpenFunc func(ctx context.Context, rv *Rendezvous) (Backend, error)

var (
	backendsMu sync.Mutex
	backends   = map[string]OpenFunc{"cpu": openCPU}
)

// RegisterBackend makes a backend available under name (as sql.Register).
// It panics if name is taken.
func RegisterBackend(name string, open OpenFunc) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	if _, dup := backends[name]; dup {
		panic("dist: RegisterBackend called twice for " + name)
	}
	backends[name] = open
}

// Backends lists the registered backend names.
func Backends() []string {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	var names []string
	for n := range backends {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func lookupBackend(name string) (OpenFunc, error) {
	if name == "" {
		name = "cpu"
	}
	backendsMu.Lock()
	defer backendsMu.Unlock()
	if f, ok := backends[name]; ok {
		return f, nil
	}
	var names []string
	for n := range backends {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("dist: backend %q is not registered (available: %v); import the package that provides it", name, names)
}
