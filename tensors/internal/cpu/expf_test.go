package cpu

import (
	"math"
	"testing"
)

func TestExpfIsWithinTwoUlpOfMathExp(t *testing.T) {
	for x := float32(-103); x < 88.7; x += 0.0137 {
		want := math.Exp(float64(x))
		got := float64(expf(x))
		ulp := float64(math.Nextafter32(float32(want), float32(math.Inf(1))) - float32(want))
		if math.Abs(got-want) > 2*ulp {
			t.Fatalf("expf(%v) = %v, want %v (±2 ulp = %v)", x, got, want, 2*ulp)
		}
	}
	if !math.IsInf(float64(expf(100)), 1) || expf(-200) != 0 || !math.IsNaN(float64(expf(float32(math.NaN())))) {
		t.Fatal("expf special cases")
	}
}
