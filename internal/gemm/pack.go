package gemm

import "unsafe"

// Packing copies a block of op(A) or op(B) into the contiguous micro-panel
// order the kernels stream through, zero-padding partial panels so kernels
// never see a ragged edge. Transposition is absorbed here: no whole-matrix
// transposed copy is ever made.
//
// Panels are measured in k-steps: one step is one k for float32 panels and a
// pair of ks (two bfloat16s per float32 slot) for pair panels.

// packAF32 packs rows [i0, i0+mc) × ks [p0, p0+kc) of op(A) into mr-row panels.
func packAF32(dst []float32, a []float32, lda int, trans bool, mr, i0, mc, p0, kc int) {
	for ip := 0; ip < mc; ip += mr {
		rows := min(mr, mc-ip)
		d := dst[ip*kc : ip*kc+mr*kc]
		if trans {
			for p := 0; p < kc; p++ {
				src := a[(p0+p)*lda+i0+ip:]
				o := d[p*mr : p*mr+mr]
				copy(o, src[:rows])
				clear(o[rows:])
			}
			continue
		}
		interleave(d, mr, a, (i0+ip)*lda+p0, lda, rows, kc)
		for r := rows; r < mr; r++ {
			for p := 0; p < kc; p++ {
				d[p*mr+r] = 0
			}
		}
	}
}

// interleave writes rows [0, rows) of the kc-long rows of x starting at
// x[off] (row stride ld) into d so that d[p*stride+r] = row r's p-th value:
// the transposing half of packing (A not transposed, B transposed). Groups of
// eight rows are unrolled; that keeps eight read streams and one write stream.
func interleave(d []float32, stride int, x []float32, off, ld, rows, kc int) {
	r := 0
	for ; r+8 <= rows && haveTranspose8 && kc >= 8; r += 8 {
		o := off + r*ld
		_ = x[o+7*ld+kc-1]
		_ = d[r+(kc-1)*stride+7]
		transpose8x8(&d[r], stride, &x[o], ld, kc/8)
		for p := kc &^ 7; p < kc; p++ {
			for i := 0; i < 8; i++ {
				d[p*stride+r+i] = x[o+i*ld+p]
			}
		}
	}
	for ; r+8 <= rows; r += 8 {
		o := off + r*ld
		x0, x1, x2, x3 := x[o:][:kc], x[o+ld:][:kc], x[o+2*ld:][:kc], x[o+3*ld:][:kc]
		x4, x5, x6, x7 := x[o+4*ld:][:kc], x[o+5*ld:][:kc], x[o+6*ld:][:kc], x[o+7*ld:][:kc]
		dd := d[r:]
		for p := range x0 {
			q := dd[p*stride : p*stride+8 : p*stride+8]
			q[0], q[1], q[2], q[3] = x0[p], x1[p], x2[p], x3[p]
			q[4], q[5], q[6], q[7] = x4[p], x5[p], x6[p], x7[p]
		}
	}
	for ; r+4 <= rows; r += 4 {
		o := off + r*ld
		x0, x1, x2, x3 := x[o:][:kc], x[o+ld:][:kc], x[o+2*ld:][:kc], x[o+3*ld:][:kc]
		dd := d[r:]
		for p := range x0 {
			q := dd[p*stride : p*stride+4 : p*stride+4]
			q[0], q[1], q[2], q[3] = x0[p], x1[p], x2[p], x3[p]
		}
	}
	for ; r < rows; r++ {
		src := x[off+r*ld:][:kc]
		for p, v := range src {
			d[p*stride+r] = v
		}
	}
}

// packBF32 packs ks [p0, p0+kc) × columns [j0, j0+nc) of op(B) into nr-column panels.
func packBF32(dst []float32, b []float32, ldb int, trans bool, nr, p0, kc, j0, nc int) {
	for jp := 0; jp < nc; jp += nr {
		cols := min(nr, nc-jp)
		d := dst[jp*kc : jp*kc+nr*kc]
		if !trans {
			for p := 0; p < kc; p++ {
				o := d[p*nr : p*nr+nr]
				copy(o, b[(p0+p)*ldb+j0+jp:][:cols])
				clear(o[cols:])
			}
			continue
		}
		interleave(d, nr, b, (j0+jp)*ldb+p0, ldb, cols, kc)
		for c := cols; c < nr; c++ {
			for p := 0; p < kc; p++ {
				d[p*nr+c] = 0
			}
		}
	}
}

// packABF16 is packAF32 for bfloat16 input: widened to float32 panels
// (pairs false) or kept as bf16 with k interleaved in pairs (pairs true).
func packABF16(dst []float32, a []uint16, lda int, trans, pairs bool, mr, i0, mc, p0, kc int) {
	ks := steps(kc, pairs)
	for ip := 0; ip < mc; ip += mr {
		rows := min(mr, mc-ip)
		d := dst[ip*ks : ip*ks+mr*ks]
		if pairs {
			h := unsafe.Slice((*uint16)(unsafe.Pointer(&d[0])), 2*len(d))
			clear(h)
			for r := 0; r < rows; r++ {
				for p := 0; p < kc; p++ {
					idx := (i0+ip+r)*lda + p0 + p
					if trans {
						idx = (p0+p)*lda + i0 + ip + r
					}
					h[(p>>1)*2*mr+2*r+p&1] = a[idx]
				}
			}
			continue
		}
		clear(d)
		for r := 0; r < rows; r++ {
			for p := 0; p < kc; p++ {
				idx := (i0+ip+r)*lda + p0 + p
				if trans {
					idx = (p0+p)*lda + i0 + ip + r
				}
				d[p*mr+r] = BF16ToF32(a[idx])
			}
		}
	}
}

// packBBF16 is packBF32 for bfloat16 input; see packABF16 for pairs.
func packBBF16(dst []float32, b []uint16, ldb int, trans, pairs bool, nr, p0, kc, j0, nc int) {
	ks := steps(kc, pairs)
	for jp := 0; jp < nc; jp += nr {
		cols := min(nr, nc-jp)
		d := dst[jp*ks : jp*ks+nr*ks]
		if pairs {
			h := unsafe.Slice((*uint16)(unsafe.Pointer(&d[0])), 2*len(d))
			if kc&1 != 0 || cols < nr {
				clear(h)
			}
			for p := 0; p < kc; p++ {
				o := h[(p>>1)*2*nr+p&1:]
				if trans {
					for c := 0; c < cols; c++ {
						o[2*c] = b[(j0+jp+c)*ldb+p0+p]
					}
					continue
				}
				src := b[(p0+p)*ldb+j0+jp:][:cols]
				for c, v := range src {
					o[2*c] = v
				}
			}
			continue
		}
		clear(d)
		for p := 0; p < kc; p++ {
			o := d[p*nr : p*nr+nr]
			for c := 0; c < cols; c++ {
				idx := (p0+p)*ldb + j0 + jp + c
				if trans {
					idx = (j0+jp+c)*ldb + p0 + p
				}
				o[c] = BF16ToF32(b[idx])
			}
		}
	}
}

// steps is the number of packed k-steps holding kc values of k.
func steps(kc int, pairs bool) int {
	if pairs {
		return (kc + 1) / 2
	}
	return kc
}
