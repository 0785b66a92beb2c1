package nccl_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/goaccel/goaccel/cuda/internal/driver"
	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/lib"
	"github.com/goaccel/goaccel/cuda/internal/nccl"
)

// rank is one rank of a test: its GPU's context and stream on the fake driver.
type rank struct {
	d   *driver.Driver
	ctx *driver.Context
	s   uintptr
}

// load opens the fake as NCCL and as the driver, with a context and a stream on each GPU.
func load(t *testing.T) (*nccl.Library, []rank, *fakelib.Control) {
	t.Helper()
	dir := t.TempDir()
	l, ctl, err := fakelib.Load(dir, lib.NCCL)
	if err != nil {
		t.Fatal(err)
	}
	n, err := nccl.LoadFrom(l)
	if err != nil {
		t.Fatal(err)
	}
	dl, err := (&lib.Finder{Getenv: fakelib.Env(dir)}).Open(lib.Driver)
	if err != nil {
		t.Fatal(err)
	}
	d, err := driver.LoadFrom(dl)
	if err != nil {
		t.Fatal(err)
	}
	var ranks []rank
	for i := 0; i < 2; i++ {
		dev, _ := d.Device(i)
		ctx, err := d.PrimaryContext(dev)
		if err != nil {
			t.Fatal(err)
		}
		r := rank{d: d, ctx: ctx}
		if err := ctx.Do(func() (err error) { r.s, err = d.StreamCreate(); return err }); err != nil {
			t.Fatal(err)
		}
		ranks = append(ranks, r)
	}
	return n, ranks, ctl
}

