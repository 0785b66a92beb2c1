package bert_test

import (
	"io"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/bert"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestTinyBertMatchesTransformers loads a small random BertForSequenceClassification that
// transformers saved (its keys carry the "bert." prefix) and compares, on a padded batch with
// token types, the logits, the loss and the gradient of every parameter with transformers'
// (testdata/make_fixtures.py), and the same checkpoint loaded as a token classifier.
func TestTinyBertMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "tiny.safetensors")
	m, report, err := transformers.FromPretrained(testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if !report.Empty() {
		t.Fatalf("loading the model transformers saved reports:\n%s", report)
	}
	in := transformers.Inputs{InputIDs: fx["tiny.ids"], AttentionMask: fx["tiny.mask"], TokenTypeIDs: fx["tiny.types"], Labels: fx["tiny.labels"]}
	out, err := m.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "logits", out.Logits, fx["bert.logits"], 1e-5)
	testenv.Close(t, "loss", out.Loss, fx["bert.loss"], 1e-5)
	out.Loss.Backward()
	n, worst := 0, 0.0
	for _, p := range m.NamedParameters() {
		want := fx["bert.grad."+p.Name]
		if want == nil {
			t.Fatalf("no reference gradient for %s", p.Name)
		}
		if p.Param.Grad() == nil {
			t.Fatalf("%s got no gradient", p.Name)
		}
		worst = max(worst, testenv.CloseScaled(t, "gradient of "+p.Name, p.Param.Grad(), want, 1e-4))
		n++
	}
	t.Logf("gradients of %d parameters: largest difference %.3g of the tensor's largest element", n, worst)
	grads := 0
	for k := range fx {
		if strings.HasPrefix(k, "bert.grad.") {
			grads++
		}
	}
	if n != grads {
		t.Fatalf("compared %d gradients, transformers computed %d", n, grads)
	}

	tok, report, err := transformers.FromPretrained(testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.TokenClassification, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if got := report.Unexpected; len(got) != 2 || got[0] != "bert.pooler.dense.bias" || len(report.Missing) != 0 {
		t.Fatalf("token classifier from a sequence classifier: report %+v, want the pooler unexpected", report)
	}
	in.Labels = nil
	tout, err := tok.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "token classification logits", tout.Logits, fx["bert.token_logits"], 1e-5)
	if _, ok := tok.(*bert.ForTokenClassification); !ok {
		t.Fatalf("token classification model is %T", tok)
	}
}
