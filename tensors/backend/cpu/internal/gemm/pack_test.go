package gemm

import (
	"testing"
	"unsafe"
)

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

// TestBF16PairPanelsEqualElementByElement packs bfloat16 A panels in (k, k+1) pairs, for both
// layouts and every count of rows over one and several panels (a ragged last one), odd and
// even k, against the definition: pair q of panel row r holds op(A)[i0+r, p0+2q] in its low
// half and op(A)[i0+r, p0+2q+1] (0 past k) in its high half, and rows past the matrix are 0.
func TestBF16PairPanelsEqualElementByElement(t *testing.T) {
	const ld, w = 181, 12
	x := make([]uint16, 200*ld)
	for i := range x {
		x[i] = uint16(i%65521 + 1)
	}
	for _, mc := range []int{1, 11, 12, 13, 16, 17, 40, 144, 150} {
		for _, kc := range []int{1, 2, 7, 8, 19, 24} {
			for _, trans := range []bool{false, true} {
				at := func(r, p int) uint32 {
					if r >= mc || p >= kc {
						return 0
					}
					if trans {
						return uint32(x[(2+p)*ld+3+r])
					}
					return uint32(x[(3+r)*ld+2+p])
				}
				ks := (kc + 1) / 2
				panels := (mc + w - 1) / w
				d := make([]float32, panels*w*ks)
				for i := range d {
					d[i] = -1 // every word must be written
				}
				packABF16(d, x, ld, trans, true, w, 3, mc, 2, kc)
				d32 := unsafe.Slice((*uint32)(unsafe.Pointer(&d[0])), len(d))
				for ip := 0; ip < panels; ip++ {
					for q := 0; q < ks; q++ {
						for r := 0; r < w; r++ {
							got := d32[ip*w*ks+q*w+r]
							want := at(ip*w+r, 2*q) | at(ip*w+r, 2*q+1)<<16
							if got != want {
								t.Fatalf("mc %d, kc %d, trans %v: panel %d pair %d row %d packs %#x, want %#x", mc, kc, trans, ip, q, r, got, want)
							}
						}
					}
				}
			}
		}
	}
}
