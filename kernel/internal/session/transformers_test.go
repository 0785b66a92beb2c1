package session

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A cell declares a classifier with its own head around a pretrained BERT body (held in a
// field, and embedded in a second type): as an nn.Module it trains through the body, nn sees
// the body's parameters under "bert." and switches its dropout with SetTraining, and the body's
// Run takes an attention mask from the cell.
func TestACellModelWrapsAPretrainedBody(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "transformers", "testdata", "tiny-bert"))
	if err != nil {
		t.Fatal(err)
	}
	s, out := newSession(t)
	cells := []string{
		`import (
	"io"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/bert"
)
type Classifier struct {
	Body *bert.Model
	Head *nn.Linear
}
func (c *Classifier) Logits(ids, mask *tensors.Tensor) *tensors.Tensor {
	out, err := c.Body.Run(transformers.Inputs{InputIDs: ids, AttentionMask: mask})
	if err != nil {
		panic(err)
	}
	h := out.LastHiddenState
	return c.Head.Forward(h.Slice(1, 0, 1).Reshape(h.Size(0), h.Size(2)))
}
func (c *Classifier) Forward(ids *tensors.Tensor) *tensors.Tensor { return c.Logits(ids, nil) }
func (c *Classifier) Parameters() []*tensors.Tensor { return nn.ParametersOf(c) }
func (c *Classifier) NamedParameters() []nn.NamedParameter {
	return append(nn.Prefixed("bert", c.Body), nn.Prefixed("head", c.Head)...)
}
type Tagger struct {
	*bert.ForTokenClassification
	Extra *nn.Linear
}`,
		`body, report, err := transformers.FromPretrained("` + dir + `", transformers.Options{Log: io.Discard})
fmt.Println(err, report.Unexpected)
var model nn.Module = &Classifier{Body: body.(*bert.Model), Head: nn.NewLinear(32, 2)}
fmt.Println(nn.IsTraining(model), len(nn.StateDict(model)), nn.StateDict(model)["bert.encoder.layer.1.output.LayerNorm.bias"] != nil)
nn.SetTraining(model, true)
fmt.Println(nn.IsTraining(model), body.(*bert.Model).Training())`,
		`ids := tensors.FromInt64([]int64{2, 45, 17, 3, 2, 60, 3, 0}, 2, 4)
mask := tensors.FromInt64([]int64{1, 1, 1, 1, 1, 1, 1, 0}, 2, 4)
labels := tensors.FromInt64([]int64{0, 1}, 2)
c := model.(*Classifier)
opt := optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
nn.SetTraining(model, false)
before := nn.CrossEntropy(c.Logits(ids, mask), labels).Item()
nn.SetTraining(model, true)
for i := 0; i < 30; i++ {
	loss := nn.CrossEntropy(c.Logits(ids, mask), labels)
	loss.Backward()
	opt.Step()
	opt.ZeroGrad()
}
nn.SetTraining(model, false)
after := nn.CrossEntropy(c.Logits(ids, mask), labels).Item()
fmt.Println(after < before/2, len(model.Parameters()))`,
		`tok, _, err := transformers.FromPretrained("` + dir + `", transformers.Options{Task: transformers.TokenClassification, Log: io.Discard})
var tagger nn.Module = &Tagger{ForTokenClassification: tok.(*bert.ForTokenClassification), Extra: nn.NewLinear(3, 3)}
nn.SetTraining(tagger, true)
fmt.Println(err, tagger.Forward(ids).Shape(), tok.(*bert.ForTokenClassification).Training())`,
	}
	for _, c := range cells {
		if r := s.Execute(context.Background(), c); r.Error != nil {
			t.Fatalf("%q: %v", c, r.Error)
		}
	}
	want := "<nil> [classifier.bias classifier.weight]\nfalse 41 true\ntrue true\ntrue 41\n<nil> [2 4 3] true\n"
	if got := out.String(); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, strings.TrimSpace(want))
	}
}
