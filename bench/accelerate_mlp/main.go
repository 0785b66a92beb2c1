package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"strconv"
	"syscall"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

const envStart = "GOACCEL_BENCH_START_NS"

func main() {
	procs := flag.Int("procs", 2, "worker processes")
	steps := flag.Int("steps", 60, "timed steps")
	warmup := flag.Int("warmup", 10, "untimed steps first")
	flag.Parse()
	if os.Getenv(envStart) == "" {
		os.Setenv(envStart, strconv.FormatInt(time.Now().UnixNano(), 10))
	}
	_, err := nl.Launch(worker, nl.Options{NumProcesses: *procs}, *procs, *steps, *warmup)
	if err != nil {
		log.Fatal(err)
	}
}

func worker(procs, steps, warmup int) {
	start, _ := strconv.ParseInt(os.Getenv(envStart), 10, 64)
	mark := func(what string) {
		if os.Getenv("BENCH_DEBUG") != "" {
			fmt.Fprintf(os.Stderr, "rank %s %s at %.0f ms\n", os.Getenv("RANK"), what, float64(time.Since(time.Unix(0, start)).Microseconds())/1000)
		}
	}
	mark("main")
	acc := accelerate.New(accelerate.Config{})
	mark("New")
	accelerate.SetSeed(0, false)
	n := 1024 // a pool of 8 global batches, reshuffled every epoch
	x := tensors.Randn(n, 784)
	y := tensors.RandInt(0, 10, n)
	var model nn.Module = nn.NewSequential(nn.NewLinear(784, 512), &nn.ReLU{}, nn.NewLinear(512, 512), &nn.ReLU{}, nn.NewLinear(512, 10))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 128 / procs, Shuffle: true})
	mark("data+model")
	acc.Prepare(&model, &opt, &loader)
	mark("Prepare")
	var firstStep time.Duration
	var t0 time.Time
	var ru0 syscall.Rusage
	var ph [3]time.Duration // forward, backward, optimizer
	for i := 0; i < warmup+steps; i++ {
		if i == warmup {
			acc.WaitForEveryone()
			t0 = time.Now()
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			ph = [3]time.Duration{}
			if path := os.Getenv("BENCH_CPUPROFILE"); path != "" && acc.IsMainProcess() {
				f, err := os.Create(path)
				if err == nil && pprof.StartCPUProfile(f) == nil {
					defer pprof.StopCPUProfile()
				}
			}
		}
		if !loader.Next() {
			loader.Next()
		}
		ta := time.Now()
		xb, yb := loader.Batch()
		loss := tensors.CrossEntropy(model.Forward(xb), yb)
		tb := time.Now()
		acc.Backward(loss)
		tc := time.Now()
		opt.Step()
		opt.ZeroGrad()
		td := time.Now()
		ph[0] += tb.Sub(ta)
		ph[1] += tc.Sub(tb)
		ph[2] += td.Sub(tc)
		if i == 0 {
			firstStep = time.Since(time.Unix(0, start))
		}
	}
	acc.WaitForEveryone()
	per := time.Since(t0) / time.Duration(steps)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano()+ru.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / time.Duration(steps)
	if os.Getenv("BENCH_PHASES") != "" {
		sys := time.Duration(ru.Stime.Nano()-ru0.Stime.Nano()) / time.Duration(steps)
		fmt.Fprintf(os.Stderr, "rank %s wall %v cpu %v (sys %v) fwd %v bwd %v step %v volcs %d invcs %d minflt %d\n", os.Getenv("RANK"), per, cpu, sys,
			ph[0]/time.Duration(steps), ph[1]/time.Duration(steps), ph[2]/time.Duration(steps), (ru.Nvcsw-ru0.Nvcsw)/int64(steps), (ru.Nivcsw-ru0.Nivcsw)/int64(steps),
			(ru.Minflt-ru0.Minflt)/int64(steps))
	}
	if acc.IsMainProcess() {
		fmt.Printf("goaccel procs=%d ms_per_step=%.2f cpu_ms_per_step=%.2f launch_to_first_step_ms=%.0f\n", procs,
			float64(per.Microseconds())/1000, float64(cpu.Microseconds())/1000, float64(firstStep.Microseconds())/1000)
	}
}
