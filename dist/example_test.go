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
