package transformers_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	_ "github.com/goaccel/goaccel/transformers/bert"
	_ "github.com/goaccel/goaccel/transformers/distilbert"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
	_ "github.com/goaccel/goaccel/transformers/roberta"
)

// copySnapshot copies the files of testdata/name into a fresh folder and returns it.
func copySnapshot(t *testing.T, name string) string {
	t.Helper()
	src := testenv.TestData(t, name)
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// edit rewrites a file of dir with fn.
func edit(t *testing.T, dir, file string, fn func([]byte) []byte) {
	t.Helper()
	p := filepath.Join(dir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, fn(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadSnapshotsAreClearErrors: every broken folder is an error naming the file, the tensor or
// the key at fault, never a panic.
func TestBadSnapshotsAreClearErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T) string
		task  transformers.Task
		want  []string
	}{
		{"no folder", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nowhere") }, "", []string{"config.json", "nowhere"}},
		{"config not JSON", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			edit(t, d, "config.json", func(b []byte) []byte { return b[:len(b)/2] })
			return d
		}, "", []string{"config.json", "unexpected end of JSON"}},
		{"unsupported model_type", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			edit(t, d, "config.json", func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"model_type": "bert"`, `"model_type": "gpt_neox"`, 1))
			})
			return d
		}, "", []string{`model_type "gpt_neox" is not supported`, "bert, distilbert, gpt2, llama, mistral, roberta"}},
		{"no weights", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			os.Remove(filepath.Join(d, "model.safetensors"))
			return d
		}, "", []string{"no model.safetensors or model.safetensors.index.json in"}},
		{"PyTorch weights only", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			os.Rename(filepath.Join(d, "model.safetensors"), filepath.Join(d, "pytorch_model.bin"))
			return d
		}, "", []string{"pytorch_model.bin", "safetensors weights only"}},
		{"truncated weights", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			edit(t, d, "model.safetensors", func(b []byte) []byte { return b[:len(b)-1000] })
			return d
		}, "", []string{"model.safetensors"}},
		{"shape does not match the config", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			edit(t, d, "config.json", func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"vocab_size": 99`, `"vocab_size": 100`, 1))
			})
			return d
		}, transformers.SequenceClassification, []string{"bert.embeddings.word_embeddings.weight: shape [99 32] in model.safetensors, the model (from config.json) has [100 32]"}},
		{"config value the model cannot take", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			edit(t, d, "config.json", func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"num_attention_heads": 4`, `"num_attention_heads": 5`, 1))
			})
			return d
		}, "", []string{"hidden_size: 32 is not a multiple of num_attention_heads 5"}},
		{"shard missing", func(t *testing.T) string {
			d := copySnapshot(t, "tiny-bert")
			os.Remove(filepath.Join(d, "model.safetensors"))
			os.WriteFile(filepath.Join(d, "model.safetensors.index.json"), []byte(`{"metadata": {}, "weight_map": {"bert.pooler.dense.bias": "model-00002-of-00002.safetensors"}}`), 0o644)
			return d
		}, "", []string{"model-00002-of-00002.safetensors", "model.safetensors.index.json"}},
		{"head the family lacks", func(t *testing.T) string { return copySnapshot(t, "tiny-distilbert") }, transformers.MaskedLM,
			[]string{`model type "distilbert" has no masked-lm head`, "sequence-classification"}},
		{"labels for a model without a classification head", func(t *testing.T) string { return copySnapshot(t, "tiny-bert") }, "",
			[]string{"Options.NumLabels and ID2Label size a classification head, and the task base-model has none (BertModel)", "transformers.SequenceClassification"}},
		{"labels for the masked LM head", func(t *testing.T) string { return copySnapshot(t, "tiny-bert") }, transformers.MaskedLM,
			[]string{"the task masked-lm has none (BertForMaskedLM)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				opts := transformers.Options{Task: c.task, Log: io.Discard}
				if strings.HasPrefix(c.name, "labels for") {
					opts.NumLabels = 5
				}
				_, _, err = transformers.FromPretrained(c.setup(t), opts)
			}()
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestBadInputsAreClearErrors: Run refuses inputs that do not fit the model with an error
// naming the limit or the input, never a panic.
func TestBadInputsAreClearErrors(t *testing.T) {
	m, _, err := transformers.FromPretrained(testenv.TestData(t, "tiny-bert"), transformers.Options{Task: transformers.SequenceClassification, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(b, n int, v int64) *tensors.Tensor {
		x := make([]int64, b*n)
		for i := range x {
			x[i] = v
		}
		return tensors.FromInt64(x, b, n)
	}
	for _, c := range []struct {
		name string
		in   transformers.Inputs
		want string
	}{
		{"longer than the positions", transformers.Inputs{InputIDs: ids(1, 65, 3)}, "a sequence of 65 tokens is longer than the 64 the model has positions for (max_position_embeddings 64)"},
		{"no ids", transformers.Inputs{}, "InputIDs is nil"},
		{"float ids", transformers.Inputs{InputIDs: tensors.Zeros(2, 3)}, "must be non-empty int64 token ids [batch, sequence], have float32 [2 3]"},
		{"mask of another shape", transformers.Inputs{InputIDs: ids(2, 3, 3), AttentionMask: tensors.Ones(2, 4)}, "AttentionMask must be [2 3]"},
		{"float token types", transformers.Inputs{InputIDs: ids(2, 3, 3), TokenTypeIDs: tensors.Zeros(2, 3)}, "TokenTypeIDs must be int64"},
		{"id past the vocabulary", transformers.Inputs{InputIDs: ids(1, 3, 99)}, "BertModel: tensors: "},
		{"labels of another length", transformers.Inputs{InputIDs: ids(2, 3, 3), Labels: tensors.FromInt64([]int64{1, 2, 0}, 3)}, "single-label classification needs int64 class ids [2]"},
		{"a label past num_labels", transformers.Inputs{InputIDs: ids(2, 3, 3), Labels: tensors.FromInt64([]int64{1, 4}, 2)},
			"CrossEntropy: target 4 at row 1 is outside [0, 3) (classes of logits): the model has 3 labels (num_labels) and the labels are class ids in [0, 3): load the model with the dataset's label set (transformers.Options{NumLabels: n} or ID2Label"},
		{"a batch with a tensor the model does not take", transformers.BatchInputs(data.NewBatch().Set("input_ids", ids(2, 3, 3)).Set("idx", tensors.FromInt64([]int64{7, 8}, 2)).Set("attention_masks", ids(2, 3, 1))),
			`BertModel: the batch holds ["idx" "attention_masks"], which the model does not take`},
		{"a KV cache given to an encoder", transformers.Inputs{InputIDs: ids(1, 3, 3), PastKeyValues: transformers.NewKVCache(1, 1, 4)}, "PastKeyValues and LogitsToKeep are for decoders"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				_, err = m.Run(c.in)
			}()
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}
