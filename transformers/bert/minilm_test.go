package bert_test

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// realRows gathers the rows of h [B, T, C] where mask [B, T] is 1, in order: [real tokens, C].
func realRows(h, mask *tensors.Tensor) *tensors.Tensor {
	b, t, c := h.Size(0), h.Size(1), h.Size(2)
	var idx []int64
	for i, v := range mask.Int64s() {
		if v != 0 {
			idx = append(idx, int64(i))
		}
	}
	return h.Reshape(b*t, c).IndexSelect(0, tensors.FromInt64(idx, len(idx)))
}

// minilmInputs are the fixture's padded batch of six sentences (ids from transformers' own
// tokenizer for the MiniLM folder).
func minilmInputs(fx map[string]*tensors.Tensor) transformers.Inputs {
	return transformers.Inputs{InputIDs: fx["ids"], AttentionMask: fx["mask"], TokenTypeIDs: fx["types"]}
}

// TestMiniLMHiddenStatesMatchTransformers loads the MiniLM snapshot (names without "bert.", an
// int64 position_ids buffer transformers drops) as a base model and compares every hidden state
// at the real tokens and the pooler output with transformers' on a padded batch.
func TestMiniLMHiddenStatesMatchTransformers(t *testing.T) {
	dir := testenv.MiniLMDir(t)
	fx, _ := testenv.Fixture(t, "minilm.safetensors")
	m, report, err := transformers.FromPretrained(dir, transformers.Options{Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if !report.Empty() {
		t.Fatalf("MiniLM as a base model reports:\n%s", report)
	}
	if nn.IsTraining(m) {
		t.Fatal("FromPretrained returned a model in training mode; transformers returns it in evaluation mode")
	}
	in := minilmInputs(fx)
	in.OutputHiddenStates = true
	out, err := m.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.HiddenStates) != 7 {
		t.Fatalf("%d hidden states, want the embeddings' and 6 layers'", len(out.HiddenStates))
	}
	for i, h := range out.HiddenStates {
		testenv.Close(t, "hidden state "+string(rune('0'+i)), realRows(h, fx["mask"]), fx["hidden."+string(rune('0'+i))], 1e-4)
	}
	testenv.Close(t, "pooler output", out.PoolerOutput, fx["pooler"], 1e-4)
}

// minilmClassifier is MiniLM with a 3-label sequence classification head whose weights are the
// fixture's.
func minilmClassifier(t *testing.T, fx map[string]*tensors.Tensor) (transformers.Model, transformers.LoadReport) {
	t.Helper()
	dir := testenv.MiniLMDir(t)
	var log strings.Builder
	m, report, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.SequenceClassification, NumLabels: 3, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if log.String() != report.String() {
		t.Fatalf("the log has %q, the report says %q", log.String(), report.String())
	}
	sd := nn.StateDict(m)
	tensors.NoGrad(func() {
		sd["classifier.weight"].CopyFrom(fx["classifier.weight"])
		sd["classifier.bias"].CopyFrom(fx["classifier.bias"])
	})
	return m, report
}

// TestMiniLMClassifierMatchesTransformers: the checkpoint's names get the "bert." prefix, the
// new head is reported as transformers reports it, the logits match, and each padded sentence
// gets what it gets alone.
func TestMiniLMClassifierMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "minilm.safetensors")
	m, report := minilmClassifier(t, fx)
	if strings.Join(report.Missing, " ") != "classifier.bias classifier.weight" || len(report.Unexpected) != 0 {
		t.Fatalf("report %+v, want the classifier missing and nothing unexpected", report)
	}
	if s := report.String(); !strings.Contains(s, "Some weights of BertForSequenceClassification were not initialized from the model checkpoint at "+testenv.MiniLMDir(t)+" and are newly initialized: ['classifier.bias', 'classifier.weight']") {
		t.Fatalf("report text:\n%s", s)
	}
	in := minilmInputs(fx)
	in.OutputHiddenStates = true
	out, err := m.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "logits", out.Logits, fx["logits"], 1e-4)

	// Each sentence alone: no padding, the same logits and hidden states at its tokens.
	mask := fx["mask"].Int64s()
	b, tt := fx["ids"].Size(0), fx["ids"].Size(1)
	worst := 0.0
	for i := range b {
		n := 0
		for _, v := range mask[i*tt : (i+1)*tt] {
			n += int(v)
		}
		row := func(x *tensors.Tensor) *tensors.Tensor { return x.Slice(0, i, i+1).Slice(1, 0, n).Contiguous() }
		alone, err := m.Run(transformers.Inputs{InputIDs: row(fx["ids"]), TokenTypeIDs: row(fx["types"]), OutputHiddenStates: true})
		if err != nil {
			t.Fatal(err)
		}
		d, _ := testenv.Compare(out.Logits.Slice(0, i, i+1), alone.Logits, 1)
		worst = max(worst, d.Abs)
		for l, h := range alone.HiddenStates {
			d, _ := testenv.Compare(row(out.HiddenStates[l]), h, 1)
			worst = max(worst, d.Abs)
		}
	}
	t.Logf("padded batch vs each sentence alone: max abs difference %.3g", worst)
	if worst > 1e-5 {
		t.Errorf("a padded sentence differs from the sentence alone by %g", worst)
	}
}

