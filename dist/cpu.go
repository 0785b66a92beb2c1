package dist

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/goaccel/goaccel/dist/internal/reduce"
	"github.com/goaccel/goaccel/dist/internal/ring"
	"github.com/goaccel/goaccel/dist/internal/shm"
)

// cpuBackend runs every collective through shared memory when all ranks are
// on one host, and as ring algorithms over the authenticated TCP mesh
// otherwise. Across hosts with several ranks each, all-reduce is
// hierarchical: a shared-memory all-reduce on each host, a ring all-reduce
// between one leader per host, and a shared-memory broadcast back.
type cpuBackend struct {
	all     ring.Ring
	region  *shm.Region // this host's ranks; nil: none or unavailable
	oneHost bool        // every rank is on this host and region covers them
	hier    bool        // hierarchical all-reduce across hosts
	leaders *ring.Ring  // the per-host leaders' ring, on leaders when hier
}

func openCPU(ctx context.Context, rv *Rendezvous) (Backend, error) {
	if rv.mesh == nil {
		return nil, fmt.Errorf("the cpu backend needs the group's peer connections")
	}
	b := &cpuBackend{all: ring.Full(rv.mesh)}
	if rv.members != nil {
		all, err := ring.Sub(rv.mesh, rv.members)
		if err != nil {
			return nil, err
		}
		b.all = all
	}
	want := rv.Config.Transport
	if want == "tcp" {
		return b, nil
	}
	hosts := byHost(rv.Hosts)
	rank := rv.Config.Rank
	var mine []int
	shared := false // some host has several ranks
	for _, h := range hosts {
		if slices.Contains(h, rank) {
			mine = h
		}
		shared = shared || len(h) > 1
	}
	if want == "shm" && len(hosts) > 1 {
		return nil, fmt.Errorf("transport \"shm\" needs every rank on one host; they are on %d", len(hosts))
	}
	if !shared {
		return b, nil // one rank per host: the ring over TCP is all there is
	}
	var region *shm.Region
	var unlink string
	var err error
	if len(mine) > 1 {
		region, unlink, err = openRegion(ctx, rv, mine)
		if err != nil && want == "shm" {
			return nil, err
		}
	}
	// Every rank, mapped or not, says whether it is ready; the region files
	// are unlinked once all have answered (and so mapped theirs).
	ok, aerr := agree(ctx, b.all, rv.Config.WorldSize, err == nil)
	if unlink != "" {
		os.Remove(unlink)
	}
	if aerr != nil || !ok {
		if region != nil {
			region.Close()
		}
		if aerr != nil {
			return nil, aerr
		}
		if want == "shm" {
			return nil, fmt.Errorf("a rank could not map the shared-memory region")
		}
		slog.Warn("dist: shared memory unavailable on some host, using TCP", "err", err)
		return b, nil
	}
	b.region = region
	if region != nil {
		region.Watch(rv.Lost, rv.PeerErr)
	}
	b.oneHost = len(hosts) == 1
	b.hier = !b.oneHost
	if b.hier && mine[0] == rank {
		leaders := make([]int, len(hosts))
		for i, h := range hosts {
			leaders[i] = h[0]
		}
		lr, err := ring.Sub(rv.mesh, rv.meshRanks(leaders))
		if err != nil {
			return nil, err
		}
		b.leaders = &lr
	}
	return b, nil
}

// byHost groups ranks by host identity, hosts in order of their lowest rank.
func byHost(ids []string) [][]int {
	index := map[string]int{}
	var hosts [][]int
	for r, id := range ids {
		i, ok := index[id]
		if !ok {
			i = len(hosts)
			index[id] = i
			hosts = append(hosts, nil)
		}
		hosts[i] = append(hosts[i], r)
	}
	return hosts
}

// agree all-gathers one flag and reports whether every rank set it.
func agree(ctx context.Context, all ring.Ring, size int, mine bool) (bool, error) {
	flag := []byte{0}
	if mine {
		flag[0] = 1
	}
	flags := make([]byte, size)
	if err := ring.AllGather(ctx, all, flag, flags); err != nil {
		return false, err
	}
	return !slices.Contains(flags, 0), nil
}

// openRegion has the host's lowest rank create the host's shared region and
// the host's other ranks map it. The creator returns the file to unlink once
// every rank has mapped its region.
func openRegion(ctx context.Context, rv *Rendezvous, local []int) (*shm.Region, string, error) {
	me := slices.Index(local, rv.Config.Rank)
	key := "shm/" + strconv.Itoa(local[0])
	if me == 0 {
		path := filepath.Join(shm.Dir(), "goaccel-"+NewToken())
		region, err := shm.Create(path, 0, len(local), slotBytes())
		if err != nil {
			path = ""
		}
		if serr := rv.Store.Set(ctx, key, []byte(path)); serr != nil {
			if region != nil {
				region.Close()
			}
			return nil, path, serr
		}
		return region, path, err
	}
	path, err := rv.Store.Get(ctx, key)
	if err != nil {
		return nil, "", err
	}
	if len(path) == 0 {
		return nil, "", fmt.Errorf("rank %d could not create the shared-memory region", local[0])
	}
	region, err := shm.Open(string(path), me, len(local))
	return region, "", err
}

// Transport names the path all-reduce takes.
func (b *cpuBackend) Transport() string {
	switch {
	case b.oneHost:
		return "shm"
	case b.hier:
		return "shm+tcp"
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
	rdt, rop := dt, rop(op)
	switch {
	case b.oneHost:
		return b.region.AllReduce(ctx, buf, rdt, rop)
	case !b.hier:
		return ring.AllReduce(ctx, b.all, buf, rdt, rop)
	}
	// Hierarchical: within this host, then between the hosts' leaders, then
	// the leaders' result back to their hosts.
	if b.region != nil {
		if err := b.region.AllReduce(ctx, buf, rdt, rop); err != nil {
			return err
		}
	}
	if b.leaders != nil {
		if err := ring.AllReduce(ctx, *b.leaders, buf, rdt, rop); err != nil {
			return err
		}
	}
	if b.region != nil {
		return b.region.Broadcast(ctx, buf, 0)
	}
	return nil
}

func (b *cpuBackend) AllGather(ctx context.Context, send, recv []byte) error {
	if b.oneHost {
		return b.region.AllGather(ctx, send, recv)
	}
	return ring.AllGather(ctx, b.all, send, recv)
}

func (b *cpuBackend) ReduceScatter(ctx context.Context, send, recv []byte, dt DType, op Op) error {
	return ring.ReduceScatter(ctx, b.all, send, recv, dt, rop(op))
}

func (b *cpuBackend) Broadcast(ctx context.Context, buf []byte, root int) error {
	if b.oneHost {
		return b.region.Broadcast(ctx, buf, root)
	}
	return ring.Broadcast(ctx, b.all, buf, root)
}

func (b *cpuBackend) Barrier(ctx context.Context) error {
	if b.oneHost {
		return b.region.Barrier(ctx)
	}
	return ring.Barrier(ctx, b.all)
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
