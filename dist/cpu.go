package dist

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"github.com/goaccel/goaccel/dist/internal/mesh"
	"github.com/goaccel/goaccel/dist/internal/reduce"
	"github.com/goaccel/goaccel/dist/internal/ring"
	"github.com/goaccel/goaccel/dist/internal/shm"
)

// cpuBackend runs all-reduce, all-gather, broadcast and barrier through
// shared memory when every rank is on one host, and everything else (all of
// it across hosts) as ring algorithms over the authenticated TCP mesh.
type cpuBackend struct {
	m      *mesh.Mesh
	region *shm.Region // nil: TCP only
}

func openCPU(ctx context.Context, rv *Rendezvous) (Backend, error) {
	b := &cpuBackend{m: rv.mesh}
	if rv.mesh == nil {
		return nil, fmt.Errorf("the cpu backend needs the group's peer connections")
	}
	want := rv.Config.Transport
	if want == "tcp" {
		return b, nil
	}
	hosts := rv.Hosts
	same := true
	for _, h := range hosts {
		same = same && h == hosts[0]
	}
	if !same || !shm.Available() {
		if want == "shm" {
			return nil, fmt.Errorf("transport \"shm\" needs every rank on one host with /dev/shm (hosts: %v)", hosts)
		}
		return b, nil
	}
	region, err := b.openRegion(ctx, rv)
	if err != nil {
		if want == "shm" {
			return nil, err
		}
		slog.Warn("dist: shared memory unavailable, using TCP", "err", err)
		return b, nil
	}
	b.region = region
	if region != nil {
		region.Watch(rv.Lost, func() error { return rv.PeerErr() })
	}
	return b, nil
}

// openRegion has rank 0 create the shared region and the others map it; all
// ranks then agree on whether everyone succeeded, and the file is unlinked so
// nothing is left behind whatever happens next. Returns nil, nil when some
// rank could not map it.
func (b *cpuBackend) openRegion(ctx context.Context, rv *Rendezvous) (*shm.Region, error) {
	rank, size := rv.Config.Rank, rv.Config.WorldSize
	var region *shm.Region
	var err error
	if rank == 0 {
		path := filepath.Join("/dev/shm", "goaccel-"+NewToken())
		region, err = shm.Create(path, rank, size, slotBytes())
		if err != nil {
			path = ""
		}
		if serr := rv.Store.Set(ctx, "shm", []byte(path)); serr != nil {
			return nil, serr
		}
		defer func() {
			if path != "" {
				os.Remove(path)
			}
		}()
	} else {
		path, gerr := rv.Store.Get(ctx, "shm")
		if gerr != nil {
			return nil, gerr
		}
		if len(path) == 0 {
			err = fmt.Errorf("rank 0 could not create the shared-memory region")
		} else {
			region, err = shm.Open(string(path), rank, size)
		}
	}
	ok := []byte{0}
	if err == nil {
		ok[0] = 1
	}
	all := make([]byte, size)
	if gerr := ring.AllGather(ctx, rv.mesh, ok, all); gerr != nil {
		if region != nil {
			region.Close()
		}
		return nil, gerr
	}
	for r, v := range all {
		if v == 0 {
			if region != nil {
				region.Close()
			}
			if err == nil {
				err = fmt.Errorf("rank %d could not map the shared-memory region", r)
			}
			return nil, err
		}
	}
	return region, nil
}

// Transport names the path all-reduce takes.
func (b *cpuBackend) Transport() string {
	if b.region != nil {
		return "shm"
	}
	return "tcp"
}

func rop(op Op) reduce.Op {
	switch op {
	case Max:
		return reduce.Max
	case Min:
		return reduce.Min
	}
	return reduce.Sum
}

func (b *cpuBackend) AllReduce(ctx context.Context, buf []byte, dt DType, op Op) error {
	if b.region != nil {
		return b.region.AllReduce(ctx, buf, reduce.DType(dt), rop(op))
	}
	return ring.AllReduce(ctx, b.m, buf, reduce.DType(dt), rop(op))
}

func (b *cpuBackend) AllGather(ctx context.Context, send, recv []byte) error {
	if b.region != nil {
		return b.region.AllGather(ctx, send, recv)
	}
	return ring.AllGather(ctx, b.m, send, recv)
}

func (b *cpuBackend) ReduceScatter(ctx context.Context, send, recv []byte, dt DType, op Op) error {
	return ring.ReduceScatter(ctx, b.m, send, recv, reduce.DType(dt), rop(op))
}

func (b *cpuBackend) Broadcast(ctx context.Context, buf []byte, root int) error {
	if b.region != nil {
		return b.region.Broadcast(ctx, buf, root)
	}
	return ring.Broadcast(ctx, b.m, buf, root)
}

func (b *cpuBackend) Barrier(ctx context.Context) error {
	if b.region != nil {
		return b.region.Barrier(ctx)
	}
	return ring.Barrier(ctx, b.m)
}

func (b *cpuBackend) Close() error {
	if b.region != nil {
		return b.region.Close()
	}
	return nil
}

// single is the backend of a one-process group: every collective is the identity.
type single struct{}

func (single) AllReduce(context.Context, []byte, DType, Op) error { return nil }
func (single) AllGather(_ context.Context, send, recv []byte) error {
	copy(recv, send)
	return nil
}
func (single) ReduceScatter(_ context.Context, send, recv []byte, _ DType, _ Op) error {
	copy(recv, send)
	return nil
}
func (single) Broadcast(context.Context, []byte, int) error { return nil }
func (single) Barrier(context.Context) error                { return nil }
func (single) Close() error                                 { return nil }

// slotBytes is the shared-memory staging size per rank and round; the
// GOACCEL_DIST_SHM_SLOT variable (bytes, a multiple of 64) overrides it for tuning.
func slotBytes() int {
	if v, err := strconv.Atoi(os.Getenv("GOACCEL_DIST_SHM_SLOT")); err == nil && v > 0 && v%64 == 0 {
		return v
	}
	return shm.DefaultSlotBytes
}
