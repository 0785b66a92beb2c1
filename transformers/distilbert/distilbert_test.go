package distilbert_test

import (
	"io"
	"testing"

	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/distilbert"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestTinyDistilBertMatchesTransformers loads a small random DistilBertForSequenceClassification
// that transformers saved and compares its logits on a right-padded batch.
func TestTinyDistilBertMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "tiny.safetensors")
	m, report, err := transformers.FromPretrained(testenv.TestData(t, "tiny-distilbert"), transformers.Options{Task: transformers.SequenceClassification, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if !report.Empty() {
		t.Fatalf("report:\n%s", report)
	}
	if _, ok := m.(*distilbert.ForSequenceClassification); !ok {
		t.Fatalf("model is %T", m)
	}
	out, err := m.Run(transformers.Inputs{InputIDs: fx["tiny.ids"], AttentionMask: fx["tiny.mask"]})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "logits", out.Logits, fx["distilbert.logits"], 1e-4)
	if _, err := m.Run(transformers.Inputs{InputIDs: fx["tiny.ids"], TokenTypeIDs: fx["tiny.types"]}); err == nil {
		t.Fatal("DistilBERT took token type ids; it has none")
	}
}