// each runs fn for both ranks at once (collectives need every rank), with the rank's context.
func each(ranks []rank, fn func(i int, r rank) error) error {
	errs := make([]error, len(ranks))
	var wg sync.WaitGroup
	for i, r := range ranks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.ctx.Do(func() error { return fn(i, r) })
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (r rank) upload(v []float32) (uintptr, error) {
	p, err := r.d.MemAlloc(4 * len(v))
	if err != nil {
		return 0, err
	}
	return p, r.d.CopyHtoD(p, unsafe.Pointer(&v[0]), 4*len(v), r.s)
}

func (r rank) download(p uintptr, n int) ([]float32, error) {
	v := make([]float32, n)
	if err := r.d.CopyDtoH(unsafe.Pointer(&v[0]), p, 4*n, r.s); err != nil {
		return nil, err
	}
	return v, r.d.StreamSync(r.s)
}

// TestTwoRanksRunRealCollectives runs two ranks (cuda:0 and cuda:1) through the bindings: the
// unique id travels by value to ncclCommInitRank (the ranks meet only if its 128 bytes arrive
// intact), and the four collectives compute across the ranks on device memory.
func TestTwoRanksRunRealCollectives(t *testing.T) {
	n, ranks, ctl := load(t)
	if n.Version != 22805 {
		t.Fatalf("version %d", n.Version)
	}
	id, err := n.UniqueID()
	if err != nil {
		t.Fatal(err)
	}
	comms := make([]*nccl.Comm, 2)
	got := make([][]float32, 2)
	err = each(ranks, func(i int, r rank) error {
		c, err := n.InitRank(2, id, i)
		if err != nil {
			return err
		}
		comms[i] = c
		base := float32(1 + 9*i) // rank 0: 1 2 3, rank 1: 10 20 30
		x, err := r.upload([]float32{base, 2 * base, 3 * base})
		if err != nil {
			return err
		}
		if err := c.AllReduce(x, x, 3, nccl.Float32, nccl.Sum, r.s); err != nil {
			return err
		}
		all, err := r.d.MemAlloc(4 * 6)
		if err != nil {
			return err
		}
		if err := c.AllGather(x, all, 3, nccl.Float32, r.s); err != nil { // [11 22 33 11 22 33]
			return err
		}
		if err := c.AllReduce(all, all, 6, nccl.Float32, nccl.Avg, r.s); err != nil {
			return err
		}
		one, err := r.upload([]float32{float32(i)*100 + 5})
		if err != nil {
			return err
		}
		if err := c.Broadcast(one, one, 1, nccl.Float32, 1, r.s); err != nil { // 105 from rank 1
			return err
		}
		part, err := r.d.MemAlloc(4 * 3)
		if err != nil {
			return err
		}
		if err := c.ReduceScatter(all, part, 3, nccl.Float32, nccl.Max, r.s); err != nil { // rank i: all[3i:3i+3]
			return err
		}
		if got[i], err = r.download(x, 3); err != nil {
			return err
		}
		b, err := r.download(one, 1)
		if err != nil {
			return err
		}
		p, err := r.download(part, 3)
		if err != nil {
			return err
		}
		got[i] = append(append(got[i], b...), p...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "[11 22 33 105 11 22 33]"
	for i := range got {
		if fmt.Sprint(got[i]) != want {
			t.Errorf("rank %d: all-reduce, broadcast, reduce-scatter gave %v, want %s", i, got[i], want)
		}
	}
	var sum uint32
	for _, b := range id.Internal {
		sum = sum*31 + uint32(b)
	}
	log := ctl.Log()
	for _, w := range []string{fmt.Sprintf("ncclCommInitRank nranks=2 rank=1 id0=%d id127=%d idsum=%d", int8(id.Internal[0]), int8(id.Internal[127]), sum),
		"ncclAllReduce n=3 dt=7 op=0", "ncclAllReduce n=6 dt=7 op=4", "ncclBroadcast n=1 dt=7 root=1", "ncclReduceScatter n=3 dt=7 op=2"} {
		if !strings.Contains(log, w) {
			t.Errorf("log lacks %q:\n%s", w, log)
		}
	}
	if err := each(ranks, func(i int, r rank) error { return comms[i].Destroy() }); err != nil {
		t.Fatal(err)
	}
}

// TestTwoRanksOnOneGPUAreRefused: NCCL refuses a communicator whose ranks share a GPU.
func TestTwoRanksOnOneGPUAreRefused(t *testing.T) {
	n, ranks, _ := load(t)
	id, err := n.UniqueID()
	if err != nil {
		t.Fatal(err)
	}
	err = each([]rank{ranks[0], ranks[0]}, func(i int, r rank) error {
		_, err := n.InitRank(2, id, i)
		return err
	})
	var ne *nccl.Error
	if !errors.As(err, &ne) || ne.Result != 5 {
		t.Fatalf("two ranks on cuda:0: %v, want ncclInvalidUsage", err)
	}
}

// TestAbortEndsACollectiveAPeerNeverJoins: rank 0's all-reduce waits for rank 1, which never
// calls it; aborting rank 0's communicator ends the wait, and the peer sees the abort.
func TestAbortEndsACollectiveAPeerNeverJoins(t *testing.T) {
	n, ranks, _ := load(t)
	id, err := n.UniqueID()
	if err != nil {
		t.Fatal(err)
	}
	comms := make([]*nccl.Comm, 2)
	if err := each(ranks, func(i int, r rank) (err error) { comms[i], err = n.InitRank(2, id, i); return err }); err != nil {
		t.Fatal(err)
	}
	r := ranks[0]
	err = r.ctx.Do(func() error {
		x, err := r.upload([]float32{1})
		if err != nil {
			return err
		}
		if err := comms[0].AllReduce(x, x, 1, nccl.Float32, nccl.Sum, r.s); err != nil {
			return err
		}
		if err := comms[0].Abort(); err != nil {
			return err
		}
		return r.d.StreamSync(r.s) // returns: the aborted all-reduce no longer waits
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := comms[1].AsyncError(); err == nil || !strings.Contains(err.Error(), "remote process exited") {
		t.Fatalf("the peer's communicator after the abort: %v, want ncclRemoteError", err)
	}
}
