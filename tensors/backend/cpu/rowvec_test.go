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

func TestIm2colSameWidthEqualsGeneralLoop(t *testing.T) {
	for _, c := range []struct{ h, w, k, pad int }{{5, 5, 3, 1}, {4, 6, 3, 1}, {6, 4, 5, 2}, {3, 3, 1, 0}, {2, 3, 5, 2}, {7, 5, 3, 1}} {
		oh := c.h + 2*c.pad - c.k + 1
		ow := c.w + 2*c.pad - c.k + 1
		if ow != c.w {
			t.Fatalf("case %+v is not same-width", c)
		}
		ch := 2
		x := make([]float32, ch*c.h*c.w)
		for i := range x {
			x[i] = float32(i + 1)
		}
		rows, ld := ch*c.k*c.k, oh*ow+3
		got, want := make([]float32, rows*ld), make([]float32, rows*ld)
		for i := range got {
			got[i], want[i] = -7, -7
		}
		im2colSameWidth(got, ld, x, ch, c.h, c.w, c.k, c.k, c.pad, oh)
		// The general path, forced by calling it with stride 1 through the per-row loop.
		im2colRows(want, ld, x, ch, c.h, c.w, c.k, c.k, 1, c.pad, oh, ow, false)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("case %+v: col[%d] = %v, want %v", c, i, got[i], want[i])
			}
		}
	}
}

// TestSumRowAddsEveryElementAtAnyLength covers the scalar loop, the 16-lane vector loop and the
// tail it leaves over.
func TestSumRowAddsEveryElementAtAnyLength(t *testing.T) {
	for n := 0; n < 70; n++ {
		row := make([]float32, n)
		want := 0.0
		for i := range row {
			row[i] = float32(i + 1)
			want += float64(i + 1)
		}
		if got := sumRow(row); got != want {
			t.Fatalf("n=%d: sumRow = %v, want %v", n, got, want)
		}
	}
}
