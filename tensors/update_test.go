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

// TestAdaptiveStepsAgreeOnEveryDeviceBitForBit runs Adadelta, RMSprop (plain, centered, with
// momentum, with weight decay) and Adagrad steps on every device: the fused kernels and the
// composed fallback round in the same order, so the results are the same bits; and they match a
// float64 reference of the formulas to float32 rounding.
func TestAdaptiveStepsAgreeOnEveryDeviceBitForBit(t *testing.T) {
	g := NewGenerator(4)
	w0, g0 := g.Randn(6, 5), g.Randn(5, 6)
	s0, a0, m0 := g.Rand(6, 5), g.Rand(6, 5), g.Randn(6, 5).MulScalar(0.1)
	ada := []AdadeltaStepConfig{{LR: 1, Rho: 0.9, Eps: 1e-6}, {LR: 0.5, Rho: 0.95, Eps: 1e-4, WeightDecay: 0.1}}
	rms := []RMSpropStepConfig{{LR: 0.01, Alpha: 0.99, Eps: 1e-8}, {LR: 0.02, Alpha: 0.9, Eps: 1e-6, Centered: true, Momentum: 0.8, WeightDecay: 0.05}}
	agd := []AdagradStepConfig{{LR: 0.01, Eps: 1e-10}, {LR: 0.05 / (1 + 2*0.1), Eps: 1e-6, WeightDecay: 0.2}}
	var ref [][]float32
	for _, d := range testDevices {
		var got [][]float32
		for k := range ada {
			w, s, a := w0.Clone().To(d), s0.Clone().To(d), a0.Clone().To(d)
			AdadeltaStep([]*Tensor{w}, []*Tensor{g0.To(d).T()}, []*Tensor{s}, []*Tensor{a}, ada[k:k+1])
			got = append(got, w.Float32s(), s.Float32s(), a.Float32s())
		}
		for k, c := range rms {
			w, s := w0.Clone().To(d), s0.Clone().To(d)
			var b, m *Tensor
			if k == 1 {
				b, m = a0.Clone().To(d), m0.Clone().To(d)
			}
			RMSpropStep([]*Tensor{w}, []*Tensor{g0.To(d).T()}, []*Tensor{s}, []*Tensor{b}, []*Tensor{m}, []RMSpropStepConfig{c})
			got = append(got, w.Float32s(), s.Float32s())
			if k == 1 {
				got = append(got, b.Float32s(), m.Float32s())
			}
		}
		for k := range agd {
			w, s := w0.Clone().To(d), s0.Clone().To(d)
			AdagradStep([]*Tensor{w}, []*Tensor{g0.To(d).T()}, []*Tensor{s}, agd[k:k+1])
			got = append(got, w.Float32s(), s.Float32s())
		}
		if ref == nil {
			ref = got
			checkAdaptiveReference(t, w0, g0.T(), s0, a0, m0, ada[1], rms[1], got)
			continue
		}
		for i := range ref {
			if !slices.Equal(got[i], ref[i]) {
				t.Fatalf("%s: result %d differs from %s's: %v vs %v", d, i, testDevices[0], got[i], ref[i])
			}
		}
	}
}

// checkAdaptiveReference compares the weighted-decay Adadelta and the centered, momentum RMSprop
// steps with the formulas in float64.
func checkAdaptiveReference(t *testing.T, w0, g0, s0, a0, m0 *Tensor, ada AdadeltaStepConfig, rms RMSpropStepConfig, got [][]float32) {
	t.Helper()
	w, gr, s, a, m := w0.Float64s(), g0.Float64s(), s0.Float64s(), a0.Float64s(), m0.Float64s()
	near := func(what string, i int, got float32, want float64) {
		if math.Abs(float64(got)-want) > 1e-5*(1+math.Abs(want)) {
			t.Fatalf("%s[%d] = %v, the formula gives %v", what, i, got, want)
		}
	}
	for i := range w {
		gi := gr[i] + ada.WeightDecay*w[i]
		si := ada.Rho*s[i] + (1-ada.Rho)*gi*gi
		di := math.Sqrt(a[i]+ada.Eps) / math.Sqrt(si+ada.Eps) * gi
		near("Adadelta w", i, got[3][i], w[i]-ada.LR*di)
		near("Adadelta acc_delta", i, got[5][i], ada.Rho*a[i]+(1-ada.Rho)*di*di)
		gi = gr[i] + rms.WeightDecay*w[i]
		si = rms.Alpha*s[i] + (1-rms.Alpha)*gi*gi
		mi := rms.Alpha*m[i] + (1-rms.Alpha)*gi
		bi := rms.Momentum*a[i] + gi/(math.Sqrt(si-mi*mi)+rms.Eps)
		near("RMSprop w", i, got[8][i], w[i]-rms.LR*bi)
		near("RMSprop grad_avg", i, got[11][i], mi)
	}
}
