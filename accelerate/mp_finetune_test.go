package accelerate

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/datasets"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tokenizers"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/bert"
)

// The fine-tuning loop of notebooks/finetune_text_classification.ipynb (Accelerate's
// nlp_example) on a small BERT that reads MiniLM's vocabulary: texts tokenized by MiniLM's
// tokenizer (tokenizers/testdata/minilm) through Map, padded by the collator, a prepared
// shuffled loader, the model from a snapshot folder by FromPretrained, AdamW without decay for
// biases and LayerNorm weights, a linear schedule with warmup, Accumulate, Backward, ClipGradNorm,
// mixed precision, GatherForMetrics over the held-out texts, SaveState and LoadState with
// SkipFirstBatches mid-epoch, UnwrapModel and SavePretrained.

// ftCfg is one fine-tuning run.
type ftCfg struct {
	Name       string
	Batch      int    // per process
	GA         int    // gradient accumulation steps
	Steps      int    // optimizer steps of the whole run
	Precision  string // "no" or "bf16"
	SaveAt     int    // SaveState after this many steps into SaveDir, then stop (0: train on)
	SaveDir    string
	ResumeFrom string // a SaveState folder to go on from (its step: ResumeAt)
	ResumeAt   int
	SameAs     string // a case this one must end exactly as (the uninterrupted run of a resumed one)
	Export     string // SavePretrained the trained model here (main process)
}

// ftResult is what a run ends with.
type ftResult struct {
	Params []float32 // every parameter, in NamedParameters' order
	Preds  []int64   // gathered predictions over the held-out texts
	Labels []int64   // gathered labels
	Logits []float32 // gathered logits
	Sched  int       // the scheduler's steps
	Loss   float64   // the last step's loss
}

var ftTopics = []string{"business", "sport", "tech"}

// ftTexts are 60 short texts, 20 a topic, each mostly of its topic's words: SplitEvery(5) holds
// out 12 and leaves 48, whole rounds of 2 processes × 4 texts (and of 2 × 2 twice).
func ftTexts() (texts []string, labels []int64) {
	words := [][]string{
		{"shares", "profit", "bank", "market", "company", "growth", "prices", "sales", "investors", "economy"},
		{"match", "goal", "team", "season", "coach", "players", "win", "league", "cup", "injury"},
		{"software", "phone", "computer", "internet", "users", "chip", "games", "network", "digital", "online"},
	}
	common := []string{"the", "a", "new", "said", "year", "after", "with", "more", "on", "this"}
	seed := uint32(12345)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	for i := range 60 {
		topic := i % 3
		var w []string
		for k := range 4 + i%11 {
			if k%3 == 2 {
				w = append(w, common[next(len(common))])
			} else {
				w = append(w, words[topic][next(len(words[topic]))])
			}
		}
		texts = append(texts, strings.Join(w, " ")+".")
		labels = append(labels, int64(topic))
	}
	return texts, labels
}

