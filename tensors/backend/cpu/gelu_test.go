package cpu

import (
	"math"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

func TestGELUVectorKernelsMatchScalar(t *testing.T) {
	// 27: sixteen lanes, then eight, then the scalar loop for the last three.
	for _, n := range []int{27, 4099} {
		checkGELUVectorKernels(t, n)
	}
}

func checkGELUVectorKernels(t *testing.T, n int) {
	c := New()
	x := backend.NewHost(backend.F32, n)
	gy := backend.NewHost(backend.F32, n)
	for i := range n {
		x.F32[i] = float32(i-n/2) * 13.6 / float32(n) // -6.8 .. 6.8
		gy.F32[i] = float32(math.Sin(float64(i)))
	}
	x.F32[0], x.F32[1], x.F32[2] = -100, 100, 0
	for _, op := range []backend.UnaryOp{backend.GELU, backend.GELUTanh} {
		y := backend.NewHost(backend.F32, n)
		c.Unary(op, y, x, 0, 0)
		d := backend.NewHost(backend.F32, n)
		c.UnaryGrad(op, d, gy, x, y, 0, 0)
		ry, rd := make([]float32, n), make([]float32, n)
		unary(op, ry, x.F32, 0, 0)
		unaryGrad(op, rd, gy.F32, x.F32, nil, 0, 0)
		for i := range n {
			if e := math.Abs(float64(y.F32[i] - ry[i])); e > 2e-6*(1+math.Abs(float64(ry[i]))) {
				t.Fatalf("%v(%v) = %v, scalar %v", op, x.F32[i], y.F32[i], ry[i])
			}
			if e := math.Abs(float64(d.F32[i] - rd[i])); e > 2e-6*(1+math.Abs(float64(rd[i]))) {
				t.Fatalf("%v'(%v)·%v = %v, scalar %v", op, x.F32[i], gy.F32[i], d.F32[i], rd[i])
			}
		}
	}
}
