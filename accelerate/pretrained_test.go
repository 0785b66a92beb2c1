package accelerate

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/bert"
)

func tinyBert(t *testing.T) transformers.Model {
	t.Helper()
	m, _, err := transformers.FromPretrained(filepath.Join("..", "transformers", "testdata", "tiny-bert"),
		transformers.Options{Task: transformers.SequenceClassification, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func tinyBatch() transformers.Inputs {
	return transformers.Inputs{
		InputIDs:      tensors.FromInt64([]int64{2, 45, 17, 3, 2, 60, 3, 0}, 2, 4),
		AttentionMask: tensors.FromInt64([]int64{1, 1, 1, 1, 1, 1, 1, 0}, 2, 4),
		Labels:        tensors.FromInt64([]int64{2, 0}, 2),
	}
}

// TestPreparedPretrainedModelKeepsRun: Prepare of a transformers.Model variable leaves a
// transformers.Model whose Run runs under the configured autocast (the logits of the model run
// inside tensors.Autocast, bit for bit), with the configuration and architecture of the model,
// and UnwrapModel gives back the model itself, which SavePretrained writes.
func TestPreparedPretrainedModelKeepsRun(t *testing.T) {
	for _, c := range []struct {
		precision string
		dt        tensors.DType
	}{{"no", tensors.Float32}, {"bf16", tensors.BFloat16}} {
		t.Run(c.precision, func(t *testing.T) {
			inner := tinyBert(t)
			var want transformers.Output
			var err error
			run := func() { want, err = inner.Run(tinyBatch()) }
			if c.dt == tensors.Float32 {
				run()
			} else {
				tensors.Autocast(c.dt, run)
			}
			if err != nil {
				t.Fatal(err)
			}
			acc := newWithComm(withCfg(Config{MixedPrecision: c.precision}), solo{})
			model := inner
			acc.Prepare(&model)
			if model == inner {
				t.Fatal("Prepare left the model unprepared")
			}
			got, err := model.Run(tinyBatch())
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got.Logits.Float32s()) != fmt.Sprint(want.Logits.Float32s()) || got.Logits.DType() != want.Logits.DType() {
				t.Errorf("prepared Run gave %v %v, the model under autocast %v %v", got.Logits.DType(), got.Logits.Float32s(), want.Logits.DType(), want.Logits.Float32s())
			}
			if model.Architecture() != "BertForSequenceClassification" || model.PretrainedConfig() != inner.PretrainedConfig() {
				t.Errorf("prepared model: %s, %p; want the model's", model.Architecture(), model.PretrainedConfig())
			}
			if acc.UnwrapModel(model) != nn.Module(inner) {
				t.Error("UnwrapModel did not give back the model FromPretrained returned")
			}
			again := model
			acc.Prepare(&again)
			if again != model {
				t.Error("preparing a prepared model wrapped it twice")
			}
			if err := transformers.SavePretrained(t.TempDir(), acc.UnwrapModel(model), transformers.SaveOptions{}); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestLoopMistakesAreClearErrors: what a fine-tuning loop gets wrong is said in the user's
// terms: a nil loss (a model run without labels, or without a head), and a concrete model
// variable given to Prepare.
func TestLoopMistakesAreClearErrors(t *testing.T) {
	panics := func(fn func()) (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		fn()
		return ""
	}
	acc := newWithComm(withCfg(Config{}), solo{})
	model := tinyBert(t)
	acc.Prepare(&model)
	in := tinyBatch()
	in.Labels = nil
	out, err := model.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	concrete, err := bert.NewForSequenceClassification(bert.NewConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		fn   func()
		want string
	}{
		{"a nil loss", func() { acc.Backward(out.Loss) }, "accelerate: Backward: the loss is nil: the forward pass computed none. A transformers model computes its loss only from Inputs.Labels"},
		{"a concrete model variable", func() { acc.Prepare(&concrete) }, "declare the variable with the interface type (var model transformers.Model = …)"},
	} {
		if got := panics(c.fn); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, got, c.want)
		}
	}
}
