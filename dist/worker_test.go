package dist

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"time"

	"github.com/goaccel/goaccel/dist/internal/reduce"
	"github.com/goaccel/goaccel/dist/internal/store"
	"github.com/goaccel/goaccel/tensors"
)

// runWorker is a worker process's main: it joins the group from the
// environment and runs scenario. Exit codes: 0 ok, 1 failure, 3 peer lost.
func runWorker(scenario string) int {
	ctx := context.Background()
	if scenario == "register-and-die" {
		return registerAndDie(ctx)
	}
	cfg, err := FromEnv()
	if err != nil {
		fmt.Println("FAIL", err)
		return 1
	}
	g, err := Init(ctx, cfg)
	if err != nil {
		var pl *PeerLostError
		if errors.As(err, &pl) && errors.Is(err, ErrPeerLost) {
			fmt.Printf("PEERLOST-INIT rank=%d\n", pl.Rank)
		}
		fmt.Println("FAIL init:", err)
		return 1
	}
	defer g.Close()
	fmt.Printf("joined rank=%d size=%d transport=%s\n", g.Rank(), g.Size(), g.Transport())
	switch scenario {
	case "collectives":
		if err := checkCollectives(ctx, g); err != nil {
			fmt.Println("FAIL", err)
			return 1
		}
		fmt.Println("OK")
		return 0
	case "subgroups":
		if err := checkSubGroups(ctx, g); err != nil {
			fmt.Println("FAIL", err)
			return 1
		}
		fmt.Println("OK")
		return 0
	case "bench-peer":
		if err := benchPeer(ctx, g); err != nil {
			fmt.Println("FAIL", err)
			return 1
		}
		return 0
	case "stall":
		// Rank 0 all-reduces; the others never join it, so it must time out.
		if g.Rank() == 0 {
			err := g.AllReduce(ctx, make([]float32, 10), Sum)
			fmt.Printf("TIMEOUT=%v err=%v\n", errors.Is(err, context.DeadlineExceeded), err)
			return 0
		}
		select { // until rank 0 leaves
		case <-g.mesh.Ended():
		case <-time.After(30 * time.Second):
		}
		return 0
	case "loop":
		buf := make([]float32, 1<<20)
		for i := 0; ; i++ {
			if err := g.AllReduce(ctx, buf, Sum); err != nil {
				var pl *PeerLostError
				if errors.Is(err, ErrPeerLost) && errors.As(err, &pl) {
					fmt.Printf("PEERLOST rank=%d at=%d err=%v\n", pl.Rank, time.Now().UnixMilli(), err)
					return 3
				}
				fmt.Println("FAIL", err)
				return 1
			}
			if i == 3 {
				fmt.Println("looping")
			}
		}
	}
	fmt.Println("FAIL unknown scenario", scenario)
	return 1
}

func value(rank, i int) float32 { return float32(i%97*(rank+1) + rank) }

func checkAllReduce(ctx context.Context, g *Group, n int, op Op) error {
	p := g.Size()
	v := make([]float32, n)
	for i := range v {
		v[i] = value(g.Rank(), i)
	}
	if err := g.AllReduce(ctx, v, op); err != nil {
		return err
	}
	for i := range v {
		var want float32
		for r := range p {
			x := value(r, i)
			switch {
			case r == 0:
				want = x
			case op == Sum || op == Mean:
				want += x
			case op == Max:
				want = max(want, x)
			case op == Min:
				want = min(want, x)
			}
		}
		if op == Mean {
			want *= float32(1 / float64(p))
		}
		if math.Abs(float64(v[i]-want)) > 1e-6*math.Abs(float64(want)) {
			return fmt.Errorf("all-reduce %v n=%d: elem %d = %v, want %v", op, n, i, v[i], want)
		}
	}
	// Every rank must hold the same bits.
	h := fnv.New64a()
	h.Write(reduce.FromF32(v))
	sums := make([]int64, p)
	if err := g.AllGatherInt64(ctx, []int64{int64(h.Sum64())}, sums); err != nil {
		return err
	}
	for r, s := range sums {
		if s != sums[0] {
			return fmt.Errorf("all-reduce %v n=%d: rank %d's result differs from rank 0's", op, n, r)
		}
	}
	return nil
}

