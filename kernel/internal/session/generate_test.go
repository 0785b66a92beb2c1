package session

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A cell loads a pretrained decoder and generates with the options struct, greedily (through the
// package function and the model's method, with and without the cache) and by seeded sampling:
// the same tokens as the compiled code gives (TestLlamaGreedyGenerationMatchesTransformers pins
// these against transformers).
func TestACellGeneratesWithAPretrainedDecoder(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "transformers", "testdata", "tiny-llama"))
	if err != nil {
		t.Fatal(err)
	}
	s, out := newSession(t)
	cells := []string{
		`import (
	"io"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/llama"
)`,
		`model, _, err := transformers.FromPretrained("` + dir + `", transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
prompt := tensors.FromInt64([]int64{5, 60, 12, 3, 44, 9}, 1, 6)
g, err := transformers.Generate(model, transformers.Inputs{InputIDs: prompt}, transformers.GenerateOptions{MaxNewTokens: 5, EOSTokenIDs: []int{90}})
fmt.Println(err, g.Sequences.Int64s())`,
		`g2, err := model.(*llama.ForCausalLM).Generate(transformers.Inputs{InputIDs: prompt}, transformers.GenerateOptions{MaxNewTokens: 5, EOSTokenIDs: []int{90}, NoCache: true})
fmt.Println(err, g2.Sequences.Int64s())`,
		`opts := transformers.GenerateOptions{MaxNewTokens: 4, DoSample: true, TopK: 20, TopP: 0.9, Temperature: 0.7, Generator: tensors.NewGenerator(3)}
a, _ := transformers.Generate(model, transformers.Inputs{InputIDs: prompt}, opts)
opts.Generator = tensors.NewGenerator(3)
b, _ := transformers.Generate(model, transformers.Inputs{InputIDs: prompt}, opts)
fmt.Println(a.Sequences.Shape(), fmt.Sprint(a.Sequences.Int64s()) == fmt.Sprint(b.Sequences.Int64s()))`,
	}
	for _, c := range cells {
		if r := s.Execute(context.Background(), c); r.Error != nil {
			t.Fatalf("%q: %v", c, r.Error)
		}
	}
	want := "<nil> [5 60 12 3 44 9 134 253 90]\n<nil> [5 60 12 3 44 9 134 253 90]\n[1 10] true\n"
	if got := out.String(); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, strings.TrimSpace(want))
	}
}
