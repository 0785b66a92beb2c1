package symbols_test

import (
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/symbols"
)

// The notebook path: a model type defined in a cell, held in an nn.Module
// variable, prepared and trained through an interpreted Accumulate closure.
const cellProgram = `
package main

import (
	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

type Net struct{ L *nn.Linear }

func (n *Net) Forward(x *tensors.Tensor) *tensors.Tensor { return n.L.Forward(x) }
func (n *Net) Parameters() []*tensors.Tensor          { return n.L.Parameters() }
func (n *Net) NamedParameters() []nn.NamedParameter    { return nn.Prefixed("l", n.L) }

func Train() (float64, float64) {
	accelerate.SetSeed(1, false)
	acc := accelerate.New(accelerate.Config{GradientAccumulationSteps: 2})
	x := tensors.Randn(32, 2)
	y := x.MatMul(tensors.New([]float32{1, -1}, 2, 1))
	var model nn.Module = &Net{L: nn.NewLinear(2, 1)}
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.2})
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 8})
	acc.Prepare(&model, &opt, &loader)
	first, last := -1.0, 0.0
	for e := 0; e < 10; e++ {
		for loader.Next() {
			xb, yb := loader.Batch()
			acc.Accumulate(model, func() {
				loss := tensors.MSE(model.Forward(xb), yb)
				if first < 0 {
					first = loss.Item()
				}
				last = loss.Item()
				acc.Backward(loss)
				opt.Step()
				opt.ZeroGrad()
			})
		}
	}
	return first, last
}

func Concrete() (msg string) {
	acc := accelerate.New(accelerate.Config{})
	m := &Net{L: nn.NewLinear(2, 1)}
	defer func() { msg = recover().(string) }()
	acc.Prepare(&m)
	return ""
}
`

func TestCellTypesTrainThroughPrepareUnderYaegi(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(symbols.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(cellProgram); err != nil {
		t.Fatalf("eval: %v", err)
	}
	v, err := i.Eval("main.Train")
	if err != nil {
		t.Fatal(err)
	}
	out := v.Interface().(func() (float64, float64))
	first, last := out()
	if !(last < first/10) {
		t.Errorf("interpreted training: loss %v → %v; want it to drop tenfold", first, last)
	}
	c, err := i.Eval("main.Concrete")
	if err != nil {
		t.Fatal(err)
	}
	if msg := c.Interface().(func() string)(); !strings.Contains(msg, "interface type") {
		t.Errorf("Prepare(&m) with a concrete cell type panicked with %q; want the interface-type advice", msg)
	}
}
