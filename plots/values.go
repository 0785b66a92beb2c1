package plots

import (
	"fmt"
	"math"
	"reflect"

	"github.com/goaccel/goaccel/tensors"
)

// accepted names the value types the one-call figures take, for messages.
const accepted = "[]float64, []float32, []int, []int64 or a *tensors.Tensor"

// floats converts a series to float64s: a slice of any integer or float
// type (cells' named slice types too) or a tensor of any shape with at most
// one dimension longer than 1. what names the argument in a panic message.
func floats(fn, what string, v any) []float64 {
	switch s := v.(type) {
	case []float64:
		return append([]float64(nil), s...)
	case *tensors.Tensor:
		if s == nil {
			panic(fmt.Sprintf("plots.%s: %s is a nil tensor", fn, what))
		}
		if long := longDims(s.Shape()); long > 1 {
			panic(fmt.Sprintf("plots.%s: %s is a tensor of shape %v; pass a 1-D tensor (Flatten or Slice it first)", fn, what, s.Shape()))
		}
		return s.Float64s()
	case nil:
		panic(fmt.Sprintf("plots.%s: %s is nil; pass %s", fn, what, accepted))
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		panic(fmt.Sprintf("plots.%s: %s is a %T; pass %s", fn, what, v, accepted))
	}
	out := make([]float64, rv.Len())
	for i := range out {
		x, ok := number(rv.Index(i))
		if !ok {
			panic(fmt.Sprintf("plots.%s: %s is a %T, not a slice of numbers; pass %s", fn, what, v, accepted))
		}
		out[i] = x
	}
	return out
}

// matrix converts a [][]T of numbers or a 2-D tensor to rows of float64s.
func matrix(fn, what string, v any) [][]float64 {
	if t, ok := v.(*tensors.Tensor); ok {
		if t == nil || t.Dim() != 2 {
			shape := []int(nil)
			if t != nil {
				shape = t.Shape()
			}
			panic(fmt.Sprintf("plots.%s: %s is a tensor of shape %v; pass a 2-D tensor", fn, what, shape))
		}
		flat, rows, cols := t.Float64s(), t.Size(0), t.Size(1)
		out := make([][]float64, rows)
		for r := range out {
			out[r] = flat[r*cols : (r+1)*cols]
		}
		return out
	}
	rv := reflect.ValueOf(v)
	if v == nil || rv.Kind() != reflect.Slice {
		panic(fmt.Sprintf("plots.%s: %s is a %T; pass a [][]float64, a [][]int or a 2-D *tensors.Tensor", fn, what, v))
	}
	out := make([][]float64, rv.Len())
	for r := range out {
		out[r] = floats(fn, fmt.Sprintf("%s row %d", what, r), rv.Index(r).Interface())
		if r > 0 && len(out[r]) != len(out[0]) {
			panic(fmt.Sprintf("plots.%s: %s row %d has %d values but row 0 has %d; rows must have equal lengths", fn, what, r, len(out[r]), len(out[0])))
		}
	}
	return out
}

func number(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint()), true
	case reflect.Interface:
		if !v.IsNil() {
			return number(v.Elem())
		}
	}
	return 0, false
}

// longDims counts the dimensions longer than 1.
func longDims(shape []int) int {
	n := 0
	for _, d := range shape {
		if d > 1 {
			n++
		}
	}
	return n
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