// checkAllReduceCoalesced compares each buffer with the matching part of an
// AllReduce of their concatenation, to the bit.
func checkAllReduceCoalesced(ctx context.Context, g *Group, sizes []int, op Op) error {
	var flat []float32
	var bufs [][]float32
	for _, n := range sizes {
		b := make([]float32, n)
		for i := range b {
			b[i] = value(g.Rank(), len(flat)+i) / 7
		}
		flat = append(flat, b...)
		bufs = append(bufs, b)
	}
	if err := g.AllReduce(ctx, flat, op); err != nil {
		return err
	}
	if err := g.AllReduceCoalesced(ctx, bufs, op); err != nil {
		return err
	}
	off := 0
	for k, b := range bufs {
		for i, v := range b {
			if v != flat[off+i] {
				return fmt.Errorf("all-reduce-coalesced %v: buffer %d elem %d = %v; AllReduce of the concatenation gave %v", op, k, i, v, flat[off+i])
			}
		}
		off += len(b)
	}
	return nil
}

func checkCollectives(ctx context.Context, g *Group) error {
	p, rank := g.Size(), g.Rank()
	for _, n := range []int{1, 7, 1<<20 + 3} {
		for _, op := range []Op{Sum, Mean, Max, Min} {
			if err := checkAllReduce(ctx, g, n, op); err != nil {
				return err
			}
		}
	}
	for _, op := range []Op{Sum, Mean, Max} {
		if err := checkAllReduceCoalesced(ctx, g, []int{0, 5, 1 << 20, 1, 70000}, op); err != nil {
			return err
		}
	}
	f64 := []float64{float64(rank) + 0.5, -1}
	if err := g.AllReduceFloat64(ctx, f64, Sum); err != nil {
		return err
	}
	if want := float64(p*(p-1))/2 + 0.5*float64(p); f64[0] != want || f64[1] != -float64(p) {
		return fmt.Errorf("all-reduce float64: %v", f64)
	}
	i64 := []int64{int64(rank), 1 << 40}
	if err := g.AllReduceInt64(ctx, i64, Max); err != nil {
		return err
	}
	if i64[0] != int64(p-1) || i64[1] != 1<<40 {
		return fmt.Errorf("all-reduce int64 max: %v", i64)
	}
	send := []float32{float32(rank * 10), float32(rank*10 + 1), float32(rank*10 + 2)}
	recv := make([]float32, 3*p)
	if err := g.AllGather(ctx, send, recv); err != nil {
		return err
	}
	for i, x := range recv {
		if want := float32(i/3*10 + i%3); x != want {
			return fmt.Errorf("all-gather: %v", recv)
		}
	}
	mine := make([]float32, (rank*2)%3) // 0, 2, 1 elements: unequal, one empty
	for i := range mine {
		mine[i] = float32(rank*100 + i)
	}
	parts, err := g.AllGatherV(ctx, mine)
	if err != nil {
		return err
	}
	for r, part := range parts {
		if len(part) != (r*2)%3 {
			return fmt.Errorf("all-gather-v: rank %d part has %d elements, want %d", r, len(part), (r*2)%3)
		}
		for i, x := range part {
			if x != float32(r*100+i) {
				return fmt.Errorf("all-gather-v: rank %d part %v", r, part)
			}
		}
	}
	labels, err := g.AllGatherVInt64(ctx, []int64{int64(rank), 7})
	if err != nil {
		return err
	}
	if len(labels) != p || labels[p-1][0] != int64(p-1) {
		return fmt.Errorf("all-gather-v int64: %v", labels)
	}
	blobs, err := g.AllGatherVBytes(ctx, []byte(strings.Repeat("x", rank)))
	if err != nil {
		return err
	}
	for r, b := range blobs {
		if string(b) != strings.Repeat("x", r) {
			return fmt.Errorf("all-gather-v bytes: %q", blobs)
		}
	}
	big := make([]float32, 1<<20+3)
	root := p - 1
	if rank == root {
		for i := range big {
			big[i] = float32(i)
		}
	}
	if err := g.Broadcast(ctx, big, root); err != nil {
		return err
	}
	for i, x := range big {
		if x != float32(i) {
			return fmt.Errorf("broadcast: elem %d = %v", i, x)
		}
	}
	rs := make([]float32, 7*p)
	for i := range rs {
		rs[i] = float32(i + rank)
	}
	out := make([]float32, 7)
	if err := g.ReduceScatter(ctx, rs, out, Sum); err != nil {
		return err
	}
	for i, x := range out {
		if want := float32(p*(rank*7+i) + p*(p-1)/2); x != want {
			return fmt.Errorf("reduce-scatter: elem %d = %v, want %v", i, x, want)
		}
	}
	if err := g.Barrier(ctx); err != nil {
		return err
	}
	type stats struct {
		Rank  int
		Names []string
	}
	var all []stats
	if err := g.GatherObject(ctx, stats{Rank: rank, Names: []string{"r", fmt.Sprint(rank)}}, &all); err != nil {
		return err
	}
	for r, s := range all {
		if s.Rank != r || s.Names[1] != fmt.Sprint(r) {
			return fmt.Errorf("gather-object: %+v", all)
		}
	}
	cfgMap := map[string]float64{}
	if rank == 1 {
		cfgMap = map[string]float64{"lr": 0.1, "seed": 42}
	}
	if err := g.BroadcastObject(ctx, &cfgMap, 1); err != nil {
		return err
	}
	if cfgMap["lr"] != 0.1 || cfgMap["seed"] != 42 {
		return fmt.Errorf("broadcast-object: %v", cfgMap)
	}
	if err := checkTensors(ctx, g); err != nil {
		return err
	}
	return g.Barrier(ctx)
}

