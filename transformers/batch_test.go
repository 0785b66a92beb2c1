package transformers_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestBatchInputsIsModelCalledWithTheBatch: Run of BatchInputs(batch) gives what Run of the
// Inputs written out gives, whatever the order of the batch's names, and the Inputs hold the
// batch's very tensors.
func TestBatchInputsIsModelCalledWithTheBatch(t *testing.T) {
	m, _ := load(t, testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification})
	in := tinyInputs(t)
	in.Labels = tensors.FromInt64([]int64{2, 0, 1, 1}[:in.InputIDs.Size(0)], in.InputIDs.Size(0))
	want, err := m.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		batch *data.Batch
	}{
		{"collator's order", data.NewBatch().Set("input_ids", in.InputIDs).Set("token_type_ids", in.TokenTypeIDs).Set("attention_mask", in.AttentionMask).Set("labels", in.Labels)},
		{"labels first", data.NewBatch().Set("labels", in.Labels).Set("attention_mask", in.AttentionMask).Set("token_type_ids", in.TokenTypeIDs).Set("input_ids", in.InputIDs)},
	} {
		t.Run(c.name, func(t *testing.T) {
			bi := transformers.BatchInputs(c.batch)
			if bi.InputIDs != in.InputIDs || bi.AttentionMask != in.AttentionMask || bi.TokenTypeIDs != in.TokenTypeIDs || bi.Labels != in.Labels || bi.PositionIDs != nil || len(bi.Unexpected()) != 0 {
				t.Fatalf("BatchInputs gave %+v", bi)
			}
			got, err := m.Run(bi)
			if err != nil {
				t.Fatal(err)
			}
			testenv.Close(t, "logits", got.Logits, want.Logits, 0)
			testenv.Close(t, "loss", got.Loss, want.Loss, 0)
		})
	}
	if in := transformers.BatchInputs(nil); in.InputIDs != nil || len(in.Unexpected()) != 0 {
		t.Errorf("BatchInputs(nil) gave %+v", in)
	}
}

// TestSavePretrainedRefusesOtherModules: SavePretrained takes an nn.Module (what UnwrapModel
// returns) and refuses one that is not a pretrained model, naming its type.
func TestSavePretrainedRefusesOtherModules(t *testing.T) {
	err := transformers.SavePretrained(filepath.Join(t.TempDir(), "out"), nn.NewLinear(2, 2), transformers.SaveOptions{})
	if err == nil || !strings.Contains(err.Error(), "*nn.Linear is not a pretrained model (a transformers.Model") {
		t.Fatalf("error %v", err)
	}
}
