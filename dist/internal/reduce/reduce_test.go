package reduce

import (
	"math"
	"testing"
)

func TestBytesAppliesEachOpElementwise(t *testing.T) {
	a := []float32{1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	b := []float32{2, 2, -3, 1, 1, 1, 1, 1, 1, 1, 20}
	cases := []struct {
		op   Op
		want func(x, y float32) float32
	}{
		{Sum, func(x, y float32) float32 { return x + y }},
		{Max, func(x, y float32) float32 { return float32(math.Max(float64(x), float64(y))) }},
		{Min, func(x, y float32) float32 { return float32(math.Min(float64(x), float64(y))) }},
	}
	for _, c := range cases {
		d := append([]float32(nil), a...)
		Bytes(Float32, c.op, FromF32(d), FromF32(b))
		for i := range d {
			if w := c.want(a[i], b[i]); d[i] != w {
				t.Fatalf("op %d elem %d: got %v want %v", c.op, i, d[i], w)
			}
		}
	}
}

func TestBytesHandlesFloat64AndInt64(t *testing.T) {
	d := []float64{1.5, 2}
	Bytes(Float64, Sum, FromF64(d), FromF64([]float64{1, 1}))
	if d[0] != 2.5 || d[1] != 3 {
		t.Fatalf("float64 sum: %v", d)
	}
	i := []int64{1 << 40, -5}
	Bytes(Int64, Max, FromI64(i), FromI64([]int64{3, 7}))
	if i[0] != 1<<40 || i[1] != 7 {
		t.Fatalf("int64 max: %v", i)
	}
}

func TestMaxPropagatesNaN(t *testing.T) {
	d := []float32{1}
	Bytes(Float32, Max, FromF32(d), FromF32([]float32{float32(math.NaN())}))
	if d[0] == d[0] {
		t.Fatalf("want NaN, got %v", d[0])
	}
}

func BenchmarkSumFloat32(b *testing.B) {
	n := 1 << 20
	d, s := make([]float32, n), make([]float32, n)
	b.SetBytes(int64(n * 4))
	for b.Loop() {
		Bytes(Float32, Sum, FromF32(d), FromF32(s))
	}
}

func TestVectorSumMatchesScalarOnEveryLengthAndCopiesTheResult(t *testing.T) {
	for _, n := range []int{1, 31, 32, 33, 64, 1000, 4099} {
		a := make([]float32, n)
		b := make([]float32, n)
		for i := range a {
			a[i] = float32(i)*0.37 - 5
			b[i] = float32(n-i) * 1.13
		}
		want := append([]float32(nil), a...)
		for i := range want {
			want[i] += b[i]
		}
		got := append([]float32(nil), a...)
		cp := make([]float32, n)
		BytesTo(Float32, Sum, FromF32(got), FromF32(cp), FromF32(b))
		for i := range want {
			if got[i] != want[i] || cp[i] != want[i] {
				t.Fatalf("n=%d elem %d: got %v copy %v want %v", n, i, got[i], cp[i], want[i])
			}
		}
	}
}

func TestBytesToScaledEqualsReduceThenScaleToTheBit(t *testing.T) {
	for _, n := range []int{1, 31, 32, 100, 1000 + 7} {
		for _, f := range []float64{1, 0.5, 1.0 / 3} {
			a, b := make([]float32, n), make([]float32, n)
			for i := range a {
				a[i] = float32(math.Sin(float64(i))) * 1e3
				b[i] = float32(math.Cos(float64(i)*0.7)) / 7
			}
			want := append([]float32(nil), a...)
			Bytes(Float32, Sum, FromF32(want), FromF32(b))
			Scale(Float32, FromF32(want), f)
			got, got2 := append([]float32(nil), a...), make([]float32, n)
			BytesToScaled(Float32, Sum, FromF32(got), FromF32(got2), FromF32(b), f)
			for i := range want {
				if got[i] != want[i] || got2[i] != want[i] {
					t.Fatalf("n=%d f=%v elem %d: got %v and %v; want %v", n, f, i, got[i], got2[i], want[i])
				}
			}
		}
	}
}