func checkTensors(ctx context.Context, g *Group) error {
	p, rank := g.Size(), g.Rank()
	x := tensors.Full(float64(rank+1), 2, 3)
	if err := g.AllReduceTensor(ctx, x, Mean); err != nil {
		return err
	}
	if want := float64(p+1) / 2; math.Abs(x.Float64s()[5]-want) > 1e-6 {
		return fmt.Errorf("all-reduce tensor: %v, want %v", x, want)
	}
	labels := tensors.FromInt64([]int64{int64(rank), 3}, 2)
	if err := g.AllReduceTensor(ctx, labels, Sum); err != nil {
		return err
	}
	if v := labels.Int64s(); v[0] != int64(p*(p-1)/2) || v[1] != int64(3*p) {
		return fmt.Errorf("all-reduce int64 tensor: %v", v)
	}
	rows := rank + 1 // unequal first dimensions
	local := make([]float32, rows*2)
	for i := range local {
		local[i] = float32(rank)
	}
	all, err := g.AllGatherTensor(ctx, tensors.New(local, rows, 2))
	if err != nil {
		return err
	}
	if sh := all.Shape(); sh[0] != p*(p+1)/2 || sh[1] != 2 {
		return fmt.Errorf("all-gather tensor: shape %v", sh)
	}
	if v := all.Float32s(); v[len(v)-1] != float32(p-1) || v[0] != 0 {
		return fmt.Errorf("all-gather tensor: %v", v)
	}
	y := tensors.Full(float64(rank), 4)
	if err := g.BroadcastTensor(ctx, y, 0); err != nil {
		return err
	}
	if y.Float32s()[3] != 0 {
		return fmt.Errorf("broadcast tensor: %v", y)
	}
	return nil
}

// registerAndDie joins the store as RANK and exits without a goodbye, as a
// process that crashes during rendezvous would.
func registerAndDie(ctx context.Context) int {
	cfg, err := FromEnv()
	if err != nil {
		fmt.Println("FAIL", err)
		return 1
	}
	c, err := store.Dial(ctx, cfg.StoreAddr, []byte(cfg.Token), cfg.Rank)
	if err == nil {
		err = c.Register(ctx, cfg.Rank)
	}
	if err != nil {
		fmt.Println("FAIL", err)
		return 1
	}
	fmt.Println("registered")
	return 2
}
