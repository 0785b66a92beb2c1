package accelerate

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	_ "github.com/goaccel/goaccel/transformers/gpt2" // registers model_type gpt2
)

// fsdpSteps trains a prepared fsdpGPT from step `from` to `to` (exclusive) on this process's
// batches (batch i is the same whatever step the training started from).
func fsdpSteps(acc *Accelerator, model nn.Module, opt optim.Optimizer, rank, from, to int) {
	g := tensors.NewGenerator(uint64(100 + rank))
	for step := 0; step < to; step++ {
		idx := g.RandInt(0, int64(fsdpGPT.VocabSize), 4, fsdpGPT.BlockSize)
		tgt := g.RandInt(0, int64(fsdpGPT.VocabSize), 4*fsdpGPT.BlockSize)
		if step < from {
			continue
		}
		logits := model.Forward(idx)
		acc.Backward(tensors.CrossEntropy(logits.Reshape(-1, fsdpGPT.VocabSize), tgt))
		acc.ClipGradNorm(model.Parameters(), 0.5)
		opt.Step()
		opt.ZeroGrad()
	}
}

// newFSDPRun builds fsdpGPT and AdamW and prepares them under full sharding, writing state
// dicts of the given type (with DDP when it is "ddp").
func newFSDPRun(c comm, stateDict ...string) (*Accelerator, nn.Module, optim.Optimizer) {
	cfg := Config{FSDP: &FullyShardedDataParallelPlugin{}}
	if len(stateDict) > 0 {
		cfg.FSDP.StateDictType = stateDict[0]
		if stateDict[0] == "ddp" {
			cfg.FSDP = nil
		}
	}
	acc := newWithComm(withCfg(cfg), c)
	tensors.ManualSeed(5)
	var model nn.Module = nn.NewGPT(fsdpGPT)
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-2, WeightDecay: 0.01})
	acc.Prepare(&model, &opt)
	return acc, model, opt
}

// TestFSDPSaveStateResumesAsIfUninterrupted trains 6 full-shard steps on 2 processes, saving
// the state after 3; a fresh model that loads it and trains the last 3 steps ends with the same
// parameters to the bit, with either state dict type: FULL_STATE_DICT (the model gathered whole
// on rank 0) and SHARDED_STATE_DICT (each process's shards in a file of its own); the optimizer
// state is gathered whole either way. One process without FSDP loads either checkpoint.
func TestFSDPSaveStateResumesAsIfUninterrupted(t *testing.T) {
	for _, kind := range []string{FullStateDict, ShardedStateDict} {
		t.Run(kind, func(t *testing.T) { testFSDPResume(t, kind) })
	}
}

func testFSDPResume(t *testing.T, kind string) {
	dir := sharedDir(t)
	ckpt := filepath.Join(dir, "ckpt")
	launch(t, 2, func() {
		c := group()
		acc, model, opt := newFSDPRun(c, kind)
		fsdpSteps(acc, model, opt, c.Rank(), 0, 3)
		if _, err := acc.SaveState(ckpt); err != nil {
			panic(err)
		}
		fsdpSteps(acc, model, opt, c.Rank(), 3, 6)
		straight := acc.GetStateDict(model)
		acc.FreeMemory()

		acc, model, opt = newFSDPRun(c, kind)
		if err := acc.LoadState(ckpt); err != nil {
			panic(err)
		}
		fsdpSteps(acc, model, opt, c.Rank(), 3, 6)
		resumed := acc.GetStateDict(model)
		out := map[string][]float32{}
		for k, v := range straight {
			out["straight/"+k] = v.Float32s()
			out["resumed/"+k] = resumed[k].Float32s()
		}
		writeJSON(resultPath(dir, fmt.Sprint("resume", c.Rank())), out)
	})
	var got map[string][]float32
	readJSON(t, resultPath(dir, "resume0"), &got)
	straight, resumed := map[string][]float32{}, map[string][]float32{}
	for k, v := range got {
		if name, ok := strings.CutPrefix(k, "straight/"); ok {
			straight[name] = v
		} else {
			resumed[strings.TrimPrefix(k, "resumed/")] = v
		}
	}
	if d, same := paramDiff(straight, resumed); !same {
		t.Errorf("resumed training differs from the uninterrupted one by %g", d)
	}
	files := []string{"model.safetensors", "optimizer.bin"}
	if kind == ShardedStateDict {
		files = []string{"model_fsdp/index.json", "model_fsdp/rank0.safetensors", "model_fsdp/rank1.safetensors", "optimizer.bin"}
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(ckpt, f)); err != nil {
			t.Errorf("checkpoint: %v", err)
		}
	}
	// One process, unsharded, loads it too.
	acc, _, _ := newFSDPRun(solo{}, "ddp")
	if err := acc.LoadState(ckpt); err != nil {
		t.Errorf("one process cannot load the checkpoint of two: %v", err)
	}
}

