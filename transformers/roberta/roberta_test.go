package roberta_test

import (
	"io"
	"testing"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
	"github.com/goaccel/goaccel/transformers/roberta"
)

// TestTinyRobertaMatchesTransformers loads a small random RobertaForSequenceClassification that
// transformers saved and compares its logits on a batch padded on the right and on the left
// (RoBERTa's positions count from padding_idx+1 and skip the pads).
func TestTinyRobertaMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "tiny.safetensors")
	m, report, err := transformers.FromPretrained(testenv.TestData(t, "tiny-roberta"), transformers.Options{Task: transformers.SequenceClassification, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if !report.Empty() {
		t.Fatalf("report:\n%s", report)
	}
	if _, ok := m.(*roberta.ForSequenceClassification); !ok {
		t.Fatalf("model is %T", m)
	}
	out, err := m.Run(transformers.Inputs{InputIDs: fx["roberta.ids"], AttentionMask: fx["roberta.mask"]})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "logits", out.Logits, fx["roberta.logits"], 1e-4)
}

// TestRobertaLongestSequenceLeavesRoomForPaddingIdx: positions start at padding_idx+1, so a
// model with 66 positions and padding_idx 1 takes 64 tokens, not 66.
func TestRobertaLongestSequenceLeavesRoomForPaddingIdx(t *testing.T) {
	m, _, err := transformers.FromPretrained(testenv.TestData(t, "tiny-roberta"), transformers.Options{Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(n int) *tensors.Tensor { return tensors.FromInt64(make([]int64, n), 1, n) }
	if _, err := m.Run(transformers.Inputs{InputIDs: ids(64)}); err != nil {
		t.Fatalf("64 tokens: %v", err)
	}
	_, err = m.Run(transformers.Inputs{InputIDs: ids(65)})
	if err == nil {
		t.Fatal("65 tokens ran past the positions")
	}
	t.Log(err)
}
