package transfer

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

type inner struct {
	Name  string
	Score *float64
}

type config struct {
	LR      float64
	Epochs  int
	Tags    []string
	Weights map[string]float32
	ByID    map[int]inner
	Ptr     *inner
	Grid    [2][2]int8
	Blob    []byte
	Extra   map[string]any
	When    time.Time
	Z       complex128
	Nil     []int
	NilMap  map[string]int
	NilPtr  *inner
	Any     any
}

func roundTrip(t *testing.T, vals []any, types []reflect.Type) []reflect.Value {
	t.Helper()
	rv := make([]reflect.Value, len(vals))
	for i, v := range vals {
		rv[i] = reflect.ValueOf(v)
	}
	b, err := Marshal(rv, nil)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	out, err := Unmarshal(b, types, nil)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	return out
}

func TestValuesRoundTripUnchanged(t *testing.T) {
	score := 0.75
	c := config{
		LR: 1e-3, Epochs: 3, Tags: []string{"a", "ü"}, Weights: map[string]float32{"x": 0.1},
		ByID: map[int]inner{7: {Name: "seven"}}, Ptr: &inner{Name: "p", Score: &score},
		Grid: [2][2]int8{{1, -2}, {3, 4}}, Blob: []byte{0, 1, 255},
		Extra: map[string]any{"loss": []float64{0.5, math.Inf(1)}, "n": int64(math.MaxInt64), "nested": map[string]any{"ok": true}, "none": nil},
		When:  time.Date(2024, 5, 6, 7, 8, 9, 10, time.UTC), Z: complex(1, -2), Any: []int{1, 2},
	}
	for _, v := range []any{
		c, true, int8(-128), uint64(math.MaxUint64), float32(0.1), math.NaN(), "text", []any{nil, "x", 2.5},
	} {
		got := roundTrip(t, []any{v}, []reflect.Type{reflect.TypeOf(v)})[0].Interface()
		if f, ok := v.(float64); ok && math.IsNaN(f) {
			if !math.IsNaN(got.(float64)) {
				t.Errorf("NaN came back as %v", got)
			}
			continue
		}
		if !reflect.DeepEqual(got, v) {
			t.Errorf("round trip of %T:\n got %#v\nwant %#v", v, got, v)
		}
	}
}

func TestTensorsCrossAsSafetensorsOncePerTensor(t *testing.T) {
	w := tensors.New([]float32{1, 2, 3, 4, 5, 6}, 2, 3).SetRequiresGrad(true)
	labels := tensors.FromInt64([]int64{3, 1}, 2)
	sd := map[string]*tensors.Tensor{"w": w, "again": w}
	out := roundTrip(t, []any{sd, labels, w.AsType(tensors.BFloat16)}, []reflect.Type{reflect.TypeOf(sd), reflect.TypeOf(labels), reflect.TypeOf(w)})
	got := out[0].Interface().(map[string]*tensors.Tensor)
	if got["w"] != got["again"] {
		t.Error("one tensor reached twice came back as two tensors")
	}
	if !reflect.DeepEqual(got["w"].Float32s(), w.Float32s()) || !reflect.DeepEqual(got["w"].Shape(), []int{2, 3}) || !got["w"].RequiresGrad() {
		t.Errorf("tensor came back as %v %v grad=%v", got["w"].Shape(), got["w"].Float32s(), got["w"].RequiresGrad())
	}
	if l := out[1].Interface().(*tensors.Tensor); !reflect.DeepEqual(l.Int64s(), []int64{3, 1}) || l.DType() != tensors.Int64 {
		t.Errorf("int64 tensor came back as %v %v", l.DType(), l.Int64s())
	}
	if b := out[2].Interface().(*tensors.Tensor); b.DType() != tensors.BFloat16 {
		t.Errorf("bfloat16 tensor came back as %v", b.DType())
	}
}

