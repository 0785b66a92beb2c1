package accelerate_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// Fully sharded data parallelism changes the Config, not the loop. Launched on N processes
// (`%accelerate launch --num_processes 4 --use_fsdp` sets the same from the command line) each
// keeps 1/N of every parameter, gradient and AdamW moment; on one process, as here, nothing is
// sharded and the loop runs as it is. Every process calls SaveModelWith, which gathers the whole
// model; rank 0 writes it, here in Hugging Face's sharded layout.
func ExampleFullyShardedDataParallelPlugin() {
	acc := accelerate.New(accelerate.Config{FSDP: &accelerate.FullyShardedDataParallelPlugin{
		ShardingStrategy:          accelerate.FullShard,
		TransformerLayerClsToWrap: []string{"TransformerBlock"}, // one unit per block
	}})
	cfg := nn.GPTConfig{VocabSize: 16, BlockSize: 8, Layers: 2, Heads: 2, Embed: 32}
	tensors.ManualSeed(0)
	var model nn.Module = nn.NewGPT(cfg)
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-2})
	acc.Prepare(&model, &opt)
	idx := tensors.RandInt(0, int64(cfg.VocabSize), 4, cfg.BlockSize)
	tgt := tensors.RandInt(0, int64(cfg.VocabSize), 4*cfg.BlockSize)
	var first, last float64
	for step := 0; step < 10; step++ {
		loss := tensors.CrossEntropy(model.Forward(idx).Reshape(-1, cfg.VocabSize), tgt)
		acc.Backward(loss)
		acc.ClipGradNorm(model.Parameters(), 1.0)
		opt.Step()
		opt.ZeroGrad()
		if step == 0 {
			first = loss.Item()
		}
		last = loss.Item()
	}
	fmt.Println("loss went down:", last < first)

	dir, _ := os.MkdirTemp("", "fsdp-example")
	defer os.RemoveAll(dir)
	if err := acc.SaveModelWith(model, dir, accelerate.SaveModelOptions{MaxShardSize: "40KB"}); err != nil {
		fmt.Println(err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "model*"))
	for _, f := range files {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// loss went down: true
	// model-00001-of-00003.safetensors
	// model-00002-of-00003.safetensors
	// model-00003-of-00003.safetensors
	// model.safetensors.index.json
}

// Prefetch overlaps communication with compute as PyTorch's FSDP does: with ForwardPrefetch the
// all-gather of the next block starts while the current one computes its forward pass, and
// BackwardPre does the same in the backward pass (`--fsdp_forward_prefetch true
// --fsdp_backward_prefetch BACKWARD_PRE`). The next block is the one the last pass gathered
// next; at most one block more is held at a time, and the results are the same to the bit.
func ExampleFullyShardedDataParallelPlugin_prefetch() {
	fmt.Println("loss went down:", lossGoesDown(&accelerate.FullyShardedDataParallelPlugin{
		ShardingStrategy: accelerate.FullShard,
		ForwardPrefetch:  true,
		BackwardPrefetch: accelerate.BackwardPre,
	}))
	// Output:
	// loss went down: true
}

// CPU offload keeps each process's shards, their gradients and the optimizer state in host
// memory (`--fsdp_offload_params true`): the device holds only the units being computed and the
// activations, and the optimizer steps on the CPU. Results equal those without offload.
func ExampleFullyShardedDataParallelPlugin_cpuOffload() {
	fmt.Println("loss went down:", lossGoesDown(&accelerate.FullyShardedDataParallelPlugin{
		ShardingStrategy: accelerate.FullShard,
		CPUOffload:       true,
	}))
	// Output:
	// loss went down: true
}

// lossGoesDown trains a small GPT for 5 steps with plugin, in the loop of
// ExampleFullyShardedDataParallelPlugin, and reports whether the loss fell.
func lossGoesDown(plugin *accelerate.FullyShardedDataParallelPlugin) bool {
	acc := accelerate.New(accelerate.Config{FSDP: plugin})
	cfg := nn.GPTConfig{VocabSize: 16, BlockSize: 8, Layers: 2, Heads: 2, Embed: 32}
	tensors.ManualSeed(0)
	var model nn.Module = nn.NewGPT(cfg)
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-2})
	acc.Prepare(&model, &opt)
	idx := tensors.RandInt(0, int64(cfg.VocabSize), 4, cfg.BlockSize)
	tgt := tensors.RandInt(0, int64(cfg.VocabSize), 4*cfg.BlockSize)
	var first, last float64
	for step := 0; step < 5; step++ {
		loss := tensors.CrossEntropy(model.Forward(idx).Reshape(-1, cfg.VocabSize), tgt)
		acc.Backward(loss)
		opt.Step()
		opt.ZeroGrad()
		if step == 0 {
			first = loss.Item()
		}
		last = loss.Item()
	}
	return last < first
}
