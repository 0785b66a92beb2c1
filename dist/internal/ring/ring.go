package ring

import (
	"context"
	"fmt"

	"github.com/goaccel/goaccel/dist/internal/mesh"
	"github.com/goaccel/goaccel/dist/internal/reduce"
)

// Ring is the ordered set of ranks a collective runs over: every rank of
// the mesh (Full) or a subset such as one leader per host (Sub).
type Ring struct {
	m       *mesh.Mesh
	members []int // mesh ranks in ring order
	pos     int   // this rank's index in members
}

// Full is the ring of every rank of m.
func Full(m *mesh.Mesh) Ring {
	members := make([]int, m.Size())
	for i := range members {
		members[i] = i
	}
	return Ring{m: m, members: members, pos: m.Rank()}
}

// Sub is the ring of the given mesh ranks, which must include this rank.
func Sub(m *mesh.Mesh, members []int) (Ring, error) {
	for i, r := range members {
		if r == m.Rank() {
			return Ring{m: m, members: members, pos: i}, nil
		}
	}
	return Ring{}, fmt.Errorf("rank %d is not in the ring %v", m.Rank(), members)
}

// Size is the number of ranks in the ring.
func (g Ring) Size() int { return len(g.members) }

// Rank is this process's position in the ring.
func (g Ring) Rank() int { return g.pos }

func (g Ring) peer(i int) int { return g.members[(i%len(g.members)+len(g.members))%len(g.members)] }

// bounds returns the byte range of chunk i when n elements of width es are
// split into p nearly equal chunks.
func bounds(n, p, i, es int) (int, int) {
	return i * n / p * es, (i + 1) * n / p * es
}

// sendSegments sends b to peer as frames of at most mesh.SegmentSize bytes.
func sendSegments(ctx context.Context, m *mesh.Mesh, to int, b []byte) error { // to: mesh rank
	for len(b) > 0 {
		k := min(len(b), mesh.SegmentSize)
		if err := m.Send(ctx, to, b[:k]); err != nil {
			return err
		}
		b = b[k:]
	}
	return nil
}

func sendAsync(ctx context.Context, m *mesh.Mesh, to int, b []byte) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- sendSegments(ctx, m, to, b) }()
	return ch
}

// recvSegments receives len(dst) bytes from peer, reducing them into dst with
// op when reduceIt is set and copying them otherwise.
func recvSegments(ctx context.Context, m *mesh.Mesh, from int, dst []byte, dt reduce.DType, op reduce.Op, reduceIt bool) error {
	for len(dst) > 0 {
		b, err := m.Recv(ctx, from)
		if err != nil {
			return err
		}
		k := min(len(dst), mesh.SegmentSize)
		if len(b) != k {
			mesh.Release(b)
			return fmt.Errorf("rank %d sent a %d-byte segment where %d was expected (ranks called different collectives or sizes)", from, len(b), k)
		}
		if reduceIt {
			reduce.Bytes(dt, op, dst[:k], b)
		} else {
			copy(dst[:k], b)
		}
		mesh.Release(b)
		dst = dst[k:]
	}
	return nil
}

// step sends out to the right neighbour while receiving into in from the left.
func step(ctx context.Context, g Ring, out, in []byte, dt reduce.DType, op reduce.Op, reduceIt bool) error {
	sent := sendAsync(ctx, g.m, g.peer(g.pos+1), out)
	err := recvSegments(ctx, g.m, g.peer(g.pos-1), in, dt, op, reduceIt)
	if serr := <-sent; err == nil {
		err = serr
	}
	return err
}

// AllReduce reduces buf across all ranks in place.
func AllReduce(ctx context.Context, g Ring, buf []byte, dt reduce.DType, op reduce.Op) error {
	es := dt.Size()
	if err := reduceScatterInPlace(ctx, g, buf, dt, op); err != nil {
		return err
	}
	return allGatherInPlace(ctx, g, buf, es)
}

// reduceScatterInPlace leaves the fully reduced chunk r of buf on rank r.
func reduceScatterInPlace(ctx context.Context, g Ring, buf []byte, dt reduce.DType, op reduce.Op) error {
	p, r, es := g.Size(), g.Rank(), dt.Size()
	n := len(buf) / es
	for s := 0; s < p-1; s++ {
		so, se := bounds(n, p, (r-s-1+2*p)%p, es)
		ro, re := bounds(n, p, (r-s-2+2*p)%p, es)
		if err := step(ctx, g, buf[so:se], buf[ro:re], dt, op, true); err != nil {
			return fmt.Errorf("reduce-scatter step %d: %w", s, err)
		}
	}
	return nil
}

