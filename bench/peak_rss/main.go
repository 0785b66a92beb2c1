package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

func main() {
	model := flag.String("model", "mnist", "mnist or gpt")
	steps := flag.Int("steps", 469, "training steps")
	printDir := flag.Bool("print-mnist-dir", false, "print the MNIST folder and exit")
	flag.Parse()
	if *printDir {
		dir, err := data.MNISTDir()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(dir)
		return
	}
	start, err := status("VmRSS")
	if err != nil {
		log.Fatal(err)
	}
	switch *model {
	case "mnist":
		err = trainMNIST(*steps)
	case "gpt":
		trainGPT(*steps)
	default:
		err = fmt.Errorf("unknown -model %q (use mnist or gpt)", *model)
	}
	if err != nil {
		log.Fatal(err)
	}
	peak, err := status("VmHWM")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("goaccel model=%s steps=%d rss_start_mib=%.1f peak_rss_mib=%.1f\n", *model, *steps, start, peak)
}

// trainMNIST runs steps AdamW steps of the MNIST notebook's MLP, epoch after epoch.
func trainMNIST(steps int) error {
	train, err := data.MNIST("train")
	if err != nil {
		return fmt.Errorf("loading MNIST: %w", err)
	}
	tensors.ManualSeed(0)
	model := nn.NewSequential(nn.Flatten{}, nn.NewLinear(784, 256), nn.ReLU{}, nn.NewLinear(256, 10))
	opt := optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 128, Shuffle: true, Seed: 1})
	for done := 0; done < steps; {
		for loader.Next() && done < steps {
			xb, yb := loader.Batch()
			loss := nn.CrossEntropy(model.Forward(xb), yb)
			loss.Backward()
			opt.Step()
			opt.ZeroGrad()
			loss.Release()
			done++
		}
	}
	return nil
}

// trainGPT runs steps AdamW steps of the char_gpt notebook's model on random windows of a fixed
// random corpus (the memory of the notebook's 0.5 M characters of Go source, not its content).
func trainGPT(steps int) {
	const vocab, block, batch = 96, 64, 16
	tensors.ManualSeed(0)
	corpus := tensors.RandInt(0, vocab, 500_000).Int64s()
	m := nn.NewGPT(nn.GPTConfig{VocabSize: vocab, BlockSize: block, Layers: 4, Heads: 4, Embed: 128, Bias: true})
	opt := optim.NewAdamWGroups(optim.DecayGroups(m.Parameters(), 0.1), optim.AdamConfig{LR: 6e-3, Beta1: 0.9, Beta2: 0.99})
	gen := tensors.NewGenerator(1)
	for range steps {
		starts := gen.RandInt(0, int64(len(corpus)-block-1), batch).Int64s()
		xs, ys := make([]int64, 0, batch*block), make([]int64, 0, batch*block)
		for _, s := range starts {
			xs = append(xs, corpus[s:s+block]...)
			ys = append(ys, corpus[s+1:s+block+1]...)
		}
		x, y := tensors.FromInt64(xs, batch, block), tensors.FromInt64(ys, batch*block)
		logits := m.Forward(x)
		flat := logits.Reshape(batch*block, vocab)
		loss := nn.CrossEntropy(flat, y)
		loss.Backward()
		nn.ClipGradNorm(m.Parameters(), 1)
		opt.Step()
		opt.ZeroGrad()
		for _, t := range []*tensors.Tensor{x, y, logits, flat, loss} {
			t.Release()
		}
	}
}

// status returns a memory line of /proc/self/status (VmRSS, VmHWM) in MiB.
func status(key string) (float64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("reading peak memory: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && k == key {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				return 0, fmt.Errorf("parsing %s in /proc/self/status: %w", key, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", key)
}
