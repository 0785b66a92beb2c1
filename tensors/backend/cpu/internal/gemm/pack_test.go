package gemm

import "testing"

// TestPackingEqualsElementByElement packs panels of every row count (the 8- and 4-row vector
// transposes and their scalar tails) and full and ragged panel widths against the definition:
// panel element (p, r) is op(X)[i0+r, p0+p], zero past the matrix.
func TestPackingEqualsElementByElement(t *testing.T) {
	const ld = 37
	x := make([]float32, 40*ld)
	for i := range x {
		x[i] = float32(i + 1)
	}
	for _, w := range []int{4, 12, 16, 32} {
		for rows := 1; rows <= w; rows++ {
			for _, kc := range []int{1, 7, 8, 19, 24} {
				for _, trans := range []bool{false, true} {
					// at(r, p) is the packed value for row r (of w) and step p.
					at := func(r, p int) float32 {
						if r >= rows {
							return 0
						}
						if trans {
							return x[(2+p)*ld+3+r]
						}
						return x[(3+r)*ld+2+p]
					}
					a := make([]float32, w*kc)
					packAF32(a, x, ld, trans, w, 3, rows, 2, kc)
					b := make([]float32, w*kc)
					// op(B) is X's transpose view when packing A is not: B's columns are A's rows.
					packBF32(b, x, ld, !trans, w, 2, kc, 3, rows)
					for p := 0; p < kc; p++ {
						for r := 0; r < w; r++ {
							if a[p*w+r] != at(r, p) || b[p*w+r] != at(r, p) {
								t.Fatalf("width %d, %d rows, kc %d, trans %v: step %d row %d packs A %v and B %v, want %v",
									w, rows, kc, trans, p, r, a[p*w+r], b[p*w+r], at(r, p))
							}
						}
					}
				}
			}
		}
	}
}
