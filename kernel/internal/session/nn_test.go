package session

import (
	"context"
	"testing"
)

// A model a cell declares reaches package nn through the interpreter's
// interface wrapper, which holds it boxed: nn's reflection still finds its
// submodules, so the state dict has the batch norm's buffers and
// SetTraining reaches its dropout and batch norm.
func TestAModelDeclaredInACellShowsItsSubmodulesToNN(t *testing.T) {
	s, out := newSession(t)
	cells := []string{
		"import (\"github.com/goaccel/goaccel/nn\"; \"github.com/goaccel/goaccel/tensors\")\n" +
			"type Net struct {\n\tBN *nn.BatchNorm1d\n\tDrop *nn.Dropout\n}\n" +
			"func (n *Net) Forward(x *tensors.Tensor) *tensors.Tensor { return n.Drop.Forward(n.BN.Forward(x)) }\n" +
			"func (n *Net) Parameters() []*tensors.Tensor { return nn.ParametersOf(n) }\n" +
			"func (n *Net) NamedParameters() []nn.NamedParameter { return nn.Prefixed(\"bn\", n.BN) }",
		"var m nn.Module = &Net{BN: nn.NewBatchNorm1d(2), Drop: nn.NewDropout(0.5)}\nsd := nn.StateDict(m)\n" +
			"fmt.Println(len(sd), sd[\"bn.running_mean\"] != nil, sd[\"bn.num_batches_tracked\"] != nil)",
		"nn.SetTraining(m, false)\nnet := m.(*Net)\nfmt.Println(net.BN.Training(), net.Drop.Training())",
		"direct := &Net{BN: nn.NewBatchNorm1d(2), Drop: nn.NewDropout(0.5)}\nnn.SetTraining(direct, false)\n" +
			"fmt.Println(len(nn.StateDict(direct)), direct.Drop.Training())",
	}
	for _, c := range cells {
		if r := s.Execute(context.Background(), c); r.Error != nil {
			t.Fatalf("%q: %v", c, r.Error)
		}
	}
	if got, want := out.String(), "5 true true\nfalse false\n5 false\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
