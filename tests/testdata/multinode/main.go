// Command multinode is the training program of the multi-node test: it
// joins the process group its launcher describes (RANK, WORLD_SIZE,
// LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT), trains an MLP
// data-parallel for -epochs epochs on a fixed regression task, and rank 0
// prints the final weights. With -forever it trains until the group fails,
// and prints the error.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

func main() {
	epochs := flag.Int("epochs", 3, "epochs to train")
	forever := flag.Bool("forever", false, "train until the group fails")
	flag.Parse()
	slog.SetLogLoggerLevel(slog.LevelDebug) // dist says which transport it chose
	defer func() {
		if r := recover(); r != nil {
			fmt.Printf("FAILED %v\n", r)
			os.Exit(3)
		}
	}()
	acc := accelerate.New(accelerate.Config{})
	tensors.ManualSeed(11)
	var model nn.Module = nn.NewSequential(nn.NewLinear(32, 256), &nn.ReLU{}, nn.NewLinear(256, 256), &nn.ReLU{}, nn.NewLinear(256, 1))
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.01})
	loader := data.NewLoader(dataset(), data.LoaderConfig{BatchSize: 16, Shuffle: true, Seed: 5})
	acc.Prepare(&model, &opt, &loader)
	for epoch := 0; *forever || epoch < *epochs; epoch++ {
		for loader.Next() {
			x, y := loader.Batch()
			acc.Backward(tensors.MSE(model.Forward(x), y))
			opt.Step()
			opt.ZeroGrad()
		}
		fmt.Printf("EPOCH %d\n", epoch)
	}
	if acc.IsMainProcess() {
		var w [][]float32
		for _, p := range acc.UnwrapModel(model).Parameters() {
			w = append(w, p.Float32s())
		}
		b, _ := json.Marshal(w)
		fmt.Printf("WEIGHTS %s\n", b)
	}
	acc.EndTraining()
}

// dataset is a fixed regression task of 512 samples.
func dataset() data.Dataset {
	g := tensors.NewGenerator(3)
	x := g.Randn(512, 32)
	y := x.MatMul(g.Randn(32, 1)).Add(g.Randn(512, 1).MulScalar(0.1))
	return data.NewTensorDataset(x, y)
}