// TestFSDPCheckpointsAreDDPCheckpoints saves after 3 steps under FSDP and under DDP on 2
// processes and crosses them over for the last 3 steps: DDP loads FSDP's checkpoint, FSDP
// loads DDP's; both end as 6 DDP steps do. The optimizer state SaveState writes under FSDP is
// the state over the whole parameters, so a checkpoint loads on any number of processes,
// sharded or not. (Within 1e-4 rather than to the bit: ClipGradNorm's norm is summed shard by
// shard under FSDP; see TestFSDPMatchesDDP.) The FSDP checkpoint of 2 processes also loads on one.
func TestFSDPCheckpointsAreDDPCheckpoints(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc, model, opt := newFSDPRun(c, "ddp")
		fsdpSteps(acc, model, opt, c.Rank(), 0, 3)
		if _, err := acc.SaveState(filepath.Join(dir, "ddp")); err != nil {
			panic(err)
		}
		fsdpSteps(acc, model, opt, c.Rank(), 3, 6)
		out := map[string]map[string][]float32{"ddp": floats(acc.GetStateDict(model))}
		acc.FreeMemory()

		acc, model, opt = newFSDPRun(c)
		fsdpSteps(acc, model, opt, c.Rank(), 0, 3)
		if _, err := acc.SaveState(filepath.Join(dir, "fsdp")); err != nil {
			panic(err)
		}
		acc.FreeMemory()

		for _, cross := range []struct{ name, from, kind string }{{"ddp-from-fsdp", "fsdp", "ddp"}, {"fsdp-from-ddp", "ddp", FullStateDict}} {
			acc, model, opt = newFSDPRun(c, cross.kind)
			if err := acc.LoadState(filepath.Join(dir, cross.from)); err != nil {
				panic(err)
			}
			fsdpSteps(acc, model, opt, c.Rank(), 3, 6)
			out[cross.name] = floats(acc.GetStateDict(model))
			acc.FreeMemory()
		}
		writeJSON(resultPath(dir, fmt.Sprint("cross", c.Rank())), out)
	})
	// The checkpoint 2 processes saved under FSDP loads on one.
	acc, _, opt := newFSDPRun(solo{})
	if err := acc.LoadState(filepath.Join(dir, "fsdp")); err != nil {
		t.Fatalf("one process cannot load the checkpoint two FSDP processes saved: %v", err)
	}
	if st, _ := opt.(*optimizer).inner.StateDict(); !strings.Contains(string(st), "exp_avg") {
		t.Errorf("the optimizer state did not load: %.200s", st)
	}
	var got map[string]map[string][]float32
	readJSON(t, resultPath(dir, "cross0"), &got)
	for _, name := range []string{"ddp-from-fsdp", "fsdp-from-ddp"} {
		d, _ := paramDiff(got["ddp"], got[name])
		t.Logf("%s: max |Δ| vs 6 DDP steps %g", name, d)
		if d > 1e-4 {
			t.Errorf("%s: parameters differ from 6 DDP steps by %g", name, d)
		}
	}
}

// floats reads a state dict's values.
func floats(sd map[string]*tensors.Tensor) map[string][]float32 {
	out := make(map[string][]float32, len(sd))
	for k, v := range sd {
		out[k] = v.Float32s()
	}
	return out
}

