package cpu

import "testing"

func TestRowHelpersEqualScalarLoopsAtOddLengths(t *testing.T) {
	for _, n := range []int{1, 7, 8, 13, 1000} {
		p := make([]float32, n)
		for i := range p {
			p[i] = float32((i*37)%101)/50 - 1
		}
		d := make([]float32, n)
		shiftScaleT(d, p, 0.01, 0.3)
		s := append([]float32(nil), p...)
		scaleT(s, 0.7)
		for i := range p {
			if want := float32(0.3) * (p[i] - 0.01); d[i] != want {
				t.Fatalf("n=%d shiftScaleT[%d] = %v, want %v", n, i, d[i], want)
			}
			if want := p[i] * 0.7; s[i] != want {
				t.Fatalf("n=%d scaleT[%d] = %v, want %v", n, i, s[i], want)
			}
		}
		p64 := make([]float64, n)
		for i := range p64 {
			p64[i] = float64(p[i])
		}
		if got, want := maxT(p), maxScalarF32(p); got != want {
			t.Fatalf("n=%d maxT(float32) = %v, want %v", n, got, want)
		}
		if got := maxT(p64); got != float64(maxScalarF32(p)) {
			t.Fatalf("n=%d maxT(float64) = %v, want %v", n, got, maxScalarF32(p))
		}
	}
}
