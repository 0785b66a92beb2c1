package nn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

func TestLoadStateDictIsStrictAndNamesEveryProblem(t *testing.T) {
	m := NewSequential(NewLinear(3, 2), ReLU{}, NewLinear(2, 1))
	good := StateDict(m)
	cases := []struct {
		name string
		edit func(map[string]*tensors.Tensor)
		want []string
	}{
		{"missing", func(sd map[string]*tensors.Tensor) { delete(sd, "2.bias") }, []string{"missing keys: 2.bias"}},
		{"unexpected", func(sd map[string]*tensors.Tensor) { sd["3.weight"] = tensors.Zeros(1) }, []string{"unexpected keys: 3.weight"}},
		{"shape", func(sd map[string]*tensors.Tensor) { sd["0.weight"] = tensors.Zeros(3, 2) }, []string{"0.weight: checkpoint [3 2], model [2 3]"}},
		{"all three", func(sd map[string]*tensors.Tensor) {
			delete(sd, "0.bias")
			sd["extra"] = tensors.Zeros(1)
			sd["2.weight"] = tensors.Zeros(5)
		}, []string{"missing keys: 0.bias", "unexpected keys: extra", "2.weight: checkpoint [5]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sd := map[string]*tensors.Tensor{}
			for k, v := range good {
				sd[k] = v
			}
			c.edit(sd)
			before := m.Layers[0].(*Linear).Weight.Float32s()
			err := LoadStateDict(m, sd)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			after := m.Layers[0].(*Linear).Weight.Float32s()
			if fmt.Sprint(before) != fmt.Sprint(after) {
				t.Error("a failed load changed the parameters")
			}
		})
	}
}

func TestLoadStateDictNonStrictLoadsSharedKeys(t *testing.T) {
	src := NewSequential(NewLinear(3, 4), ReLU{}, NewLinear(4, 2))
	dst := NewSequential(NewLinear(3, 4), ReLU{}, NewLinear(4, 5)) // a new head
	sd := StateDict(src)
	delete(sd, "0.bias")
	delete(sd, "2.weight")
	delete(sd, "2.bias")
	sd["extra"] = tensors.Zeros(1)
	missing, unexpected, err := LoadStateDictNonStrict(dst, sd)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(missing) != "[0.bias 2.weight 2.bias]" || fmt.Sprint(unexpected) != "[extra]" {
		t.Errorf("missing %v, unexpected %v", missing, unexpected)
	}
	if fmt.Sprint(dst.Layers[0].(*Linear).Weight.Float32s()) != fmt.Sprint(src.Layers[0].(*Linear).Weight.Float32s()) {
		t.Error("the shared key 0.weight was not loaded")
	}
	sd["2.weight"] = tensors.Zeros(2, 4)
	if _, _, err := LoadStateDictNonStrict(dst, sd); err == nil || !strings.Contains(err.Error(), "2.weight: checkpoint [2 4], model [5 4]") {
		t.Errorf("error %v, want the shape mismatch of 2.weight", err)
	}
}

func TestLoadStateDictCopiesAndConverts(t *testing.T) {
	src := NewLinear(4, 3)
	dst := NewLinear(4, 3)
	sd := StateDict(src)
	sd["weight"] = sd["weight"].AsType(tensors.Float64)
	if err := LoadStateDict(dst, sd); err != nil {
		t.Fatal(err)
	}
	if dst.Weight.DType() != tensors.Float32 || fmt.Sprint(dst.Weight.Float32s()) != fmt.Sprint(src.Weight.Float32s()) {
		t.Errorf("weights not copied: %v vs %v", dst.Weight.Float32s(), src.Weight.Float32s())
	}
	if dst.Weight == src.Weight || !dst.Weight.RequiresGrad() {
		t.Error("LoadStateDict must copy into the existing trainable parameters")
	}
}

func TestTrainingModePropagatesThroughSequential(t *testing.T) {
	drop := NewDropout(0.5)
	inner := NewSequential(NewLinear(2, 2), drop)
	m := NewSequential(inner, ReLU{})
	if !IsTraining(m) || !drop.Training() {
		t.Fatal("new modules must start in training mode")
	}
	SetTraining(m, false)
	if IsTraining(m) || inner.Training() || drop.Training() {
		t.Error("eval mode did not reach the nested Dropout")
	}
	x := tensors.Ones(1000)
	if got := drop.Forward(x).Sum().Item(); got != 1000 {
		t.Errorf("Dropout in eval mode changed its input (sum %v)", got)
	}
	SetTraining(m, true)
	y := drop.Forward(x).Float32s()
	zeros := 0
	for _, v := range y {
		if v == 0 {
			zeros++
		} else if v != 2 {
			t.Fatalf("kept element %v, want 1/(1-p) = 2", v)
		}
	}
	if zeros < 400 || zeros > 600 {
		t.Errorf("Dropout(0.5) zeroed %d of 1000", zeros)
	}
}