// TestFSDPSaveModelWritesShardsTransformersLoads prepares the tiny GPT-2 snapshot under full
// sharding on 2 processes and saves it with a 20 KB shard size: Hugging Face's sharded layout,
// which transformers' from_pretrained loads with every weight equal to the snapshot's.
func TestFSDPSaveModelWritesShardsTransformersLoads(t *testing.T) {
	snap, err := filepath.Abs(filepath.Join("..", "transformers", "testdata", "tiny-gpt2"))
	if err != nil {
		t.Fatal(err)
	}
	dir := sharedDir(t)
	out := filepath.Join(dir, "saved")
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{FSDP: &FullyShardedDataParallelPlugin{}}), c)
		model, _, err := transformers.FromPretrained(snap, transformers.Options{Task: transformers.CausalLM})
		if err != nil {
			panic(err)
		}
		acc.Prepare(&model)
		if w, _ := prepared(model); w.fsdp == nil || len(w.fsdp.units) != 3 {
			panic("the GPT-2 blocks did not become FSDP units")
		}
		if err := acc.SaveModelWith(model, out, SaveModelOptions{MaxShardSize: "20KB"}); err != nil {
			panic(err)
		}
	})
	shards, _ := filepath.Glob(filepath.Join(out, "model-*-of-*.safetensors"))
	if len(shards) < 2 {
		t.Fatalf("SaveModel wrote %d shards; want several of at most 20 KB", len(shards))
	}
	if _, err := os.Stat(filepath.Join(out, "model.safetensors.index.json")); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(snap, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "config.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	py := hfPython(t)
	script := `
import json, sys, torch, transformers, safetensors.torch
m, info = transformers.AutoModelForCausalLM.from_pretrained(sys.argv[1], output_loading_info=True)
ref = safetensors.torch.load_file(sys.argv[2] + "/model.safetensors")
sd = m.state_dict()
diff = max((sd[k].float() - v.float()).abs().max().item() for k, v in ref.items())
print(json.dumps({"missing": sorted(info["missing_keys"]), "unexpected": sorted(info["unexpected_keys"]), "diff": diff}))
`
	b, err := exec.Command(py, "-c", script, out, snap).Output()
	if err != nil {
		t.Fatalf("transformers could not load the shards: %v\n%s", err, errOutput(err))
	}
	var res struct {
		Missing, Unexpected []string
		Diff                float64
	}
	if err := json.Unmarshal(b[strings.LastIndexByte(strings.TrimSpace(string(b)), '\n')+1:], &res); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	t.Logf("%d shards; transformers: missing %v, unexpected %v, max |Δ| vs the snapshot %g", len(shards), res.Missing, res.Unexpected, res.Diff)
	if len(res.Missing) > 0 || len(res.Unexpected) > 0 || res.Diff != 0 {
		t.Errorf("transformers loaded the shards with missing %v, unexpected %v, max |Δ| %g", res.Missing, res.Unexpected, res.Diff)
	}
}

// hfPython returns a Python with torch and transformers ($GOACCEL_TRANSFORMERS_PYTHON, else
// the repository's .venv/hf), or skips.
func hfPython(t *testing.T) string {
	if py := os.Getenv("GOACCEL_TRANSFORMERS_PYTHON"); py != "" {
		return py
	}
	py, _ := filepath.Abs(filepath.Join("..", ".venv", "hf", "bin", "python"))
	if _, err := os.Stat(py); err != nil {
		if os.Getenv("GOACCEL_REQUIRE_JUPYTER_STACKS") != "" {
			t.Fatalf("no Python with transformers at %s: run scripts/deps.sh test", py)
		}
		t.Skip("no Python with transformers: run scripts/deps.sh test (it makes .venv/hf) or set GOACCEL_TRANSFORMERS_PYTHON")
	}
	return py
}

// errOutput is the standard error of a failed command.
func errOutput(err error) string {
	if e, ok := err.(*exec.ExitError); ok {
		return string(e.Stderr)
	}
	return ""
}
