package transformers_test

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/bert"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

func load(t *testing.T, dir string, opts transformers.Options) (transformers.Model, transformers.LoadReport) {
	t.Helper()
	opts.Log = io.Discard
	m, r, err := transformers.FromPretrained(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return m, r
}

func tinyInputs(t *testing.T) transformers.Inputs {
	fx, _ := testenv.Fixture(t, "tiny.safetensors")
	return transformers.Inputs{InputIDs: fx["tiny.ids"], AttentionMask: fx["tiny.mask"], TokenTypeIDs: fx["tiny.types"]}
}

func logits(t *testing.T, m transformers.Model, in transformers.Inputs) *tensors.Tensor {
	t.Helper()
	out, err := m.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	return out.Logits
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestSavePretrainedRoundTrips saves a classifier whole and in shards and loads it back: same
// logits, nothing missing, the configuration's keys kept (use_cache, which goaccel does not
// read), the architecture written, and a later save removing the shards of an earlier one.
func TestSavePretrainedRoundTrips(t *testing.T) {
	m, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification})
	in := tinyInputs(t)
	want := logits(t, m, in)
	dir := t.TempDir()
	for _, c := range []struct {
		shard string
		files []string
	}{
		{"20KB", []string{"config.json", "model-00001-of-00005.safetensors", "model-00002-of-00005.safetensors", "model-00003-of-00005.safetensors",
			"model-00004-of-00005.safetensors", "model-00005-of-00005.safetensors", "model.safetensors.index.json"}},
		{"", []string{"config.json", "model.safetensors"}},
	} {
		if err := transformers.SavePretrained(dir, m, transformers.SaveOptions{MaxShardSize: c.shard}); err != nil {
			t.Fatal(err)
		}
		if got := files(t, dir); !slices.Equal(got, c.files) {
			t.Fatalf("max shard size %q: files %v, want %v", c.shard, got, c.files)
		}
		back, report := load(t, dir, transformers.Options{Task: transformers.SequenceClassification})
		if !report.Empty() {
			t.Fatalf("reloading the saved model reports:\n%s", report)
		}
		testenv.Close(t, "logits after save and load (shards "+c.shard+")", logits(t, back, in), want, 0)
	}
	var cfg map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg["use_cache"] != true || cfg["dtype"] != "float32" || cfg["model_type"] != "bert" || len(cfg["id2label"].(map[string]any)) != 3 {
		t.Fatalf("saved config %s", b)
	}
	if a := cfg["architectures"].([]any); len(a) != 1 || a[0] != "BertForSequenceClassification" {
		t.Fatalf("architectures %v", a)
	}
}