// custom is a model without Train/Training methods: SetTraining must find its Dropouts by itself.
type custom struct {
	FC     *Linear
	Drops  []*Dropout
	Nested struct{ Head Module }
	Self   *custom
	Cache  []float32
	W      *tensors.Tensor
}

func (c *custom) Forward(x *tensors.Tensor) *tensors.Tensor { return x }
func (c *custom) Parameters() []*tensors.Tensor             { return nil }
func (c *custom) NamedParameters() []NamedParameter         { return nil }

func TestSetTrainingFindsModulesInFieldsOfCustomModels(t *testing.T) {
	d1, d2, d3 := NewDropout(0.1), NewDropout(0.2), NewDropout(0.3)
	c := &custom{FC: NewLinear(2, 2), Drops: []*Dropout{d1, nil, d2}, Cache: make([]float32, 1<<20), W: tensors.Zeros(2)}
	c.Nested.Head = NewSequential(NewLinear(2, 2), d3)
	c.Self = c
	SetTraining(c, false)
	for i, d := range []*Dropout{d1, d2, d3} {
		if d.Training() {
			t.Errorf("dropout %d still in training mode", i+1)
		}
	}
	if IsTraining(c) {
		t.Error("IsTraining(custom) = true after SetTraining(false)")
	}
	SetTraining(c, true)
	if !d3.Training() || !IsTraining(c) {
		t.Error("SetTraining(true) did not reach the nested Sequential's Dropout")
	}
	if !IsTraining(ReLU{}) {
		t.Error("a module without mode must count as training")
	}
}

func TestFlattenDefaultsToPyTorchDims(t *testing.T) {
	x := tensors.Zeros(2, 3, 4, 5)
	cases := []struct {
		f    Flatten
		want string
	}{
		{Flatten{}, "[2 60]"},
		{Flatten{StartDim: 2, EndDim: -1}, "[2 3 20]"},
		{Flatten{StartDim: 0, EndDim: 1}, "[6 4 5]"},
	}
	for _, c := range cases {
		if got := fmt.Sprint(c.f.Forward(x).Shape()); got != c.want {
			t.Errorf("%+v: shape %s, want %s", c.f, got, c.want)
		}
	}
}

func TestConstructorsRejectBadArguments(t *testing.T) {
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"linear", func() { NewLinear(0, 3) }, "positive"},
		{"dropout", func() { NewDropout(1) }, "[0, 1)"},
		{"conv stride", func() { NewConv2d(1, 1, 3, 0, 0) }, "stride"},
		{"layernorm", func() { NewLayerNorm() }, "normalised shape"},
		{"sequential nil", func() { NewSequential(ReLU{}, nil) }, "layer 1 is nil"},
		{"reduction", func() {
			(&CrossEntropyLoss{Reduction: "avg"}).Forward(tensors.Zeros(1, 2), tensors.FromInt64([]int64{0}, 1))
		}, `"avg"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("panic %v, want one containing %q", r, c.want)
				}
			}()
			c.f()
		})
	}
}

func TestLossFormsAgree(t *testing.T) {
	logits := tensors.New([]float32{1, 2, 0.5, -1, 0, 3}, 2, 3)
	target := tensors.FromInt64([]int64{1, 2}, 2)
	a := CrossEntropy(logits, target).Item()
	b := NewCrossEntropyLoss().Forward(logits, target).Item()
	if a != b {
		t.Errorf("CrossEntropy %v, CrossEntropyLoss %v", a, b)
	}
	sum := (&CrossEntropyLoss{IgnoreIndex: -100, Reduction: "sum"}).Forward(logits, target).Item()
	if d := sum - 2*a; d > 1e-6 || d < -1e-6 {
		t.Errorf("sum reduction %v, want 2×mean = %v", sum, 2*a)
	}
	p, q := tensors.New([]float32{1, 2, 3}, 3), tensors.New([]float32{1, 0, 0}, 3)
	if got := (MSELoss{Reduction: "sum"}).Forward(p, q).Item(); got != 13 {
		t.Errorf("MSE sum = %v, want 13", got)
	}
	if got := MSE(p, q).Item(); got < 4.333 || got > 4.334 {
		t.Errorf("MSE mean = %v, want 13/3", got)
	}
}

func TestSequentialString(t *testing.T) {
	m := NewSequential(NewLinear(784, 10), ReLU{}, NewConv2d(1, 8, 3, 1, 1))
	want := "Sequential(\n  (0): Linear(in_features=784, out_features=10, bias=True)\n  (1): ReLU()\n" +
		"  (2): Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))\n)"
	if got := m.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
