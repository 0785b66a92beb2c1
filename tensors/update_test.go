package tensors

import (
	"math"
	"slices"
	"testing"
)

// TestAdamAndSGDStepsAgreeOnEveryDeviceBitForBit runs the fused CPU kernels, the simulated
// device's composed updates and its fused ones on the same inputs: the composed updates round
// exactly as the fused kernels do. A transposed gradient and a float64 gradient take the copy
// path.
func TestAdamAndSGDStepsAgreeOnEveryDeviceBitForBit(t *testing.T) {
	g := NewGenerator(3)
	w0, g0 := g.Randn(5, 7), g.Randn(7, 5).MulScalar(10)
	m0, v0 := g.Randn(5, 7), g.Rand(5, 7)
	adam := []AdamStepConfig{
		{Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, StepSize: -1e-3 / (1 - 0.9), BiasCorrection2: math.Sqrt(1 - 0.999), Shrink: 1 - 1e-3*0.01},
		{Beta1: 0.8, Beta2: 0.99, Eps: 1e-6, StepSize: -0.01, BiasCorrection2: 0.5, Shrink: 1, L2: 0.1},
	}
	sgd := []SGDStepConfig{{LR: 0.1, WeightDecay: 0.01, Momentum: 0.9, Dampening: 0.1}, {LR: 0.05, Momentum: 0.9, Nesterov: true, First: true}}
	var ref [][]float32
	for _, d := range testDevices {
		var got [][]float32
		for k := range adam {
			w, m, v := w0.Clone().To(d), m0.Clone().To(d), v0.Clone().To(d) // To(cpu) would alias
			grad := g0.To(d).T()                                            // not contiguous
			if k == 1 {
				grad = grad.AsType(Float64)
			}
			AdamStep([]*Tensor{w}, []*Tensor{grad}, []*Tensor{m}, []*Tensor{v}, adam[k:k+1])
			got = append(got, w.Float32s(), m.Float32s(), v.Float32s())
		}
		for k := range sgd {
			w, b := w0.Clone().To(d), m0.Clone().To(d)
			SGDStep([]*Tensor{w, w.Clone()}, []*Tensor{g0.T().To(d), g0.T().To(d)}, []*Tensor{b, nil}, []SGDStepConfig{sgd[k], sgd[k]})
			got = append(got, w.Float32s(), b.Float32s())
		}
		if ref == nil {
			ref = got
			if slices.Equal(got[0], w0.Float32s()) {
				t.Fatal("AdamStep left the parameter unchanged")
			}
			continue
		}
		for i := range ref {
			for j := range ref[i] {
				if math.Float32bits(got[i][j]) != math.Float32bits(ref[i][j]) {
					t.Fatalf("%s: result %d element %d = %v, cpu %v", d, i, j, got[i][j], ref[i][j])
				}
			}
		}
	}
}

func TestSumSquaresAndScaleChecksOnEveryDevice(t *testing.T) {
	for _, d := range testDevices {
		t.Run(d.String(), func(t *testing.T) {
			a := New([]float32{1, -2, 3, 4}, 2, 2).To(d)
			b := NewFloat64([]float64{0.5}, 1).To(d)
			if got := SumSquares([]*Tensor{a, nil, b, a.T()}); got != 30+0.25+30 {
				t.Fatalf("SumSquares = %v, want 60.25", got)
			}
			ScaleInPlace([]*Tensor{a, b, a.T().Slice(0, 0, 1)}, 2)
			if got := a.Float32s(); !slices.Equal(got, []float32{4, -4, 12, 8}) {
				t.Fatalf("ScaleInPlace: %v, want [4 -4 12 8] (the slice of the transpose scaled twice more)", got)
			}
			if !ScaleCheckFinite([]*Tensor{a, nil, b}, 0.25) {
				t.Fatal("finite values reported non-finite")
			}
			if got := b.Float64s(); got[0] != 0.25 {
				t.Fatalf("float64 tensor scaled to %v, want 0.25", got)
			}
			bad := New([]float32{1, float32(math.Inf(1)), 2}, 3).To(d)
			nan := New([]float32{float32(math.NaN())}, 1).To(d)
			if ScaleCheckFinite([]*Tensor{a, bad}, 1) || ScaleCheckFinite([]*Tensor{nan}, 1) {
				t.Fatal("inf or NaN not found")
			}
			if got := bad.Float32s(); got[0] != 1 || got[2] != 2 {
				t.Fatalf("values scaled by 1 changed: %v", got)
			}
		})
	}
}