// TestBaseModelCheckpointLoadsIntoATaskModel: a base model saved without the "bert." prefix
// loads into a classifier (the prefix is added, the head reported missing), and a classifier's
// checkpoint loads into a base model (the prefix is removed, the head reported unexpected).
func TestBaseModelCheckpointLoadsIntoATaskModel(t *testing.T) {
	cls, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification})
	base, report := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{})
	if strings.Join(report.Unexpected, " ") != "classifier.bias classifier.weight" || len(report.Missing) != 0 {
		t.Fatalf("classifier checkpoint into a base model: %+v", report)
	}
	dir := t.TempDir()
	if err := transformers.SavePretrained(dir, base, transformers.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	sd, err := nn.LoadSafetensors(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if sd["embeddings.word_embeddings.weight"] == nil || sd["bert.embeddings.word_embeddings.weight"] != nil {
		t.Fatal("a base model's checkpoint must use names without the bert. prefix, as transformers saves it")
	}
	again, report := load(t, dir, transformers.Options{Task: transformers.SequenceClassification, NumLabels: 3})
	if strings.Join(report.Missing, " ") != "classifier.bias classifier.weight" || len(report.Unexpected) != 0 {
		t.Fatalf("base checkpoint into a classifier: %+v", report)
	}
	in := tinyInputs(t)
	want, _ := cls.Run(in)
	got, _ := again.Run(in)
	testenv.Close(t, "hidden states through both prefixes", got.LastHiddenState, want.LastHiddenState, 0)
}

// TestMaskedLMTiesItsDecoderToTheWordEmbeddings: the decoder's weight is the word embedding
// (one tensor: one gradient, one entry in the optimizer and the saved file), filled from the
// embedding's name, and not reported missing.
func TestMaskedLMTiesItsDecoderToTheWordEmbeddings(t *testing.T) {
	m, report := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.MaskedLM})
	if slices.Contains(report.Missing, "cls.predictions.decoder.weight") || !slices.Contains(report.Missing, "cls.predictions.bias") {
		t.Fatalf("report %+v: the tied decoder weight must not be missing, the head's bias must", report)
	}
	mlm := m.(*bert.ForMaskedLM)
	if mlm.Decoder.Weight != mlm.Bert.Embeddings.WordEmbeddings.Weight {
		t.Fatal("the decoder weight is not the word embedding")
	}
	names := map[string]bool{}
	for _, p := range m.NamedParameters() {
		names[p.Name] = true
	}
	if !names["cls.predictions.decoder.weight"] || len(m.Parameters()) != len(m.NamedParameters())-2 {
		t.Fatalf("%d parameters, %d names: the tied weight and bias must be listed under both names and counted once", len(m.Parameters()), len(m.NamedParameters()))
	}
	dir := t.TempDir()
	if err := transformers.SavePretrained(dir, m, transformers.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	sd, err := nn.LoadSafetensors(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if sd["cls.predictions.decoder.weight"] != nil || sd["cls.predictions.decoder.bias"] != nil || sd["cls.predictions.bias"] == nil {
		t.Fatal("the saved file must hold each tied tensor once, under its first name, as transformers saves it")
	}
	back, report := load(t, dir, transformers.Options{Task: transformers.MaskedLM})
	if !report.Empty() {
		t.Fatalf("reload reports:\n%s", report)
	}
	in := tinyInputs(t)
	testenv.Close(t, "masked LM logits after save and load", logits(t, back, in), logits(t, m, in), 0)
}

// TestDTypeOptionKeepsHalfPrecisionWeights: DType "bfloat16" or "float16" keeps the parameters
// in that type, the saved file stores them so and config.json says so, and "auto" loads them
// back in it; an unknown type is refused by name.
func TestDTypeOptionKeepsHalfPrecisionWeights(t *testing.T) {
	in := tinyInputs(t)
	f32, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification})
	for _, c := range []struct {
		name string
		dt   tensors.DType
		file string
	}{{"bfloat16", tensors.BFloat16, "BF16"}, {"float16", tensors.Float16, "F16"}} {
		m, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification, DType: c.name})
		for _, p := range m.Parameters() {
			if p.DType() != c.dt {
				t.Fatalf("%s: a parameter of type %s", c.name, p.DType())
			}
		}
		d, _ := testenv.Compare(logits(t, m, in), logits(t, f32, in), 1)
		t.Logf("%s weights vs float32: %s", c.name, d)
		if d.Abs > 0.02 {
			t.Fatalf("%s weights change the logits by %g", c.name, d.Abs)
		}
		dir := t.TempDir()
		if err := transformers.SavePretrained(dir, m, transformers.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
		if !strings.Contains(string(b), `"dtype": "`+c.name+`"`) {
			t.Fatalf("config.json:\n%s", b)
		}
		raw, _ := os.ReadFile(filepath.Join(dir, "model.safetensors"))
		if !strings.Contains(string(raw[:4096]), `"dtype":"`+c.file+`"`) {
			t.Fatalf("%s: the saved file's header does not store %s", c.name, c.file)
		}
		back, _ := load(t, dir, transformers.Options{Task: transformers.SequenceClassification})
		if dt := back.Parameters()[0].DType(); dt != c.dt {
			t.Fatalf("reloaded with dtype auto as %s, want %s", dt, c.dt)
		}
	}
	if _, _, err := transformers.FromPretrained(testenv.TestData(t, "tiny-bert"), transformers.Options{DType: "int8", Log: io.Discard}); err == nil || !strings.Contains(err.Error(), `dtype "int8"`) {
		t.Fatalf("dtype int8: %v", err)
	}
}

// TestIgnoreMismatchedSizesReinitialisesTheHead loads the 3-label classifier as a 5-label one.
func TestIgnoreMismatchedSizesReinitialisesTheHead(t *testing.T) {
	dir := testenv.TestData(t, "tiny-bert")
	if _, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.SequenceClassification, NumLabels: 5, Log: io.Discard}); err == nil || !strings.Contains(err.Error(), "classifier.weight: shape [3 32]") {
		t.Fatalf("5 labels from a 3-label checkpoint: %v", err)
	}
	var log strings.Builder
	m, report, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.SequenceClassification, NumLabels: 5, IgnoreMismatchedSizes: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Mismatched) != 2 || report.Mismatched[0].Name != "classifier.bias" || !strings.Contains(log.String(), "classifier.weight: found shape torch.Size([3, 32]) in the checkpoint and torch.Size([5, 32]) in the model instantiated") {
		t.Fatalf("report %+v, log:\n%s", report, log.String())
	}
	if got := logits(t, m, tinyInputs(t)).Shape(); !slices.Equal(got, []int{3, 5}) {
		t.Fatalf("logits %v", got)
	}
}