// allGatherInPlace spreads chunk r of buf from rank r to every rank.
func allGatherInPlace(ctx context.Context, g Ring, buf []byte, es int) error {
	p, r := g.Size(), g.Rank()
	n := len(buf) / es
	for s := 0; s < p-1; s++ {
		so, se := bounds(n, p, (r-s+p)%p, es)
		ro, re := bounds(n, p, (r-s-1+2*p)%p, es)
		if err := step(ctx, g, buf[so:se], buf[ro:re], 0, 0, false); err != nil {
			return fmt.Errorf("all-gather step %d: %w", s, err)
		}
	}
	return nil
}

// ReduceScatter reduces send (size × len(recv) bytes, rank-major) across
// ranks and leaves chunk r in recv on rank r. send is used as scratch space.
func ReduceScatter(ctx context.Context, g Ring, send, recv []byte, dt reduce.DType, op reduce.Op) error {
	p, r := g.Size(), g.Rank()
	if len(send) != p*len(recv) {
		return fmt.Errorf("reduce-scatter: input has %d bytes, want %d × %d", len(send), p, len(recv))
	}
	c := len(recv)
	for s := 0; s < p-1; s++ {
		si := (r - s - 1 + 2*p) % p
		ri := (r - s - 2 + 2*p) % p
		if err := step(ctx, g, send[si*c:(si+1)*c], send[ri*c:(ri+1)*c], dt, op, true); err != nil {
			return fmt.Errorf("reduce-scatter step %d: %w", s, err)
		}
	}
	copy(recv, send[r*c:(r+1)*c])
	return nil
}

// AllGather concatenates every rank's send into recv in rank order.
func AllGather(ctx context.Context, g Ring, send, recv []byte) error {
	p, r := g.Size(), g.Rank()
	c := len(send)
	if len(recv) != p*c {
		return fmt.Errorf("all-gather: output has %d bytes, want %d × %d", len(recv), p, c)
	}
	copy(recv[r*c:], send)
	for s := 0; s < p-1; s++ {
		si := (r - s + p) % p
		ri := (r - s - 1 + 2*p) % p
		if err := step(ctx, g, recv[si*c:(si+1)*c], recv[ri*c:(ri+1)*c], 0, 0, false); err != nil {
			return fmt.Errorf("all-gather step %d: %w", s, err)
		}
	}
	return nil
}

// Broadcast copies buf from the ring position root to every rank along a
// pipelined chain.
func Broadcast(ctx context.Context, g Ring, buf []byte, root int) error {
	p, r := g.Size(), g.Rank()
	pos := (r - root + p) % p
	next, prev := g.peer(r+1), g.peer(r-1)
	for off := 0; off < len(buf); off += mesh.SegmentSize {
		seg := buf[off:min(len(buf), off+mesh.SegmentSize)]
		if pos > 0 {
			if err := recvSegments(ctx, g.m, prev, seg, 0, 0, false); err != nil {
				return fmt.Errorf("broadcast from rank %d: %w", root, err)
			}
		}
		if pos < p-1 {
			if err := g.m.Send(ctx, next, seg); err != nil {
				return fmt.Errorf("broadcast from rank %d: %w", root, err)
			}
		}
	}
	return nil
}

// Barrier returns once every rank has entered it.
func Barrier(ctx context.Context, g Ring) error {
	p, r := g.Size(), g.Rank()
	token := []byte{1}
	for i := 1; i < p; i++ {
		if err := g.m.Send(ctx, g.peer(r+i), token); err != nil {
			return fmt.Errorf("barrier: %w", err)
		}
	}
	for i := 1; i < p; i++ {
		from := g.peer(r - i)
		b, err := g.m.Recv(ctx, from)
		if err != nil {
			return fmt.Errorf("barrier: %w", err)
		}
		ok := len(b) == 1
		mesh.Release(b)
		if !ok {
			return fmt.Errorf("barrier: rank %d sent %d bytes (ranks called different collectives)", from, len(b))
		}
	}
	return nil
}
