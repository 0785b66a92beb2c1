package dist

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

func TestSingleProcessCollectivesAreIdentity(t *testing.T) {
	ctx := context.Background()
	g, err := Init(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	v := []float32{1, 2, 3}
	for _, op := range []Op{Sum, Mean, Max, Min} {
		if err := g.AllReduce(ctx, v, op); err != nil || v[2] != 3 {
			t.Fatalf("%v: %v %v", op, v, err)
		}
	}
	recv := make([]float32, 3)
	if err := g.AllGather(ctx, v, recv); err != nil || recv[1] != 2 {
		t.Fatalf("all-gather: %v %v", recv, err)
	}
	parts, err := g.AllGatherV(ctx, v)
	if err != nil || len(parts) != 1 || len(parts[0]) != 3 {
		t.Fatalf("all-gather-v: %v %v", parts, err)
	}
	out := make([]float32, 3)
	if err := g.ReduceScatter(ctx, v, out, Sum); err != nil || out[0] != 1 {
		t.Fatalf("reduce-scatter: %v %v", out, err)
	}
	if err := g.Broadcast(ctx, v, 0); err != nil {
		t.Fatal(err)
	}
	if err := g.Barrier(ctx); err != nil {
		t.Fatal(err)
	}
	x := tensors.New([]float32{1, 2}, 2)
	if err := g.AllReduceTensor(ctx, x, Mean); err != nil || x.Float32s()[1] != 2 {
		t.Fatalf("tensor: %v %v", x, err)
	}
	all, err := g.AllGatherTensor(ctx, x)
	if err != nil || all.Shape()[0] != 2 {
		t.Fatalf("gather tensor: %v %v", all, err)
	}
}

func TestBadArgumentsGetClearErrors(t *testing.T) {
	ctx := context.Background()
	g, _ := Init(ctx, Config{})
	defer g.Close()
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"all-gather size", g.AllGather(ctx, make([]float32, 2), make([]float32, 3)), "want size × len(send) = 1 × 2"},
		{"reduce-scatter size", g.ReduceScatter(ctx, make([]float32, 2), make([]float32, 3), Sum), "want size × len(recv)"},
		{"broadcast root", g.Broadcast(ctx, nil, 1), "root 1 is outside [0, 1)"},
		{"int64 mean", g.AllReduceInt64(ctx, []int64{1}, Mean), "Mean is not defined for int64"},
		{"unknown op", g.AllReduce(ctx, nil, Op(9)), "unknown op"},
		{"gather object out", g.GatherObject(ctx, 1, []int{}), "pointer to a slice"},
		{"broadcast object", g.BroadcastObject(ctx, 1, 0), "non-nil pointer"},
		{"bf16 tensor", g.AllReduceTensor(ctx, tensors.Zeros(2).AsType(tensors.BFloat16), Sum), "dtype bfloat16 is not supported"},
		{"non-contiguous tensor", g.AllReduceTensor(ctx, tensors.Zeros(2, 3).T(), Sum), "not contiguous"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: want %q, got %v", c.name, c.want, c.err)
		}
	}
}

func TestClosedGroupRefusesCollectives(t *testing.T) {
	g, _ := Init(context.Background(), Config{})
	g.Close()
	if err := g.Barrier(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("want ErrClosed, got %v", err)
	}
}

func TestUnknownBackendNamesTheRegisteredOnes(t *testing.T) {
	_, err := Init(context.Background(), Config{Rank: 0, WorldSize: 2, MasterPort: 1, Backend: "nccl"})
	if err == nil || !strings.Contains(err.Error(), `backend "nccl" is not registered (available: [cpu])`) {
		t.Fatalf("got %v", err)
	}
}