// TestTransformersLoadsWhatSavePretrainedWrites saves a classifier in shards, a base model and a
// bfloat16 masked LM, and has transformers' from_pretrained load each (Python, with
// $GOACCEL_TRANSFORMERS_PYTHON): no key missing or unexpected, and the same outputs.
func TestTransformersLoadsWhatSavePretrainedWrites(t *testing.T) {
	py := testenv.Python(t)
	in := tinyInputs(t)
	root := t.TempDir()
	type saved struct {
		name, auto, output string
		m                  transformers.Model
		shard              string
	}
	cls, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification})
	base, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{})
	mlm, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.MaskedLM, DType: "bfloat16"})
	rob, _ := load(t, testenv.TestData(t, "tiny-roberta"), transformers.Options{Task: transformers.SequenceClassification})
	cases := []saved{
		{"cls", "AutoModelForSequenceClassification", "logits", cls, "30KB"},
		{"base", "AutoModel", "last_hidden_state", base, ""},
		{"mlm", "AutoModelForMaskedLM", "logits", mlm, ""},
		{"roberta", "AutoModelForSequenceClassification", "logits", rob, ""},
	}
	for _, c := range cases {
		if err := transformers.SavePretrained(filepath.Join(root, c.name), c.m, transformers.SaveOptions{MaxShardSize: c.shard}); err != nil {
			t.Fatal(err)
		}
	}
	inputs := map[string]any{"ids": in.InputIDs.Int64s(), "mask": in.AttentionMask.Int64s(), "types": in.TokenTypeIDs.Int64s(), "shape": in.InputIDs.Shape()}
	ib, _ := json.Marshal(inputs)
	script := `
import json, sys, torch, transformers
root, inputs = sys.argv[1], json.loads(sys.argv[2])
shape = inputs["shape"]
t = lambda k: torch.tensor(inputs[k]).reshape(shape)
out = {}
for name, auto, field in json.loads(sys.argv[3]):
    m, info = getattr(transformers, auto).from_pretrained(root + "/" + name, output_loading_info=True)
    m.eval()
    kw = dict(input_ids=t("ids"), attention_mask=t("mask"))
    if name != "roberta":
        kw["token_type_ids"] = t("types")
    else:
        kw["input_ids"] = torch.where(t("mask") == 1, t("ids"), 1)
    with torch.no_grad():
        y = getattr(m(**kw), field).float()
    out[name] = {"missing": sorted(info["missing_keys"]), "unexpected": sorted(info["unexpected_keys"]),
                 "mismatched": [k[0] for k in info["mismatched_keys"]], "dtype": str(next(m.parameters()).dtype),
                 "values": y.flatten().tolist(), "shape": list(y.shape)}
print(json.dumps(out))
`
	var spec [][3]string
	for _, c := range cases {
		spec = append(spec, [3]string{c.name, c.auto, c.output})
	}
	sb, _ := json.Marshal(spec)
	cmd := exec.Command(py, "-c", script, root, string(ib), string(sb))
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("transformers could not load the saved folders: %v\n%s", err, stderr.String())
	}
	var res map[string]struct {
		Missing, Unexpected, Mismatched []string
		DType                           string
		Values                          []float64
		Shape                           []int
	}
	if err := json.Unmarshal(outb, &res); err != nil {
		t.Fatalf("%v: %s", err, outb)
	}
	for _, c := range cases {
		r := res[c.name]
		if len(r.Missing)+len(r.Unexpected)+len(r.Mismatched) > 0 {
			t.Errorf("%s: transformers reports missing %v, unexpected %v, mismatched %v", c.name, r.Missing, r.Unexpected, r.Mismatched)
		}
		rin := in
		if c.name == "roberta" {
			rin = robertaInputs(in)
		}
		out, err := c.m.Run(rin)
		if err != nil {
			t.Fatal(err)
		}
		got := out.Logits
		if c.output == "last_hidden_state" {
			got = out.LastHiddenState
		}
		tol := 1e-5
		if c.name == "mlm" {
			tol = 0.05 // bfloat16 weights: transformers computes in bfloat16, goaccel in float32
			if r.DType != "torch.bfloat16" {
				t.Errorf("the bfloat16 model loads in transformers as %s", r.DType)
			}
		}
		testenv.Close(t, c.name+": goaccel vs transformers on the saved folder", got.AsType(tensors.Float64), tensors.NewFloat64(r.Values, r.Shape...), tol)
	}
}

// robertaInputs are in with RoBERTa's padding id (1) at the padded positions and no token types.
func robertaInputs(in transformers.Inputs) transformers.Inputs {
	ids, mask := in.InputIDs.Int64s(), in.AttentionMask.Int64s()
	for i := range ids {
		if mask[i] == 0 {
			ids[i] = 1
		}
	}
	return transformers.Inputs{InputIDs: tensors.FromInt64(ids, in.InputIDs.Shape()...), AttentionMask: in.AttentionMask}
}