// TestMiniLMGradientsAndAdamWMatchTransformers compares one cross-entropy loss and its
// gradients (every parameter's norm, six whole tensors) and then four AdamW steps as a Trainer
// takes them (no weight decay for biases and LayerNorm weights, a linear schedule with two
// warmup steps, dropout off) with transformers'.
func TestMiniLMGradientsAndAdamWMatchTransformers(t *testing.T) {
	fx, md := testenv.Fixture(t, "minilm.safetensors")
	m, _ := minilmClassifier(t, fx)
	in := minilmInputs(fx)
	in.Labels = fx["labels"]
	out, err := m.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "loss", out.Loss, fx["loss"], 1e-4)
	out.Loss.Backward()
	names := strings.Split(md["grad_names"], "\n")
	norms := fx["grad_norms"].Float64s()
	ps := m.NamedParameters()
	if len(ps) != len(names) {
		t.Fatalf("%d parameters, transformers has %d", len(ps), len(names))
	}
	worst := 0.0
	for i, p := range ps {
		if p.Name != names[i] {
			t.Fatalf("parameter %d is %s, transformers' is %s", i, p.Name, names[i])
		}
		g := math.Sqrt(p.Param.Grad().AsType(tensors.Float64).Pow(2).Sum().Item())
		// The key biases' gradients are zero in exact arithmetic (softmax ignores a shift of a
		// row): both sides give norms of about 1e-10, rounding noise, which the floor absorbs.
		rel := math.Abs(g-norms[i]) / max(norms[i], 1e-4)
		worst = max(worst, rel)
		if rel > 1e-4 {
			t.Errorf("gradient norm of %s: %.8g, transformers %.8g (relative %.3g)", p.Name, g, norms[i], rel)
		}
		if want := fx["grad."+p.Name]; want != nil {
			testenv.CloseScaled(t, "gradient of "+p.Name, p.Param.Grad(), want, 1e-4)
		}
	}
	t.Logf("gradient norms of %d parameters: largest relative difference %.3g", len(ps), worst)

	var decay, plain []*tensors.Tensor
	for _, p := range ps {
		p.Param.ZeroGrad()
		if strings.Contains(p.Name, "bias") || strings.Contains(p.Name, "LayerNorm.weight") {
			plain = append(plain, p.Param)
		} else {
			decay = append(decay, p.Param)
		}
	}
	opt := optim.NewAdamWGroups([]optim.ParamGroup{{Params: decay, WeightDecay: 0.01}, {Params: plain}}, optim.AdamConfig{LR: 1e-4})
	sched := optim.NewLinearScheduleWithWarmup(opt, 2, 8)
	want := fx["adamw.losses"].Float64s()
	for step := range 5 {
		out, err := m.Run(in)
		if err != nil {
			t.Fatal(err)
		}
		got := out.Loss.Item()
		t.Logf("step %d: loss %.7f, transformers %.7f", step, got, want[step])
		if math.Abs(got-want[step]) > 1e-4 {
			t.Errorf("loss before step %d: %.7f, transformers %.7f", step, got, want[step])
		}
		if step == 4 {
			break
		}
		out.Loss.Backward()
		opt.Step()
		sched.Step()
		opt.ZeroGrad()
	}
}

// TestMiniLMBF16AutocastStaysWithinTransformersError runs the classifier under bfloat16
// autocast: its logits must be as close to transformers' float32 logits as transformers' own
// bfloat16 autocast run is (within 1.5 times that error).
func TestMiniLMBF16AutocastStaysWithinTransformersError(t *testing.T) {
	fx, _ := testenv.Fixture(t, "minilm.safetensors")
	m, _ := minilmClassifier(t, fx)
	var logits *tensors.Tensor
	var err error
	tensors.Autocast(tensors.BFloat16, func() {
		var out transformers.Output
		out, err = m.Run(minilmInputs(fx))
		logits = out.Logits
	})
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := testenv.Compare(logits, fx["logits"], 1)
	theirs, _ := testenv.Compare(fx["bf16.logits"], fx["logits"], 1)
	t.Logf("bf16 autocast logits vs float32: goaccel %s, transformers %s", ours, theirs)
	if ours.Abs > 1.5*theirs.Abs {
		t.Errorf("goaccel's bf16 logits are %.3g from the float32 reference, more than 1.5× transformers' own %.3g", ours.Abs, theirs.Abs)
	}
}
