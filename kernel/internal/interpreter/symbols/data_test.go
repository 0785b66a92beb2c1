package symbols_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/symbols"
)

// The notebook path: a dataset type defined in a cell, read by the Loader's prefetch goroutine
// while the interpreted loop trains; a panic in its Get reaches the loop as a panic of Next.
const cellDataset = `
package main

import (
	"fmt"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
)

type Squares struct{ N, Bad int }

func (s Squares) Len() int { return s.N }

func (s Squares) Get(i int) (*tensors.Tensor, *tensors.Tensor) {
	if i == s.Bad {
		panic(fmt.Sprintf("sample %d is corrupt", i))
	}
	return tensors.New([]float32{float32(i)}, 1), tensors.New([]float32{float32(i * i)}, 1)
}

func Train() (string, float64) {
	loader := data.NewLoader(Squares{N: 64, Bad: -1}, data.LoaderConfig{BatchSize: 8, Shuffle: true, Seed: 3})
	w := tensors.Zeros(1, 1).SetRequiresGrad(true)
	order := ""
	var grad float64
	for loader.Next() {
		x, y := loader.Batch()
		order += fmt.Sprint(loader.Indices()[0], " ")
		loss := tensors.MSE(x.MatMul(w), y)
		loss.Backward()
		grad += w.Grad().Item()
		w.ZeroGrad()
	}
	return order, grad
}

func Failing() (msg string) {
	loader := data.NewLoader(Squares{N: 64, Bad: 20}, data.LoaderConfig{BatchSize: 8})
	defer func() { msg = fmt.Sprint(recover()) }()
	for loader.Next() {
	}
	return "no panic"
}
`

func TestCellDatasetUnderYaegiWithPrefetch(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(symbols.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(cellDataset); err != nil {
		t.Fatalf("eval: %v", err)
	}
	v, err := i.Eval("main.Train")
	if err != nil {
		t.Fatal(err)
	}
	train := v.Interface().(func() (string, float64))
	order, grad := train()
	again, grad2 := train()
	if order != again || grad != grad2 {
		t.Errorf("two runs differ: %q (grad %v) and %q (grad %v)", order, grad, again, grad2)
	}
	if len(strings.Fields(order)) != 8 || grad == 0 {
		t.Errorf("batches %q, summed gradient %v; want 8 batches and gradients recorded", order, grad)
	}
	f, err := i.Eval("main.Failing")
	if err != nil {
		t.Fatal(err)
	}
	if msg := f.Interface().(func() string)(); !strings.Contains(msg, "sample 20 is corrupt") {
		t.Errorf("a panicking cell Get: %s", fmt.Sprint(msg))
	}
}
