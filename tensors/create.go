package tensors

import (
	"fmt"
	"math"
)

func checkValues(op string, n int, shape []int) []int {
	checkShape(op, shape)
	if len(shape) == 0 && n != 1 {
		shape = []int{n}
	}
	if numel(shape) != n {
		panic(fmt.Sprintf("tensors: %s: %d values do not fill shape %v (%d elements)", op, n, shape, numel(shape)))
	}
	return shape
}

// New returns a float32 tensor holding a copy of values. With no shape it is 1-D.
func New(values []float32, shape ...int) *Tensor {
	shape = checkValues("New", len(values), shape)
	t := empty(Float32, CPU, shape...)
	copy(hostF32(t.buf()), values)
	return t
}

// NewFloat64 returns a float64 tensor holding a copy of values.
func NewFloat64(values []float64, shape ...int) *Tensor {
	shape = checkValues("NewFloat64", len(values), shape)
	t := empty(Float64, CPU, shape...)
	copy(hostF64(t.buf()), values)
	return t
}

// FromInt64 returns an int64 tensor holding a copy of values.
func FromInt64(values []int64, shape ...int) *Tensor {
	shape = checkValues("FromInt64", len(values), shape)
	t := empty(Int64, CPU, shape...)
	copy(hostI64(t.buf()), values)
	return t
}

// Scalar returns a 0-dimensional float32 tensor.
func Scalar(v float64) *Tensor {
	t := empty(Float32, CPU)
	hostF32(t.buf())[0] = float32(v)
	return t
}

// Zeros returns a float32 tensor of zeros.
func Zeros(shape ...int) *Tensor {
	checkShape("Zeros", shape)
	return zeros(Float32, CPU, shape...)
}

// Ones returns a float32 tensor of ones.
func Ones(shape ...int) *Tensor { return Full(1, shape...) }

// Full returns a float32 tensor with every element set to value.
func Full(value float64, shape ...int) *Tensor {
	checkShape("Full", shape)
	t := empty(Float32, CPU, shape...)
	t.be().Fill(t.buf(), value)
	return t
}

// Arange returns the float32 values start, start+step, ... below end (above end for step < 0).
func Arange(start, end, step float64) *Tensor {
	if step == 0 || math.IsNaN(start) || math.IsNaN(end) || math.IsNaN(step) {
		panic(fmt.Sprintf("tensors: Arange(%v, %v, %v): step must be nonzero and bounds finite", start, end, step))
	}
	n := int(math.Ceil((end - start) / step))
	if n < 0 {
		n = 0
	}
	t := empty(Float32, CPU, n)
	d := hostF32(t.buf())
	for i := range d {
		d[i] = float32(start + float64(i)*step)
	}
	return t
}

// ZerosLike returns zeros with t's shape, dtype and device.
func ZerosLike(t *Tensor) *Tensor { return zeros(t.dtype, t.dev, t.shape...) }

// OnesLike returns ones with t's shape, dtype and device.
func OnesLike(t *Tensor) *Tensor {
	o := empty(t.dtype, t.dev, t.shape...)
	o.be().Fill(o.buf(), 1)
	return o
}

// full returns a tensor of dt on dev filled with v.
func full(dt DType, dev Device, v float64, shape ...int) *Tensor {
	o := empty(dt, dev, shape...)
	o.be().Fill(o.buf(), v)
	return o
}

// FullLike returns a tensor with t's shape, dtype and device filled with v.
func FullLike(t *Tensor, v float64) *Tensor {
	o := empty(t.dtype, t.dev, t.shape...)
	o.be().Fill(o.buf(), v)
	return o
}