func TestNumbersConvertWhenTheValueFits(t *testing.T) {
	for _, tc := range []struct {
		v    any
		to   any
		want any
		err  string
	}{
		{3, 0.0, 3.0, ""},
		{4.0, 0, 4, ""},
		{0.1, float32(0), float32(0.1), ""},
		{0.5, 0, nil, "0.5 does not fit in int"},
		{300, int8(0), nil, "300 does not fit in int8"},
		{-1, uint(0), nil, "-1 does not fit in uint"},
		{"x", 0, nil, "cannot use a string as int"},
		{[]int{1, 2, 3}, [2]int{}, nil, "a list of 3 elements"},
	} {
		b, err := Marshal([]reflect.Value{reflect.ValueOf(tc.v)}, []string{"argument 1 (x)"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Unmarshal(b, []reflect.Type{reflect.TypeOf(tc.to)}, []string{"argument 1 (x)"})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "argument 1 (x)") {
				t.Errorf("%v into %T: err %v; want one naming the argument and %q", tc.v, tc.to, err, tc.err)
			}
			continue
		}
		if err != nil || got[0].Interface() != tc.want {
			t.Errorf("%v into %T = %v, %v; want %v", tc.v, tc.to, got, err, tc.want)
		}
	}
}

func TestWhatCannotCrossIsNamedBeforeAnythingIsWritten(t *testing.T) {
	type withChan struct {
		Name string
		Jobs chan int
	}
	type cyclic struct{ Next *cyclic }
	loop := &cyclic{}
	loop.Next = loop
	x := 1
	model := nn.NewSequential(nn.NewLinear(2, 2))
	for _, tc := range []struct {
		v    any
		want string
	}{
		{make(chan int), "argument 1 (v): a channel (chan int)"},
		{func() {}, "argument 1 (v): a function (func())"},
		{os.Stdout, "an open file (*os.File)"},
		{unsafe.Pointer(&x), "unsafe.Pointer"},
		{withChan{Jobs: make(chan int)}, "argument 1 (v).Jobs: a channel"},
		{map[string]any{"f": func() {}}, `argument 1 (v)["f"]: a function`},
		{&sync.Mutex{}, "sync.Mutex has unexported fields"},
		{model, "for a model, pass nn.StateDict(model)"},
		{[]any{time.Second}, "give the field or variable the concrete type time.Duration"},
		{loop, "points back to itself"},
	} {
		err := Encode(&strings.Builder{}, []reflect.Value{reflect.ValueOf(tc.v)}, []string{"argument 1 (v)"})
		var te *Error
		if !errors.As(err, &te) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Encode(%T) = %v; want an *Error containing %q", tc.v, err, tc.want)
		}
	}
	if err := CheckType(reflect.TypeOf(struct{ F func() }{}), "result"); err == nil || !strings.Contains(err.Error(), "result.F: a function") {
		t.Errorf("CheckType of a struct with a func field = %v", err)
	}
	if err := CheckType(reflect.TypeOf(map[string]*tensors.Tensor{}), "result"); err != nil {
		t.Errorf("CheckType of a state dict = %v; want nil", err)
	}
}

// A cell's struct, made by yaegi, crosses into the same struct of another
// interpreter, and a compiled program's own types keep their unexported
// fields (checked by a program in package main).
func TestNotebookStructsCross(t *testing.T) {
	mk := func() *interp.Interpreter {
		i := interp.New(interp.Options{})
		if err := i.Use(stdlib.Symbols); err != nil {
			t.Fatal(err)
		}
		if _, err := i.Eval("type Config struct { lr float64; Layers []int; Name string }"); err != nil {
			t.Fatal(err)
		}
		return i
	}
	a, b := mk(), mk()
	v, err := a.Eval(`Config{lr: 0.5, Layers: []int{784, 10}, Name: "mlp"}`)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := b.Eval("Config{}")
	if err != nil {
		t.Fatal(err)
	}
	out := roundTrip(t, []any{v.Interface()}, []reflect.Type{typ.Type()})
	if got := out[0].Field(0).Float(); got != 0.5 || out[0].Field(2).String() != "mlp" {
		t.Errorf("yaegi struct came back as %+v", out[0].Interface())
	}
	if testing.Short() {
		return
	}
	cmd := exec.Command("go", "run", "./testdata/usertypes")
	got, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(got)) != "0.5 | lr=0.5 Epochs=2 inner=x" {
		t.Errorf("go run ./testdata/usertypes: %v\n%s", err, got)
	}
}
