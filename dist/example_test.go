package dist_test

import (
	"context"
	"fmt"

	"github.com/goaccel/goaccel/dist"
)

// Without a launcher's environment FromEnv describes one process, and its
// group's collectives leave the data as it is; under torchrun or
// `goaccel launch` the same code averages across all processes.
func Example() {
	ctx := context.Background()
	cfg, err := dist.FromEnv()
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := dist.Init(ctx, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	grads := []float32{0.5, -1, 2}
	if err := g.AllReduce(ctx, grads, dist.Mean); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Rank(), g.Size(), g.Transport(), grads)
	// Output: 0 1 single [0.5 -1 2]
}

// GatherObject collects any gob-encodable value from every rank.
func ExampleGroup_GatherObject() {
	ctx := context.Background()
	g, _ := dist.Init(ctx, dist.Config{}) // one process
	defer g.Close()
	var all []map[string]float64
	if err := g.GatherObject(ctx, map[string]float64{"loss": 0.25}, &all); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(all), all[0]["loss"])
	// Output: 1 0.25
}

// A launcher can host the rendezvous store itself and hand its address and
// token to the workers, which then find it through FromEnv.
func ExampleServeStore() {
	token := dist.NewToken()
	srv, err := dist.ServeStore("127.0.0.1:0", token)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	env := []string{dist.EnvStoreAddr + "=" + srv.Addr(), dist.EnvStoreToken + "=" + token}
	fmt.Println(len(env), "variables for each worker")
	// Output: 2 variables for each worker
}

// AllReduceCoalesced averages a model's gradient tensors as one collective,
// without first copying them into one buffer.
func ExampleGroup_AllReduceCoalesced() {
	ctx := context.Background()
	g, err := dist.Init(ctx, dist.Config{WorldSize: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()
	weight, bias := []float32{0.25, -1, 3, 4}, []float32{2}
	if err := g.AllReduceCoalesced(ctx, [][]float32{weight, bias}, dist.Mean); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(weight, bias)
	// Output: [0.25 -1 3 4] [2]
}

// NewGroup makes a group of some of the ranks (torch.distributed.new_group); every rank calls
// it with the same list. Here the job has one process, so the list can only be [0]; on four
// processes, NewGroup(ctx, []int{0, 2}) would all-reduce between ranks 0 and 2 only.
func ExampleGroup_NewGroup() {
	ctx := context.Background()
	g, _ := dist.Init(ctx, dist.Config{}) // one process
	defer g.Close()
	leaders, err := g.NewGroup(ctx, []int{0})
	if err != nil {
		fmt.Println(err)
		return
	}
	x := []float32{1, 2}
	if err := leaders.AllReduce(ctx, x, dist.Sum); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(leaders.Rank(), leaders.Size(), x)
	_, err = g.NewGroup(ctx, []int{0, 0})
	fmt.Println(err)
	// Output:
	// 0 1 [1 2]
	// dist: new group [0 0]: rank 0 is listed twice
}

// Split cuts a job into disjoint groups by color, as a device mesh does: with nodes of
// perNode ranks, the ranks of one node (color rank/perNode) shard a model among themselves and
// the ranks with the same place on every node (color rank%perNode) replicate it.
func ExampleGroup_Split() {
	ctx := context.Background()
	g, _ := dist.Init(ctx, dist.Config{}) // one process
	defer g.Close()
	perNode := 1
	node, err := g.Split(ctx, g.Rank()/perNode, g.Rank())
	if err != nil {
		fmt.Println(err)
		return
	}
	replicas, err := g.Split(ctx, g.Rank()%perNode, g.Rank())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(node.Rank(), node.Size(), replicas.Rank(), replicas.Size())
	// Output: 0 1 0 1
}
