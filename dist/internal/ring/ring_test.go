package ring

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/dist/internal/mesh"
	"github.com/goaccel/goaccel/dist/internal/reduce"
)

// meshes connects p in-process ranks over loopback.
func meshes(t *testing.T, p int) []*mesh.Mesh {
	t.Helper()
	lns := make([]net.Listener, p)
	addrs := make([]string, p)
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns[i], addrs[i] = ln, ln.Addr().String()
	}
	ms := make([]*mesh.Mesh, p)
	errs := make([]error, p)
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range p {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ms[i], errs[i] = mesh.Establish(ctx, i, p, []byte("tok"), lns[i], addrs, nil)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, m := range ms {
			m.Close()
		}
	})
	return ms
}

func run(t *testing.T, ms []*mesh.Mesh, f func(r int, m *mesh.Mesh) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(ms))
	for r, m := range ms {
		wg.Add(1)
		go func() { defer wg.Done(); errs[r] = f(r, m) }()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
}

func TestAllReduceSumsEveryElementOnEveryRank(t *testing.T) {
	for _, p := range []int{2, 3} {
		ms := meshes(t, p)
		for _, n := range []int{0, 1, 2, 7, mesh.SegmentSize/4*2 + 3} {
			t.Run(fmt.Sprintf("p%d_n%d", p, n), func(t *testing.T) {
				run(t, ms, func(r int, m *mesh.Mesh) error {
					v := make([]float32, n)
					for i := range v {
						v[i] = float32(i%13 + r)
					}
					if err := AllReduce(context.Background(), Full(m), reduce.FromF32(v), reduce.Float32, reduce.Sum); err != nil {
						return err
					}
					for i := range v {
						want := float32(p*(i%13) + p*(p-1)/2)
						if v[i] != want {
							return fmt.Errorf("elem %d = %v, want %v", i, v[i], want)
						}
					}
					return nil
				})
			})
		}
	}
}

func TestGatherScatterBroadcastBarrier(t *testing.T) {
	ms := meshes(t, 3)
	run(t, ms, func(r int, m *mesh.Mesh) error {
		ctx := context.Background()
		send := []int64{int64(r), int64(10 * r)}
		recv := make([]int64, 6)
		if err := AllGather(ctx, Full(m), reduce.FromI64(send), reduce.FromI64(recv)); err != nil {
			return err
		}
		if fmt.Sprint(recv) != "[0 0 1 10 2 20]" {
			return fmt.Errorf("all-gather: %v", recv)
		}
		rs := []float64{1, 2, 3, 4, 5, 6}
		out := make([]float64, 2)
		if err := ReduceScatter(ctx, Full(m), reduce.FromF64(rs), reduce.FromF64(out), reduce.Float64, reduce.Max); err != nil {
			return err
		}
		if out[0] != float64(2*r+1) || out[1] != float64(2*r+2) {
			return fmt.Errorf("reduce-scatter: %v", out)
		}
		b := make([]byte, mesh.SegmentSize+5)
		if r == 1 {
			for i := range b {
				b[i] = byte(i)
			}
		}
		if err := Broadcast(ctx, Full(m), b, 1); err != nil {
			return err
		}
		for i := range b {
			if b[i] != byte(i) {
				return fmt.Errorf("broadcast byte %d = %d", i, b[i])
			}
		}
		return Barrier(ctx, Full(m))
	})
}

func TestClosedPeerFailsWaitersWithItsRank(t *testing.T) {
	ms := meshes(t, 3)
	ms[2].Close()
	for _, r := range []int{0, 1} {
		err := Barrier(context.Background(), Full(ms[r]))
		var pe *mesh.PeerError
		if !asPeer(err, &pe) || pe.Rank != 2 {
			t.Fatalf("rank %d: want rank 2 lost, got %v", r, err)
		}
	}
}