// ftSnapshot writes, once, a small BERT classifier with MiniLM's vocabulary and no dropout (so
// that processes and devices can be compared) as a snapshot folder under dir, and returns it.
func ftSnapshot(t *testing.T, dir string) string {
	snap := filepath.Join(dir, "tiny-minilm")
	if _, err := os.Stat(filepath.Join(snap, "config.json")); err == nil {
		return snap // a worker: the test process wrote it before the launch
	}
	cfg, err := transformers.ParseConfig([]byte(`{"model_type": "bert", "vocab_size": 30522, "hidden_size": 32,
		"num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 37, "max_position_embeddings": 64,
		"hidden_dropout_prob": 0, "attention_probs_dropout_prob": 0, "type_vocab_size": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	tensors.ManualSeed(21)
	m, err := bert.NewModel(cfg.(*bert.Config), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := transformers.SavePretrained(snap, m, transformers.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return snap
}

// fineTune is the notebook's train function at a small scale.
func fineTune(acc *Accelerator, snap string, cfg ftCfg) ftResult {
	SetSeed(42, false)
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	tok, err := tokenizers.FromPretrained(filepath.Join("..", "tokenizers", "testdata", "minilm"))
	must(err)
	texts, labels := ftTexts()
	ds, err := datasets.FromColumns(map[string]any{"text": texts, "label": labels})
	must(err)
	trainDS, testDS, err := ds.SplitEvery(5, "label")
	must(err)
	tokenize := func(b *datasets.Dataset) (*datasets.Dataset, error) {
		texts, err := b.Strings("text")
		if err != nil {
			return nil, err
		}
		enc, err := tok.Batch(texts, tokenizers.Options{Truncation: tokenizers.LongestFirst, MaxLength: 12})
		if err != nil {
			return nil, err
		}
		return datasets.FromColumns(map[string]any{"input_ids": enc.InputIDs, "token_type_ids": enc.TokenTypeIDs, "attention_mask": enc.AttentionMask})
	}
	var trainTok, testTok *datasets.Dataset
	acc.MainProcessFirst(func() {
		opts := datasets.MapOptions{Batched: true, RemoveColumns: []string{"text"}}
		trainTok, err = trainDS.Map(tokenize, opts)
		must(err)
		testTok, err = testDS.Map(tokenize, opts)
		must(err)
	})
	collator, err := datasets.NewDataCollatorWithPadding(tok, 8)
	must(err)
	trainSet, err := datasets.WithCollator(trainTok, collator)
	must(err)
	testSet, err := datasets.WithCollator(testTok, collator)
	must(err)

	model, _, err := transformers.FromPretrained(snap, transformers.Options{Task: transformers.SequenceClassification,
		ID2Label: map[int]string{0: ftTopics[0], 1: ftTopics[1], 2: ftTopics[2]}, Log: io.Discard})
	must(err)
	var opt optim.Optimizer = optim.NewAdamWGroups(optim.DecayGroups(model.Parameters(), 0.01), optim.AdamConfig{LR: 3e-3})
	n := acc.NumProcesses()
	schedule := optim.NewLinearScheduleWithWarmup(opt, max(1, cfg.Steps/10)*n, cfg.Steps*n)
	var sched optim.Scheduler = schedule
	trainLoader := data.NewLoader(trainSet, data.LoaderConfig{BatchSize: cfg.Batch, Shuffle: true, Seed: 5})
	testLoader := data.NewLoader(testSet, data.LoaderConfig{BatchSize: 4})
	acc.Prepare(&model, &opt, &trainLoader, &testLoader, &sched)

	step := 0
	if cfg.ResumeFrom != "" {
		must(acc.LoadState(cfg.ResumeFrom))
		step = cfg.ResumeAt
		acc.SkipFirstBatches(trainLoader, step*cfg.GA%trainLoader.Len())
	}
	res := ftResult{Loss: math.NaN()}
	nn.SetTraining(model, true)
	micro := 0
	for step < cfg.Steps {
		for trainLoader.Next() {
			batch := trainLoader.Named()
			acc.Accumulate(model, func() {
				out, err := model.Run(transformers.BatchInputs(batch))
				must(err)
				acc.Backward(out.Loss)
				acc.ClipGradNorm(model.Parameters(), 1.0)
				opt.Step()
				sched.Step()
				opt.ZeroGrad()
				res.Loss = out.Loss.Item()
			})
			if micro++; acc.SyncGradients() {
				step++
			}
			if cfg.SaveAt > 0 && step == cfg.SaveAt && acc.SyncGradients() {
				_, err := acc.SaveState(cfg.SaveDir)
				must(err)
				return res
			}
			if step >= cfg.Steps {
				break
			}
		}
	}

	nn.SetTraining(model, false)
	tensors.NoGrad(func() {
		for testLoader.Next() {
			batch := testLoader.Named()
			out, err := model.Run(transformers.BatchInputs(batch))
			must(err)
			g := acc.GatherForMetricsAll(out.Logits.ArgMax(1, false), batch.Get("labels"), out.Logits.AsType(tensors.Float32))
			res.Preds = append(res.Preds, g[0].Int64s()...)
			res.Labels = append(res.Labels, g[1].Int64s()...)
			res.Logits = append(res.Logits, g[2].Float32s()...)
		}
	})
	acc.WaitForEveryone()
	unwrapped := acc.UnwrapModel(model)
	if cfg.Export != "" && acc.IsMainProcess() {
		must(transformers.SavePretrained(cfg.Export, unwrapped, transformers.SaveOptions{}))
	}
	for _, p := range unwrapped.NamedParameters() {
		res.Params = append(res.Params, p.Param.AsType(tensors.Float32).Float32s()...)
	}
	res.Sched = schedule.LastEpoch()
	return res
}

// ftCompare fails t unless got (n processes) is want (one process, the n-fold batch) within tol:
// every parameter and gathered logit within tol, the same predictions, and every held-out label
// gathered once, in order.
func ftCompare(t *testing.T, got, want ftResult, tol float64) {
	t.Helper()
	_, labels := ftTexts()
	var held []int64
	for i, l := range labels {
		if i/3%5 == 0 { // SplitEvery(5): the 0th, 5th, 10th… text of each topic
			held = append(held, l)
		}
	}
	if !slices.Equal(want.Labels, held) || !slices.Equal(got.Labels, held) {
		t.Errorf("gathered labels: %v and one process's %v, want the held-out %v", got.Labels, want.Labels, held)
	}
	if !slices.Equal(got.Preds, want.Preds) {
		t.Errorf("predictions %v, one process %v", got.Preds, want.Preds)
	}
	worst := func(a, b []float32) (float64, int) {
		if len(a) != len(b) {
			t.Fatalf("%d values, one process %d", len(a), len(b))
		}
		w, at := 0.0, -1
		for i := range a {
			if d := math.Abs(float64(a[i] - b[i])); d > w || math.IsNaN(d) {
				w, at = d, i
			}
		}
		return w, at
	}
	if d, i := worst(got.Params, want.Params); d > tol {
		t.Errorf("parameter %d: %v, one process %v (|Δ| %.2g > %g)", i, got.Params[i], want.Params[i], d, tol)
	} else {
		t.Logf("largest parameter difference %.2g (tolerance %g)", d, tol)
	}
	if d, i := worst(got.Logits, want.Logits); d > 10*tol {
		t.Errorf("logit %d: %v, one process %v (|Δ| %.2g > %g)", i, got.Logits[i], want.Logits[i], d, 10*tol)
	}
	if got.Sched != want.Sched {
		t.Errorf("scheduler steps %d, one process ×2: %d", got.Sched, want.Sched)
	}
}

// ftCases runs the cases on two processes (each case's Batch) and in the test process (twice
// the batch) and compares them; a case with ResumeAt first trains to that step and saves, then
// resumes in a fresh Accelerator and model, and must end where the uninterrupted run ends.
func ftCases(t *testing.T, cases []ftCfg, tols map[string]float64) {
	dir := sharedDir(t)
	snap := ftSnapshot(t, dir)
	for i := range cases {
		cases[i].Export = filepath.Join(dir, cases[i].Name+"-model")
	}
	launch(t, 2, func() {
		c := group()
		if os.Getenv(EnvDevice) == "cuda" {
			if dc, ok := c.(distComm); !ok || dc.g.Transport() != "nccl" {
				panic(fmt.Sprintf("rank %d: the gradients are all-reduced by %T, not by NCCL on the GPUs", c.Rank(), c))
			}
		}
		for _, fc := range cases {
			if fc.ResumeAt > 0 {
				first := fc
				first.SaveAt, first.SaveDir = fc.ResumeAt, filepath.Join(dir, fc.Name+"-checkpoint")
				fineTune(newWithComm(withCfg(Config{MixedPrecision: fc.Precision, GradientAccumulationSteps: fc.GA}), c), snap, first)
				fc.ResumeFrom = first.SaveDir
			}
			res := fineTune(newWithComm(withCfg(Config{MixedPrecision: fc.Precision, GradientAccumulationSteps: fc.GA}), c), snap, fc)
			if c.Rank() == 0 {
				writeJSON(resultPath(dir, fc.Name), res)
			}
		}
	})
	for _, fc := range cases {
		t.Run(fc.Name, func(t *testing.T) {
			var got ftResult
			readJSON(t, resultPath(dir, fc.Name), &got)
			ref := fc
			ref.Batch, ref.ResumeAt, ref.Export = 2*fc.Batch, 0, ""
			want := fineTune(newWithComm(withCfg(Config{MixedPrecision: fc.Precision, GradientAccumulationSteps: fc.GA, CPU: true}), solo{}), snap, ref)
			want.Sched *= 2
			t.Logf("loss %.4f, one process %.4f; held-out predictions %v", got.Loss, want.Loss, got.Preds)
			ftCompare(t, got, want, tols[fc.Precision])
			if fc.SameAs != "" {
				var same ftResult
				readJSON(t, resultPath(dir, fc.SameAs), &same)
				if !slices.Equal(got.Params, same.Params) || !slices.Equal(got.Logits, same.Logits) {
					t.Errorf("the run resumed at step %d does not end with the parameters and logits of %s, bit for bit", fc.ResumeAt, fc.SameAs)
				}
			}
			// The exported folder is the trained model, as FromPretrained reads it.
			m, _, err := transformers.FromPretrained(fc.Export, transformers.Options{Task: transformers.SequenceClassification, Log: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			if id := m.PretrainedConfig().Base().ID2Label; fmt.Sprint(id) != "map[0:business 1:sport 2:tech]" {
				t.Errorf("saved id2label %v", id)
			}
			var saved []float32
			for _, p := range m.NamedParameters() {
				saved = append(saved, p.Param.Float32s()...)
			}
			if !slices.Equal(saved, got.Params) {
				t.Error("the folder SavePretrained wrote does not hold the trained parameters")
			}
		})
	}
}

// The tolerances of the comparisons with one process: float32 runs differ by the order of the
// gradient sums only; under bfloat16 autocast such a difference can round an operand to the
// neighbouring bfloat16 (2⁻⁸ apart) and grow through the steps.
var ftTolerances = map[string]float64{"no": 1e-5, "bf16": 1e-4}

// TestFineTuningOnTwoProcessesMatchesOneProcessWithDoubleBatch: the loop of the fine-tuning
// notebook on two processes trains to the weights, predictions and gathered labels of one
// process with the double batch, in float32 and bfloat16, with accumulation, and resumed
// mid-epoch from SaveState.
func TestFineTuningOnTwoProcessesMatchesOneProcessWithDoubleBatch(t *testing.T) {
	ftCases(t, []ftCfg{
		{Name: "fp32", Batch: 4, GA: 1, Steps: 8, Precision: "no"},
		{Name: "bf16", Batch: 4, GA: 1, Steps: 8, Precision: "bf16"},
		{Name: "bf16-accumulate2", Batch: 2, GA: 2, Steps: 8, Precision: "bf16"},
		{Name: "bf16-resumed-mid-epoch", Batch: 4, GA: 1, Steps: 8, Precision: "bf16", ResumeAt: 3, SameAs: "bf16"},
	}, ftTolerances)
}

// TestFineTuningOnTwoGPUsOverNCCLMatchesOneCPUProcess is the same loop with each process on a
// GPU of its own (the emulated ones under `make test-cuda-emulated`), NCCL all-reducing the
// gradients, compared with one CPU process within the same tolerances (seen on the emulated
// GPUs: 7e-8 in float32, 6e-6 in bf16).
func TestFineTuningOnTwoGPUsOverNCCLMatchesOneCPUProcess(t *testing.T) {
	if n := tensors.DeviceCount("cuda"); n < 2 {
		t.Skipf("needs two GPUs, this machine has %d (make test-cuda-emulated runs it on two emulated ones)", n)
	}
	t.Setenv(EnvDevice, "cuda")
	ftCases(t, []ftCfg{
		{Name: "cuda-fp32", Batch: 4, GA: 1, Steps: 4, Precision: "no"},
		{Name: "cuda-bf16", Batch: 4, GA: 1, Steps: 4, Precision: "bf16"},
	}, ftTolerances)
}
