package testenv

import (
	"encoding/json"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// Saved is a folder SavePretrained wrote, for LoadWithTransformers: transformers' Auto class to
// load it with (AutoModelForCausalLM, …), the output field to return (logits,
// last_hidden_state), inputs to run it on, and how many tokens to generate greedily from them
// (0: none).
type Saved struct {
	Dir, Auto, Output string
	IDs, Mask         *tensors.Tensor
	NewTokens         int
}

// Loaded is what transformers made of a Saved folder: its loading report, the parameters'
// type, the output's values and shape, whether the output embedding is the input embedding
// (tied), and the sequences generate(do_sample=False) returned.
type Loaded struct {
	Missing, Unexpected, Mismatched []string
	DType                           string
	Values                          []float64
	Shape                           []int
	Tied                            bool
	Sequences                       []int64
}

const loadScript = `
import json, sys, torch, transformers
out = []
for c in json.loads(sys.argv[1]):
    m, info = getattr(transformers, c["Auto"]).from_pretrained(c["Dir"], output_loading_info=True)
    m.eval()
    ids = torch.tensor(c["IDs"]).reshape(c["Shape"])
    mask = torch.tensor(c["Mask"]).reshape(c["Shape"])
    with torch.no_grad():
        y = getattr(m(input_ids=ids, attention_mask=mask), c["Output"]).float()
    r = {"Missing": sorted(info["missing_keys"]), "Unexpected": sorted(info["unexpected_keys"]),
         "Mismatched": [k[0] for k in info["mismatched_keys"]], "DType": str(next(m.parameters()).dtype),
         "Values": y.flatten().tolist(), "Shape": list(y.shape), "Tied": False, "Sequences": []}
    out_emb = m.get_output_embeddings() if hasattr(m, "get_output_embeddings") else None
    if out_emb is not None:
        r["Tied"] = out_emb.weight.data_ptr() == m.get_input_embeddings().weight.data_ptr()
    if c["NewTokens"] > 0:
        g = m.generate(input_ids=ids, attention_mask=mask, do_sample=False, max_new_tokens=c["NewTokens"])
        r["Sequences"] = g.flatten().tolist()
    out.append(r)
print(json.dumps(out))
`

// LoadWithTransformers has transformers' from_pretrained load each folder (one Python process,
// see RunPython) and returns what it made of them, in order.
func LoadWithTransformers(t testing.TB, folders []Saved) []Loaded {
	t.Helper()
	type spec struct {
		Dir, Auto, Output string
		IDs, Mask         []int64
		Shape             []int
		NewTokens         int
	}
	specs := make([]spec, len(folders))
	for i, f := range folders {
		specs[i] = spec{Dir: f.Dir, Auto: f.Auto, Output: f.Output, IDs: f.IDs.Int64s(), Mask: f.Mask.AsType(tensors.Int64).Int64s(), Shape: f.IDs.Shape(), NewTokens: f.NewTokens}
	}
	b, err := json.Marshal(specs)
	if err != nil {
		t.Fatal(err)
	}
	var out []Loaded
	if err := json.Unmarshal(RunPython(t, loadScript, string(b)), &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(folders) {
		t.Fatalf("transformers loaded %d folders of %d", len(out), len(folders))
	}
	return out
}
