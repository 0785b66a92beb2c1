package main

import (
	"flag"
	"fmt"
	"log"
	"syscall"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/nn"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

func main() {
	procs := flag.Int("procs", 2, "worker processes")
	steps := flag.Int("steps", 20, "timed steps")
	warmup := flag.Int("warmup", 5, "untimed steps first")
	flag.Parse()
	for _, setting := range []string{"ddp", "full-shard", "shard-grad-op", "full-shard-prefetch", "shard-grad-op-prefetch"} {
		if _, err := nl.Launch(worker, nl.Options{NumProcesses: *procs, CPU: true}, setting, *procs, *steps, *warmup); err != nil {
			log.Fatal(err)
		}
	}
}

func worker(setting string, procs, steps, warmup int) {
	cfg := accelerate.Config{CPU: true}
	switch setting {
	case "full-shard":
		cfg.FSDP = &accelerate.FullyShardedDataParallelPlugin{ShardingStrategy: accelerate.FullShard}
	case "shard-grad-op":
		cfg.FSDP = &accelerate.FullyShardedDataParallelPlugin{ShardingStrategy: accelerate.ShardGradOp}
	case "full-shard-prefetch":
		cfg.FSDP = &accelerate.FullyShardedDataParallelPlugin{ShardingStrategy: accelerate.FullShard,
			ForwardPrefetch: true, BackwardPrefetch: accelerate.BackwardPre}
	case "shard-grad-op-prefetch":
		cfg.FSDP = &accelerate.FullyShardedDataParallelPlugin{ShardingStrategy: accelerate.ShardGradOp,
			ForwardPrefetch: true, BackwardPrefetch: accelerate.BackwardPre}
	}
	acc := accelerate.New(cfg)
	accelerate.SetSeed(0, false)
	gpt := nn.GPTConfig{VocabSize: 96, BlockSize: 64, Layers: 4, Heads: 4, Embed: 128, Bias: true}
	var model nn.Module = nn.NewGPT(gpt)
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 3e-4, WeightDecay: 0.1})
	acc.Prepare(&model, &opt)
	batch := 16 / procs
	g := tensors.NewGenerator(uint64(1 + acc.ProcessIndex()))
	idx := g.RandInt(0, int64(gpt.VocabSize), batch, gpt.BlockSize)
	tgt := g.RandInt(0, int64(gpt.VocabSize), batch*gpt.BlockSize)
	var t0 time.Time
	var ru0 syscall.Rusage
	for i := 0; i < warmup+steps; i++ {
		if i == warmup {
			acc.WaitForEveryone()
			t0 = time.Now()
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		}
		logits := model.Forward(idx)
		acc.Backward(tensors.CrossEntropy(logits.Reshape(-1, gpt.VocabSize), tgt))
		opt.Step()
		opt.ZeroGrad()
	}
	acc.WaitForEveryone()
	per := time.Since(t0) / time.Duration(steps)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano()+ru.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / time.Duration(steps)
	if acc.IsMainProcess() {
		fmt.Printf("goaccel procs=%d setting=%s ms_per_step=%.2f cpu_ms_per_step=%.2f\n", procs, setting,
			float64(per.Microseconds())/1000, float64(cpu.Microseconds())/1000)
	}
}
